package client

// Multi round-trip requests (basic/patterns/mrtr): tools/call, prompts/get
// and resources/read may be answered with resultType "input_required",
// carrying inputRequests (elicitation/create, sampling/createMessage,
// roots/list) and an opaque requestState. The client gathers answers and
// retries the same request, with a new id, plus inputResponses and the
// requestState echoed byte for byte (none when none was given). Neither
// field ever reaches another request. The engine loops; the answers come
// from an InputHandler that the caller provides.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpctl/mcpctl/client/ojson"
)

// InputRequest is one entry of an inputRequests map, in the server's order.
type InputRequest struct {
	Key    string
	Method string
	Params json.RawMessage
}

// InputRound is what a handler is asked to answer.
type InputRound struct {
	// Method is the request being retried (tools/call, …) or tasks/update
	// for a task's input phase.
	Method   string
	Round    int
	Requests []InputRequest
	// TaskID is set when the input is for a task.
	TaskID string
	// Legacy marks a request a legacy server sent on its own: it has no
	// key of the server's (Key is its Method).
	Legacy bool
}

// InputHandler answers input requests. Answer returns one result per key
// (an ElicitResult, CreateMessageResult or ListRootsResult, raw); an error
// stops the call. Returning ErrNoAnswer means "not here, not now": the call
// ends with an *InputRequiredError that holds everything needed to finish
// it later.
type InputHandler interface {
	Answer(ctx context.Context, round InputRound) (map[string]json.RawMessage, error)
}

// ErrNoAnswer is returned by an InputHandler that cannot answer.
var ErrNoAnswer = errors.New("no answer available")

// DefaultMaxRounds bounds a server that keeps asking.
const DefaultMaxRounds = 10

// mrtrMethods may be answered with input_required.
var mrtrMethods = map[string]bool{"tools/call": true, "prompts/get": true, "resources/read": true}

// parseInputRequired splits an input_required result into its requests, in
// wire order, and its raw requestState (nil when absent).
func parseInputRequired(result json.RawMessage) ([]InputRequest, json.RawMessage, error) {
	fields, err := ojson.SplitObject(result)
	if err != nil {
		return nil, nil, &ProtocolError{Msg: "input_required result is not a JSON object"}
	}
	var reqs []InputRequest
	if raw := fields.Get("inputRequests"); raw != nil && string(raw) != "null" {
		entries, err := ojson.SplitObject(raw)
		if err != nil {
			return nil, nil, &ProtocolError{Msg: "inputRequests is not a JSON object"}
		}
		for _, e := range entries {
			var r struct {
				Method string          `json:"method"`
				Params json.RawMessage `json:"params"`
			}
			if err := json.Unmarshal(e.Value, &r); err != nil || r.Method == "" {
				return nil, nil, &ProtocolError{Msg: fmt.Sprintf("inputRequests[%q] is not a request object", e.Key)}
			}
			reqs = append(reqs, InputRequest{Key: e.Key, Method: r.Method, Params: r.Params})
		}
	}
	state := fields.Get("requestState")
	if state != nil {
		var s string
		if json.Unmarshal(state, &s) != nil {
			return nil, nil, &ProtocolError{Msg: "requestState is not a string"}
		}
	}
	if len(reqs) == 0 && state == nil {
		return nil, nil, &ProtocolError{Msg: "an input_required result must carry inputRequests or requestState"}
	}
	return reqs, state, nil
}

// retryParams is the original params plus the answers and the server's
// requestState, exactly as received.
func retryParams(params json.RawMessage, reqs []InputRequest, answers map[string]json.RawMessage, state json.RawMessage) (json.RawMessage, error) {
	var fields ojson.Members
	if len(params) > 0 && string(params) != "null" {
		var err error
		if fields, err = ojson.SplitObject(params); err != nil {
			return nil, &ParamsError{Msg: "params must be a JSON object"}
		}
	}
	fields.Delete("inputResponses")
	fields.Delete("requestState")
	if len(reqs) > 0 {
		var resp ojson.Members
		for _, r := range reqs {
			if a, ok := answers[r.Key]; ok {
				resp = append(resp, ojson.Member{Key: r.Key, Value: a})
			}
		}
		fields = append(fields, ojson.Member{Key: "inputResponses", Value: resp.JSON()})
	}
	if state != nil {
		fields = append(fields, ojson.Member{Key: "requestState", Value: state})
	}
	return fields.JSON(), nil
}

// InputRequiredError ends a call whose input could not be given. It holds
// what a continuation needs: the request, the server's questions and its
// requestState.
type InputRequiredError struct {
	Method       string
	Params       json.RawMessage // the original params, without _meta
	Requests     []InputRequest
	RequestState json.RawMessage
	TaskID       string
	Round        int
	Reason       string
	// RoundLimit is set when the call ended because the server was still
	// asking after Limits.MaxRounds rounds: the limit that was hit.
	RoundLimit int
	Err        error
}

func (e *InputRequiredError) Error() string {
	var methods []string
	for _, r := range e.Requests {
		methods = append(methods, r.Method)
	}
	s := "the server needs input"
	if len(methods) > 0 {
		s += " (" + strings.Join(methods, ", ") + ")"
	}
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	return s
}

func (e *InputRequiredError) Unwrap() error { return e.Err }

// answerRound asks the handler, turning "cannot answer" into an
// InputRequiredError that describes the round.
func (c *Client) answerRound(ctx context.Context, round InputRound) (map[string]json.RawMessage, error) {
	if c.opts.Input == nil {
		return nil, &InputRequiredError{Reason: "nothing is set up to answer it", Err: ErrNoAnswer}
	}
	answers, err := c.opts.Input.Answer(ctx, round)
	if err != nil {
		var ire *InputRequiredError
		if errors.As(err, &ire) {
			return nil, err
		}
		if errors.Is(err, ErrNoAnswer) {
			return nil, &InputRequiredError{Reason: "it cannot be answered here", Err: err}
		}
		return nil, err
	}
	return answers, nil
}

// exchange sends a request and follows input_required rounds (and tasks)
// until the answer is complete. plain reports a one-round answer, the only
// kind that may be cached.
func (c *Client) exchange(ctx context.Context, method string, params json.RawMessage, co *CallOptions) (res json.RawMessage, plain bool, err error) {
	return c.exchangeFrom(ctx, method, params, params, 1, co)
}

// exchangeFrom runs the rounds from round on, sending cur (the original
// params plus any answers) first.
func (c *Client) exchangeFrom(ctx context.Context, method string, params, cur json.RawMessage, first int, co *CallOptions) (res json.RawMessage, plain bool, err error) {
	maxRounds := c.maxRounds()
	for round := first; ; round++ {
		res, err := c.call(ctx, method, cur, co)
		if err != nil {
			return nil, false, err
		}
		rt, err := resultTypeOf(res)
		if err != nil {
			return nil, false, err
		}
		switch rt {
		case "", "complete":
			return res, round == 1, nil
		case "task":
			if method != "tools/call" || !c.opts.Tasks.Declared {
				return nil, false, &ProtocolError{Msg: "the server answered " + method + " with a task, which this request did not allow"}
			}
			if TaskIDOf(res) == "" {
				return nil, false, &ProtocolError{Msg: "a task answer without a taskId: " + snippet(res)}
			}
			// Every handle is reported, waited for or not, so that the
			// caller can keep track of the task.
			if c.opts.Tasks.OnCreated != nil {
				c.opts.Tasks.OnCreated(res)
			}
			if co.NoWait {
				return res, false, nil
			}
			res, err := c.WaitTask(ctx, res, co)
			return res, false, err
		case "input_required":
			if !mrtrMethods[method] {
				return nil, false, &ProtocolError{Msg: "the server answered " + method + " with input_required, which only tools/call, prompts/get and resources/read may get"}
			}
			reqs, state, err := parseInputRequired(res)
			if err != nil {
				return nil, false, err
			}
			fail := func(e error, reason string) error {
				ire := &InputRequiredError{Reason: reason, Err: e}
				errors.As(e, &ire)
				ire.Method, ire.Params, ire.Requests, ire.RequestState, ire.Round = method, params, reqs, state, round
				if ire.Reason == "" {
					ire.Reason = reason
				}
				return ire
			}
			if round > maxRounds {
				ire := fail(nil, fmt.Sprintf("the server kept asking after %d rounds", maxRounds)).(*InputRequiredError)
				ire.RoundLimit = maxRounds
				return nil, false, ire
			}
			var answers map[string]json.RawMessage
			if len(reqs) > 0 {
				answers, err = c.answerRound(ctx, InputRound{Method: method, Round: round, Requests: reqs})
				if err != nil {
					var ire *InputRequiredError
					if errors.As(err, &ire) {
						return nil, false, fail(err, "")
					}
					return nil, false, err
				}
			}
			if cur, err = retryParams(params, reqs, answers, state); err != nil {
				return nil, false, err
			}
		default:
			return nil, false, &ProtocolError{Msg: "unknown resultType " + snippet([]byte(rt))}
		}
	}
}

// resultTypeOf returns the result's resultType ("" when absent, which
// means complete).
func resultTypeOf(res json.RawMessage) (string, error) {
	var peek struct {
		ResultType json.RawMessage `json:"resultType"`
	}
	if err := json.Unmarshal(res, &peek); err != nil {
		return "", &ProtocolError{Msg: "the result is not a JSON object: " + snippet(res)}
	}
	if len(peek.ResultType) == 0 || string(peek.ResultType) == "null" {
		return "", nil
	}
	var rt string
	if json.Unmarshal(peek.ResultType, &rt) != nil {
		return "", &ProtocolError{Msg: "resultType is not a string: " + snippet(peek.ResultType)}
	}
	return rt, nil
}

// Continuation is a call stopped for want of input: what Resume needs to
// finish it.
type Continuation struct {
	Method       string
	Params       json.RawMessage
	Requests     []InputRequest
	RequestState json.RawMessage
	TaskID       string
	// Round is the number of the round that asked.
	Round int
}

// Resume finishes a stopped call: it answers the continuation's requests
// through the InputHandler and carries on as Call would (more rounds, a
// task to wait for). For a task's input phase the answers go back with
// tasks/update and the task is then waited for.
func (c *Client) Resume(ctx context.Context, k Continuation, co *CallOptions) (json.RawMessage, error) {
	if co == nil {
		co = &CallOptions{}
	}
	round := k.Round
	if round < 1 {
		round = 1
	}
	if k.TaskID != "" {
		answered := answeredKeys{}
		if len(k.Requests) > 0 {
			if err := c.answerTaskRequests(ctx, k.TaskID, round, k.Requests, answered); err != nil {
				return nil, err
			}
		}
		b, _ := json.Marshal(map[string]string{"taskId": k.TaskID, "status": "working"})
		// The keys just answered are not answered again.
		return c.waitTask(ctx, b, co, answered)
	}
	var answers map[string]json.RawMessage
	if len(k.Requests) > 0 {
		var err error
		answers, err = c.answerRound(ctx, InputRound{Method: k.Method, Round: round, Requests: k.Requests})
		if err != nil {
			var ire *InputRequiredError
			if errors.As(err, &ire) {
				ire.Method, ire.Params, ire.Requests, ire.RequestState = k.Method, k.Params, k.Requests, k.RequestState
			}
			return nil, err
		}
	}
	cur, err := retryParams(k.Params, k.Requests, answers, k.RequestState)
	if err != nil {
		return nil, err
	}
	res, _, err := c.exchangeFrom(ctx, k.Method, k.Params, cur, round+1, co)
	return res, err
}
