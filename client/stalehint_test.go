package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"time"
)

// A list whose ttlMs is 0 is kept stale on disk: it never answers, but it
// is found (Get) and is not fresh; other methods' are not kept.
func TestCacheKeepsStaleLists(t *testing.T) {
	c := &Cache{Dir: t.TempDir(), Version: "v1"}
	k := CacheKey{Server: "http://x/mcp", Version: LatestVersion, Method: "tools/list", Params: "{}"}
	if err := c.PutTTL(k, json.RawMessage(`{"tools":[],"ttlMs":0}`), 0); err != nil {
		t.Fatal(err)
	}
	e, ok := c.Get(k)
	if !ok || e.Fresh(time.Now()) || e.TTLMs != 0 {
		t.Fatalf("PutTTL 0: entry %+v, %v; want a stale one", e, ok)
	}

	// Client.store keeps lists whatever their ttlMs, and nothing else.
	mem := &MemoryCache{}
	ft := &fakeTransport{kind: "http", handle: func(_ context.Context, req *Request, _ http.Header, _ func(Notification)) (*Message, error) {
		switch req.Method {
		case "tools/list":
			return reply(req.ID, `{"tools":[],"ttlMs":0}`)
		case "prompts/list":
			return reply(req.ID, `{"prompts":[]}`)
		}
		return reply(req.ID, `{"contents":[],"ttlMs":0}`)
	}}
	opts := testOptions()
	opts.Cache = CacheOptions{Store: mem}
	cl := New(ft, opts)
	ctx := context.Background()
	for _, m := range []string{"tools/list", "prompts/list", "resources/read"} {
		params := json.RawMessage(`{}`)
		if m == "resources/read" {
			params = json.RawMessage(`{"uri":"a://b"}`)
		}
		if _, err := cl.Call(ctx, m, params, nil); err != nil {
			t.Fatal(err)
		}
		k, _ := cl.cacheKey(m, params)
		_, ok := mem.Get(k)
		if want := m != "resources/read"; ok != want {
			t.Errorf("%s stored = %v, want %v", m, ok, want)
		}
	}
	// A stale list is never the answer of a list request.
	if _, err := cl.List(ctx, "tools/list", "tools", "", true); err != nil {
		t.Fatal(err)
	}
	if got := methods(ft.requests()); got != "tools/list prompts/list resources/read tools/list" {
		t.Errorf("requests %s, want tools/list sent again", got)
	}
}

// staleServer answers tools/list with ttlMs 0 and tools/call as call says.
func staleServer(list string, call func(n int, name string) any) *fakeTransport {
	n := 0
	return &fakeTransport{kind: "http", handle: func(_ context.Context, req *Request, _ http.Header, _ func(Notification)) (*Message, error) {
		if req.Method == "tools/list" {
			return reply(req.ID, list)
		}
		var p struct{ Name string }
		_ = json.Unmarshal(req.Params, &p)
		n++
		return reply(req.ID, call(n, p.Name))
	}}
}

// The retry rule: a call built from a cached list (here stale, ttlMs 0) is
// sent again after a fresh tools/list only when the answer proves the
// list wrong before the tool ran (-32602, HeaderMismatch, a tool the list
// lacks, arguments it refuses), once; a list fetched for the call is
// trusted; a result, isError or any other error is never retried.
func TestCallToolStaleHint(t *testing.T) {
	const list = `{"tools":[` + validTool + `],"ttlMs":0}`
	invalid := &RPCError{Code: CodeInvalidParams, Message: "Unknown tool", HTTPStatus: 400}
	tests := []struct {
		name      string
		tool      string
		args      string
		warm      bool // a first call fills the cache
		serverLst string
		call      func(n int, name string) any
		want      string // requests of the (last) call
		wantErr   bool
	}{
		{name: "a warm call is one request", tool: "valid_tool", warm: true,
			call: func(int, string) any { return `{"content":[]}` }, want: "tools/call"},
		{name: "isError is never retried", tool: "valid_tool", warm: true,
			call: func(int, string) any { return `{"content":[],"isError":true}` }, want: "tools/call"},
		{name: "another error is never retried", tool: "valid_tool", warm: true, wantErr: true,
			call: func(n int, _ string) any {
				if n == 1 {
					return `{"content":[]}`
				}
				return &RPCError{Code: CodeInternalError, Message: "boom"}
			}, want: "tools/call"},
		{name: "-32602 after a stale hint: one retry", tool: "valid_tool", warm: true,
			call: func(n int, _ string) any {
				if n == 2 { // the warm-up call was 1
					return invalid
				}
				return `{"content":[]}`
			}, want: "tools/call tools/list tools/call"},
		{name: "-32602 twice: one retry only", tool: "valid_tool", warm: true, wantErr: true,
			call: func(n int, _ string) any {
				if n >= 2 {
					return invalid
				}
				return `{"content":[]}`
			}, want: "tools/call tools/list tools/call"},
		{name: "HeaderMismatch after a stale hint: one retry", tool: "valid_tool", warm: true,
			call: func(n int, _ string) any {
				if n == 2 {
					return &RPCError{Code: CodeHeaderMismatch, Message: "Header mismatch", HTTPStatus: 400}
				}
				return `{"content":[]}`
			}, want: "tools/call tools/list tools/call"},
		{name: "-32602 after a fetched list: no retry", tool: "valid_tool", wantErr: true,
			call: func(int, string) any { return invalid }, want: "tools/list tools/call"},
		{name: "a tool the stale list lacks: fetched again", tool: "new_tool", warm: true,
			serverLst: `{"tools":[` + validTool + `,{"name":"new_tool","inputSchema":{"type":"object"}}],"ttlMs":0}`,
			call:      func(int, string) any { return `{"content":[]}` }, want: "tools/list tools/call"},
		{name: "arguments the stale list refuses: fetched again", tool: "valid_tool", args: `{"q":1}`, warm: true,
			serverLst: `{"tools":[{"name":"valid_tool","inputSchema":{"type":"object","properties":{"q":{"type":"integer"}}}}],"ttlMs":0}`,
			call:      func(int, string) any { return `{"content":[]}` }, want: "tools/list tools/call"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			served := list
			ft := staleServer(list, tc.call)
			inner := ft.handle
			ft.handle = func(ctx context.Context, req *Request, h http.Header, n func(Notification)) (*Message, error) {
				if req.Method == "tools/list" {
					return reply(req.ID, served)
				}
				return inner(ctx, req, h, n)
			}
			opts := testOptions()
			opts.Cache = CacheOptions{Store: &Cache{Dir: t.TempDir(), Version: "v1"}}
			c := New(ft, opts)
			ctx := context.Background()
			// Arguments are refused locally when the tool's schema lacks
			// them (as mcpctl's PrepareArgs does).
			co := &CallOptions{PrepareArgs: func(tool, args json.RawMessage) (json.RawMessage, error) {
				var d struct {
					InputSchema struct{ Properties map[string]any } `json:"inputSchema"`
				}
				_ = json.Unmarshal(tool, &d)
				var a map[string]any
				_ = json.Unmarshal(args, &a)
				for k := range a {
					if _, ok := d.InputSchema.Properties[k]; !ok {
						return nil, errors.New("undeclared " + k)
					}
				}
				return args, nil
			}}
			if tc.warm {
				if _, err := c.CallTool(ctx, "valid_tool", json.RawMessage(`{"region":"eu"}`), co); err != nil {
					t.Fatal(err)
				}
			}
			if tc.serverLst != "" {
				served = tc.serverLst
			}
			before := len(ft.requests())
			args := tc.args
			if args == "" {
				args = `{"region":"eu"}`
				if tc.tool != "valid_tool" {
					args = `{}`
				}
			}
			_, err := c.CallTool(ctx, tc.tool, json.RawMessage(args), co)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if got := methods(ft.requests()[before:]); got != tc.want {
				t.Errorf("requests %q, want %q", got, tc.want)
			}
		})
	}
}

// A list fetched with other client capabilities is not used: a server
// may list more to a client that offers roots or sampling.
func TestCacheKeyCoversCapabilities(t *testing.T) {
	store := &Cache{Dir: t.TempDir(), Version: "v1"}
	ft := staleServer(`{"tools":[`+validTool+`],"ttlMs":60000}`, func(int, string) any { return `{"content":[]}` })
	ctx := context.Background()
	for i, caps := range []string{`{}`, `{"roots":{}}`, `{"roots":{}}`} {
		opts := testOptions()
		opts.Capabilities = json.RawMessage(caps)
		opts.Cache = CacheOptions{Store: store}
		before := len(ft.requests())
		if _, err := New(ft, opts).List(ctx, "tools/list", "tools", "", true); err != nil {
			t.Fatal(err)
		}
		if sent := len(ft.requests()) - before; sent != map[int]int{0: 1, 1: 1, 2: 0}[i] {
			t.Errorf("list %d with %s: %d requests", i, caps, sent)
		}
	}
	if CapabilitiesDigest(json.RawMessage(`{}`)) != "" || CapabilitiesDigest(json.RawMessage(`{"roots":{}}`)) == "" {
		t.Error("CapabilitiesDigest: {} must be \"\" (keys of clients that declare nothing), others not")
	}
}

// A stale first page whose next page the cache lacks: the page is asked
// for with the stale cursor, and when the server refuses it the list is
// fetched from the start, then the tool called (once).
func TestCallToolStaleHintPartialList(t *testing.T) {
	store := &Cache{Dir: t.TempDir(), Version: "v1"}
	ft := &fakeTransport{kind: "http", handle: func(_ context.Context, req *Request, _ http.Header, _ func(Notification)) (*Message, error) {
		switch req.Method {
		case "tools/list":
			if bytes.Contains(req.Params, []byte(`"cursor"`)) {
				return reply(req.ID, &RPCError{Code: CodeInvalidParams, Message: "expired cursor"})
			}
			return reply(req.ID, `{"tools":[`+validTool+`],"ttlMs":0}`)
		}
		return reply(req.ID, `{"content":[]}`)
	}}
	opts := testOptions()
	opts.Cache = CacheOptions{Store: store}
	c := New(ft, opts)
	k, _ := c.cacheKey("tools/list", json.RawMessage(`{}`))
	if err := store.PutTTL(k, json.RawMessage(`{"tools":[],"nextCursor":"gone","ttlMs":0}`), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CallTool(context.Background(), "valid_tool", json.RawMessage(`{"region":"eu"}`), nil); err != nil {
		t.Fatal(err)
	}
	if got := methods(ft.requests()); got != "tools/list tools/list tools/call" {
		t.Errorf("requests %q", got)
	}
}
