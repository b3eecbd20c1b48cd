package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strconv"
	"sync"
	"testing"
	"time"
)

// fakeTransport records every request and answers with handle.
type fakeTransport struct {
	kind   string
	handle func(ctx context.Context, req *Request, extra http.Header, notify func(Notification)) (*Message, error)

	mu     sync.Mutex
	reqs   []Request
	extras []http.Header
	closed int
}

func (f *fakeTransport) RoundTrip(ctx context.Context, req *Request, notify func(Notification)) (*Message, error) {
	f.mu.Lock()
	cp := *req
	cp.Params = append(json.RawMessage(nil), req.Params...)
	f.reqs = append(f.reqs, cp)
	f.extras = append(f.extras, req.Header)
	f.mu.Unlock()
	return f.handle(ctx, req, req.Header, notify)
}

func (f *fakeTransport) Close() error {
	f.mu.Lock()
	f.closed++
	f.mu.Unlock()
	return nil
}

// Capabilities implements Transport: kind "http" is a Streamable HTTP
// transport (headers), anything else a stdio one.
func (f *fakeTransport) Capabilities() Capabilities {
	if f.kind == "http" {
		return Capabilities{Binding: BindingStreamable, Headers: true}
	}
	return Capabilities{Binding: BindingStdio, Stateful: true}
}

func (f *fakeTransport) requests() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Request(nil), f.reqs...)
}

// fakeWithTail is a transport that also reports a stderr tail, like stdio.
type fakeWithTail struct{ *fakeTransport }

func (f fakeWithTail) Capabilities() Capabilities {
	caps := f.fakeTransport.Capabilities()
	caps.StderrTail = func() []string { return []string{"last words"} }
	return caps
}

// answers replies to the n-th request (0-based) with replies[n], echoing
// the request's id; a reply is a result (raw JSON) or an *RPCError.
func answers(replies ...any) func(context.Context, *Request, http.Header, func(Notification)) (*Message, error) {
	var mu sync.Mutex
	n := 0
	return func(_ context.Context, req *Request, _ http.Header, _ func(Notification)) (*Message, error) {
		mu.Lock()
		i := n
		n++
		mu.Unlock()
		if i >= len(replies) {
			return nil, errors.New("fake: unexpected extra request " + req.Method)
		}
		return reply(req.ID, replies[i])
	}
}

func reply(id int64, r any) (*Message, error) {
	m := &Message{JSONRPC: "2.0", ID: json.RawMessage(strconv.FormatInt(id, 10))}
	switch r := r.(type) {
	case string:
		m.Result = json.RawMessage(r)
	case *RPCError:
		e := *r
		m.Error = &e
	case error:
		return nil, r
	case *Message:
		return r, nil
	default:
		panic("fake: bad reply")
	}
	return m, nil
}

func metaParam(t *testing.T, params json.RawMessage) map[string]json.RawMessage {
	t.Helper()
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		t.Fatalf("params %s: %v", params, err)
	}
	return p.Meta
}

const (
	testInfo = `{"name":"mcpctl","version":"1.2.3"}`
	ourMeta  = `"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":` + testInfo + `,"progressToken":1`
)

func testOptions() Options {
	return Options{ClientInfo: Implementation{Name: "mcpctl", Version: "1.2.3"}, Era: EraModern}
}

func TestWithMeta(t *testing.T) {
	tests := []struct {
		name   string
		opts   Options
		params string
		want   string
	}{
		{"nil params", testOptions(), ``, `{"_meta":{` + ourMeta + `}}`},
		{"null params", testOptions(), `null`, `{"_meta":{` + ourMeta + `}}`},
		{"empty object", testOptions(), `{}`, `{"_meta":{` + ourMeta + `}}`},
		{"whitespace only", testOptions(), " \n ", `{"_meta":{` + ourMeta + `}}`},
		{"_meta goes first, other members keep order and bytes", testOptions(),
			`{"name":"echo", "arguments":{"z":1.50,"a":[1, 2]}}`,
			`{"_meta":{` + ourMeta + `},"name":"echo","arguments":{"z":1.50,"a":[1, 2]}}`},
		{"user _meta keys kept in place, reserved ones overridden", testOptions(),
			`{"name":"x","_meta":{"progressToken":"p1","io.modelcontextprotocol/protocolVersion":"1999-01-01","vendor.example/k":{"a":true},"io.modelcontextprotocol/clientInfo":{"name":"evil"}}}`,
			`{"_meta":{"progressToken":"p1","io.modelcontextprotocol/protocolVersion":"2026-07-28","vendor.example/k":{"a":true},"io.modelcontextprotocol/clientInfo":` + testInfo + `,"io.modelcontextprotocol/clientCapabilities":{}},"name":"x"}`},
		{"empty user _meta", testOptions(), `{"_meta":{},"a":1}`, `{"_meta":{` + ourMeta + `},"a":1}`},
		{"declared capabilities", Options{Era: EraModern, ClientInfo: Implementation{Name: "c", Version: "0"}, Capabilities: json.RawMessage(`{"elicitation":{}}`)},
			`{}`, `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"0"},"progressToken":1}}`},
		{"no client name: no clientInfo", Options{Era: EraModern}, `{}`,
			`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":1}}`},
		{"another version", Options{Era: EraModern, ProtocolVersion: "2030-01-01"}, `{}`,
			`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2030-01-01","io.modelcontextprotocol/clientCapabilities":{},"progressToken":1}}`},
		{"log level", Options{Era: EraModern, LogLevel: "debug"}, `{}`,
			`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":1,"io.modelcontextprotocol/logLevel":"debug"}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ft := &fakeTransport{handle: answers(`{}`)}
			c := New(ft, tc.opts)
			if _, err := c.Call(context.Background(), "x/y", json.RawMessage(tc.params), nil); err != nil {
				t.Fatal(err)
			}
			reqs := ft.requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			if got := string(reqs[0].Params); got != tc.want {
				t.Errorf("params\n got %s\nwant %s", got, tc.want)
			}
			if reqs[0].Version != c.Version() {
				t.Errorf("Request.Version = %q, want %q", reqs[0].Version, c.Version())
			}
		})
	}
}

func TestWithMetaParamsError(t *testing.T) {
	tests := []struct{ name, params string }{
		{"array", `[1,2]`},
		{"string", `"str"`},
		{"number", `42`},
		{"true", `true`},
		{"invalid JSON", `{"a":`},
		{"_meta array", `{"_meta":[1]}`},
		{"_meta string", `{"_meta":"x"}`},
		// Regression (fixed): once wrong, now pinned:
		//   the object splitter (now ojson.SplitObject) stopped at the first
		//   member it could not find and never checked for the closing brace
		//   or trailing data, so these were silently repaired or truncated
		//   instead of rejected.
		{"unterminated object", `{"a":1`},
		{"trailing data", `{"a":1} {"b":2}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ft := &fakeTransport{handle: answers(`{}`)}
			c := New(ft, testOptions())
			res, err := c.Call(context.Background(), "x/y", json.RawMessage(tc.params), nil)
			var pe *ParamsError
			if !errors.As(err, &pe) {
				t.Fatalf("Call with params %s = %s, %v; want *ParamsError (sent %s)", tc.params, res, err, paramsSent(ft))
			}
			if n := len(ft.requests()); n != 0 {
				t.Errorf("%d requests sent, want none", n)
			}
		})
	}
}

func paramsSent(ft *fakeTransport) string {
	var s []string
	for _, r := range ft.requests() {
		s = append(s, string(r.Params))
	}
	b, _ := json.Marshal(s)
	return string(b)
}

func unsupported(supported ...string) *RPCError {
	data, _ := json.Marshal(map[string]any{"supported": supported, "requested": "x"})
	return &RPCError{Code: CodeUnsupportedProtocolVersion, Message: "Unsupported protocol version", Data: data, HTTPStatus: 400}
}

func TestCallVersionRetry(t *testing.T) {
	ft := &fakeTransport{handle: answers(unsupported("2024-11-05", LatestVersion), `{"ok":true}`)}
	c := New(ft, Options{Era: EraModern, ProtocolVersion: "2025-01-01"})
	res, err := c.Call(context.Background(), "tools/list", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(res) != `{"ok":true}` {
		t.Errorf("result %s", res)
	}
	reqs := ft.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if reqs[0].ID >= reqs[1].ID {
		t.Errorf("retry reused or lowered the id: %d then %d", reqs[0].ID, reqs[1].ID)
	}
	for i, want := range []string{"2025-01-01", LatestVersion} {
		if reqs[i].Version != want {
			t.Errorf("request %d Version = %q, want %q", i, reqs[i].Version, want)
		}
		if got := string(metaParam(t, reqs[i].Params)["io.modelcontextprotocol/protocolVersion"]); got != strconv.Quote(want) {
			t.Errorf("request %d _meta protocolVersion = %s, want %q", i, got, want)
		}
	}
	if c.Version() != LatestVersion {
		t.Errorf("Version() = %q after the retry, want %q", c.Version(), LatestVersion)
	}
	// The negotiated version sticks for later calls.
	ft.handle = answers(`{}`)
	if _, err := c.Call(context.Background(), "ping", nil, nil); err != nil {
		t.Fatal(err)
	}
	if r := ft.requests()[2]; r.Version != LatestVersion {
		t.Errorf("next call declares %q", r.Version)
	}
}

func TestCallVersionRetrySameVersion(t *testing.T) {
	// The conformance scenario request-metadata rejects the first request
	// whatever it carries; the retry declares the same version again.
	ft := &fakeTransport{handle: answers(unsupported(LatestVersion), `{}`)}
	c := New(ft, testOptions())
	if _, err := c.Call(context.Background(), "server/discover", nil, nil); err != nil {
		t.Fatal(err)
	}
	if reqs := ft.requests(); len(reqs) != 2 || reqs[1].Version != LatestVersion || reqs[0].ID == reqs[1].ID {
		t.Errorf("requests: %+v", reqs)
	}
}

func TestCallVersionErrors(t *testing.T) {
	tests := []struct {
		name     string
		opts     Options
		replies  []any
		wantReqs int
		check    func(t *testing.T, err error)
		wantVers string // c.Version() afterwards
	}{
		{"no version in common", Options{Era: EraModern}, []any{unsupported("2024-11-05", "2025-03-26")}, 1,
			func(t *testing.T, err error) {
				var ve *VersionError
				if !errors.As(err, &ve) {
					t.Fatalf("err = %v, want *VersionError", err)
				}
				if !reflect.DeepEqual(ve.Theirs, []string{"2024-11-05", "2025-03-26"}) || !reflect.DeepEqual(ve.Ours, modernVersions) {
					t.Errorf("VersionError %+v", ve)
				}
			}, LatestVersion},
		{"no supported list", Options{Era: EraModern}, []any{&RPCError{Code: CodeUnsupportedProtocolVersion, Message: "no"}}, 1,
			func(t *testing.T, err error) {
				var ve *VersionError
				if !errors.As(err, &ve) || len(ve.Theirs) != 0 {
					t.Fatalf("err = %v, want *VersionError with no Theirs", err)
				}
			}, LatestVersion},
		{"pinned version not supported", Options{Era: EraModern, ProtocolVersion: "2025-01-01", PinVersion: true}, []any{unsupported(LatestVersion)}, 1,
			func(t *testing.T, err error) {
				var ve *VersionError
				if !errors.As(err, &ve) || !reflect.DeepEqual(ve.Ours, []string{"2025-01-01"}) {
					t.Fatalf("err = %v, want *VersionError with Ours = [2025-01-01]", err)
				}
			}, "2025-01-01"},
		{"retries only once", Options{Era: EraModern}, []any{unsupported(LatestVersion), unsupported(LatestVersion), `{}`}, 2,
			func(t *testing.T, err error) {
				var re *RPCError
				if !errors.As(err, &re) || re.Code != CodeUnsupportedProtocolVersion {
					t.Fatalf("err = %v, want the second -32022 as *RPCError", err)
				}
			}, LatestVersion},
		{"other RPC errors are not retried", Options{Era: EraModern}, []any{&RPCError{Code: CodeMethodNotFound, Message: "Method not found", HTTPStatus: 404}, `{}`}, 1,
			func(t *testing.T, err error) {
				var re *RPCError
				if !errors.As(err, &re) || re.Code != CodeMethodNotFound || re.HTTPStatus != 404 || re.Message != "Method not found" {
					t.Fatalf("err = %v, want *RPCError -32601", err)
				}
			}, LatestVersion},
		{"transport error passes through", Options{Era: EraModern}, []any{&ConnError{Msg: "refused"}}, 1,
			func(t *testing.T, err error) {
				var ce *ConnError
				if !errors.As(err, &ce) {
					t.Fatalf("err = %v, want *ConnError", err)
				}
			}, LatestVersion},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ft := &fakeTransport{handle: answers(tc.replies...)}
			c := New(ft, tc.opts)
			res, err := c.Call(context.Background(), "tools/list", nil, nil)
			if err == nil {
				t.Fatalf("no error; result %s", res)
			}
			tc.check(t, err)
			if n := len(ft.requests()); n != tc.wantReqs {
				t.Errorf("%d requests, want %d", n, tc.wantReqs)
			}
			if c.Version() != tc.wantVers {
				t.Errorf("Version() = %q, want %q", c.Version(), tc.wantVers)
			}
		})
	}
}

func TestCallResultType(t *testing.T) {
	tests := []struct {
		name    string
		result  any
		want    string // expected raw result when no error
		wantErr func(error) bool
	}{
		{"absent means complete", `{"content":[]}`, `{"content":[]}`, nil},
		{"complete", `{"resultType":"complete","content":[]}`, `{"resultType":"complete","content":[]}`, nil},
		{"null resultType means complete", `{"resultType":null}`, `{"resultType":null}`, nil},
		{"raw result kept byte for byte", `{"z": 1.50, "a": 9007199254740993}`, `{"z": 1.50, "a": 9007199254740993}`, nil},
		{"unknown resultType", `{"resultType":"task"}`, "", isErr[*ProtocolError]},
		{"resultType not a string", `{"resultType":1}`, "", isErr[*ProtocolError]},
		{"result not an object", `[1]`, "", isErr[*ProtocolError]},
		{"neither result nor error", &Message{JSONRPC: "2.0", ID: json.RawMessage(`1`)}, "", isErr[*ProtocolError]},
		{"no response at all", (*Message)(nil), "", isErr[*ProtocolError]},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ft := &fakeTransport{handle: answers(tc.result)}
			if m, ok := tc.result.(*Message); ok && m == nil {
				ft.handle = func(context.Context, *Request, http.Header, func(Notification)) (*Message, error) { return nil, nil }
			}
			c := New(ft, testOptions())
			res, err := c.Call(context.Background(), "tools/call", json.RawMessage(`{"name":"x"}`), nil)
			if tc.wantErr != nil {
				if !tc.wantErr(err) {
					t.Fatalf("err = %v (%T)", err, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(res) != tc.want {
				t.Errorf("result %s, want %s", res, tc.want)
			}
		})
	}
}

func isErr[E error](err error) bool {
	var target E
	return errors.As(err, &target)
}

func TestCallInputRequired(t *testing.T) {
	result := `{"resultType":"input_required","inputRequests":{
		"confirm":{"method":"elicitation/create","params":{"message":"sure?"}},
		"llm":{"method":"sampling/createMessage","params":{}}},"requestState":"s1"}`
	ft := &fakeTransport{handle: answers(result, `{}`)}
	c := New(ft, testOptions())
	_, err := c.Call(context.Background(), "tools/call", json.RawMessage(`{"name":"x"}`), nil)
	var ie *InputRequiredError
	if !errors.As(err, &ie) {
		t.Fatalf("err = %v, want *InputRequiredError", err)
	}
	var methods []string
	for _, r := range ie.Requests {
		methods = append(methods, r.Key+"="+r.Method)
	}
	if !reflect.DeepEqual(methods, []string{"confirm=elicitation/create", "llm=sampling/createMessage"}) {
		t.Errorf("Requests = %v, want both, in the server's order", methods)
	}
	if string(ie.RequestState) != `"s1"` || ie.Method != "tools/call" || string(ie.Params) != `{"name":"x"}` {
		t.Errorf("continuation = %s %s %s", ie.Method, ie.Params, ie.RequestState)
	}
	if n := len(ft.requests()); n != 1 {
		t.Errorf("%d requests; with no InputHandler an input_required result must not be retried", n)
	}
}

func TestCallIDsIncrease(t *testing.T) {
	ft := &fakeTransport{handle: func(_ context.Context, req *Request, _ http.Header, _ func(Notification)) (*Message, error) {
		return reply(req.ID, `{}`)
	}}
	c := New(ft, testOptions())
	for i := 0; i < 5; i++ {
		if _, err := c.Call(context.Background(), "ping", nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	reqs := ft.requests()
	for i := range reqs {
		if reqs[i].ID <= 0 {
			t.Errorf("request %d has id %d; ids must be positive (0 means notification)", i, reqs[i].ID)
		}
		if i > 0 && reqs[i].ID <= reqs[i-1].ID {
			t.Errorf("ids not strictly increasing: %d then %d", reqs[i-1].ID, reqs[i].ID)
		}
	}

	// Concurrent calls never share an id.
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = c.Call(context.Background(), "ping", nil, nil)
		}()
	}
	wg.Wait()
	seen := map[int64]bool{}
	for _, r := range ft.requests() {
		if seen[r.ID] {
			t.Fatalf("id %d used twice", r.ID)
		}
		seen[r.ID] = true
	}
	if len(seen) != 55 {
		t.Errorf("%d distinct ids, want 55", len(seen))
	}
}

func blockUntilDone(ctx context.Context, _ *Request, _ http.Header, _ func(Notification)) (*Message, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

func TestCallTimeout(t *testing.T) {
	ft := &fakeTransport{handle: blockUntilDone}
	c := New(ft, Options{Era: EraModern, Timeout: 30 * time.Millisecond})
	start := time.Now()
	_, err := c.Call(context.Background(), "tools/list", nil, nil)
	var te *TimeoutError
	if !errors.As(err, &te) {
		t.Fatalf("err = %v (%T), want *TimeoutError", err, err)
	}
	if te.Method != "tools/list" || te.After != "30ms" {
		t.Errorf("TimeoutError %+v", te)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}

	// A transport that keeps a stderr tail contributes it.
	c = New(fakeWithTail{&fakeTransport{handle: blockUntilDone}}, Options{Era: EraModern, Timeout: 10 * time.Millisecond})
	_, err = c.Call(context.Background(), "tools/list", nil, nil)
	if !errors.As(err, &te) || !reflect.DeepEqual(te.Stderr, []string{"last words"}) {
		t.Errorf("err = %#v, want a *TimeoutError with the stderr tail", err)
	}
}

func TestCallCallerCancelIsNotTimeout(t *testing.T) {
	ft := &fakeTransport{handle: blockUntilDone}
	c := New(ft, Options{Era: EraModern, Timeout: time.Minute})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(10 * time.Millisecond); cancel() }()
	_, err := c.Call(ctx, "tools/list", nil, nil)
	if !errors.Is(err, context.Canceled) || isErr[*TimeoutError](err) {
		t.Errorf("err = %v, want context.Canceled", err)
	}

	// The caller's own deadline is the caller's business too.
	ctx, cancel = context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	_, err = c.Call(ctx, "tools/list", nil, nil)
	if !errors.Is(err, context.DeadlineExceeded) || isErr[*TimeoutError](err) {
		t.Errorf("err = %v, want context.DeadlineExceeded", err)
	}
}

func TestCallNotifyAndHeaders(t *testing.T) {
	ft := &fakeTransport{handle: func(_ context.Context, req *Request, _ http.Header, notify func(Notification)) (*Message, error) {
		if notify != nil {
			notify(Notification{Method: "notifications/progress"})
		}
		return reply(req.ID, `{}`)
	}}
	var global, local []string
	c := New(ft, Options{Era: EraModern, Hooks: Hooks{OnNotify: func(n Notification) { global = append(global, n.Method) }}})

	if _, err := c.Call(context.Background(), "a", nil, nil); err != nil {
		t.Fatal(err)
	}
	h := http.Header{"Mcp-Param-Region": {"eu"}}
	if _, err := c.Call(context.Background(), "b", nil, &CallOptions{Header: h, OnNotify: func(n Notification) { local = append(local, n.Method) }}); err != nil {
		t.Fatal(err)
	}
	if len(global) != 1 || len(local) != 1 {
		t.Errorf("global handler got %v, per-call handler got %v; want one each", global, local)
	}
	if !reflect.DeepEqual(ft.extras[1], h) || len(ft.extras[0]) != 0 {
		t.Errorf("extra headers %v", ft.extras)
	}
}

func TestClientCloseAndKind(t *testing.T) {
	ft := &fakeTransport{kind: "http"}
	c := New(ft, Options{Era: EraModern})
	if c.flavor() != BindingStreamable || c.Version() != LatestVersion {
		t.Errorf("binding %q version %q", c.flavor(), c.Version())
	}
	_ = c.Close()
	if ft.closed != 1 {
		t.Errorf("Close reached the transport %d times", ft.closed)
	}
}
