package client

// What the three HTTP transports share: the options, one http.Client, the
// way a request is sent (the user's headers, credentials from Auth and a
// bounded number of retries after 401/403, the trace), how a failure
// status and a broken body are reported, and the factory that era
// detection uses to move from one to another (NewHTTP's Rebind):
//
//   - streamableHTTP (http.go): Streamable HTTP of revision 2026-07-28;
//   - legacyHTTP (http_legacy.go): Streamable HTTP of 2025-03-26 to
//     2025-11-25, with sessions, a GET stream and resumption;
//   - sseHTTP (http_sse.go): the deprecated HTTP+SSE transport of
//     2024-11-05.
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
	"time"
)

// HTTPOptions configures the HTTP transports.
type HTTPOptions struct {
	URL string
	// Header is added to every request (a caller's fixed headers).
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

// httpConn is what the HTTP transports to one URL share.
type httpConn struct {
	opts   HTTPOptions
	client *http.Client
}

// NewHTTP checks the URL and returns the Streamable HTTP transport of
// revision 2026-07-28; nothing is sent yet. Its Capabilities.Rebind gives
// the transports of the legacy eras to the same URL (Streamable HTTP with
// sessions, or HTTP+SSE), which era detection moves to when the server
// turns out to speak one.
func NewHTTP(opts HTTPOptions) (Transport, error) {
	h, err := newHTTPConn(opts)
	if err != nil {
		return nil, err
	}
	return &streamableHTTP{httpConn: h}, nil
}

func newHTTPConn(opts HTTPOptions) (*httpConn, error) {
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
			tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // the caller asked for it
		}
		c = &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error {
			// A redirect would turn the POST into a GET or resend the body
			// somewhere the caller never named; report it instead.
			return http.ErrUseLastResponse
		}}
	}
	return &httpConn{opts: opts, client: c}, nil
}

// rebind is the factory behind every HTTP transport's Rebind: self when
// it is the transport asked for, else a new one of the era and binding
// asked for, sharing this connection's options and client.
func (h *httpConn) rebind(self Transport, era Era, binding string) func(Era, string) (Transport, error) {
	return func(e Era, b string) (Transport, error) {
		if e == EraUnknown {
			e = EraModern
		}
		switch {
		case e == era && b == binding:
			return self, nil
		case e == EraModern && b == BindingStreamable:
			return &streamableHTTP{httpConn: h}, nil
		case e == EraLegacy && b == BindingStreamable:
			return newLegacyHTTP(h), nil
		case e == EraLegacy && b == BindingSSE:
			return newSSEHTTP(h), nil
		}
		return nil, &CapabilityError{Binding: binding, Capability: fmt.Sprintf("binding %s for the %s era", b, e)}
	}
}

func (h *httpConn) withUserHeaders(hd http.Header) http.Header {
	for k, vs := range h.opts.Header {
		hd[http.CanonicalHeaderKey(k)] = append([]string(nil), vs...)
	}
	return hd
}

// post is the exchange the two Streamable HTTP transports share: POST req
// with the headers h (plus the caller's and the request's own), then
// read the answer, one JSON object or an event stream, which stream
// reads. noted, when set, sees every response first (the legacy session).
func (h *httpConn) post(ctx context.Context, req *Request, hd http.Header, notify func(Notification),
	stream func(context.Context, io.Reader, *Request, func(Notification)) (*Message, error),
	noted func(*Request, http.Header, *http.Response) error) (*Message, error) {
	body, _ := req.MarshalJSON()
	hd = h.withUserHeaders(hd)
	for k, vs := range req.Header {
		hd[k] = append([]string(nil), vs...)
	}
	if h.opts.DryRun != nil {
		h.opts.DryRun(DryRunRequest{HTTPMethod: http.MethodPost, URL: h.opts.URL, Header: hd, Body: body})
		return nil, ErrDryRun
	}
	resp, retryNote, err := h.postRetrying(ctx, req, hd, body)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if noted != nil {
		if err := noted(req, hd, resp); err != nil {
			return nil, err
		}
	}
	if resp.StatusCode >= 300 {
		// A JSON-RPC error in a failure status is still an answer: the
		// caller handles -32022 and friends the same way on every transport.
		msg, err := h.failure(resp)
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
		return stream(ctx, resp.Body, req, notify)
	case "application/json", "":
		data, err := readLimited(resp.Body, h.opts.MaxMessage, resp.ContentLength)
		if err != nil {
			return nil, h.readError(ctx, err)
		}
		h.traceBody(data)
		msg, err := DecodeMessage(data)
		if err != nil {
			return nil, err
		}
		return match(msg, req)
	default:
		return nil, &ProtocolError{Msg: fmt.Sprintf("the server answered with Content-Type %q; expected application/json or text/event-stream", mediaType)}
	}
}

// match checks that a response on a request's own reply answers it.
func match(msg *Message, req *Request) (*Message, error) {
	if msg.Kind() != "response" {
		return nil, &ProtocolError{Msg: "the server answered with a " + msg.Kind() + " instead of a response"}
	}
	if len(msg.ID) > 0 && !idEquals(msg.ID, req.ID) {
		return nil, &ResponseIDError{ID: msg.ID, Sent: req.ID}
	}
	return msg, nil
}

// send makes one HTTP request, traced, with the credentials of Auth; a
// 401 or 403 it can do something about (log in, refresh, step up) is sent
// again, a bounded number of times.
func (h *httpConn) send(ctx context.Context, method, url string, hd http.Header, body []byte) (*http.Response, error) {
	bound, _ := h.opts.Auth.(BoundAuthenticator)
	nonceRetried := false
	for attempt := 0; ; attempt++ {
		if bound != nil {
			if err := bound.AuthorizeRequest(ctx, method, url, hd); err != nil {
				return nil, &AuthError{Err: err}
			}
		} else if h.opts.Auth != nil {
			v, err := h.opts.Auth.Authorization(ctx)
			if err != nil {
				return nil, &AuthError{Err: err}
			}
			if v != "" {
				hd.Set("Authorization", v)
			}
		}
		resp, err := h.sendOnce(ctx, method, url, hd, body)
		if err == nil && bound != nil && bound.Nonce(url, resp.StatusCode, resp.Header) {
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
			resp.Body.Close()
			if nonceRetried {
				return nil, &AuthError{Status: resp.StatusCode, WWWAuthenticate: resp.Header.Get("WWW-Authenticate"), Err: ErrNonceRepeated}
			}
			nonceRetried = true
			continue
		}
		if err != nil || h.opts.Auth == nil || attempt >= maxAuthRetries ||
			(resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden) {
			return resp, err
		}
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		retry, cerr := h.opts.Auth.Challenge(ctx, resp.StatusCode, resp.Header)
		if cerr != nil {
			if ctx.Err() != nil {
				return nil, &authCut{cause: ctx.Err(), err: cerr}
			}
			return nil, &AuthError{Status: resp.StatusCode, WWWAuthenticate: resp.Header.Get("WWW-Authenticate"), Err: cerr}
		}
		if !retry {
			resp.Body = io.NopCloser(bytes.NewReader(data))
			return resp, nil
		}
		// A login can take longer than the server keeps an idle connection
		// open; a POST on one it is closing would fail for good.
		h.client.CloseIdleConnections()
	}
}

// maxAuthRetries bounds resending one request after authorization: a
// login, a step-up, and one more.
const maxAuthRetries = 4

func (h *httpConn) sendOnce(ctx context.Context, method, url string, hd http.Header, body []byte) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	hreq, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return nil, &ConnError{Msg: "cannot build request", Err: err}
	}
	hreq.Header = hd
	if h.opts.Trace != nil {
		h.opts.Trace(TraceEvent{Dir: "send", HTTPMethod: method, URL: url, Header: hd, Body: body})
	}
	resp, err := h.client.Do(hreq)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &ConnError{Msg: "cannot reach " + RedactURL(url), Err: unwrapURLError(err)}
	}
	if h.opts.Trace != nil {
		h.opts.Trace(TraceEvent{Dir: "recv", Status: resp.Status, Header: resp.Header})
	}
	return resp, nil
}

func (h *httpConn) traceBody(data []byte) {
	if h.opts.Trace != nil {
		h.opts.Trace(TraceEvent{Dir: "recv", Body: bytes.TrimSpace(data)})
	}
}

func (h *httpConn) readError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, errTooLarge) || errors.Is(err, errEventTooLarge) {
		return &MessageTooLargeError{Limit: h.opts.MaxMessage}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return &ConnError{Msg: "the connection broke in the middle of the response from " + RedactURL(h.opts.URL), Err: err}
	}
	return &ConnError{Msg: "reading the response from " + RedactURL(h.opts.URL) + " failed", Err: err}
}

var errStreamDone = errors.New("stream done")

// eventMessage decodes the message an SSE event carries: skip for
// events that carry none (priming events, other event types, a malformed
// one the Malformed policy skips), else the message or why it is not one.
func (h *httpConn) eventMessage(ev sseEvent) (msg *Message, skip bool, err error) {
	if ev.Event != "" && ev.Event != "message" {
		return nil, true, nil
	}
	if len(bytes.TrimSpace(ev.Data)) == 0 {
		return nil, true, nil // priming events carry no message
	}
	h.traceBody(ev.Data)
	msg, err = DecodeMessage(ev.Data)
	if err != nil && h.opts.Malformed != nil && h.opts.Malformed(ev.Data, err) {
		return nil, true, nil
	}
	return msg, false, err
}

// streamOutcome is what reading a response stream came to: the response,
// the message that broke the protocol, or why the stream ended without one.
func (h *httpConn) streamOutcome(ctx context.Context, result *Message, perr, err error) (*Message, error) {
	if perr != nil {
		return nil, perr
	}
	if result != nil {
		return result, nil
	}
	if err != nil && err != errStreamDone {
		return nil, h.readError(ctx, err)
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return nil, &ConnError{Msg: "the server closed the event stream without answering the request"}
}

// failure turns a non-2xx response into an error message (a JSON-RPC error
// body) or the right error value.
func (h *httpConn) failure(resp *http.Response) (*Message, error) {
	data, _ := readLimited(resp.Body, 1<<20, resp.ContentLength)
	if len(bytes.TrimSpace(data)) > 0 {
		h.traceBody(data)
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
