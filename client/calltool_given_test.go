package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

// A caller that has the tool's definition passes it, and CallTool over
// HTTP sends the call alone: no tools/list, the headers from the
// definition given.
func TestCallToolWithGivenDefinition(t *testing.T) {
	ft := &fakeTransport{kind: "http", handle: func(_ context.Context, req *Request, _ http.Header, _ func(Notification)) (*Message, error) {
		if req.Method == "tools/call" {
			return reply(req.ID, `{"content":[]}`)
		}
		return reply(req.ID, &RPCError{Code: CodeMethodNotFound, Message: "no " + req.Method})
	}}
	c := New(ft, testOptions())
	var prepared json.RawMessage
	co := &CallOptions{Tool: json.RawMessage(validTool), PrepareArgs: func(tool, args json.RawMessage) (json.RawMessage, error) {
		prepared = tool
		return args, nil
	}}
	res, err := c.CallTool(context.Background(), "valid_tool", json.RawMessage(`{"region":"us-west1"}`), co)
	if err != nil || string(res) != `{"content":[]}` {
		t.Fatalf("CallTool = %s, %v", res, err)
	}
	if got := methods(ft.requests()); got != "tools/call" {
		t.Errorf("requests %s, want the call alone", got)
	}
	if !reflect.DeepEqual(ft.extras[0], http.Header{"Mcp-Param-Region": {"us-west1"}}) {
		t.Errorf("headers %v", ft.extras[0])
	}
	if string(prepared) != validTool {
		t.Errorf("PrepareArgs got %s", prepared)
	}
	// The definition of another tool is refused before anything is sent.
	_, err = c.CallTool(context.Background(), "other", nil, &CallOptions{Tool: json.RawMessage(validTool)})
	var pe *ParamsError
	if !errors.As(err, &pe) || len(ft.requests()) != 1 {
		t.Errorf("another tool's definition: %v, %d requests", err, len(ft.requests()))
	}
}

// A MemoryCache makes a long-lived client's warm CallTool over HTTP one
// request: tools/list is answered from memory while its ttlMs lasts, and
// after that serves as a hint for the call (one request still), while
// ListTools fetches it again.
func TestMemoryCache(t *testing.T) {
	now := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	mem := &MemoryCache{Now: func() time.Time { return now }}
	list := `{"tools":[` + validTool + `],"ttlMs":60000}`
	ft := &fakeTransport{kind: "http", handle: func(_ context.Context, req *Request, _ http.Header, _ func(Notification)) (*Message, error) {
		if req.Method == "tools/list" {
			return reply(req.ID, list)
		}
		return reply(req.ID, `{"content":[]}`)
	}}
	opts := testOptions()
	opts.ServerID = "srv"
	opts.Cache = CacheOptions{Store: mem}
	c := New(ft, opts)
	call := func() {
		t.Helper()
		if _, err := c.CallTool(context.Background(), "valid_tool", json.RawMessage(`{"region":"eu"}`), nil); err != nil {
			t.Fatal(err)
		}
	}
	call()
	call()
	if got := methods(ft.requests()); got != "tools/list tools/call tools/call" {
		t.Errorf("requests %s, want one tools/list for two calls", got)
	}
	now = now.Add(2 * time.Minute)
	call()
	if got := methods(ft.requests()); got != "tools/list tools/call tools/call tools/call" {
		t.Errorf("requests %s, want the stale tools/list used as a hint", got)
	}
	if _, _, err := c.ListTools(context.Background(), "", true); err != nil {
		t.Fatal(err)
	}
	if got := methods(ft.requests()); !strings.HasSuffix(got, "tools/call tools/list") {
		t.Errorf("requests %s, want a stale tools/list fetched again when listed", got)
	}
}
