package client

// A fourth transport slots in without touching Client: NewConn over an
// in-memory connection to a scripted server (client/mcptest), as the local
// socket of a kept-alive session will be. The Client learns from
// Capabilities what it can do (server requests, watching) and what it
// cannot (a dry run).

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpctl/mcpctl/client/mcptest"
)

// scripted answers by method; a method it has no answer for is -32601.
func scripted(answers map[string]any) *mcptest.Server {
	return mcptest.NewServer(func(ctx context.Context, r *mcptest.Request) (any, error) {
		if a, ok := answers[r.Method]; ok {
			if err, ok := a.(error); ok {
				return nil, err
			}
			return a, nil
		}
		return nil, &mcptest.Error{Code: CodeMethodNotFound, Message: "no " + r.Method}
	})
}

func TestConnTransportModern(t *testing.T) {
	srv := scripted(map[string]any{
		"server/discover": json.RawMessage(`{"supportedVersions":["2026-07-28"],"capabilities":{},"serverInfo":{"name":"s","version":"1"}}`),
		"tools/list":      json.RawMessage(`{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}`),
	})
	c := New(NewConn(srv.Conn(), ConnOptions{}), Options{ClientInfo: Implementation{Name: "test", Version: "0"}})
	defer c.Close()
	res, _, err := c.ListTools(context.Background(), "", true)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res), `"echo"`) {
		t.Errorf("tools/list = %s", res)
	}
	if e := c.Era(); e.Era != EraModern || e.Transport != BindingStream {
		t.Errorf("era %+v, want modern over %s", e, BindingStream)
	}
	if got := strings.Join(srv.Methods(), " "); got != "server/discover tools/list" {
		t.Errorf("the server got %s", got)
	}
	meta := metaParam(t, srv.Received()[1].Params)
	if string(meta["io.modelcontextprotocol/clientInfo"]) != `{"name":"test","version":"0"}` {
		t.Errorf("_meta %s", meta)
	}
}

// A legacy server over the connection asks the client a question in the
// middle of a call: the connection's Capabilities.ServerRequests carries
// it to the InputHandler, and the answer back.
func TestConnTransportLegacyServerRequest(t *testing.T) {
	srv := mcptest.NewServer(func(ctx context.Context, r *mcptest.Request) (any, error) {
		switch r.Method {
		case "initialize":
			return json.RawMessage(initResult), nil
		case "tools/call":
			answer, err := r.Ask(ctx, "elicitation/create", map[string]any{"message": "Name?", "requestedSchema": map[string]any{"type": "object"}})
			if err != nil {
				return nil, err
			}
			return map[string]any{"content": []any{map[string]any{"type": "text", "text": string(answer)}}}, nil
		}
		return nil, &mcptest.Error{Code: CodeMethodNotFound, Message: "no " + r.Method}
	})
	var asked []InputRound
	input := answerFunc(func(ctx context.Context, round InputRound) (map[string]json.RawMessage, error) {
		asked = append(asked, round)
		return map[string]json.RawMessage{round.Requests[0].Key: json.RawMessage(`{"action":"accept","content":{"name":"Ada"}}`)}, nil
	})
	c := New(NewConn(srv.Conn(), ConnOptions{}), Options{Input: input})
	defer c.Close()
	res, err := c.CallTool(context.Background(), "greet", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res), `Ada`) {
		t.Errorf("result %s", res)
	}
	if len(asked) != 1 || !asked[0].Legacy || asked[0].Requests[0].Method != "elicitation/create" {
		t.Errorf("the input handler was asked %+v", asked)
	}
	if e := c.Era(); e.Era != EraLegacy || e.Transport != BindingStream {
		t.Errorf("era %+v", e)
	}
	if got := strings.Join(srv.Methods(), " "); got != "server/discover initialize notifications/initialized tools/call" {
		t.Errorf("the server got %s", got)
	}
}

// A transport that cannot dry-run is refused when a dry run is asked for:
// nothing is sent, and the error says why.
func TestDryRunNeedsTheCapability(t *testing.T) {
	srv := scripted(map[string]any{"server/discover": json.RawMessage(`{}`)})
	c := New(NewConn(srv.Conn(), ConnOptions{}), Options{DryRun: true})
	defer c.Close()
	_, err := c.Call(context.Background(), "tools/list", nil, nil)
	var ce *CapabilityError
	if !errors.As(err, &ce) || ce.Capability != "dry run" {
		t.Fatalf("err = %v, want a *CapabilityError for the dry run", err)
	}
	if err.Error() != "the stream transport offers no dry run" {
		t.Errorf("message %q", err)
	}
	if got := srv.Received(); len(got) != 0 {
		t.Errorf("the server got %d requests", len(got))
	}
	// A transport that can dry-run is used as before.
	var shown []DryRunRequest
	st := NewStdio(StdioOptions{Command: []string{"true"}, DryRun: func(r DryRunRequest) { shown = append(shown, r) }})
	c = New(st, Options{DryRun: true})
	if _, err := c.Call(context.Background(), "tools/list", nil, nil); !errors.Is(err, ErrDryRun) || len(shown) != 1 {
		t.Errorf("stdio dry run: %v, %d shown", err, len(shown))
	}
}

// Legacy listen needs the server's own notifications: a transport
// without Watch is told so.
func TestLegacyListenNeedsWatch(t *testing.T) {
	ft := &fakeTransport{handle: byMethod(map[string][]any{"initialize": {initResult}})}
	c := New(ft, Options{Era: EraLegacy})
	_, err := c.Listen(context.Background(), json.RawMessage(`{"toolsListChanged":true}`), ListenOptions{}, func(ListenEvent) {})
	var ce *CapabilityError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want a *CapabilityError", err)
	}
}

// The one rule for response ids, on every multiplexed connection: an
// answer to an id sent but no longer awaited is dropped, one to an id
// never sent is a protocol error.
func TestMuxUnknownIDRule(t *testing.T) {
	m := newMux(context.Background(), func([]byte) {})
	p, err := m.register(&Request{ID: 1, Method: "a"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.deliver(&Message{JSONRPC: "2.0", ID: json.RawMessage(`1`), Result: json.RawMessage(`{}`)}, nil, false); err != nil {
		t.Fatal(err)
	}
	if r := <-p.done; r.msg == nil {
		t.Fatal("request 1 got no answer")
	}
	late := &Message{JSONRPC: "2.0", ID: json.RawMessage(`1`), Result: json.RawMessage(`{}`)}
	if err := m.deliver(late, nil, false); err != nil {
		t.Errorf("a second answer to a sent id: %v, want it dropped", err)
	}
	never := &Message{JSONRPC: "2.0", ID: json.RawMessage(`"987654"`), Result: json.RawMessage(`{}`)}
	var pe *ProtocolError
	if err := m.deliver(never, nil, false); !errors.As(err, &pe) {
		t.Errorf("an answer to an id never sent: %v, want a protocol error", err)
	}
}

// HTTP+SSE follows the same rule: a response to an id never sent ends the
// connection, and the request in flight with it, instead of being ignored
// while the request waits on.
func TestSSEUnknownIDEndsTheConnection(t *testing.T) {
	events := make(chan string, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			w.Header().Set("Content-Type", "text/event-stream")
			writeSSE(w, "event: endpoint\ndata: /messages\n\n")
			for {
				select {
				case e := <-events:
					writeSSE(w, e)
				case <-r.Context().Done():
					return
				}
			}
		}
		events <- `data: {"jsonrpc":"2.0","id":987654,"result":{}}` + "\n\n"
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	h, err := newHTTPConn(HTTPOptions{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	tr := newSSEHTTP(h)
	defer tr.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err = tr.RoundTrip(ctx, &Request{ID: 1, Method: "tools/list", Legacy: true}, nil)
	var pe *ProtocolError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "987654") {
		t.Fatalf("err = %v, want the protocol error of an unknown id", err)
	}
}
