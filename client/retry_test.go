package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"0", 0, true},
		{"3", 3 * time.Second, true},
		{" 120 ", 2 * time.Minute, true},
		{"Tue, 28 Jul 2026 12:00:30 GMT", 30 * time.Second, true},
		{"Tue, 28 Jul 2026 11:00:00 GMT", 0, true}, // in the past: now
		{"99999999999999999999", time.Duration(1<<63 - 1), true},
		{"", 0, false},
		{"-1", 0, false},
		{"soon", 0, false},
		{"1.5", 0, false},
	}
	for _, tc := range tests {
		got, ok := parseRetryAfter(tc.in, now)
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseRetryAfter(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// busyServer refuses the first n requests with status and Retry-After,
// then answers; it counts the requests it saw.
func busyServer(t *testing.T, status, n int, retryAfter string) (*httptest.Server, *atomic.Int32) {
	var seen atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if int(seen.Add(1)) <= n {
			if retryAfter != "" {
				w.Header().Set("Retry-After", retryAfter)
			}
			w.WriteHeader(status)
			return
		}
		writeJSON(w, 200, `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`)
	}))
	t.Cleanup(srv.Close)
	return srv, &seen
}

func TestRetryAfter(t *testing.T) {
	tests := []struct {
		name       string
		status     int
		busy       int
		retryAfter string
		method     string
		requests   int32
		note       string // "" for success
	}{
		{"503 list retried", 503, 2, "0", "tools/list", 3, ""},
		{"429 list retried", 429, 1, "0", "prompts/list", 2, ""},
		{"no Retry-After, no retry", 503, 1, "", "tools/list", 1, "HTTP 503 Service Unavailable"},
		{"a call is not retried", 429, 1, "0", "tools/call", 1, "the server asks to retry after 0s; only list requests are retried"},
		{"a long wait is not started", 503, 1, "3600", "resources/list", 1, "the server asks to retry after 3600s; the longest wait allowed is 10s"},
		{"at most three retries", 503, 10, "0", "tools/list", 4, "still after 3 retries"},
		{"500 is not retried", 500, 1, "0", "tools/list", 1, "HTTP 500 Internal Server Error"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, seen := busyServer(t, tc.status, tc.busy, tc.retryAfter)
			tr := newTestHTTP(t, HTTPOptions{URL: srv.URL})
			msg, err := tr.RoundTrip(context.Background(), &Request{ID: 1, Method: tc.method, Params: json.RawMessage(`{}`)}, nil)
			if tc.note == "" {
				if err != nil || msg == nil || msg.Result == nil {
					t.Fatalf("got %+v, %v; want the answer", msg, err)
				}
			} else {
				var he *HTTPError
				if !errors.As(err, &he) || !strings.Contains(he.Error(), tc.note) {
					t.Fatalf("got %+v, %v; want *HTTPError saying %q", msg, err, tc.note)
				}
			}
			if got := seen.Load(); got != tc.requests {
				t.Errorf("the server saw %d requests, want %d", got, tc.requests)
			}
		})
	}
}

// The request's own deadline ends a wait for Retry-After.
func TestRetryAfterHonoursContext(t *testing.T) {
	srv, _ := busyServer(t, 503, 10, "5")
	tr := newTestHTTP(t, HTTPOptions{URL: srv.URL})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := tr.RoundTrip(ctx, &Request{ID: 1, Method: "tools/list", Params: json.RawMessage(`{}`)}, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the context's deadline", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v: the wait outlived the request", d)
	}
}
