package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// A response stream that ends before the answer is resumed with a GET
// carrying Last-Event-ID, after the retry delay the server gave; the
// priming event (empty data) is no message.
func TestLegacyStreamResumes(t *testing.T) {
	var mu sync.Mutex
	var closedAt time.Time
	var lastID, session string
	var waited time.Duration
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		switch r.Method {
		case http.MethodPost:
			fmt.Fprint(w, "id: ev-1\nretry: 80\ndata: \n\n")
			mu.Lock()
			closedAt = time.Now()
			mu.Unlock()
		case http.MethodGet:
			mu.Lock()
			lastID, session = r.Header.Get("Last-Event-ID"), r.Header.Get("Mcp-Session-Id")
			waited = time.Since(closedAt)
			mu.Unlock()
			fmt.Fprint(w, "id: ev-2\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"ok\":true}}\n\n")
		}
	}))
	defer srv.Close()
	tr := newTestLegacyHTTP(t, HTTPOptions{URL: srv.URL})
	defer tr.Close()
	tr.sessionID = "s-1"
	msg, err := tr.RoundTrip(context.Background(), &Request{ID: 7, Method: "tools/call", Legacy: true, Version: "2025-11-25"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(msg.Result) != `{"ok":true}` {
		t.Errorf("result %s", msg.Result)
	}
	mu.Lock()
	defer mu.Unlock()
	if lastID != "ev-1" || session != "s-1" {
		t.Errorf("GET had Last-Event-ID %q, Mcp-Session-Id %q", lastID, session)
	}
	if waited < 70*time.Millisecond {
		t.Errorf("reconnected after %s, before the server's retry of 80ms", waited)
	}
}

// The session id of the initialize response goes on later requests (never
// on initialize), a 404 to it is *SessionExpiredError, and Close ends the
// session with DELETE.
func TestLegacySession(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		seen = append(seen, r.Method+" "+r.Header.Get("Mcp-Session-Id")+" "+r.Header.Get("MCP-Protocol-Version"))
		mu.Unlock()
		switch {
		case r.Method == http.MethodDelete:
			w.WriteHeader(200)
		case strings.Contains(string(body), `"initialize"`):
			w.Header().Set("Mcp-Session-Id", "abc")
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}}`)
		case strings.Contains(string(body), `"gone"`):
			http.NotFound(w, r)
		default:
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"jsonrpc":"2.0","id":2,"result":{}}`)
		}
	}))
	defer srv.Close()
	tr := newTestLegacyHTTP(t, HTTPOptions{URL: srv.URL})
	ctx := context.Background()
	if _, err := tr.RoundTrip(ctx, &Request{ID: 1, Method: "initialize", Legacy: true}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.RoundTrip(ctx, &Request{ID: 2, Method: "tools/list", Legacy: true, Version: "2025-11-25"}, nil); err != nil {
		t.Fatal(err)
	}
	_, err := tr.RoundTrip(ctx, &Request{ID: 3, Method: "gone", Legacy: true, Version: "2025-11-25"}, nil)
	var exp *SessionExpiredError
	if !errors.As(err, &exp) {
		t.Fatalf("err = %v, want *SessionExpiredError", err)
	}
	tr.sessionID = "abc" // as if initialized again
	tr.Close()
	mu.Lock()
	defer mu.Unlock()
	want := []string{"POST  ", "POST abc 2025-11-25", "POST abc 2025-11-25", "DELETE abc 2025-11-25"}
	if strings.Join(seen, "|") != strings.Join(want, "|") {
		t.Errorf("requests\n got %q\nwant %q", seen, want)
	}
}

// The HTTP+SSE endpoint event must name the server's own origin: mcpctl
// never posts its messages (and the user's headers) elsewhere.
func TestSSEEndpointOrigin(t *testing.T) {
	for _, tc := range []struct {
		data, want, err string
	}{
		{"/messages?s=1", "/messages?s=1", ""},
		{"messages?s=1", "/base/messages?s=1", ""},
		{"http://evil.example/steal", "", "another origin"},
		{"", "", "invalid"},
	} {
		c := &sseConn{t: newSSEHTTP(&httpConn{opts: HTTPOptions{URL: "http://127.0.0.1:9/base/sse"}})}
		got, err := c.resolve(tc.data)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: err %v, want %q", tc.data, err, tc.err)
		case tc.err == "" && (err != nil || got != "http://127.0.0.1:9"+tc.want):
			t.Errorf("%q: %q, %v", tc.data, got, err)
		}
	}
}

// newTestLegacyHTTP is the legacy Streamable HTTP transport to opts.URL,
// as era detection gets it from NewHTTP's Rebind.
func newTestLegacyHTTP(t *testing.T, opts HTTPOptions) *legacyHTTP {
	t.Helper()
	tr, err := NewHTTP(opts)
	if err != nil {
		t.Fatal(err)
	}
	lt, err := tr.Capabilities().Rebind(EraLegacy, BindingStreamable)
	if err != nil {
		t.Fatal(err)
	}
	return lt.(*legacyHTTP)
}
