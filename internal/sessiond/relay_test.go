//go:build linux || darwin

package sessiond

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/mcptest"
)

// echo answers tools/call with its arguments, after a short random wait,
// so that answers come back out of order.
func echo(ctx context.Context, r *mcptest.Request) (any, error) {
	if r.Method != "tools/call" {
		return nil, &mcptest.Error{Code: client.CodeMethodNotFound, Message: "no " + r.Method}
	}
	time.Sleep(time.Duration(rand.IntN(3000)) * time.Microsecond)
	var p struct {
		Arguments json.RawMessage `json:"arguments"`
	}
	_ = json.Unmarshal(r.Params, &p)
	return map[string]any{"content": []any{}, "structuredContent": p.Arguments}, nil
}

// Many invocations send many requests at once under the same ids: each
// gets its own answers, and the server sees every request once, under an
// id of the daemon's that no other request has.
func TestIDsRewrittenUnderConcurrency(t *testing.T) {
	t.Parallel()
	b := newBench(t, byMethod(false, echo)).start()
	const invocations, requests = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, invocations*requests)
	for inv := range invocations {
		tr := b.transport()
		for id := int64(1); id <= requests; id++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				msg, err := toolCall(context.Background(), tr, id, "echo", map[string]any{"inv": inv, "id": id}, nil)
				if err != nil {
					errs <- err
					return
				}
				want := fmt.Sprintf(`"structuredContent":{"id":%d,"inv":%d}`, id, inv)
				if !strings.Contains(string(msg.Result), want) || string(msg.ID) != strconv.FormatInt(id, 10) {
					errs <- fmt.Errorf("invocation %d, id %d got id %s: %s", inv, id, msg.ID, msg.Result)
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	seen := map[string]bool{}
	calls := 0
	for _, r := range b.srv.Received() {
		if r.Method != "tools/call" {
			continue
		}
		calls++
		id, err := strconv.ParseInt(string(r.ID), 10, 64)
		if err != nil || id <= 1<<32 || seen[string(r.ID)] {
			t.Errorf("the server got id %s (twice: %v)", r.ID, seen[string(r.ID)])
		}
		seen[string(r.ID)] = true
	}
	if calls != invocations*requests {
		t.Errorf("the server got %d calls, want %d", calls, invocations*requests)
	}
}

// An invocation that hangs up mid-request has that request cancelled
// (under the daemon's id); another invocation's request at the same time
// is answered, and the session goes on serving.
func TestCallerGoneMidRequest(t *testing.T) {
	t.Parallel()
	started := make(chan string, 1)
	cancelled := make(chan string, 4)
	b := newBench(t, byMethod(false, func(ctx context.Context, r *mcptest.Request) (any, error) {
		switch {
		case r.Method == "notifications/cancelled":
			var c struct {
				RequestID json.RawMessage `json:"requestId"`
			}
			_ = json.Unmarshal(r.Params, &c)
			cancelled <- string(c.RequestID)
			return nil, nil
		case r.Method == "tools/call" && argOf(r.Params, "slow") == "true":
			started <- string(r.ID)
			<-ctx.Done() // answered never: the connection ends with the test
			return nil, ctx.Err()
		}
		return echo(ctx, r)
	})).start()
	gone := b.raw()
	gone.request(1, "tools/call", map[string]any{"name": "wait", "arguments": map[string]any{"slow": true}})
	var slowID string
	select {
	case slowID = <-started:
	case <-time.After(20 * time.Second):
		t.Fatal("the slow request never reached the server")
	}
	other := b.transport()
	done := make(chan error, 1)
	go func() {
		msg, err := toolCall(context.Background(), other, 1, "echo", map[string]any{"who": "other"}, nil)
		if err == nil && !strings.Contains(string(msg.Result), `"who":"other"`) {
			err = fmt.Errorf("result %s", msg.Result)
		}
		done <- err
	}()
	gone.conn.Close()
	select {
	case id := <-cancelled:
		if id != slowID {
			t.Errorf("the server was told to cancel %s, want %s (the slow request's id)", id, slowID)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the server was not told to cancel the request of the invocation that went")
	}
	if err := <-done; err != nil {
		t.Errorf("the other invocation: %v", err)
	}
	if msg, err := toolCall(context.Background(), other, 2, "echo", map[string]any{"who": "after"}, nil); err != nil || !strings.Contains(string(msg.Result), "after") {
		t.Errorf("after the hang-up: %v %v", msg, err)
	}
	select {
	case id := <-cancelled:
		t.Errorf("another request was cancelled too: %s", id)
	default:
	}
}

// A server that dies: the requests in flight end with the error that
// says its state is gone (a *client.ConnError); the next request connects
// again, as does one after a death between requests; a Connect that fails
// then is answered in the command line's words, with its exit code.
func TestServerDies(t *testing.T) {
	t.Parallel()
	started := make(chan struct{}, 1)
	b := newBench(t, byMethod(false, func(ctx context.Context, r *mcptest.Request) (any, error) {
		if r.Method == "tools/call" && argOf(r.Params, "slow") == "true" {
			started <- struct{}{}
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return echo(ctx, r)
	})).start()
	tr := b.transport()
	res := make(chan error, 2)
	for id := range int64(2) {
		go func() {
			_, err := toolCall(context.Background(), tr, id+1, "wait", map[string]any{"slow": true}, nil)
			res <- err
		}()
	}
	<-started
	<-started
	b.kill()
	for range 2 {
		err := <-res
		var ce *client.ConnError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), "the server is gone, and its state with it") {
			t.Errorf("in flight when the server died: %v, want a ConnError saying the state is gone", err)
		}
	}
	if msg, err := toolCall(context.Background(), tr, 3, "echo", map[string]any{"n": 3}, nil); err != nil || !strings.Contains(string(msg.Result), `"n":3`) {
		t.Fatalf("the next request: %v %v", msg, err)
	}
	if n := b.connects.Load(); n != 2 {
		t.Errorf("Connect was called %d times, want 2", n)
	}
	// Between requests: the daemon notices (its watch ends) and shuts
	// the dead connection down; the next request connects again, and
	// when that fails, says so in the command line's words.
	b.refuseConnect(errRefused)
	b.kill()
	waitUntil(t, "the dead connection closed", func() bool { return b.closes.Load() == 2 })
	_, err := toolCall(context.Background(), tr, 4, "echo", nil, nil)
	var se *Error
	if !errors.As(err, &se) || se.Msg != "explained: "+errRefused.Error() || se.ExitCode() != 5 {
		t.Errorf("a Connect that fails: %#v, want an *Error with Explain's words and code", err)
	}
	b.refuseConnect(nil)
	if _, err := toolCall(context.Background(), tr, 5, "echo", nil, nil); err != nil {
		t.Errorf("once the server can start again: %v", err)
	}
	if n := b.connects.Load(); n != 4 {
		t.Errorf("Connect was called %d times, want 4", n)
	}
	if log := b.log.String(); strings.Count(log, "starting the server again") != 3 || !strings.Contains(log, "the server is gone: explained: ") {
		t.Errorf("the session's log:\n%s", log)
	}
}

func waitUntil(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
