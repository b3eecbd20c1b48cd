package client

import (
	"context"
	"net/http"
)

// Transport carries requests to one server and brings back its responses.
// The Client uses nothing else of a transport: what a transport can do
// beyond RoundTrip it says in Capabilities, so that a transport written
// elsewhere (a socket, an in-process pipe) is used for what it is.
//
// RoundTrip may be called from several goroutines at once. The server's
// notifications that belong to the request are passed to notify (which
// may be nil) before RoundTrip returns: those on the request's own stream
// (Streamable HTTP), and on a connection shared by many requests those
// tied to it by its progress token (the request id) or, for
// subscriptions/listen, by io.modelcontextprotocol/subscriptionId. A
// notification tied to no request (a log message on stdio, anything on a
// legacy server's GET stream) is passed to no request: it goes to the
// Watch callers, else once to the handler installed by Notifications (or
// given to OpenEvents). A notification-only request (ID 0) returns a nil
// response.
type Transport interface {
	RoundTrip(ctx context.Context, req *Request, notify func(Notification)) (*Message, error)
	// Capabilities says what the transport can do besides RoundTrip. It
	// may be called often, and must not change once RoundTrip has been
	// called (a transport of another binding is another Transport: see
	// Capabilities.Rebind).
	Capabilities() Capabilities
	// Close releases the transport: on stdio it shuts the server down.
	Close() error
}

// Wire bindings, as Capabilities.Binding and EraInfo.Transport name them.
const (
	BindingStdio      = "stdio"
	BindingStreamable = "streamable-http"
	BindingSSE        = "http+sse" // the deprecated transport of 2024-11-05
	BindingStream     = "stream"   // newline-delimited JSON over a connection of the caller's (NewConn)
)

// Capabilities is what a transport can do besides carrying requests. A
// capability the transport lacks is false or nil; the Client then does
// without it where it can, and fails with a *CapabilityError where it
// cannot (a dry run asked of a transport that would really send).
type Capabilities struct {
	// Binding names the wire binding (one of the Binding constants, or a
	// name of the transport's own); it is what EraInfo.Transport records.
	Binding string
	// DryRun: nothing is sent. RoundTrip hands what it would have sent to
	// its caller's DryRun callback and returns ErrDryRun.
	DryRun bool
	// Headers: requests travel as HTTP requests, so Request.Header is
	// sent, and a tool's x-mcp-header annotations are mirrored into
	// Mcp-Param-* headers (and must be valid).
	Headers bool
	// Stateful: the server keeps state per connection (one process, one
	// socket), so a legacy server that saw the era probe may refuse
	// initialize, and a fresh connection (Options.Reopen) may not.
	Stateful bool
	// ServerRequests, when set, installs the handler for requests the
	// server sends (legacy revisions: elicitation, sampling, roots, ping).
	// Without it the transport cannot carry them.
	ServerRequests func(ServerRequestHandler)
	// Answered, when set, waits until every request the server has sent
	// so far is answered, its answer sent (or ctx ends, or the connection
	// dies), and says how many requests the server has sent in all. Only
	// a transport that carries the server's messages in the order it sent
	// them has it (one stream: stdio, NewConn, HTTP+SSE): a question the
	// server sent before the answer to one of our requests is then
	// answered once this returns after that answer.
	Answered func(ctx context.Context) (asked int, err error)
	// Notifications, when set, installs the handler for the
	// notifications the server sends tied to no request (log messages,
	// list changes on a shared connection) while no Watch caller takes
	// them: each is handed to it once. Without it they reach only Watch
	// callers. A transport whose every notification comes on a request's
	// own stream needs none.
	Notifications func(func(Notification))
	// Watch, when set, hands fn every notification the server sends on
	// its own (not tied to a request) until ctx is done (nil) or the
	// connection ends (why). Legacy listen needs it.
	Watch func(ctx context.Context, fn func(Notification)) error
	// OpenEvents, when set, opens the server's own stream now and waits
	// (up to ctx) until the server has taken it; notifications no Watch
	// caller takes go to onNotify. A legacy Streamable HTTP server sends
	// requests tied to no call only while it is open.
	OpenEvents func(ctx context.Context, onNotify func(Notification))
	// StderrTail, when set, returns the last lines the server wrote to its
	// stderr, for error messages.
	StderrTail func() []string
	// Unread, when set, tells how many of the bytes written to the server
	// it has not read yet (ok false when it cannot tell): a stdio server
	// that has not read the era probe is still starting, not ignoring it.
	Unread func() (n int, ok bool)
	// Rebind, when set, returns a transport to the same server for the
	// given era and binding (HTTP: the 2026-07-28 Streamable HTTP, the
	// legacy one with sessions, or HTTP+SSE), which the Client uses from
	// then on; it may return the receiver. Without it the transport
	// carries every era itself, over its one binding.
	Rebind func(era Era, binding string) (Transport, error)
}

// CapabilityError means the transport lacks what a request needs.
type CapabilityError struct {
	// Binding is the transport's (Capabilities.Binding).
	Binding string
	// Capability names what is missing ("dry run", "server notifications").
	Capability string
}

func (e *CapabilityError) Error() string {
	b := e.Binding
	if b == "" {
		b = "this"
	}
	return "the " + b + " transport offers no " + e.Capability
}

// TraceEvent describes one message on the wire, for a caller's Tracer.
type TraceEvent struct {
	// Dir is "send" or "recv".
	Dir string
	// HTTPMethod, URL, Status and Header are set for HTTP exchanges only:
	// the method, URL and request headers on send, the status and
	// response headers on receive (an event of its own, before the
	// messages of the body). Other transports leave them empty.
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
