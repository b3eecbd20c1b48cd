//go:build linux || darwin

package sessiond

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/mcptest"
)

// count is how many requests of method the server got.
func count(srv *mcptest.Server, method string) int {
	n := 0
	for _, m := range srv.Methods() {
		if m == method {
			n++
		}
	}
	return n
}

// A legacy server's question (elicitation) goes to the invocation whose
// request is in flight, and its answer back: two invocations at once each
// answer their own call's question. The server's ping is answered by the
// daemon.
func TestLegacyServerRequestRouted(t *testing.T) {
	t.Parallel()
	b := newBench(t, byMethod(true, func(ctx context.Context, r *mcptest.Request) (any, error) {
		if r.Method != "tools/call" {
			return nil, &mcptest.Error{Code: client.CodeMethodNotFound, Message: "no " + r.Method}
		}
		if _, err := r.Ask(ctx, "ping", nil); err != nil {
			return nil, err
		}
		answer, err := r.Ask(ctx, "elicitation/create", map[string]any{"message": "Name?", "requestedSchema": map[string]any{"type": "object"}})
		if err != nil {
			return nil, err
		}
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": string(answer)}}}, nil
	})).start()
	if b.hello.Era != client.EraLegacy || b.hello.Version != "2025-11-25" {
		t.Fatalf("hello %+v, want legacy 2025-11-25", b.hello)
	}
	var wg sync.WaitGroup
	for _, name := range []string{"ann", "bob", "cat"} {
		tr := b.transport()
		var asked atomic.Int32
		tr.Capabilities().ServerRequests(func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *client.RPCError) {
			asked.Add(1)
			if method != "elicitation/create" {
				return nil, &client.RPCError{Code: client.CodeMethodNotFound, Message: "asked " + method}
			}
			return json.RawMessage(`{"action":"accept","content":{"name":"` + name + `"}}`), nil
		})
		wg.Add(1)
		go func() {
			defer wg.Done()
			msg, err := tr.RoundTrip(context.Background(), &client.Request{ID: 1, Method: "tools/call", Params: json.RawMessage(`{"name":"greet"}`), Legacy: true}, nil)
			if err != nil || msg.Error != nil || !strings.Contains(string(msg.Result), `\"name\":\"`+name+`\"`) {
				t.Errorf("%s's call: %v %+v", name, err, msg)
			}
			if n := asked.Load(); n != 1 {
				t.Errorf("%s was asked %d times, want once (its own call's question)", name, n)
			}
		}()
	}
	wg.Wait()
}

// A legacy server is sent one request at a time: the second waits until
// the first is answered (so that the server's questions have exactly one
// invocation to go to).
func TestLegacyOneAtATime(t *testing.T) {
	t.Parallel()
	arrived := make(chan string, 2)
	release := make(chan struct{})
	b := newBench(t, byMethod(true, func(ctx context.Context, r *mcptest.Request) (any, error) {
		arrived <- argOf(r.Params, "who")
		<-release
		return map[string]any{"content": []any{}}, nil
	})).start()
	x, y := b.raw(), b.raw()
	x.request(1, "tools/call", map[string]any{"name": "hold", "arguments": map[string]any{"who": "x"}})
	if who := <-arrived; who != "x" {
		t.Fatalf("first to arrive: %s", who)
	}
	y.request(1, "tools/call", map[string]any{"name": "hold", "arguments": map[string]any{"who": "y"}})
	select {
	case who := <-arrived:
		t.Fatalf("%s reached the legacy server while x's request was in flight", who)
	case <-time.After(200 * time.Millisecond):
	}
	close(release)
	if who := <-arrived; who != "y" {
		t.Errorf("second to arrive: %s", who)
	}
	x.waitFor("x's answer", func(m []*client.Message) bool { return len(responses(m)) == 1 })
	y.waitFor("y's answer", func(m []*client.Message) bool { return len(responses(m)) == 1 })
}

// An invocation's own initialize is answered from the daemon's handshake,
// its notifications/initialized dropped: the server is initialized once.
func TestLegacyInitializeFromHandshake(t *testing.T) {
	t.Parallel()
	b := newBench(t, byMethod(true, func(ctx context.Context, r *mcptest.Request) (any, error) {
		if r.Method == "ping" {
			return map[string]any{}, nil
		}
		return nil, &mcptest.Error{Code: client.CodeMethodNotFound, Message: "no " + r.Method}
	})).start()
	for range 2 {
		c := client.New(b.transport(), client.Options{Era: b.hello.Era, ProtocolVersion: b.hello.Version})
		if _, err := c.Ping(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got := string(c.InitializeResult()); got != legacyInit {
			t.Errorf("the invocation's InitializeResult %s, want the server's %s", got, legacyInit)
		}
	}
	if got := strings.Join(b.srv.Methods(), " "); got != "server/discover initialize notifications/initialized ping ping" {
		t.Errorf("the server got %s", got)
	}
}

// A legacy server's lists that it announces changes of are answered from
// the last it gave, to any invocation, until it announces a change; a
// list it announces no changes of is always asked for. Its log messages
// go to the invocation whose request is in flight (a legacy level is the
// connection's).
func TestLegacyListsRemembered(t *testing.T) {
	t.Parallel()
	version := 1
	var mu sync.Mutex
	b := newBench(t, byMethod(true, func(ctx context.Context, r *mcptest.Request) (any, error) {
		mu.Lock()
		defer mu.Unlock()
		switch r.Method {
		case "tools/list":
			return json.RawMessage(`{"tools":[{"name":"v` + string(rune('0'+version)) + `","inputSchema":{"type":"object"}}]}`), nil
		case "prompts/list":
			return json.RawMessage(`{"prompts":[]}`), nil
		case "tools/call":
			version++
			_ = r.Notify("notifications/message", map[string]any{"level": "info", "data": "changing"})
			_ = r.Notify("notifications/tools/list_changed", nil)
			return map[string]any{"content": []any{}}, nil
		}
		return nil, &mcptest.Error{Code: client.CodeMethodNotFound, Message: "no " + r.Method}
	})).start()
	x, y := b.raw(), b.raw()
	list := func(pr *rawPeer, id int, method string) string {
		pr.request(id, method, map[string]any{"_meta": map[string]any{"progressToken": id}})
		got := pr.waitFor(method, func(m []*client.Message) bool { return responses(m)[jsonInt(id)] != nil })
		return string(responses(got)[jsonInt(id)].Result)
	}
	for i, pr := range []*rawPeer{x, y, x} {
		if got := list(pr, 10+i, "tools/list"); !strings.Contains(got, `"v1"`) {
			t.Errorf("tools/list %d: %s", i, got)
		}
		list(pr, 20+i, "prompts/list")
	}
	if n, p := count(b.srv, "tools/list"), count(b.srv, "prompts/list"); n != 1 || p != 3 {
		t.Errorf("the server was asked tools/list %d times (want 1: remembered) and prompts/list %d (want 3: not announced)", n, p)
	}
	y.request(30, "tools/call", map[string]any{"name": "change"})
	gotY := y.waitFor("the call's answer", func(m []*client.Message) bool { return responses(m)["30"] != nil })
	if got := list(x, 31, "tools/list"); !strings.Contains(got, `"v2"`) {
		t.Errorf("after the announced change: %s", got)
	}
	if n := count(b.srv, "tools/list"); n != 2 {
		t.Errorf("the server was asked tools/list %d times, want 2", n)
	}
	if n := len(notifications(gotY, "notifications/message")); n != 1 {
		t.Errorf("the caller got the log message %d times, want once:\n%s", n, dump(gotY))
	}
	if n := len(notifications(x.sync(), "notifications/message")); n != 0 {
		t.Errorf("another invocation got the caller's log message")
	}
}

func jsonInt(n int) string { b, _ := json.Marshal(n); return string(b) }
