package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"
)

// askingTransport plays a legacy server whose tools/call asks the client
// an elicitation/create before it answers, as servers of 2025-11-25 do.
type askingTransport struct {
	fakeTransport
	mu    sync.Mutex
	serve ServerRequestHandler
}

func (a *askingTransport) SetServerRequestHandler(h ServerRequestHandler) {
	a.mu.Lock()
	a.serve = h
	a.mu.Unlock()
}

// Capabilities implements Transport: it carries server requests.
func (a *askingTransport) Capabilities() Capabilities {
	caps := a.fakeTransport.Capabilities()
	caps.ServerRequests = a.SetServerRequestHandler
	return caps
}

func newAskingTransport() *askingTransport {
	a := &askingTransport{}
	inner := byMethod(map[string][]any{"initialize": {initResult}})
	a.handle = func(ctx context.Context, req *Request, h http.Header, n func(Notification)) (*Message, error) {
		if req.Method != "tools/call" {
			return inner(ctx, req, h, n)
		}
		a.mu.Lock()
		serve := a.serve
		a.mu.Unlock()
		answered := make(chan json.RawMessage, 1)
		go func() {
			res, rpcErr := serve(context.Background(), "elicitation/create", json.RawMessage(`{"message":"Name?","requestedSchema":{"type":"object"}}`))
			if rpcErr != nil {
				res = json.RawMessage(strconv.Quote(rpcErr.Message))
			}
			answered <- res
		}()
		select {
		case res := <-answered:
			return reply(req.ID, `{"content":[{"type":"text","text":`+strconv.Quote(string(res))+`}]}`)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return a
}

type answerFunc func(ctx context.Context, round InputRound) (map[string]json.RawMessage, error)

func (f answerFunc) Answer(ctx context.Context, round InputRound) (map[string]json.RawMessage, error) {
	return f(ctx, round)
}

func legacyOptions(timeout time.Duration, in InputHandler) Options {
	return Options{ProtocolVersion: "2025-11-25", PinVersion: true, Era: EraLegacy, Timeout: timeout, Input: in,
		ClientInfo: Implementation{Name: "mcpctl", Version: "1"}}
}

// While a person answers a legacy server's question, the call that asked
// does not time out: it waits on them, not on the server. Without the
// hold, the same slow answer times the call out, so the test can fail.
func TestHoldTimeoutsWhileAPersonAnswers(t *testing.T) {
	const timeout = 250 * time.Millisecond
	slowPerson := func(hold bool) InputHandler {
		return answerFunc(func(ctx context.Context, round InputRound) (map[string]json.RawMessage, error) {
			if hold {
				defer HoldTimeouts(ctx)()
			}
			time.Sleep(4 * timeout)
			return map[string]json.RawMessage{round.Requests[0].Key: json.RawMessage(`{"action":"accept","content":{}}`)}, nil
		})
	}
	c := New(newAskingTransport(), legacyOptions(timeout, slowPerson(true)))
	if _, err := c.Call(context.Background(), "tools/call", json.RawMessage(`{"name":"ask"}`), nil); err != nil {
		t.Fatalf("held: %v", err)
	}
	c = New(newAskingTransport(), legacyOptions(timeout, slowPerson(false)))
	var te *TimeoutError
	if _, err := c.Call(context.Background(), "tools/call", json.RawMessage(`{"name":"ask"}`), nil); !errors.As(err, &te) {
		t.Fatalf("not held: err = %v, want a timeout", err)
	}
}

// An answer given up on (the person interrupted, or out of the caller's
// time) ends the call with that reason; other failures to answer are the
// server's to hear about, and the call goes on.
func TestGivenUpAnswerEndsTheCall(t *testing.T) {
	stop := &TimeoutError{Method: "the prompt", After: "2s"}
	for _, c := range []struct {
		name   string
		answer error
		want   func(error) bool
	}{
		{"timeout", stop, func(err error) bool { return errors.Is(err, stop) }},
		{"interrupted", context.Canceled, func(err error) bool { return errors.Is(err, context.Canceled) }},
		{"other", errors.New("bad --answer"), func(err error) bool { return err == nil }},
	} {
		t.Run(c.name, func(t *testing.T) {
			var warned []string
			opts := legacyOptions(0, answerFunc(func(context.Context, InputRound) (map[string]json.RawMessage, error) { return nil, c.answer }))
			opts.Hooks.Warn = func(m string) { warned = append(warned, m) }
			cl := New(newAskingTransport(), opts)
			_, err := cl.Call(context.Background(), "tools/call", json.RawMessage(`{"name":"ask"}`), nil)
			if !c.want(err) {
				t.Errorf("err = %v", err)
			}
			if (c.name == "other") != (len(warned) == 1) {
				t.Errorf("warnings %q", warned)
			}
		})
	}
}
