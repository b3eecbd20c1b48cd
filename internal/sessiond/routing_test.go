//go:build linux || darwin

package sessiond

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/mcptest"
)

// barrier lets n goroutines through once all n have come.
type barrier struct {
	mu   sync.Mutex
	n    int
	open chan struct{}
}

func newBarrier(n int) *barrier { return &barrier{n: n, open: make(chan struct{})} }

func (b *barrier) wait() {
	b.mu.Lock()
	b.n--
	if b.n == 0 {
		close(b.open)
	}
	b.mu.Unlock()
	<-b.open
}

// What the server says while requests of several invocations are in
// flight on one shared connection goes where it belongs: each request's
// progress to its own invocation under its own token; every log message
// once to each invocation connection with a request in flight that asked
// for logs (however many it has in flight), to none that did not ask;
// a list change only to the invocation that watches.
func TestNotificationsRouted(t *testing.T) {
	t.Parallel()
	const calls = 4 // a: 3 that ask for logs; b: 1 that does not
	arrived, notified := newBarrier(calls), newBarrier(calls)
	b := newBench(t, byMethod(false, func(ctx context.Context, r *mcptest.Request) (any, error) {
		if r.Method != "tools/call" {
			return nil, &mcptest.Error{Code: client.CodeMethodNotFound, Message: "no " + r.Method}
		}
		arrived.wait() // every request is in flight
		tok := metaOf(r.Params, progressKey)
		for i := range 2 {
			_ = r.Notify("notifications/progress", map[string]any{"progressToken": tok, "progress": i + 1, "total": 2})
		}
		_ = r.Notify("notifications/message", map[string]any{"level": "info", "data": "log of " + string(r.ID)})
		if argOf(r.Params, "announce") == "true" {
			_ = r.Notify("notifications/tools/list_changed", nil)
		}
		notified.wait() // none answers before all have spoken
		return map[string]any{"content": []any{}}, nil
	})).start()
	watcher := b.raw()
	watcher.send(map[string]any{"jsonrpc": "2.0", "method": watchMethod})
	watcher.sync() // the daemon has taken the watch
	a, other := b.raw(), b.raw()
	meta := func(id int, logs bool) map[string]any {
		m := map[string]any{"progressToken": id}
		if logs {
			m[logLevelKey] = "info"
		}
		return m
	}
	for id := 1; id <= 3; id++ {
		a.request(id, "tools/call", map[string]any{"_meta": meta(id, true), "name": "work", "arguments": map[string]any{"announce": id == 2}})
	}
	other.request(1, "tools/call", map[string]any{"_meta": meta(1, false), "name": "work"})
	gotA := a.waitFor("a's three answers", func(m []*client.Message) bool { return len(responses(m)) == 3 })
	gotB := other.waitFor("b's answer", func(m []*client.Message) bool { return len(responses(m)) == 1 })
	gotW := watcher.sync()

	// Progress: each request's two, under its own token.
	perToken := map[string]int{}
	for _, n := range notifications(gotA, "notifications/progress") {
		perToken[string(topValue(n.Params, progressKey))]++
	}
	if perToken["1"] != 2 || perToken["2"] != 2 || perToken["3"] != 2 || len(perToken) != 3 {
		t.Errorf("a's progress by token: %v, want 2 for each of 1, 2, 3\n%s", perToken, dump(gotA))
	}
	if p := notifications(gotB, "notifications/progress"); len(p) != 2 || string(topValue(p[0].Params, progressKey)) != "1" {
		t.Errorf("b's progress:\n%s", dump(gotB))
	}
	// Logs: the four requests' four messages, each once, to a only.
	logs := map[string]int{}
	for _, n := range notifications(gotA, "notifications/message") {
		logs[string(topValue(n.Params, "data"))]++
	}
	if len(logs) != calls {
		t.Errorf("a got %d distinct log messages, want %d:\n%s", len(logs), calls, dump(gotA))
	}
	for msg, n := range logs {
		if n != 1 {
			t.Errorf("a got %s %d times, want once", msg, n)
		}
	}
	if l := notifications(gotB, "notifications/message"); len(l) != 0 {
		t.Errorf("b asked for no log messages and got %d", len(l))
	}
	// The list change: to the watcher, once; to no caller.
	if n := len(notifications(gotW, "notifications/tools/list_changed")); n != 1 {
		t.Errorf("the watcher got the list change %d times, want once:\n%s", n, dump(gotW))
	}
	if n := len(notifications(gotA, "notifications/tools/list_changed")) + len(notifications(gotB, "notifications/tools/list_changed")); n != 0 {
		t.Errorf("callers that do not watch got the list change %d times", n)
	}
	if p := notifications(gotW, "notifications/progress"); len(p) != 0 {
		t.Errorf("the watcher got others' progress:\n%s", dump(gotW))
	}
}

// A subscription's notifications (2026-07-28 listen) travel with the
// request that opened it, under the invocation's own id, and reach no
// other subscription (another invocation's under the same id).
func TestSubscriptionRouted(t *testing.T) {
	t.Parallel()
	listening := make(chan *mcptest.Request, 2)
	b := newBench(t, byMethod(false, func(ctx context.Context, r *mcptest.Request) (any, error) {
		if r.Method != "subscriptions/listen" {
			return nil, &mcptest.Error{Code: client.CodeMethodNotFound, Message: "no " + r.Method}
		}
		listening <- r
		<-ctx.Done()
		return nil, ctx.Err()
	})).start()
	x, y := b.raw(), b.raw()
	var subs []*mcptest.Request
	for _, pr := range []*rawPeer{x, y} {
		pr.request(7, "subscriptions/listen", map[string]any{"notifications": map[string]any{"toolsListChanged": true}})
		select {
		case r := <-listening:
			subs = append(subs, r)
		case <-time.After(20 * time.Second):
			t.Fatal("the subscription did not reach the server")
		}
	}
	// The server speaks on x's subscription, then on y's: on one
	// connection, in that order, so that once y has its own, the daemon
	// has handed on both, strays included.
	for i, sub := range subs {
		_ = sub.Notify("notifications/tools/list_changed", map[string]any{"for": []string{"x", "y"}[i],
			"_meta": map[string]any{client.SubscriptionIDKey: sub.ID}})
	}
	y.waitFor("y's notification", func(m []*client.Message) bool {
		for _, n := range notifications(m, "notifications/tools/list_changed") {
			if string(topValue(n.Params, "for")) == `"y"` {
				return true
			}
		}
		return false
	})
	for name, pr := range map[string]*rawPeer{"x": x, "y": y} {
		got := pr.sync()
		n := notifications(got, "notifications/tools/list_changed")
		if len(n) != 1 || string(topValue(n[0].Params, "for")) != `"`+name+`"` || string(metaValue(n[0].Params, client.SubscriptionIDKey)) != "7" {
			t.Errorf("%s's subscription, want its own notification once, under its id 7:\n%s", name, dump(got))
		}
	}
}
