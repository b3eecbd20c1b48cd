package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestStandardHeaders(t *testing.T) {
	tests := []struct {
		name     string
		req      Request
		wantName string // "" means no Mcp-Name
	}{
		{"tools/call", Request{Method: "tools/call", Params: json.RawMessage(`{"_meta":{},"name":"get_weather","arguments":{"name":"no"}}`)}, "get_weather"},
		{"prompts/get", Request{Method: "prompts/get", Params: json.RawMessage(`{"name":"code_review"}`)}, "code_review"},
		{"resources/read uses uri", Request{Method: "resources/read", Params: json.RawMessage(`{"name":"not this","uri":"file:///projects/myapp/config.json"}`)}, "file:///projects/myapp/config.json"},
		{"resource URI kept verbatim", Request{Method: "resources/read", Params: json.RawMessage(`{"uri":"file:///path/to/file%20name.txt"}`)}, "file:///path/to/file%20name.txt"},
		{"hyphenated name", Request{Method: "tools/call", Params: json.RawMessage(`{"name":"my-hyphenated-tool"}`)}, "my-hyphenated-tool"},
		{"non-ASCII name is base64", Request{Method: "tools/call", Params: json.RawMessage(`{"name":"Hello, 世界"}`)}, "=?base64?SGVsbG8sIOS4lueVjA==?="},
		{"name with spaces around is base64", Request{Method: "prompts/get", Params: json.RawMessage(`{"name":" padded "}`)}, "=?base64?IHBhZGRlZCA=?="},
		{"sentinel-looking name is base64", Request{Method: "tools/call", Params: json.RawMessage(`{"name":"=?base64?literal?="}`)}, "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="},
		{"tools/list has none", Request{Method: "tools/list", Params: json.RawMessage(`{"name":"x"}`)}, ""},
		{"resources/list has none", Request{Method: "resources/list", Params: json.RawMessage(`{"uri":"x"}`)}, ""},
		{"completion/complete has none", Request{Method: "completion/complete", Params: json.RawMessage(`{"name":"x"}`)}, ""},
		{"tools/call without name", Request{Method: "tools/call", Params: json.RawMessage(`{}`)}, ""},
		{"tools/call with a non-string name", Request{Method: "tools/call", Params: json.RawMessage(`{"name":42}`)}, ""},
		{"tools/call without params", Request{Method: "tools/call"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.Version = "2026-07-28"
			h := standardHeaders(&tc.req)
			if got := h.Get("Mcp-Method"); got != tc.req.Method {
				t.Errorf("Mcp-Method = %q", got)
			}
			if got := h.Get("MCP-Protocol-Version"); got != "2026-07-28" {
				t.Errorf("MCP-Protocol-Version = %q", got)
			}
			if got := h.Get("Content-Type"); got != "application/json" {
				t.Errorf("Content-Type = %q", got)
			}
			if got := h.Get("Accept"); got != "application/json, text/event-stream" {
				t.Errorf("Accept = %q", got)
			}
			got, ok := h["Mcp-Name"]
			if tc.wantName == "" {
				if ok {
					t.Errorf("Mcp-Name = %q, want none", got)
				}
			} else if !reflect.DeepEqual(got, []string{tc.wantName}) {
				t.Errorf("Mcp-Name = %q, want %q", got, tc.wantName)
			}
		})
	}
	if h := standardHeaders(&Request{Method: "ping"}); h.Get("MCP-Protocol-Version") != "" {
		t.Errorf("no version: header %q", h.Get("MCP-Protocol-Version"))
	}
}

// seen is what the test server received.
type seen struct {
	Header http.Header
	Body   []byte
	ID     json.RawMessage
	Method string
}

type mcpServer struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []seen
	hits atomic.Int32
}

func (s *mcpServer) received() []seen {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]seen(nil), s.reqs...)
}

// newMCPServer starts a server that records each POST and lets handle answer.
func newMCPServer(t *testing.T, handle func(w http.ResponseWriter, r *http.Request, in seen)) *mcpServer {
	t.Helper()
	s := &mcpServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		body, _ := io.ReadAll(r.Body)
		var env struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.Unmarshal(body, &env)
		in := seen{Header: r.Header.Clone(), Body: body, ID: env.ID, Method: env.Method}
		s.mu.Lock()
		s.reqs = append(s.reqs, in)
		s.mu.Unlock()
		handle(w, r, in)
	}))
	t.Cleanup(s.Close)
	return s
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

func writeSSE(w http.ResponseWriter, events ...string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	for _, e := range events {
		_, _ = io.WriteString(w, e)
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
}

func newTestHTTP(t *testing.T, opts HTTPOptions) *streamableHTTP {
	t.Helper()
	tr, err := NewHTTP(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tr.Close() })
	return tr.(*streamableHTTP)
}

func TestHTTPCallHeadersAndJSON(t *testing.T) {
	srv := newMCPServer(t, func(w http.ResponseWriter, r *http.Request, in seen) {
		writeJSON(w, 200, `{"jsonrpc":"2.0","id":`+string(in.ID)+`,"result":{"content":[],"z":1.50}}`)
	})
	tr := newTestHTTP(t, HTTPOptions{URL: srv.URL + "/mcp", Header: http.Header{"authorization": {"Bearer t0k"}}})
	c := New(tr, testOptions())
	res, err := c.Call(context.Background(), "tools/call", json.RawMessage(`{"name":"execute_sql","arguments":{"region":"us-west1"}}`),
		&CallOptions{Header: http.Header{"Mcp-Param-Region": {"us-west1"}}})
	if err != nil {
		t.Fatal(err)
	}
	if string(res) != `{"content":[],"z":1.50}` {
		t.Errorf("result %s", res)
	}
	got := srv.received()
	if len(got) != 1 {
		t.Fatalf("%d requests", len(got))
	}
	h := got[0].Header
	for name, want := range map[string]string{
		"Content-Type":         "application/json",
		"Accept":               "application/json, text/event-stream",
		"Mcp-Protocol-Version": LatestVersion,
		"Mcp-Method":           "tools/call",
		"Mcp-Name":             "execute_sql",
		"Mcp-Param-Region":     "us-west1",
		"Authorization":        "Bearer t0k",
	} {
		if h.Get(name) != want {
			t.Errorf("header %s = %q, want %q", name, h.Get(name), want)
		}
	}
	// The header mirrors the body: same version as _meta.
	var body struct {
		JSONRPC string `json:"jsonrpc"`
		ID      int64  `json:"id"`
		Method  string `json:"method"`
		Params  struct {
			Meta map[string]json.RawMessage `json:"_meta"`
			Name string                     `json:"name"`
		} `json:"params"`
	}
	if err := json.Unmarshal(got[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	if body.JSONRPC != "2.0" || body.ID != 1 || body.Method != "tools/call" || body.Params.Name != "execute_sql" ||
		string(body.Params.Meta["io.modelcontextprotocol/protocolVersion"]) != `"`+h.Get("Mcp-Protocol-Version")+`"` ||
		body.Params.Meta["io.modelcontextprotocol/clientCapabilities"] == nil || body.Params.Meta["io.modelcontextprotocol/clientInfo"] == nil {
		t.Errorf("body %s", got[0].Body)
	}
}

func TestHTTPVersionRetry(t *testing.T) {
	// The conformance scenario request-metadata: the first POST is refused
	// with 400 -32022, the retry must carry a supported version in both places.
	srv := newMCPServer(t, func(w http.ResponseWriter, r *http.Request, in seen) {
		if r.Header.Get("Mcp-Protocol-Version") != LatestVersion {
			writeJSON(w, 400, `{"jsonrpc":"2.0","id":`+string(in.ID)+`,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["`+LatestVersion+`"],"requested":"`+r.Header.Get("Mcp-Protocol-Version")+`"}}}`)
			return
		}
		writeJSON(w, 200, `{"jsonrpc":"2.0","id":`+string(in.ID)+`,"result":{"tools":[]}}`)
	})
	c := New(newTestHTTP(t, HTTPOptions{URL: srv.URL}), Options{Era: EraModern, ProtocolVersion: "2025-01-01"})
	res, err := c.Call(context.Background(), "tools/list", nil, nil)
	if err != nil || string(res) != `{"tools":[]}` {
		t.Fatalf("Call = %s, %v", res, err)
	}
	got := srv.received()
	if len(got) != 2 || string(got[0].ID) == string(got[1].ID) || got[1].Header.Get("Mcp-Protocol-Version") != LatestVersion ||
		!strings.Contains(string(got[1].Body), `"io.modelcontextprotocol/protocolVersion":"`+LatestVersion+`"`) {
		t.Errorf("requests: %d, ids %s %s", len(got), got[0].ID, got[len(got)-1].ID)
	}
}

func TestHTTPSSEResponse(t *testing.T) {
	srv := newMCPServer(t, func(w http.ResponseWriter, r *http.Request, in seen) {
		writeSSE(w,
			"id: prime\ndata:\n\n", // priming event without a message
			": keep-alive\n\n",
			`event: message`+"\n"+`data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1,"total":2}}`+"\n\n",
			`event: other`+"\n"+`data: {"jsonrpc":"2.0","id":`+string(in.ID)+`,"result":{"wrong":"event type"}}`+"\n\n",
			"data: {\"jsonrpc\":\"2.0\",\r\ndata: \"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"hi\"}}\r\n\r\n",
			`data: {"jsonrpc":"2.0","id":`+string(in.ID)+`,"result":{"ok":true}}`+"\n\n",
			`data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"after":"the response"}}`+"\n\n",
		)
	})
	tr := newTestHTTP(t, HTTPOptions{URL: srv.URL})
	var notes []Notification
	msg, err := tr.RoundTrip(context.Background(), &Request{ID: 3, Method: "tools/call", Params: json.RawMessage(`{"name":"x"}`)},
		func(n Notification) { notes = append(notes, n) })
	if err != nil {
		t.Fatal(err)
	}
	if msg.Error != nil || string(msg.Result) != `{"ok":true}` || string(msg.ID) != "3" {
		t.Errorf("message %+v", msg)
	}
	if len(notes) != 2 || notes[0].Method != "notifications/progress" || notes[1].Method != "notifications/message" {
		t.Fatalf("notifications %+v", notes)
	}
	if string(notes[0].Params) != `{"progress":1,"total":2}` ||
		string(notes[0].Raw) != `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1,"total":2}}` {
		t.Errorf("notification %s / %s", notes[0].Params, notes[0].Raw)
	}
}

func TestHTTPFailureStatuses(t *testing.T) {
	tests := []struct {
		name   string
		status int
		ctype  string
		header map[string]string
		body   string
		check  func(t *testing.T, msg *Message, err error)
	}{
		{"400 with a JSON-RPC error is an answer", 400, "application/json", nil,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"]}}}`,
			func(t *testing.T, msg *Message, err error) {
				if err != nil || msg == nil || msg.Error == nil {
					t.Fatalf("got %+v, %v; want a message carrying the error", msg, err)
				}
				if msg.Error.Code != -32022 || msg.Error.HTTPStatus != 400 || string(msg.Error.Data) != `{"supported":["2026-07-28"]}` {
					t.Errorf("error %+v", msg.Error)
				}
			}},
		{"400 with a JSON-RPC error in an SSE body", 400, "text/event-stream", nil,
			"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32020,\"message\":\"Header mismatch\"}}\n\n",
			func(t *testing.T, msg *Message, err error) {
				if err != nil || msg == nil || msg.Error == nil || msg.Error.Code != -32020 || msg.Error.HTTPStatus != 400 {
					t.Fatalf("got %+v, %v", msg, err)
				}
			}},
		{"404 with -32601", 404, "application/json", nil,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`,
			func(t *testing.T, msg *Message, err error) {
				if err != nil || msg == nil || msg.Error == nil || msg.Error.Code != -32601 || msg.Error.HTTPStatus != 404 {
					t.Fatalf("got %+v, %v", msg, err)
				}
			}},
		{"404 without body", 404, "", nil, ``,
			func(t *testing.T, msg *Message, err error) {
				var he *HTTPError
				if !errors.As(err, &he) || he.Status != 404 || he.StatusText != "Not Found" {
					t.Fatalf("got %+v, %v; want *HTTPError 404", msg, err)
				}
			}},
		{"500 with text", 500, "text/plain", map[string]string{"X-Request-Id": "abc"}, "database on fire\n",
			func(t *testing.T, msg *Message, err error) {
				var he *HTTPError
				if !errors.As(err, &he) || he.Status != 500 || !strings.Contains(he.Body, "database on fire") ||
					http.Header(he.Header).Get("X-Request-Id") != "abc" || !strings.Contains(he.Error(), "database on fire") {
					t.Fatalf("got %+v, %v; want *HTTPError 500 with the body", msg, err)
				}
			}},
		{"400 with JSON that is not JSON-RPC", 400, "application/json", nil, `{"error":"bad"}`,
			func(t *testing.T, msg *Message, err error) {
				if !isErr[*HTTPError](err) {
					t.Fatalf("got %+v, %v; want *HTTPError", msg, err)
				}
			}},
		{"401 with WWW-Authenticate", 401, "", map[string]string{"WWW-Authenticate": `Bearer resource_metadata="http://x/.well-known/oauth-protected-resource"`}, ``,
			func(t *testing.T, msg *Message, err error) {
				var ae *AuthError
				if !errors.As(err, &ae) || ae.Status != 401 || ae.WWWAuthenticate != `Bearer resource_metadata="http://x/.well-known/oauth-protected-resource"` {
					t.Fatalf("got %+v, %v; want *AuthError", msg, err)
				}
			}},
		{"401 with a JSON-RPC body is still an auth error", 401, "application/json", nil,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"unauthorized"}}`,
			func(t *testing.T, msg *Message, err error) {
				if !isErr[*AuthError](err) {
					t.Fatalf("got %+v, %v; want *AuthError", msg, err)
				}
			}},
		{"403", 403, "", map[string]string{"WWW-Authenticate": `Bearer error="insufficient_scope"`}, ``,
			func(t *testing.T, msg *Message, err error) {
				var ae *AuthError
				if !errors.As(err, &ae) || ae.Status != 403 || ae.WWWAuthenticate != `Bearer error="insufficient_scope"` {
					t.Fatalf("got %+v, %v; want *AuthError 403", msg, err)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := newMCPServer(t, func(w http.ResponseWriter, r *http.Request, in seen) {
				for k, v := range tc.header {
					w.Header().Set(k, v)
				}
				if tc.ctype != "" {
					w.Header().Set("Content-Type", tc.ctype)
				}
				w.WriteHeader(tc.status)
				_, _ = io.WriteString(w, tc.body)
			})
			tr := newTestHTTP(t, HTTPOptions{URL: srv.URL})
			msg, err := tr.RoundTrip(context.Background(), &Request{ID: 1, Method: "tools/list", Params: json.RawMessage(`{}`)}, nil)
			tc.check(t, msg, err)
		})
	}
}

func TestHTTPProtocolErrors(t *testing.T) {
	tests := []struct {
		name   string
		handle func(w http.ResponseWriter, id string)
		want   func(error) bool
	}{
		{"wrong id", func(w http.ResponseWriter, id string) {
			writeJSON(w, 200, `{"jsonrpc":"2.0","id":99,"result":{}}`)
		}, isErr[*ProtocolError]},
		{"wrong id on SSE", func(w http.ResponseWriter, id string) {
			writeSSE(w, `data: {"jsonrpc":"2.0","id":99,"result":{}}`+"\n\n")
		}, isErr[*ProtocolError]},
		{"text/html", func(w http.ResponseWriter, id string) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = io.WriteString(w, `<html>{"jsonrpc":"2.0","id":`+id+`,"result":{}}</html>`)
		}, isErr[*ProtocolError]},
		{"invalid JSON", func(w http.ResponseWriter, id string) {
			writeJSON(w, 200, `{"jsonrpc":"2.0","id":`+id+`,`)
		}, isErr[*ProtocolError]},
		{"notification instead of a response", func(w http.ResponseWriter, id string) {
			writeJSON(w, 200, `{"jsonrpc":"2.0","method":"notifications/progress"}`)
		}, isErr[*ProtocolError]},
		{"202 to a request", func(w http.ResponseWriter, id string) {
			w.WriteHeader(202)
		}, isErr[*ProtocolError]},
		{"server request on the response stream", func(w http.ResponseWriter, id string) {
			writeSSE(w, `data: {"jsonrpc":"2.0","id":"s1","method":"elicitation/create","params":{}}`+"\n\n")
		}, isErr[*ProtocolError]},
		{"invalid JSON on SSE", func(w http.ResponseWriter, id string) {
			writeSSE(w, "data: nope\n\n")
		}, isErr[*ProtocolError]},
		{"SSE stream closed without a response", func(w http.ResponseWriter, id string) {
			writeSSE(w, `data: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}`+"\n\n")
		}, isErr[*ConnError]},
		{"empty SSE stream", func(w http.ResponseWriter, id string) {
			writeSSE(w)
		}, isErr[*ConnError]},
		{"response in an unterminated SSE event", func(w http.ResponseWriter, id string) {
			writeSSE(w, `data: {"jsonrpc":"2.0","id":`+id+`,"result":{}}`+"\n")
		}, isErr[*ConnError]},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := newMCPServer(t, func(w http.ResponseWriter, r *http.Request, in seen) { tc.handle(w, string(in.ID)) })
			tr := newTestHTTP(t, HTTPOptions{URL: srv.URL})
			msg, err := tr.RoundTrip(context.Background(), &Request{ID: 5, Method: "tools/list", Params: json.RawMessage(`{}`)}, nil)
			if !tc.want(err) {
				t.Errorf("got %+v, %v (%T)", msg, err, err)
			}
		})
	}
}

func TestHTTPAcceptedVariants(t *testing.T) {
	tests := []struct {
		name   string
		handle func(w http.ResponseWriter, id string)
	}{
		{"string id echoing ours", func(w http.ResponseWriter, id string) {
			writeJSON(w, 200, `{"jsonrpc":"2.0","id":"5","result":{}}`)
		}},
		{"no Content-Type", func(w http.ResponseWriter, id string) {
			w.Header()["Content-Type"] = nil
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":`+id+`,"result":{}}`)
		}},
		{"JSON with charset", func(w http.ResponseWriter, id string) {
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":`+id+`,"result":{}}`+"\n")
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := newMCPServer(t, func(w http.ResponseWriter, r *http.Request, in seen) { tc.handle(w, string(in.ID)) })
			tr := newTestHTTP(t, HTTPOptions{URL: srv.URL})
			msg, err := tr.RoundTrip(context.Background(), &Request{ID: 5, Method: "tools/list", Params: json.RawMessage(`{}`)}, nil)
			if err != nil || msg == nil || string(msg.Result) != `{}` {
				t.Errorf("got %+v, %v", msg, err)
			}
		})
	}
}

func TestHTTPNotification(t *testing.T) {
	srv := newMCPServer(t, func(w http.ResponseWriter, r *http.Request, in seen) { w.WriteHeader(202) })
	tr := newTestHTTP(t, HTTPOptions{URL: srv.URL})
	msg, err := tr.RoundTrip(context.Background(), &Request{Method: "notifications/cancelled", Params: json.RawMessage(`{"requestId":1}`)}, nil)
	if msg != nil || err != nil {
		t.Errorf("got %+v, %v; want nil, nil", msg, err)
	}
	if got := srv.received(); len(got) != 1 || strings.Contains(string(got[0].Body), `"id"`) {
		t.Errorf("sent %q", got[0].Body)
	}
}

func TestHTTPTooLarge(t *testing.T) {
	big := `{"jsonrpc":"2.0","id":1,"result":{"x":"` + strings.Repeat("a", 2000) + `"}}`
	for _, sse := range []bool{false, true} {
		srv := newMCPServer(t, func(w http.ResponseWriter, r *http.Request, in seen) {
			if sse {
				writeSSE(w, "data: "+big+"\n\n")
			} else {
				writeJSON(w, 200, big)
			}
		})
		tr := newTestHTTP(t, HTTPOptions{URL: srv.URL, MaxMessage: 1000})
		_, err := tr.RoundTrip(context.Background(), &Request{ID: 1, Method: "x", Params: json.RawMessage(`{}`)}, nil)
		if !isErr[*ProtocolError](err) {
			t.Errorf("sse=%v: err = %v, want *ProtocolError", sse, err)
		}
	}
}

func TestHTTPDryRun(t *testing.T) {
	srv := newMCPServer(t, func(w http.ResponseWriter, r *http.Request, in seen) {
		writeJSON(w, 200, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	})
	var got []DryRunRequest
	tr := newTestHTTP(t, HTTPOptions{URL: srv.URL + "/mcp", Header: http.Header{"X-Api-Key": {"k"}},
		DryRun: func(r DryRunRequest) { got = append(got, r) }})
	c := New(tr, testOptions())
	_, err := c.Call(context.Background(), "tools/call", json.RawMessage(`{"name":"echo"}`), nil)
	if !errors.Is(err, ErrDryRun) {
		t.Fatalf("err = %v, want ErrDryRun", err)
	}
	if n := srv.hits.Load(); n != 0 {
		t.Errorf("the server was contacted %d times", n)
	}
	if len(got) != 1 {
		t.Fatalf("callback called %d times", len(got))
	}
	r := got[0]
	if r.HTTPMethod != "POST" || r.URL != srv.URL+"/mcp" || r.Header.Get("Mcp-Method") != "tools/call" ||
		r.Header.Get("Mcp-Name") != "echo" || r.Header.Get("X-Api-Key") != "k" || r.Header.Get("Mcp-Protocol-Version") != LatestVersion {
		t.Errorf("dry run request %+v", r)
	}
	if !strings.HasPrefix(string(r.Body), `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{`) {
		t.Errorf("body %s", r.Body)
	}
}

func TestNewHTTP(t *testing.T) {
	for _, u := range []string{"ftp://example.com/mcp", "http://", "http:///mcp", "https://", "example.com/mcp", "localhost:8080", "file:///tmp/x", "://x", "http://a b/"} {
		if tr, err := NewHTTP(HTTPOptions{URL: u}); err == nil {
			t.Errorf("NewHTTP(%q) = %v, want an error", u, tr)
		}
	}
	for _, u := range []string{"http://localhost:8080/mcp", "https://example.com", "http://127.0.0.1:1/mcp?x=1", "http://[::1]:9/"} {
		tr, err := NewHTTP(HTTPOptions{URL: u})
		if err != nil {
			t.Errorf("NewHTTP(%q): %v", u, err)
			continue
		}
		if st, ok := tr.(*streamableHTTP); !ok || tr.Capabilities().Binding != BindingStreamable || st.opts.MaxMessage != 64<<20 {
			t.Errorf("NewHTTP(%q): %T, binding %q", u, tr, tr.Capabilities().Binding)
		}
	}
}

func TestHTTPConnectionRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	tr := newTestHTTP(t, HTTPOptions{URL: "http://" + addr + "/mcp"})
	_, err = tr.RoundTrip(context.Background(), &Request{ID: 1, Method: "ping", Params: json.RawMessage(`{}`)}, nil)
	var ce *ConnError
	if !errors.As(err, &ce) || !strings.Contains(ce.Error(), addr) {
		t.Errorf("err = %v, want *ConnError naming the URL", err)
	}
}

func TestHTTPTimeout(t *testing.T) {
	srv := newMCPServer(t, func(w http.ResponseWriter, r *http.Request, in seen) {
		if in.Method == "sse" {
			writeSSE(w, `data: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}`+"\n\n")
		}
		<-r.Context().Done()
	})
	for _, method := range []string{"json", "sse"} {
		c := New(newTestHTTP(t, HTTPOptions{URL: srv.URL}), Options{Era: EraModern, Timeout: 50 * time.Millisecond})
		_, err := c.Call(context.Background(), method, nil, nil)
		var te *TimeoutError
		if !errors.As(err, &te) || te.Method != method {
			t.Errorf("%s: err = %v (%T), want *TimeoutError", method, err, err)
		}
	}
}

func TestHTTPTrace(t *testing.T) {
	srv := newMCPServer(t, func(w http.ResponseWriter, r *http.Request, in seen) {
		writeJSON(w, 200, `{"jsonrpc":"2.0","id":1,"result":{}}`+"\n")
	})
	var evs []TraceEvent
	tr := newTestHTTP(t, HTTPOptions{URL: srv.URL, Trace: func(e TraceEvent) {
		e.Body = append([]byte(nil), e.Body...)
		evs = append(evs, e)
	}})
	if _, err := tr.RoundTrip(context.Background(), &Request{ID: 1, Method: "ping", Params: json.RawMessage(`{}`)}, nil); err != nil {
		t.Fatal(err)
	}
	if len(evs) != 3 {
		t.Fatalf("%d trace events: %+v", len(evs), evs)
	}
	if evs[0].Dir != "send" || evs[0].HTTPMethod != "POST" || evs[0].Header.Get("Mcp-Method") != "ping" ||
		string(evs[0].Body) != `{"jsonrpc":"2.0","id":1,"method":"ping","params":{}}` {
		t.Errorf("send event %+v", evs[0])
	}
	if evs[1].Dir != "recv" || !strings.HasPrefix(evs[1].Status, "200") {
		t.Errorf("status event %+v", evs[1])
	}
	if evs[2].Dir != "recv" || string(evs[2].Body) != `{"jsonrpc":"2.0","id":1,"result":{}}` {
		t.Errorf("body event %+v", evs[2])
	}
}

// Regression (fixed): once wrong, now pinned:
//
//	HTTPOptions.HTTPClient documents that the default client "never
//	follows redirects silently for POST", and RoundTrip treats any
//	status >= 300 as a failure, but NewHTTP builds an http.Client
//	without CheckRedirect, so net/http follows a 307/308 by re-POSTing
//	the body to the new location (and a 301/302/303 by switching to
//	GET).
func TestHTTPDoesNotFollowRedirects(t *testing.T) {
	for _, status := range []int{http.StatusTemporaryRedirect, http.StatusFound} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			var elsewhere atomic.Int32
			mux := http.NewServeMux()
			mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, "/elsewhere", status)
			})
			mux.HandleFunc("/elsewhere", func(w http.ResponseWriter, r *http.Request) {
				elsewhere.Add(1)
				writeJSON(w, 200, `{"jsonrpc":"2.0","id":1,"result":{"redirected":true}}`)
			})
			srv := httptest.NewServer(mux)
			defer srv.Close()
			tr := newTestHTTP(t, HTTPOptions{URL: srv.URL + "/mcp"})
			msg, err := tr.RoundTrip(context.Background(), &Request{ID: 1, Method: "ping", Params: json.RawMessage(`{}`)}, nil)
			var he *HTTPError
			if !errors.As(err, &he) || he.Status != status {
				t.Errorf("got %+v, %v; want *HTTPError %d", msg, err, status)
			} else if he.Location() != "/elsewhere" || !strings.Contains(he.Error(), "to /elsewhere") {
				t.Errorf("%q does not say where the redirect goes", he.Error())
			}
			if n := elsewhere.Load(); n != 0 {
				t.Errorf("the redirect was followed (%d requests to /elsewhere)", n)
			}
		})
	}
}
