package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// byMethod answers each method with its own sequence of replies (see
// reply); notifications get no answer, and a method with no replies left
// fails the request.
func byMethod(replies map[string][]any) func(context.Context, *Request, http.Header, func(Notification)) (*Message, error) {
	var mu sync.Mutex
	return func(ctx context.Context, req *Request, _ http.Header, _ func(Notification)) (*Message, error) {
		if req.IsNotification() {
			return nil, nil
		}
		mu.Lock()
		rs := replies[req.Method]
		if len(rs) == 0 {
			mu.Unlock()
			return nil, errors.New("fake: unexpected request " + req.Method)
		}
		r := rs[0]
		replies[req.Method] = rs[1:]
		mu.Unlock()
		if r == "hang" {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return reply(req.ID, r)
	}
}

func methods(reqs []Request) string {
	var m []string
	for _, r := range reqs {
		m = append(m, r.Method)
	}
	return strings.Join(m, " ")
}

const initResult = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"old","version":"1"}}`

type memEras struct {
	mu sync.Mutex
	m  map[string]EraInfo
}

func (s *memEras) LoadEra(k string) (EraInfo, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.m[k]
	return e, ok
}

func (s *memEras) SaveEra(k string, e EraInfo) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[k] = e
	return nil
}

func (s *memEras) ForgetEra(k string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, k)
}

func TestEraProbe(t *testing.T) {
	tests := []struct {
		name    string
		replies map[string][]any
		opts    Options
		want    string // methods on the wire
		era     Era
		errLike string
	}{
		{"DiscoverResult: modern", map[string][]any{"server/discover": {`{"supportedVersions":["2026-07-28"]}`}, "tools/list": {`{"tools":[]}`}},
			Options{}, "server/discover tools/list", EraModern, ""},
		{"-32022 then a version in common: modern, retried", map[string][]any{
			"server/discover": {&RPCError{Code: CodeUnsupportedProtocolVersion, Data: json.RawMessage(`{"supported":["2026-07-28"]}`)}, `{}`},
			"tools/list":      {`{"tools":[]}`}},
			Options{}, "server/discover server/discover tools/list", EraModern, ""},
		{"-32021 is modern too", map[string][]any{"server/discover": {&RPCError{Code: CodeMissingClientCapability}}, "tools/list": {`{"tools":[]}`}},
			Options{}, "server/discover tools/list", EraModern, ""},
		{"-32601: legacy", map[string][]any{"server/discover": {&RPCError{Code: CodeMethodNotFound}}, "initialize": {initResult}, "tools/list": {`{"tools":[]}`}},
			Options{}, "server/discover initialize notifications/initialized tools/list", EraLegacy, ""},
		{"any other code: legacy", map[string][]any{"server/discover": {&RPCError{Code: -32000, Message: "not initialized"}}, "initialize": {initResult}, "tools/list": {`{"tools":[]}`}},
			Options{}, "server/discover initialize notifications/initialized tools/list", EraLegacy, ""},
		{"4xx without a modern error: legacy", map[string][]any{"server/discover": {&HTTPError{Status: 404}}, "initialize": {initResult}, "tools/list": {`{"tools":[]}`}},
			Options{}, "server/discover initialize notifications/initialized tools/list", EraLegacy, ""},
		{"server/discover ignored, initialize answered: legacy", map[string][]any{"server/discover": {"hang"}, "initialize": {initResult}, "tools/list": {`{"tools":[]}`}},
			Options{ProbeTimeout: time.Second}, "server/discover initialize notifications/initialized tools/list", EraLegacy, ""},
		{"silence twice: no server", map[string][]any{"server/discover": {"hang"}, "initialize": {"hang"}},
			Options{ProbeTimeout: 20 * time.Millisecond, Timeout: 20 * time.Millisecond}, "server/discover initialize", EraUnknown,
			"not an MCP server: it answered neither server/discover nor initialize in 20ms"},
		{"garbage is no era: reported", map[string][]any{"server/discover": {&ProtocolError{Msg: "not JSON"}}},
			Options{}, "server/discover", EraUnknown, "not JSON"},
		{"a dead server is no era: reported", map[string][]any{"server/discover": {&ConnError{Msg: "exited"}}},
			Options{}, "server/discover", EraUnknown, "exited"},
		{"5xx is no era: reported", map[string][]any{"server/discover": {&HTTPError{Status: 502}}},
			Options{}, "server/discover", EraUnknown, "HTTP 502"},
		{"legacy pinned: no probe", map[string][]any{"initialize": {initResult}, "tools/list": {`{"tools":[]}`}},
			Options{ProtocolVersion: "2025-11-25"}, "initialize notifications/initialized tools/list", EraLegacy, ""},
		{"modern pinned: no probe", map[string][]any{"tools/list": {`{"tools":[]}`}},
			Options{Era: EraModern}, "tools/list", EraModern, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ft := &fakeTransport{handle: byMethod(tc.replies)}
			c := New(ft, tc.opts)
			_, err := c.Call(context.Background(), "tools/list", nil, nil)
			if tc.errLike == "" && err != nil {
				t.Fatal(err)
			}
			if tc.errLike != "" && (err == nil || !strings.Contains(err.Error(), tc.errLike)) {
				t.Fatalf("err = %v, want one with %q", err, tc.errLike)
			}
			if got := methods(ft.requests()); got != tc.want {
				t.Errorf("wire: %s\nwant: %s", got, tc.want)
			}
			if got := c.Era().Era; got != tc.era {
				t.Errorf("era %q, want %q", got, tc.era)
			}
		})
	}
}

// A server that answers initialize with an error while server/discover
// goes unanswered spoke, so it is not "no server": the EraError names
// both answers.
func TestEraErrorNamesBothAnswers(t *testing.T) {
	ft := &fakeTransport{handle: byMethod(map[string][]any{"server/discover": {"hang"}, "initialize": {&RPCError{Code: CodeMethodNotFound, Message: "no"}}})}
	c := New(ft, Options{ProbeTimeout: 100 * time.Millisecond})
	_, err := c.Call(context.Background(), "tools/list", nil, nil)
	var ee *EraError
	if !errors.As(err, &ee) {
		t.Fatalf("err = %T %v, want *EraError", err, err)
	}
	if !strings.Contains(err.Error(), "server/discover (timed out after 100ms)") || !strings.Contains(err.Error(), "initialize (server error -32601: no)") {
		t.Errorf("message %q does not name both attempts", err)
	}
}

// Silence is no legacy answer over HTTP, where a legacy server answers
// the POST of server/discover: no initialize, and after the probe's
// bound no server (it used to be taken for legacy after 3s).
func TestHTTPSilenceIsNotLegacy(t *testing.T) {
	ft := &fakeTransport{kind: "http", handle: byMethod(map[string][]any{"server/discover": {"hang"}})}
	c := New(ft, Options{ProbeTimeout: 50 * time.Millisecond, Timeout: time.Second})
	_, err := c.Call(context.Background(), "tools/list", nil, nil)
	var ns *NotServerError
	if !errors.As(err, &ns) || ns.Bound != TimeoutProbe || ns.After != "50ms" {
		t.Fatalf("err = %T %v, want *NotServerError after the probe's 50ms", err, err)
	}
	if got := methods(ft.requests()); got != "server/discover" {
		t.Errorf("wire: %s", got)
	}
	if want := "not an MCP server: it answered nothing to server/discover in 50ms"; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
}

// A legacy request carries no modern _meta, only a progress token, and the
// negotiated version.
func TestLegacyRequestShape(t *testing.T) {
	ft := &fakeTransport{handle: byMethod(map[string][]any{"initialize": {initResult}, "tools/call": {`{"content":[]}`}})}
	c := New(ft, Options{ProtocolVersion: "2025-11-25", ClientInfo: Implementation{Name: "mcpctl", Version: "1"},
		Capabilities: json.RawMessage(`{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}`)})
	if _, err := c.Call(context.Background(), "tools/call", json.RawMessage(`{"name":"x","_meta":{"k":1}}`), nil); err != nil {
		t.Fatal(err)
	}
	reqs := ft.requests()
	if got := string(reqs[0].Params); got != `{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"mcpctl","version":"1"}}` {
		t.Errorf("initialize params %s", got)
	}
	if !reqs[0].Legacy || reqs[0].Version != "" {
		t.Errorf("initialize request: Legacy %v Version %q", reqs[0].Legacy, reqs[0].Version)
	}
	call := reqs[2]
	if got := string(call.Params); got != `{"_meta":{"k":1,"progressToken":2},"name":"x"}` {
		t.Errorf("tools/call params %s", got)
	}
	if !call.Legacy || call.Version != "2025-11-25" {
		t.Errorf("tools/call: Legacy %v Version %q", call.Legacy, call.Version)
	}
}

// A stdio server that refuses initialize after the probe is started again.
func TestLegacyReopensAfterRefusedInitialize(t *testing.T) {
	first := &fakeTransport{handle: byMethod(map[string][]any{
		"server/discover": {&RPCError{Code: CodeMethodNotFound}},
		"initialize":      {&RPCError{Code: 0, Message: `duplicate "initialize" received`}},
	})}
	second := &fakeTransport{handle: byMethod(map[string][]any{"initialize": {initResult}, "tools/list": {`{"tools":[]}`}})}
	reopened := 0
	c := New(first, Options{Reopen: func() (Transport, error) { reopened++; return second, nil }})
	if _, err := c.Call(context.Background(), "tools/list", nil, nil); err != nil {
		t.Fatal(err)
	}
	if reopened != 1 || first.closed != 1 {
		t.Errorf("reopened %d times, first transport closed %d times", reopened, first.closed)
	}
	if got := methods(second.requests()); got != "initialize notifications/initialized tools/list" {
		t.Errorf("second transport saw %s", got)
	}
}

func TestLegacyInitializeVersions(t *testing.T) {
	// Refused with an offer mcpctl speaks: asked again with it.
	ft := &fakeTransport{handle: byMethod(map[string][]any{
		"initialize": {&RPCError{Code: CodeInvalidParams, Data: json.RawMessage(`{"supported":["2025-06-18"]}`)}, strings.Replace(initResult, "2025-11-25", "2025-06-18", 1)},
		"ping":       {`{}`},
	})}
	c := New(ft, Options{Era: EraLegacy})
	if _, err := c.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
	if c.Version() != "2025-06-18" {
		t.Errorf("version %s", c.Version())
	}
	// Answered with a version mcpctl does not speak: a VersionError.
	ft = &fakeTransport{handle: byMethod(map[string][]any{"initialize": {strings.Replace(initResult, "2025-11-25", "2024-01-01", 1)}})}
	c = New(ft, Options{Era: EraLegacy})
	_, err := c.Ping(context.Background())
	var ve *VersionError
	if !errors.As(err, &ve) || ve.Theirs[0] != "2024-01-01" {
		t.Fatalf("err = %v, want a VersionError naming 2024-01-01", err)
	}
}

func TestRememberedEra(t *testing.T) {
	store := &memEras{m: map[string]EraInfo{"srv": {Era: EraModern, Version: "2026-07-28", Transport: BindingStdio}}}
	ft := &fakeTransport{handle: byMethod(map[string][]any{"tools/list": {`{"tools":[]}`}})}
	c := New(ft, Options{EraStore: store, ServerID: "srv"})
	if _, err := c.Call(context.Background(), "tools/list", nil, nil); err != nil {
		t.Fatal(err)
	}
	if got := methods(ft.requests()); got != "tools/list" {
		t.Errorf("wire: %s", got)
	}

	// The server became legacy: the remembered era fails, one re-probe.
	ft = &fakeTransport{handle: byMethod(map[string][]any{
		"tools/list":      {&RPCError{Code: CodeMethodNotFound}, `{"tools":[]}`},
		"server/discover": {&RPCError{Code: CodeMethodNotFound}},
		"initialize":      {initResult},
	})}
	c = New(ft, Options{EraStore: store, ServerID: "srv"})
	if _, err := c.Call(context.Background(), "tools/list", nil, nil); err != nil {
		t.Fatal(err)
	}
	if got := methods(ft.requests()); got != "tools/list server/discover initialize notifications/initialized tools/list" {
		t.Errorf("wire: %s", got)
	}
	if e, _ := store.LoadEra("srv"); e.Era != EraLegacy || e.Version != "2025-11-25" {
		t.Errorf("stored %+v", e)
	}

	// A modern error proves the remembered modern era: no re-probe.
	store.m["srv"] = EraInfo{Era: EraModern, Version: "2026-07-28", Transport: BindingStdio}
	ft = &fakeTransport{handle: byMethod(map[string][]any{"tools/list": {&RPCError{Code: CodeMissingClientCapability}}})}
	c = New(ft, Options{EraStore: store, ServerID: "srv"})
	if _, err := c.Call(context.Background(), "tools/list", nil, nil); err == nil {
		t.Fatal("no error")
	}
	if got := methods(ft.requests()); got != "tools/list" {
		t.Errorf("wire: %s", got)
	}

	// A pinned run is not remembered.
	delete(store.m, "srv")
	ft = &fakeTransport{handle: byMethod(map[string][]any{"initialize": {initResult}, "tools/list": {`{"tools":[]}`}})}
	c = New(ft, Options{EraStore: store, ServerID: "srv", ProtocolVersion: "2025-11-25"})
	if _, err := c.Call(context.Background(), "tools/list", nil, nil); err != nil {
		t.Fatal(err)
	}
	if _, ok := store.LoadEra("srv"); ok {
		t.Error("a pinned era was remembered")
	}
}

func TestFileEraStore(t *testing.T) {
	s := &FileEraStore{Dir: t.TempDir() + "/eras"}
	if _, ok := s.LoadEra("x"); ok {
		t.Fatal("found an era in an empty store")
	}
	e := EraInfo{Era: EraLegacy, Version: "2025-06-18", Transport: BindingSSE}
	if err := s.SaveEra("x", e); err != nil {
		t.Fatal(err)
	}
	got, ok := s.LoadEra("x")
	if !ok || got.Era != e.Era || got.Version != e.Version || got.Transport != e.Transport {
		t.Fatalf("LoadEra = %+v, %v", got, ok)
	}
	if _, ok := s.LoadEra("y"); ok {
		t.Error("another server's era")
	}
	if n, err := s.Clear(); err != nil || n != 1 {
		t.Errorf("Clear = %d, %v", n, err)
	}
}

// The era is remembered once an answer proves it, an initialize answer
// as much as one to server/discover; a server that said nothing leaves
// nothing remembered.
func TestEraRememberedOnceProven(t *testing.T) {
	store := &memEras{m: map[string]EraInfo{}}
	ft := &fakeTransport{handle: byMethod(map[string][]any{"server/discover": {"hang"}, "initialize": {initResult}, "tools/list": {`{"tools":[]}`}})}
	c := New(ft, Options{EraStore: store, ServerID: "mute", ProbeTimeout: time.Second})
	if _, err := c.Call(context.Background(), "tools/list", nil, nil); err != nil {
		t.Fatal(err)
	}
	if e, ok := store.LoadEra("mute"); !ok || e.Era != EraLegacy {
		t.Errorf("an era proven by an initialize answer was not remembered: %+v", e)
	}
	ft = &fakeTransport{handle: byMethod(map[string][]any{"server/discover": {&RPCError{Code: CodeMethodNotFound}}, "initialize": {initResult}, "tools/list": {`{"tools":[]}`}})}
	c = New(ft, Options{EraStore: store, ServerID: "old"})
	if _, err := c.Call(context.Background(), "tools/list", nil, nil); err != nil {
		t.Fatal(err)
	}
	if e, ok := store.LoadEra("old"); !ok || e.Era != EraLegacy {
		t.Error("an era proven by an answer was not remembered")
	}
	ft = &fakeTransport{handle: byMethod(map[string][]any{"server/discover": {"hang"}, "initialize": {"hang"}})}
	c = New(ft, Options{EraStore: store, ServerID: "nothing", ProbeTimeout: 30 * time.Millisecond})
	if _, err := c.Call(context.Background(), "tools/list", nil, nil); err == nil {
		t.Fatal("no error from a server that says nothing")
	}
	if e, ok := store.LoadEra("nothing"); ok {
		t.Errorf("silence was remembered as %+v", e)
	}
}
