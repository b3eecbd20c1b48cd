package client

import (
	"context"
	"net/http"
)

// Transport carries one request to the server and brings back its response.
//
// RoundTrip may be called from several goroutines at once. Notifications
// that the server sends while the request is in flight are passed to notify
// (which may be nil) before RoundTrip returns. A notification-only request
// (ID 0) returns a nil response.
type Transport interface {
	RoundTrip(ctx context.Context, req *Request, extra http.Header, notify func(Notification)) (*Message, error)
	// Close releases the transport: on stdio it shuts the server down.
	Close() error
	// Kind is "stdio" or "http".
	Kind() string
}

// TraceEvent describes one message on the wire, for --trace.
type TraceEvent struct {
	// Dir is "send" or "recv".
	Dir string
	// HTTP is set for HTTP exchanges: the method and URL on send, the
	// status on receive.
	HTTPMethod string
	URL        string
	Status     string
	Header     http.Header
	// Body is one JSON-RPC message (or raw non-JSON text the server sent).
	Body []byte
}

// Tracer receives every wire event. It must not keep Body after returning.
type Tracer func(TraceEvent)

// DryRunRequest is what a transport would have sent in dry-run mode.
type DryRunRequest struct {
	// HTTP: method, URL and headers. Stdio: Command and Dir.
	HTTPMethod string
	URL        string
	Header     http.Header
	Command    []string
	Dir        string
	Env        []string
	Body       []byte
}
