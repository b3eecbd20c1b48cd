package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// wireMsg is any JSON-RPC message, as read off the wire.
type wireMsg struct {
	raw    []byte
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Meta          map[string]json.RawMessage `json:"_meta"`
		Notifications json.RawMessage            `json:"notifications"`
		URI           string                     `json:"uri"`
	} `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

func (m wireMsg) String() string { return string(m.raw) }

func (m wireMsg) subscriptionID() string { return string(m.Params.Meta[subscriptionIDKey]) }

func decodeMsg(t *testing.T, data []byte) wireMsg {
	t.Helper()
	var m wireMsg
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("not a JSON-RPC message: %q", data)
	}
	m.raw = append([]byte(nil), data...)
	return m
}

// stream is one direction of messages from the server: stdout of a stdio
// server, or the data lines of an SSE response.
type stream struct {
	t    *testing.T
	msgs chan wireMsg
}

func newStream(t *testing.T, r io.Reader, sse bool) *stream {
	s := &stream{t: t, msgs: make(chan wireMsg, 100)}
	go func() {
		defer close(s.msgs)
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line := sc.Bytes()
			if sse {
				data, ok := bytes.CutPrefix(line, []byte("data: "))
				if !ok {
					continue
				}
				line = data
			}
			var m wireMsg
			if json.Unmarshal(line, &m) != nil {
				m.Method = "<not JSON>"
			}
			m.raw = append([]byte(nil), line...)
			s.msgs <- m
		}
	}()
	return s
}

// next returns the next message, failing the test after a while.
func (s *stream) next() wireMsg {
	s.t.Helper()
	select {
	case m, ok := <-s.msgs:
		if !ok {
			s.t.Fatal("the server closed the stream")
		}
		return m
	case <-time.After(5 * time.Second):
		s.t.Fatal("no message from the server")
	}
	return wireMsg{}
}

// until returns the messages up to and including the response with id.
func (s *stream) until(id string) (notes []wireMsg, resp wireMsg) {
	s.t.Helper()
	for {
		m := s.next()
		if string(m.ID) == id && m.Method == "" {
			return notes, m
		}
		notes = append(notes, m)
	}
}

// ended checks that the stream ends without further messages.
func (s *stream) ended() {
	s.t.Helper()
	select {
	case m, ok := <-s.msgs:
		if ok {
			s.t.Fatalf("unexpected message %s", m)
		}
	case <-time.After(5 * time.Second):
		s.t.Fatal("the stream did not end")
	}
}

// stdioPeer drives an in-process stdio server with raw lines.
type stdioPeer struct {
	*stream
	in   *io.PipeWriter
	n    *notifier
	done chan error
}

func startStdio(t *testing.T) *stdioPeer {
	t.Helper()
	stdinR, stdinW := io.Pipe()
	stdoutR, stdoutW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	s, n := newDemo()
	p := &stdioPeer{stream: newStream(t, stdoutR, false), in: stdinW, n: n, done: make(chan error, 1)}
	go func() {
		p.done <- serveStdio(ctx, s, n, stdinR, stdoutW)
		stdoutW.Close()
	}()
	t.Cleanup(func() {
		stdinW.Close()
		cancel()
		<-p.done
	})
	return p
}

func (p *stdioPeer) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		p.t.Fatalf("write: %v", err)
	}
}

func listenRequest(id, filter string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"subscriptions/listen","params":{%s,"notifications":%s}}`, id, meta2026, filter)
}

func toolRequest(id int, name, args string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{%s,"name":%q,"arguments":%s}}`, id, meta2026, name, args)
}

// events are the demo's four notification types: the tool that causes
// one, and the filter that asks for it.
var events = []struct {
	tool, method, uri, filter string
}{
	{"toggle_tool", "notifications/tools/list_changed", "", `{"toolsListChanged":true}`},
	{"toggle_prompt", "notifications/prompts/list_changed", "", `{"promptsListChanged":true}`},
	{"toggle_resource", "notifications/resources/list_changed", "", `{"resourcesListChanged":true}`},
	{"touch_resource", "notifications/resources/updated", counterURI, `{"resourceSubscriptions":["demo://counter"]}`},
}

func sameJSON(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

// checkAck checks the first message of a subscription.
func checkAck(t *testing.T, m wireMsg, id, filter string) {
	t.Helper()
	if m.Method != listenAck || m.subscriptionID() != id || !sameJSON(string(m.Params.Notifications), filter) {
		t.Fatalf("want the acknowledgment of %s with notifications %s, got %s", id, filter, m)
	}
}

// checkNote checks a notification of the subscription id.
func checkNote(t *testing.T, m wireMsg, method, uri, id string) {
	t.Helper()
	if m.Method != method || m.Params.URI != uri || m.subscriptionID() != id {
		t.Errorf("want %s (uri %q) for subscription %s, got %s", method, uri, id, m)
	}
}

// checkClosed checks the graceful end of the subscription id.
func checkClosed(t *testing.T, m wireMsg, id string) {
	t.Helper()
	var res struct {
		ResultType string                     `json:"resultType"`
		Meta       map[string]json.RawMessage `json:"_meta"`
	}
	json.Unmarshal(m.Result, &res)
	if string(m.ID) != id || m.Error != nil || res.ResultType != "complete" || string(res.Meta[subscriptionIDKey]) != id {
		t.Fatalf("want the listen result for %s, got %s", id, m)
	}
}

func toolText(t *testing.T, m wireMsg) string {
	t.Helper()
	var res toolResult
	rpcReply{Result: m.Result, Error: m.Error}.mustResult(t, &res)
	return res.text(t)
}

// TestListenStdio subscribes to one notification type at a time, causes
// every type, and checks that exactly the one asked for arrives, before
// the result of the call that caused it; close_listeners then ends the
// subscription with its result.
func TestListenStdio(t *testing.T) {
	for _, ev := range events {
		t.Run(ev.tool, func(t *testing.T) {
			p := startStdio(t)
			p.send(listenRequest(`"sub"`, ev.filter))
			checkAck(t, p.next(), `"sub"`, ev.filter)
			for i, cause := range events {
				id := 10 + i
				p.send(toolRequest(id, cause.tool, `{}`))
				notes, resp := p.until(fmt.Sprint(id))
				if resp.Error != nil {
					t.Fatalf("%s: %s", cause.tool, resp)
				}
				want := 0
				if cause.tool == ev.tool {
					want = 1
				}
				if len(notes) != want {
					t.Fatalf("after %s: %d notifications %v, want %d", cause.tool, len(notes), notes, want)
				}
				if want == 1 {
					checkNote(t, notes[0], ev.method, ev.uri, `"sub"`)
				}
			}
			p.send(toolRequest(20, "close_listeners", `{}`))
			checkClosed(t, p.next(), `"sub"`)
			if got := toolText(t, p.next()); got != "closed 1 subscription(s)" {
				t.Errorf("close_listeners: %q", got)
			}
		})
	}
}

// TestListenStdioTwo checks that two subscriptions on one stdio connection
// each get their own notifications, and that cancelling one leaves the
// other alone (the SDK alone keeps one subscription per session).
func TestListenStdioTwo(t *testing.T) {
	p := startStdio(t)
	p.send(listenRequest(`1`, `{"toolsListChanged":true}`))
	checkAck(t, p.next(), `1`, `{"toolsListChanged":true}`)
	p.send(listenRequest(`"two"`, `{"toolsListChanged":true,"resourceSubscriptions":["demo://counter"]}`))
	checkAck(t, p.next(), `"two"`, `{"toolsListChanged":true,"resourceSubscriptions":["demo://counter"]}`)

	p.send(toolRequest(3, "toggle_tool", `{}`))
	notes, _ := p.until("3")
	got := map[string]bool{}
	for _, m := range notes {
		checkNote(t, m, toolsChanged, "", m.subscriptionID())
		got[m.subscriptionID()] = true
	}
	if len(notes) != 2 || !got[`1`] || !got[`"two"`] {
		t.Fatalf("want one tools/list_changed per subscription, got %v", notes)
	}

	// Cancelling is the client's way to end a subscription on stdio. The
	// SDK answers the cancelled request anyway, with the same result as a
	// graceful close.
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)
	checkClosed(t, p.next(), `1`)

	p.send(toolRequest(4, "touch_resource", `{"uri":"demo://counter"}`))
	notes, resp := p.until("4")
	if len(notes) != 1 {
		t.Fatalf("want one notification, got %v", notes)
	}
	checkNote(t, notes[0], resourceUpdated, counterURI, `"two"`)
	if got := toolText(t, resp); got != "count: 1" {
		t.Errorf("touch_resource: %q", got)
	}
	p.send(toolRequest(5, "toggle_tool", `{}`))
	if notes, _ := p.until("5"); len(notes) != 1 || notes[0].subscriptionID() != `"two"` {
		t.Fatalf("after cancelling 1: %v", notes)
	}
	p.send(toolRequest(6, "close_listeners", `{}`))
	checkClosed(t, p.next(), `"two"`)
	if got := toolText(t, p.next()); got != "closed 1 subscription(s)" {
		t.Errorf("close_listeners: %q", got)
	}
}

// TestListenFilters covers what the SDK makes of odd filters.
func TestListenFilters(t *testing.T) {
	p := startStdio(t)
	// Unknown members are ignored, and left out of the acknowledgment.
	p.send(listenRequest(`1`, `{"toolsListChanged":true,"promptsListChanged":false,"taskIds":["x"],"bogus":1}`))
	checkAck(t, p.next(), `1`, `{"toolsListChanged":true}`)
	// Asking for nothing: acknowledged, then closed at once.
	p.send(listenRequest(`2`, `{}`))
	checkAck(t, p.next(), `2`, `{}`)
	checkClosed(t, p.next(), `2`)
	// No filter at all, or a filter of the wrong type: invalid params.
	p.send(`{"jsonrpc":"2.0","id":3,"method":"subscriptions/listen","params":{` + meta2026 + `}}`)
	if m := p.next(); m.Error == nil || m.Error.Code != -32602 || string(m.ID) != "3" {
		t.Errorf("no filter: %s", m)
	}
	p.send(listenRequest(`4`, `{"toolsListChanged":"yes"}`))
	if m := p.next(); m.Error == nil || m.Error.Code != -32602 || string(m.ID) != "4" {
		t.Errorf("bad filter: %s", m)
	}
	// Subscribing to a resource that does not exist (yet) is fine.
	p.send(listenRequest(`5`, `{"resourceSubscriptions":["demo://ephemeral"]}`))
	checkAck(t, p.next(), `5`, `{"resourceSubscriptions":["demo://ephemeral"]}`)
	p.send(toolRequest(6, "touch_resource", `{"uri":"demo://ephemeral"}`))
	if _, resp := p.until("6"); !strings.Contains(string(resp.Result), `"isError":true`) {
		t.Errorf("touching a missing resource: %s", resp)
	}
	p.send(toolRequest(7, "toggle_resource", `{}`))
	p.until("7")
	p.send(toolRequest(8, "touch_resource", `{"uri":"demo://ephemeral"}`))
	notes, _ := p.until("8")
	if len(notes) != 1 {
		t.Fatalf("want one notification, got %v", notes)
	}
	checkNote(t, notes[0], resourceUpdated, ephemeralURI, `5`)
}

// TestListenStdioEOF: closing stdin ends the open subscriptions gracefully
// once everything else is answered, instead of hanging.
func TestListenStdioEOF(t *testing.T) {
	p := startStdio(t)
	p.send(listenRequest(`1`, `{"toolsListChanged":true}`))
	checkAck(t, p.next(), `1`, `{"toolsListChanged":true}`)
	p.send(toolRequest(2, "toggle_tool", `{}`))
	p.in.Close()
	checkNote(t, p.next(), toolsChanged, "", `1`)
	if got := toolText(t, p.next()); got != "added tool ephemeral" {
		t.Errorf("toggle_tool: %q", got)
	}
	checkClosed(t, p.next(), `1`)
	p.ended()
	select {
	case err := <-p.done:
		p.done <- err // for the cleanup
		if err != nil {
			t.Errorf("serveStdio: %v", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("the server did not stop")
	}
}

// TestListenTicker: --notify-every bumps the counter and toggles the tool
// with no calls at all.
func TestListenTicker(t *testing.T) {
	p := startStdio(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go p.n.tick(ctx, 20*time.Millisecond)
	filter := `{"toolsListChanged":true,"resourceSubscriptions":["demo://counter"]}`
	p.send(listenRequest(`"t"`, filter))
	checkAck(t, p.next(), `"t"`, filter)
	seen := map[string]int{}
	for range 4 {
		m := p.next()
		if m.subscriptionID() != `"t"` {
			t.Fatalf("unexpected %s", m)
		}
		seen[m.Method]++
	}
	if seen[toolsChanged] < 1 || seen[resourceUpdated] < 1 {
		t.Errorf("want both kinds of notification, got %v", seen)
	}
}

// TestDiscoverListenCapabilities: server/discover declares everything
// subscriptions/listen can deliver.
func TestDiscoverListenCapabilities(t *testing.T) {
	s := newRPCSession(t)
	var res struct {
		Capabilities struct {
			Tools     json.RawMessage `json:"tools"`
			Prompts   json.RawMessage `json:"prompts"`
			Resources json.RawMessage `json:"resources"`
		} `json:"capabilities"`
	}
	s.call("server/discover", "", meta(`{}`)).mustResult(t, &res)
	c := res.Capabilities
	if !sameJSON(string(c.Tools), `{"listChanged":true}`) || !sameJSON(string(c.Prompts), `{"listChanged":true}`) ||
		!sameJSON(string(c.Resources), `{"listChanged":true,"subscribe":true}`) {
		t.Errorf("capabilities tools %s, prompts %s, resources %s", c.Tools, c.Prompts, c.Resources)
	}
}

// TestToggles checks that the toggled things really come and go.
func TestToggles(t *testing.T) {
	s := newRPCSession(t)
	has := func(method, list, key, want string) bool {
		var res map[string]json.RawMessage
		s.call(method, "", meta(`{}`)).mustResult(t, &res)
		var items []map[string]any
		json.Unmarshal(res[list], &items)
		for _, item := range items {
			if item[key] == want {
				return true
			}
		}
		return false
	}
	for _, c := range []struct{ tool, method, list, key, name string }{
		{"toggle_tool", "tools/list", "tools", "name", ephemeralTool},
		{"toggle_prompt", "prompts/list", "prompts", "name", ephemeralPrompt},
		{"toggle_resource", "resources/list", "resources", "uri", ephemeralURI},
	} {
		for _, want := range []bool{true, false} {
			text := s.tool(c.tool, "", meta(`{}`)).tool(t).text(t)
			if got := has(c.method, c.list, c.key, c.name); got != want || !strings.HasSuffix(text, c.name) {
				t.Errorf("%s said %q; %s present = %t, want %t", c.tool, text, c.name, got, want)
			}
		}
	}
	s.tool("toggle_tool", "", meta(`{}`))
	if got := s.tool(ephemeralTool, "", meta(`{}`)).tool(t).text(t); got != "the ephemeral tool is here" {
		t.Errorf("ephemeral: %q", got)
	}
	var read struct {
		Contents []struct{ Text string } `json:"contents"`
		TTLMs    int                     `json:"ttlMs"`
	}
	s.call("tools/call", `"name":"touch_resource","arguments":{}`, meta(`{}`))
	s.call("resources/read", `"uri":"demo://counter"`, meta(`{}`)).mustResult(t, &read)
	if len(read.Contents) != 1 || read.Contents[0].Text != "count: 1" || read.TTLMs != 0 {
		t.Errorf("demo://counter: %+v", read)
	}
	if res := s.call("tools/call", `"name":"touch_resource","arguments":{"uri":"demo://nope"}`, meta(`{}`)).tool(t); !res.IsError {
		t.Errorf("touching an unknown resource: %+v", res)
	}
}

// httpListen opens a subscription over HTTP and returns its SSE stream.
func httpListen(t *testing.T, ctx context.Context, url, id, filter string) *stream {
	t.Helper()
	req := mcpRequest(t, url, "subscriptions/listen", "", listenRequest(id, filter)).WithContext(ctx)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "text/event-stream" {
		body, _ := io.ReadAll(resp.Body)
		t.Fatalf("listen: status %d, Content-Type %q: %s", resp.StatusCode, ct, body)
	}
	return newStream(t, resp.Body, true)
}

func httpTool(t *testing.T, url, name, args string) wireMsg {
	t.Helper()
	resp, err := http.DefaultClient.Do(mcpRequest(t, url, "tools/call", name, toolRequest(1, name, args)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return decodeMsg(t, bytes.TrimSpace(body))
}

// TestListenHTTP is TestListenStdio over stateless HTTP, where each
// subscription is an SSE response of its own: after the acknowledgment the
// stream must carry exactly the one notification asked for, then the
// result, then end.
func TestListenHTTP(t *testing.T) {
	s, _ := newDemo()
	srv := httptest.NewServer(newHTTPHandler(s))
	defer srv.Close()
	url := srv.URL + "/mcp"
	for _, ev := range events {
		t.Run(ev.tool, func(t *testing.T) {
			st := httpListen(t, context.Background(), url, `"h"`, ev.filter)
			checkAck(t, st.next(), `"h"`, ev.filter)
			for _, cause := range events {
				if m := httpTool(t, url, cause.tool, `{}`); m.Error != nil {
					t.Fatalf("%s: %s", cause.tool, m)
				}
			}
			checkNote(t, st.next(), ev.method, ev.uri, `"h"`)
			if got := toolText(t, httpTool(t, url, "close_listeners", `{}`)); got != "closed 1 subscription(s)" {
				t.Errorf("close_listeners: %q", got)
			}
			checkClosed(t, st.next(), `"h"`)
			st.ended()
		})
	}
}

// TestListenHTTPDisconnect: a client that hangs up ends its subscription.
func TestListenHTTPDisconnect(t *testing.T) {
	s, n := newDemo()
	srv := httptest.NewServer(newHTTPHandler(s))
	defer srv.Close()
	url := srv.URL + "/mcp"
	ctx, cancel := context.WithCancel(context.Background())
	st := httpListen(t, ctx, url, `1`, `{"toolsListChanged":true}`)
	checkAck(t, st.next(), `1`, `{"toolsListChanged":true}`)
	cancel()
	deadline := time.Now().Add(5 * time.Second)
	for {
		n.mu.Lock()
		open := len(n.listeners)
		n.mu.Unlock()
		if open == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the subscription outlived its client")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestSDKClientListen: the SDK's own client opens subscriptions/listen for
// its change handlers and for Subscribe, several on one session in memory,
// and must see every notification type.
func TestSDKClientListen(t *testing.T) {
	s, _ := newDemo()
	httpSrv := httptest.NewServer(newHTTPHandler(s))
	defer httpSrv.Close()
	for name, transport := range map[string]func() mcp.Transport{
		"inmemory": func() mcp.Transport {
			st, ct := mcp.NewInMemoryTransports()
			if _, err := s.Connect(context.Background(), st, nil); err != nil {
				t.Fatal(err)
			}
			return ct
		},
		"http": func() mcp.Transport { return &mcp.StreamableClientTransport{Endpoint: httpSrv.URL + "/mcp"} },
	} {
		t.Run(name, func(t *testing.T) { checkClientListen(t, transport()) })
	}
}

func checkClientListen(t *testing.T, transport mcp.Transport) {
	ctx := context.Background()
	var mu sync.Mutex
	got := map[string]int{}
	seen := func(method string) func() int {
		return func() int {
			mu.Lock()
			defer mu.Unlock()
			return got[method]
		}
	}
	count := func(method string) {
		mu.Lock()
		got[method]++
		mu.Unlock()
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, &mcp.ClientOptions{
		ToolListChangedHandler:     func(context.Context, *mcp.ToolListChangedRequest) { count(toolsChanged) },
		PromptListChangedHandler:   func(context.Context, *mcp.PromptListChangedRequest) { count(promptsChanged) },
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { count(resourcesChanged) },
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
			if r.Params.URI == counterURI {
				count(resourceUpdated)
			}
		},
	})
	cs, err := client.Connect(ctx, transport, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: counterURI}); err != nil {
		t.Fatal(err)
	}
	// The SDK client does not wait for the acknowledgments, so a change
	// may come too early: call again until the handler runs.
	for _, ev := range events {
		before := seen(ev.method)()
		deadline := time.Now().Add(5 * time.Second)
		for seen(ev.method)() == before {
			if time.Now().After(deadline) {
				t.Fatalf("%s: no %s", ev.tool, ev.method)
			}
			if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: ev.tool}); err != nil {
				t.Fatal(err)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}
