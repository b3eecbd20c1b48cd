package client

// Issue 23, item 7: on a connection that carries many requests at once
// (stdio, HTTP+SSE, NewConn), a notification goes to the request it is
// tied to (its progress token, its subscription), and one tied to none
// goes once to the Client's hook, never once per request in flight.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpctl/mcpctl/client/mcptest"
)

// routes records where notifications went during checkRouting.
type routes struct {
	mu     sync.Mutex
	global []string
	own    map[string][]string // by request name
	ids    map[string]int64
}

func newRoutes() *routes {
	return &routes{own: map[string][]string{}, ids: map[string]int64{}}
}

// note is how a test names a notification: its method, and a progress
// notification's token.
func note(n Notification) string {
	if n.Method == "notifications/progress" {
		return "progress " + progressTokenOf(n.Params)
	}
	return n.Method
}

func (r *routes) hook(n Notification) {
	r.mu.Lock()
	r.global = append(r.global, note(n))
	r.mu.Unlock()
}

// checkRouting sends four tools/call requests at once over c (made with
// r.hook as Hooks.OnNotify). The server behind it answers them only once
// all four are in flight, after one log message (tied to no request) and
// a progress notification for each (its token is the request's id).
// Requests a and b have an OnNotify of their own; c and d have none, so
// their progress goes to the Client's hook.
func checkRouting(t *testing.T, c *Client, r *routes) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for _, name := range []string{"a", "b", "c", "d"} {
		co := &CallOptions{OnID: func(id int64) {
			r.mu.Lock()
			r.ids[name] = id
			r.mu.Unlock()
		}}
		if name == "a" || name == "b" {
			co.OnNotify = func(n Notification) {
				r.mu.Lock()
				r.own[name] = append(r.own[name], note(n))
				r.mu.Unlock()
			}
		}
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_, err := c.Call(ctx, "tools/call", json.RawMessage(`{"name":"gather"}`), co)
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, name := range []string{"a", "b"} {
		want := []string{fmt.Sprintf("progress %d", r.ids[name])}
		if !slices.Equal(r.own[name], want) {
			t.Errorf("request %s (id %d) got %q, want only its own progress %q", name, r.ids[name], r.own[name], want)
		}
	}
	want := []string{"notifications/message", fmt.Sprintf("progress %d", r.ids["c"]), fmt.Sprintf("progress %d", r.ids["d"])}
	got := slices.Clone(r.global)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("Hooks.OnNotify got %q, want the log message once and the progress of c and d (ids %d, %d), which have no hook of their own", r.global, r.ids["c"], r.ids["d"])
	}
}

// gather holds n requests until all have come; the last one to come
// first sends, through send, a log message and the progress of each (by
// its progress token).
type gather struct {
	n      int
	mu     sync.Mutex
	tokens []json.RawMessage
	done   chan struct{}
}

func newGather(n int) *gather { return &gather{n: n, done: make(chan struct{})} }

func (g *gather) join(token json.RawMessage, send func(method, params string)) {
	g.mu.Lock()
	g.tokens = append(g.tokens, token)
	last := len(g.tokens) == g.n
	tokens := slices.Clone(g.tokens)
	g.mu.Unlock()
	if !last {
		select {
		case <-g.done:
		case <-time.After(5 * time.Second):
		}
		return
	}
	send("notifications/message", `{"level":"info","data":"for no request in particular"}`)
	for _, tok := range tokens {
		send("notifications/progress", `{"progressToken":`+string(tok)+`,"progress":1}`)
	}
	close(g.done)
}

func progressTokenParam(params json.RawMessage) json.RawMessage {
	var p struct {
		Meta struct {
			Token json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	}
	_ = json.Unmarshal(params, &p)
	return p.Meta.Token
}

// NewConn, with a scripted server in the same process.
func TestRoutingConn(t *testing.T) {
	g := newGather(4)
	srv := mcptest.NewServer(func(ctx context.Context, req *mcptest.Request) (any, error) {
		if req.Method != "tools/call" {
			return nil, &mcptest.Error{Code: CodeMethodNotFound, Message: "no " + req.Method}
		}
		g.join(progressTokenParam(req.Params), func(method, params string) { _ = req.Notify(method, json.RawMessage(params)) })
		return json.RawMessage(`{"content":[]}`), nil
	})
	r := newRoutes()
	c := New(NewConn(srv.Conn(), ConnOptions{}), Options{Era: EraModern, Hooks: Hooks{OnNotify: r.hook}})
	defer c.Close()
	checkRouting(t, c, r)
}

// HTTP+SSE (the transport of 2024-11-05): every message on the one stream.
func TestRoutingSSE(t *testing.T) {
	g := newGather(4)
	events := make(chan string, 16)
	send := func(msg string) { events <- "event: message\ndata: " + msg + "\n\n" }
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method == http.MethodGet {
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			_, _ = io.WriteString(w, "event: endpoint\ndata: /messages\n\n")
			w.(http.Flusher).Flush()
			for {
				select {
				case e := <-events:
					_, _ = io.WriteString(w, e)
					w.(http.Flusher).Flush()
				case <-req.Context().Done():
					return
				}
			}
		}
		body, _ := io.ReadAll(req.Body)
		var msg Message
		_ = json.Unmarshal(body, &msg)
		w.WriteHeader(http.StatusAccepted)
		switch msg.Method {
		case "initialize":
			send(`{"jsonrpc":"2.0","id":` + string(msg.ID) + `,"result":` + initResult + `}`)
		case "tools/call":
			go func() {
				g.join(progressTokenParam(msg.Params), func(method, params string) {
					send(`{"jsonrpc":"2.0","method":"` + method + `","params":` + params + `}`)
				})
				send(`{"jsonrpc":"2.0","id":` + string(msg.ID) + `,"result":{"content":[]}}`)
			}()
		}
	}))
	defer srv.Close()
	h, err := newHTTPConn(HTTPOptions{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	r := newRoutes()
	c := New(newSSEHTTP(h), Options{ProtocolVersion: "2025-11-25", Hooks: Hooks{OnNotify: r.hook}})
	defer c.Close()
	checkRouting(t, c, r)
}

// A 2025-11-25 task's status notification tied to no request still
// reaches TaskOptions.OnStatus while the task is waited for, and the
// Client's hook once.
func TestLegacyTaskStatusUntied(t *testing.T) {
	fromNote := strings.Replace(legacyTaskObject("completed"), `"status"`, `"statusMessage":"from the notification","status"`, 1)
	srv := mcptest.NewServer(func(ctx context.Context, req *mcptest.Request) (any, error) {
		switch req.Method {
		case "initialize":
			return json.RawMessage(taskInitResult), nil
		case "notifications/initialized":
			return nil, nil
		case "tasks/get":
			_ = req.Notify("notifications/tasks/status", json.RawMessage(fromNote))
			return json.RawMessage(legacyTaskObject("completed")), nil
		case "tasks/result":
			return json.RawMessage(taskToolResult), nil
		}
		return nil, &mcptest.Error{Code: CodeMethodNotFound, Message: "no " + req.Method}
	})
	var mu sync.Mutex
	var statuses []string
	r := newRoutes()
	c := New(NewConn(srv.Conn(), ConnOptions{}), Options{ProtocolVersion: "2025-11-25", Hooks: Hooks{OnNotify: r.hook},
		Tasks: TaskOptions{OnStatus: func(t json.RawMessage) {
			mu.Lock()
			statuses = append(statuses, string(t))
			mu.Unlock()
		}}})
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.WaitTask(ctx, json.RawMessage(`{"taskId":"t1"}`), nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(statuses) != 2 || statuses[0] != fromNote || statuses[1] != legacyTaskObject("completed") {
		t.Errorf("OnStatus got %q; want the notification's task, then the poll's answer", statuses)
	}
	if !slices.Equal(r.global, []string{"notifications/tasks/status"}) {
		t.Errorf("Hooks.OnNotify got %q, want the status notification once", r.global)
	}
}

// The mux's rule, one case at a time: a notification tied to a request in
// flight goes to it alone; one tied to a request sent and answered goes
// nowhere; one tied to no request of the connection's goes to the Watch
// callers, else once to the connection's handler.
func TestMuxRoutesNotifications(t *testing.T) {
	m := newMux(context.Background(), func([]byte) {})
	got := map[string][]string{}
	to := func(who string) func(Notification) {
		return func(n Notification) { got[who] = append(got[who], string(n.Params)) }
	}
	m.setNotify(to("handler"))
	for id, who := range map[int64]string{1: "req1", 2: "req2"} {
		if _, err := m.register(&Request{ID: id, Method: "tools/call"}, to(who)); err != nil {
			t.Fatal(err)
		}
	}
	send := func(method, params string) {
		t.Helper()
		if err := m.deliver(&Message{JSONRPC: "2.0", Method: method, Params: json.RawMessage(params)}, nil, false); err != nil {
			t.Fatal(err)
		}
	}
	send("notifications/progress", `{"progressToken":1,"progress":1}`)
	send("notifications/progress", `{"progressToken":"2","progress":1}`)
	send("notifications/tools/list_changed", `{"_meta":{"io.modelcontextprotocol/subscriptionId":2}}`)
	send("notifications/message", `{"level":"info","data":"log"}`)
	send("notifications/progress", `{"progressToken":"p","progress":1}`)
	send("notifications/progress", `{"progressToken":99,"progress":1}`)
	if err := m.deliver(&Message{JSONRPC: "2.0", ID: json.RawMessage(`1`), Result: json.RawMessage(`{}`)}, nil, false); err != nil {
		t.Fatal(err)
	}
	send("notifications/progress", `{"progressToken":1,"progress":2}`)
	remove := m.watchers.add(to("watcher"))
	send("notifications/message", `{"level":"info","data":"watched"}`)
	send("notifications/progress", `{"progressToken":2,"progress":2}`)
	remove()
	want := map[string][]string{
		"req1":    {`{"progressToken":1,"progress":1}`},
		"req2":    {`{"progressToken":"2","progress":1}`, `{"_meta":{"io.modelcontextprotocol/subscriptionId":2}}`, `{"progressToken":2,"progress":2}`},
		"handler": {`{"level":"info","data":"log"}`, `{"progressToken":"p","progress":1}`, `{"progressToken":99,"progress":1}`},
		"watcher": {`{"level":"info","data":"watched"}`},
	}
	for who, w := range want {
		if !slices.Equal(got[who], w) {
			t.Errorf("%s got %q, want %q", who, got[who], w)
		}
	}
}

// A listen over a shared connection: what names another subscription, or
// none, is tied to no request, yet the listen's trace (Stray) still sees
// it; the log message reaches the Client's hook once, the other
// subscription's notification not at all.
func TestListenStraysOnSharedConnection(t *testing.T) {
	srv := mcptest.NewServer(func(ctx context.Context, req *mcptest.Request) (any, error) {
		if req.Method != "subscriptions/listen" {
			return nil, &mcptest.Error{Code: CodeMethodNotFound, Message: "no " + req.Method}
		}
		sub := func(id string) json.RawMessage {
			return json.RawMessage(`{"_meta":{"io.modelcontextprotocol/subscriptionId":` + id + `}}`)
		}
		_ = req.Notify("notifications/tools/list_changed", sub("987"))
		_ = req.Notify("notifications/subscriptions/acknowledged", sub(string(req.ID)))
		_ = req.Notify("notifications/message", json.RawMessage(`{"level":"info","data":"log"}`))
		_ = req.Notify("notifications/tools/list_changed", sub(string(req.ID)))
		return json.RawMessage(`{"resultType":"complete"}`), nil
	})
	r := newRoutes()
	c := New(NewConn(srv.Conn(), ConnOptions{}), Options{Era: EraModern, Hooks: Hooks{OnNotify: r.hook}})
	defer c.Close()
	var strays, events []string
	_, err := c.Listen(context.Background(), json.RawMessage(`{"toolsListChanged":true}`),
		ListenOptions{Stray: func(n Notification, why string) { strays = append(strays, n.Method+" ("+why+")") }},
		func(ev ListenEvent) { events = append(events, ev.Kind+" "+ev.Method) })
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"notifications/tools/list_changed (another subscription)", "notifications/message (no subscription id)"}; !slices.Equal(strays, want) {
		t.Errorf("strays %q, want %q", strays, want)
	}
	if want := []string{"acknowledged notifications/subscriptions/acknowledged", "notification notifications/tools/list_changed"}; !slices.Equal(events, want) {
		t.Errorf("events %q, want %q", events, want)
	}
	if !slices.Equal(r.global, []string{"notifications/message"}) {
		t.Errorf("Hooks.OnNotify got %q, want the log message once", r.global)
	}
}
