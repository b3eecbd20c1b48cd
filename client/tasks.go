package client

// The Tasks extension (io.modelcontextprotocol/tasks): a tools/call may be
// answered with a task handle (resultType "task"). The client polls
// tasks/get at the server's pollIntervalMs until the task is completed,
// failed or cancelled; input the task needs on the way (status
// input_required) goes through the same InputHandler as MRTR rounds and
// back with tasks/update, each key answered once. A task that stays
// input_required for more than Limits.MaxRounds polls ends the wait
// (TaskRoundsError): a server may ask again for what was declined, forever.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcpctl/mcpctl/client/ojson"
)

// TasksExtension is the extension's capability key.
const TasksExtension = "io.modelcontextprotocol/tasks"

// TaskOptions tunes waiting for tasks.
type TaskOptions struct {
	// Declared says the capabilities declare the tasks extension, so
	// tools/call may be answered with a task.
	Declared bool
	// Timeout bounds the whole wait (0: none).
	Timeout time.Duration
	// CancelOnInterrupt sends tasks/cancel when the wait is interrupted;
	// otherwise the task keeps running and can be waited for again.
	CancelOnInterrupt bool
	// EndsWithCall says the caller stops the server as soon as the call
	// returns (a stdio server's connection closed right after one call),
	// and with it the server's tasks: a wait that stops then says that its
	// task ends (TaskInterruptedError.Ends, TaskRoundsError.Ends) rather
	// than that it keeps running.
	EndsWithCall bool
	// OnCreated receives every task handle a server answers with, whether
	// the client then waits for the task or not (CallOptions.NoWait).
	OnCreated func(handle json.RawMessage)
	// OnStatus receives every task object tasks/get returns.
	OnStatus func(task json.RawMessage)
}

// Task is the part of a task object the engine acts on.
type Task struct {
	TaskID         string          `json:"taskId"`
	Status         string          `json:"status"`
	StatusMessage  string          `json:"statusMessage"`
	PollIntervalMs *int64          `json:"pollIntervalMs"`
	Result         json.RawMessage `json:"result"`
	Error          *RPCError       `json:"error"`
}

// TaskCancelledError is a task that ended with status cancelled.
type TaskCancelledError struct{ TaskID, Message string }

func (e *TaskCancelledError) Error() string {
	s := fmt.Sprintf("task %s was cancelled", e.TaskID)
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// TaskInterruptedError means the wait for a task stopped (Ctrl-C or its
// timeout) while the task may still be running.
type TaskInterruptedError struct {
	TaskID    string
	Cancelled bool // tasks/cancel was sent
	// Limit is set when the wait's own time limit (TaskOptions.Timeout)
	// ended it.
	Limit time.Duration
	// Ends: the task ends with the call, its server stopped by the caller
	// (TaskOptions.EndsWithCall), so it does not keep running.
	Ends bool
	Err  error
}

func (e *TaskInterruptedError) Error() string {
	s := "stopped waiting for task " + e.TaskID
	var te *TimeoutError
	switch {
	case e.Limit > 0:
		s += " after " + e.Limit.String()
	case errors.As(e.Err, &te):
		s += " (" + te.Error() + ")"
	}
	switch {
	case e.Cancelled:
		return s + " and asked the server to cancel it"
	case e.Ends:
		return s + ", which ends with its server"
	}
	return s + ", which keeps running"
}

// TimedOut says whether a time limit, the wait's or a request's, ended the
// wait (rather than an interrupt).
func (e *TaskInterruptedError) TimedOut() bool {
	var te *TimeoutError
	return e.Limit > 0 || errors.As(e.Err, &te)
}

func (e *TaskInterruptedError) Unwrap() error { return e.Err }

// TaskRoundsError ends the wait for a task that was still input_required
// after the round limit (Limits.MaxRounds); the task keeps running, unless
// it Ends with the call (TaskOptions.EndsWithCall).
type TaskRoundsError struct {
	TaskID string
	Rounds int
	// Refused is "decline" or "cancel" when, in the last round, the server
	// asked again for input this client had answered so.
	Refused string
	Ends    bool
}

func (e *TaskRoundsError) Error() string {
	switch e.Refused {
	case "decline", "cancel":
		done := map[string]string{"decline": "declined", "cancel": "cancelled"}[e.Refused]
		return fmt.Sprintf("the server kept asking for input to task %s that was %s, for %d rounds", e.TaskID, done, e.Rounds)
	}
	return fmt.Sprintf("task %s still waited for input after %d rounds", e.TaskID, e.Rounds)
}

const defaultPoll = time.Second

func taskParams(id string, extra ...ojson.Member) json.RawMessage {
	b, _ := json.Marshal(id)
	return append(ojson.Members{{Key: "taskId", Value: b}}, extra...).JSON()
}

// WaitTask polls the task of handle until it ends, answering its input
// requests, and returns the task's result as the original request would
// have returned it.
// A 2025-11-25 server's task is waited for its way (waitLegacyTask).
func (c *Client) WaitTask(ctx context.Context, handle json.RawMessage, co *CallOptions) (json.RawMessage, error) {
	if err := c.ensureEra(ctx); err == nil && c.Legacy() {
		if co == nil {
			co = &CallOptions{}
		}
		return c.waitLegacyTask(ctx, handle, co)
	}
	return c.waitTask(ctx, handle, co, answeredKeys{})
}

// answeredKeys holds the keys of a task's input requests answered so far,
// each with the answer's action ("accept", "decline", "cancel"; "" for
// answers that have none), so that none is answered twice.
type answeredKeys map[string]string

// waitTask is WaitTask, knowing the keys answered already.
func (c *Client) waitTask(ctx context.Context, handle json.RawMessage, co *CallOptions, answered answeredKeys) (json.RawMessage, error) {
	if co == nil {
		co = &CallOptions{}
	}
	var t Task
	if err := json.Unmarshal(handle, &t); err != nil || t.TaskID == "" {
		return nil, &ProtocolError{Msg: "a task answer without a taskId: " + snippet(handle)}
	}
	id := t.TaskID
	waitCtx, cancel := c.waitContext(ctx)
	defer cancel()
	stop := func(err error) error { return c.interrupted(ctx, waitCtx, id, err) }
	maxRounds := c.maxRounds()
	raw := handle
	round := 0
	// A bare {"taskId"} (tasks wait ID) is polled at once.
	fresh := t.Status == ""
	if fresh {
		t.Status = "working"
	}
	for {
		if ended, res, err := taskOutcome(t); ended {
			return res, err
		}
		pause := pollInterval(t)
		switch {
		case fresh:
			fresh, pause = false, 0
		case t.Status == "input_required":
			// Every poll that finds the task waiting for input is a round,
			// whether it asks anything new or not.
			round++
			if round > maxRounds {
				return nil, &TaskRoundsError{TaskID: id, Rounds: maxRounds, Refused: refusedAgain(raw, answered), Ends: c.opts.Tasks.EndsWithCall}
			}
			asked, err := c.answerTask(waitCtx, id, raw, round, answered)
			if err != nil {
				return nil, stop(err)
			}
			if asked {
				pause = 0 // see at once what the answers changed
			}
		}
		if pause > 0 {
			if err := sleepCtx(waitCtx, pause); err != nil {
				return nil, stop(err)
			}
		}
		var err error
		raw, err = c.Call(waitCtx, "tasks/get", taskParams(id), &CallOptions{OnNotify: co.OnNotify})
		if err != nil {
			return nil, stop(err)
		}
		if c.opts.Tasks.OnStatus != nil {
			c.opts.Tasks.OnStatus(raw)
		}
		t = Task{}
		if err := json.Unmarshal(raw, &t); err != nil {
			return nil, &ProtocolError{Msg: "tasks/get answered something that is not a task: " + snippet(raw)}
		}
		if t.TaskID == "" {
			t.TaskID = id
		}
	}
}

// waitContext is ctx bounded by the wait's own time limit
// (TaskOptions.Timeout), if any.
func (c *Client) waitContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if c.opts.Tasks.Timeout > 0 {
		return context.WithTimeout(ctx, c.opts.Tasks.Timeout)
	}
	return ctx, func() {}
}

func (c *Client) maxRounds() int {
	if c.opts.Limits.MaxRounds <= 0 {
		return DefaultMaxRounds
	}
	return c.opts.Limits.MaxRounds
}

// taskOutcome says whether t has ended, and how.
func taskOutcome(t Task) (bool, json.RawMessage, error) {
	switch t.Status {
	case "completed":
		if len(t.Result) == 0 {
			return true, nil, &ProtocolError{Msg: "task " + t.TaskID + " completed without a result"}
		}
		return true, t.Result, nil
	case "failed":
		if t.Error == nil {
			return true, nil, &RPCError{Code: CodeInternalError, Message: "task " + t.TaskID + " failed: " + t.StatusMessage}
		}
		return true, nil, t.Error
	case "cancelled":
		return true, nil, &TaskCancelledError{TaskID: t.TaskID, Message: t.StatusMessage}
	case "working", "input_required":
		return false, nil, nil
	}
	return true, nil, &ProtocolError{Msg: fmt.Sprintf("task %s has unknown status %q", t.TaskID, t.Status)}
}

func pollInterval(t Task) time.Duration {
	if t.PollIntervalMs == nil || *t.PollIntervalMs <= 0 {
		return defaultPoll
	}
	return time.Duration(*t.PollIntervalMs) * time.Millisecond
}

// taskRequests reads the input requests of a task object; none when it
// carries none this client can read.
func taskRequests(task json.RawMessage) []InputRequest {
	fields, err := ojson.SplitObject(task)
	if err != nil {
		return nil
	}
	reqs, _, err := parseInputRequired(ojson.Members{{Key: "inputRequests", Value: orEmptyObject(fields.Get("inputRequests"))}}.JSON())
	if err != nil {
		return nil
	}
	return reqs
}

// answerTask answers the requests of the task object raw not answered yet;
// asked says whether there were any.
func (c *Client) answerTask(ctx context.Context, id string, raw json.RawMessage, round int, answered answeredKeys) (asked bool, err error) {
	var pending []InputRequest
	for _, r := range taskRequests(raw) {
		if _, done := answered[r.Key]; !done {
			pending = append(pending, r)
		}
	}
	if len(pending) == 0 {
		return false, nil
	}
	return true, c.answerTaskRequests(ctx, id, round, pending, answered)
}

// refusedAgain is the action ("decline" or "cancel") of an earlier answer
// whose request the task object raw asks again, if any.
func refusedAgain(raw json.RawMessage, answered answeredKeys) string {
	for _, r := range taskRequests(raw) {
		if a := answered[r.Key]; a == "decline" || a == "cancel" {
			return a
		}
	}
	return ""
}

// AnswerTask answers a task's input requests (a continuation with a
// TaskID) with tasks/update, without waiting for the task.
func (c *Client) AnswerTask(ctx context.Context, k Continuation) error {
	if len(k.Requests) == 0 {
		return nil
	}
	return c.answerTaskRequests(ctx, k.TaskID, max(k.Round, 1), k.Requests, answeredKeys{})
}

// answerTaskRequests gets answers to reqs and sends them with
// tasks/update, noting each key answered.
func (c *Client) answerTaskRequests(ctx context.Context, id string, round int, reqs []InputRequest, answered answeredKeys) error {
	answers, err := c.answerRound(ctx, InputRound{Method: "tasks/update", Round: round, Requests: reqs, TaskID: id})
	if err != nil {
		var ire *InputRequiredError
		if errors.As(err, &ire) {
			ire.Method, ire.TaskID, ire.Requests, ire.Round = "tasks/update", id, reqs, round
		}
		return err
	}
	var resp ojson.Members
	for _, r := range reqs {
		if a, ok := answers[r.Key]; ok {
			resp = append(resp, ojson.Member{Key: r.Key, Value: a})
			answered[r.Key] = answerAction(a)
		}
	}
	_, err = c.Call(ctx, "tasks/update", taskParams(id, ojson.Member{Key: "inputResponses", Value: resp.JSON()}), nil)
	return err
}

// answerAction is an answer's action: accept, decline or cancel for an
// elicitation, "" for answers that carry none.
func answerAction(answer json.RawMessage) string {
	var a struct {
		Action string `json:"action"`
	}
	_ = json.Unmarshal(answer, &a)
	return a.Action
}

func orEmptyObject(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage(`{}`)
	}
	return raw
}

// interrupted turns an ended wait into the right error: the task keeps
// running unless the caller asked for tasks/cancel. waitCtx is ctx bounded
// by the wait's time limit, if any.
func (c *Client) interrupted(ctx, waitCtx context.Context, id string, err error) error {
	if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		var te *TimeoutError
		if !errors.As(err, &te) {
			return err
		}
	}
	ie := &TaskInterruptedError{TaskID: id, Ends: c.opts.Tasks.EndsWithCall, Err: err}
	if ctx.Err() == nil && errors.Is(waitCtx.Err(), context.DeadlineExceeded) {
		ie.Limit = c.opts.Tasks.Timeout
	}
	if c.opts.Tasks.CancelOnInterrupt {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if _, cerr := c.Call(cctx, "tasks/cancel", taskParams(id), nil); cerr == nil {
			ie.Cancelled = true
		}
	}
	return ie
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// TaskIDOf is the taskId of a task object or handle, "" when it has none.
func TaskIDOf(raw json.RawMessage) string {
	var t Task
	_ = json.Unmarshal(raw, &t)
	return t.TaskID
}
