package client

// Streamable HTTP, revision 2026-07-28: every request is its own POST; the
// answer is either one JSON object or an SSE stream scoped to the request
// (notifications first, then the response). There are no sessions, no GET
// stream and no resumption. Cancelling means closing the response stream,
// which the request's context does for us.
//
// Failures are told apart so callers can pick exit codes: a 4xx/5xx whose
// body is a JSON-RPC error becomes *RPCError (with HTTPStatus set); 401/403
// without one becomes *AuthError; any other failure status *HTTPError;
// a connection that cannot be made *ConnError.

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// HTTPOptions configures the Streamable HTTP transport.
type HTTPOptions struct {
	URL string
	// Header is added to every request (the user's -H values).
	Header http.Header
	// Insecure skips TLS certificate verification.
	Insecure bool
	Trace    Tracer
	DryRun   func(DryRunRequest)
	// MaxMessage bounds one JSON-RPC message read from the server
	// (default 64 MiB).
	MaxMessage int
	// Malformed: as StdioOptions.Malformed, for SSE events.
	Malformed func(data []byte, err error) bool
	// HTTPClient replaces the default client (which honours the proxy
	// environment variables and never follows redirects silently for POST).
	HTTPClient *http.Client
	// MaxRetries and MaxRetryWait bound how list requests refused with
	// 429 or 503 and Retry-After are sent again (retry.go); 0 means
	// DefaultMaxRetries and DefaultMaxRetryWait.
	MaxRetries   int
	MaxRetryWait time.Duration
	// Auth, when set, supplies the Authorization header and answers 401
	// and 403 (OAuth); nil sends only what Header says.
	Auth Authenticator
}

// Authenticator supplies credentials and handles refusals.
type Authenticator interface {
	// Authorization is the header value for the next request ("" for none).
	Authorization(ctx context.Context) (string, error)
	// Challenge is told of a 401 or 403 and says whether to send the
	// request again; an error ends the request as an authorization failure.
	Challenge(ctx context.Context, status int, h http.Header) (retry bool, err error)
}

// HTTPTransport is the Streamable HTTP transport. Talking to a legacy
// server it also keeps that era's session (see http_legacy.go), and can
// switch to the deprecated HTTP+SSE transport (http_sse.go).
type HTTPTransport struct {
	opts   HTTPOptions
	client *http.Client

	mu            sync.Mutex
	flavor        string
	sessionID     string
	legacyVersion string
	serve         ServerRequestHandler
	sse           *sseConn
	events        eventStream
	// bg bounds work that outlives a request (answers to server requests,
	// the legacy GET stream): Close cancels it.
	bg     context.Context
	stopBg context.CancelFunc
}

// NewHTTP checks the URL and returns a transport; nothing is sent yet.
func NewHTTP(opts HTTPOptions) (*HTTPTransport, error) {
	u, err := url.Parse(opts.URL)
	if err != nil {
		return nil, fmt.Errorf("invalid URL %q: %v", opts.URL, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("invalid URL %q: the scheme must be http or https", RedactURL(opts.URL))
	}
	if u.Host == "" {
		return nil, fmt.Errorf("invalid URL %q: no host", RedactURL(opts.URL))
	}
	if opts.MaxMessage == 0 {
		opts.MaxMessage = 64 << 20
	}
	if opts.MaxRetries == 0 {
		opts.MaxRetries = DefaultMaxRetries
	}
	if opts.MaxRetryWait == 0 {
		opts.MaxRetryWait = DefaultMaxRetryWait
	}
	c := opts.HTTPClient
	if c == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		if opts.Insecure {
			tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // the user asked for it
		}
		c = &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error {
			// A redirect would turn the POST into a GET or resend the body
			// somewhere the user never named; report it instead.
			return http.ErrUseLastResponse
		}}
	}
	bg, stop := context.WithCancel(context.Background())
	return &HTTPTransport{opts: opts, client: c, flavor: BindingStreamable, bg: bg, stopBg: stop}, nil
}

// Capabilities implements Transport.
func (t *HTTPTransport) Capabilities() Capabilities {
	caps := Capabilities{
		Binding:        t.Flavor(),
		DryRun:         t.opts.DryRun != nil,
		Headers:        true,
		ServerRequests: t.SetServerRequestHandler,
		Watch:          t.Watch,
		Rebind: func(_ Era, binding string) (Transport, error) {
			if binding != BindingStreamable && binding != BindingSSE {
				return nil, &CapabilityError{Binding: BindingStreamable, Capability: "binding " + binding}
			}
			t.SetFlavor(binding)
			return t, nil
		},
	}
	if caps.Binding == BindingStreamable {
		caps.OpenEvents = t.StartEventStream
	}
	return caps
}

// Close ends a legacy session (DELETE), closes an HTTP+SSE stream and
// releases idle connections.
func (t *HTTPTransport) Close() error {
	t.endSession()
	t.stopBg()
	t.mu.Lock()
	sse := t.sse
	t.sse = nil
	t.mu.Unlock()
	if sse != nil {
		sse.close()
	}
	t.client.CloseIdleConnections()
	return nil
}

// StandardHeaders returns the headers the 2026-07-28 binding mirrors from
// the body: MCP-Protocol-Version, Mcp-Method and, for the three named
// methods, Mcp-Name.
func StandardHeaders(req *Request) http.Header {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	if req.Version != "" {
		h.Set("MCP-Protocol-Version", req.Version)
	}
	h.Set("Mcp-Method", req.Method)
	if name, ok := nameParam(req); ok {
		h.Set("Mcp-Name", EncodeHeaderValue(name))
	}
	return h
}

func nameParam(req *Request) (string, bool) {
	var field string
	switch req.Method {
	case "tools/call", "prompts/get":
		field = "name"
	case "resources/read":
		field = "uri"
	case "tasks/get", "tasks/update", "tasks/cancel":
		field = "taskId" // lets a load balancer find the instance holding the task
	default:
		return "", false
	}
	var p map[string]json.RawMessage
	if json.Unmarshal(req.Params, &p) != nil {
		return "", false
	}
	var s string
	if json.Unmarshal(p[field], &s) != nil {
		return "", false
	}
	return s, true
}

// RoundTrip implements Transport.
func (t *HTTPTransport) RoundTrip(ctx context.Context, req *Request, notify func(Notification)) (*Message, error) {
	if req.Legacy && t.Flavor() == BindingSSE {
		return t.sseRoundTrip(ctx, req, notify)
	}
	body, _ := req.MarshalJSON()
	var h http.Header
	if req.Legacy {
		h = t.legacyHeaders(req)
	} else {
		h = StandardHeaders(req)
	}
	for k, vs := range t.opts.Header {
		h[http.CanonicalHeaderKey(k)] = append([]string(nil), vs...)
	}
	for k, vs := range req.Header {
		h[k] = append([]string(nil), vs...)
	}
	if t.opts.DryRun != nil {
		t.opts.DryRun(DryRunRequest{HTTPMethod: http.MethodPost, URL: t.opts.URL, Header: h, Body: body})
		return nil, ErrDryRun
	}
	resp, retryNote, err := t.postRetrying(ctx, req, h, body)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if req.Legacy {
		if err := t.noteSession(req, h, resp); err != nil {
			return nil, err
		}
	}
	if resp.StatusCode >= 300 {
		// A JSON-RPC error in a failure status is still an answer: the
		// caller handles -32022 and friends the same way on every transport.
		msg, err := t.failure(resp)
		var he *HTTPError
		if errors.As(err, &he) {
			he.Retry = retryNote
		}
		return msg, err
	}
	if req.IsNotification() {
		return nil, nil
	}
	if resp.StatusCode == http.StatusAccepted || resp.StatusCode == http.StatusNoContent {
		return nil, &ProtocolError{Msg: fmt.Sprintf("the server answered %s to a request, with no response", resp.Status)}
	}
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch mediaType {
	case "text/event-stream":
		if req.Legacy {
			return t.readLegacyStream(ctx, resp.Body, req, notify)
		}
		return t.readStream(ctx, resp.Body, req, notify)
	case "application/json", "":
		data, err := readLimited(resp.Body, t.opts.MaxMessage, resp.ContentLength)
		if err != nil {
			return nil, t.readError(ctx, err)
		}
		t.traceBody(data)
		msg, err := DecodeMessage(data)
		if err != nil {
			return nil, err
		}
		return t.match(msg, req)
	default:
		return nil, &ProtocolError{Msg: fmt.Sprintf("the server answered with Content-Type %q; expected application/json or text/event-stream", mediaType)}
	}
}

func (t *HTTPTransport) traceBody(data []byte) {
	if t.opts.Trace != nil {
		t.opts.Trace(TraceEvent{Dir: "recv", Body: bytes.TrimSpace(data)})
	}
}

func (t *HTTPTransport) readError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, errTooLarge) || errors.Is(err, errEventTooLarge) {
		return &MessageTooLargeError{Limit: t.opts.MaxMessage}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return &ConnError{Msg: "the connection broke in the middle of the response from " + RedactURL(t.opts.URL), Err: err}
	}
	return &ConnError{Msg: "reading the response from " + RedactURL(t.opts.URL) + " failed", Err: err}
}

func (t *HTTPTransport) match(msg *Message, req *Request) (*Message, error) {
	if msg.Kind() != "response" {
		return nil, &ProtocolError{Msg: "the server answered with a " + msg.Kind() + " instead of a response"}
	}
	if len(msg.ID) > 0 && !idEquals(msg.ID, req.ID) {
		return nil, &ProtocolError{Msg: fmt.Sprintf("the server answered request id %s, but mcpctl sent id %d", snippet(msg.ID), req.ID)}
	}
	return msg, nil
}

var errStreamDone = errors.New("stream done")

func (t *HTTPTransport) readStream(ctx context.Context, body io.Reader, req *Request, notify func(Notification)) (*Message, error) {
	var result *Message
	var perr error
	onResponse := func(m *Message) bool {
		result, perr = t.match(m, req)
		return true
	}
	err := readSSE(body, t.opts.MaxMessage, t.streamHandler(notify, onResponse, &perr, false))
	return t.streamOutcome(ctx, result, perr, err)
}

// streamOutcome is what reading a response stream came to: the response,
// the message that broke the protocol, or why the stream ended without one.
func (t *HTTPTransport) streamOutcome(ctx context.Context, result *Message, perr, err error) (*Message, error) {
	if perr != nil {
		return nil, perr
	}
	if result != nil {
		return result, nil
	}
	if err != nil && err != errStreamDone {
		return nil, t.readError(ctx, err)
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return nil, &ConnError{Msg: "the server closed the event stream without answering the request"}
}

// failure turns a non-2xx response into an error message (a JSON-RPC error
// body) or the right error value.
func (t *HTTPTransport) failure(resp *http.Response) (*Message, error) {
	data, _ := readLimited(resp.Body, 1<<20, resp.ContentLength)
	if len(bytes.TrimSpace(data)) > 0 {
		t.traceBody(data)
	}
	if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
		return nil, &AuthError{Status: resp.StatusCode, WWWAuthenticate: resp.Header.Get("WWW-Authenticate")}
	}
	if rpc := jsonRPCErrorBody(data); rpc != nil {
		rpc.HTTPStatus = resp.StatusCode
		return &Message{JSONRPC: "2.0", Error: rpc}, nil
	}
	return nil, &HTTPError{Status: resp.StatusCode, StatusText: http.StatusText(resp.StatusCode), Body: string(data), Header: resp.Header}
}

// jsonRPCErrorBody extracts a JSON-RPC error from a failure body, whether
// sent as JSON or as a one-event SSE stream.
func jsonRPCErrorBody(data []byte) *RPCError {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil
	}
	if trimmed[0] != '{' {
		var found *RPCError
		_ = readSSE(bytes.NewReader(data), len(data)+1, func(ev sseEvent) error {
			found = jsonRPCErrorBody(ev.Data)
			return errStreamDone
		})
		return found
	}
	var m Message
	if json.Unmarshal(trimmed, &m) != nil || m.Error == nil || m.JSONRPC != "2.0" {
		return nil
	}
	return m.Error
}

var errTooLarge = errors.New("message too large")

// readLimited reads r whole, up to max bytes. A body that says how long
// it is (size, its Content-Length, which net/http holds it to) is read
// into one buffer of that size, or refused unread if that is over max.
// Any other (chunked, or decompressed from gzip) is read in chunks, and no
// further than max+1 bytes: refusing it costs the limit and one chunk,
// where growing one buffer by doubling cost four times the limit. After a
// read error the part read so far is returned with it.
func readLimited(r io.Reader, max int, size int64) ([]byte, error) {
	if size > int64(max) {
		return nil, errTooLarge
	}
	if size >= 0 {
		data := make([]byte, size)
		n, err := io.ReadFull(r, data)
		return data[:n], err
	}
	var b lineBuffer
	err := b.readFrom(r, max)
	if err == errTooLarge {
		return nil, err
	}
	return b.bytes(), err
}

func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	msg := err.Error()
	// net/http's wording for a peer that does not speak HTTP is cryptic.
	// A peer that talks before it is asked (an SSH banner) makes net/http
	// fail with the name of an internal function instead.
	if strings.Contains(msg, "malformed HTTP") || strings.Contains(msg, "server gave HTTP response to HTTPS client") ||
		strings.Contains(msg, "readLoopPeekFailLocked") {
		return fmt.Errorf("the server does not speak HTTP as expected (%s)", msg)
	}
	return err
}
