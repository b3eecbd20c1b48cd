package client

// Streamable HTTP as revisions 2025-03-26 to 2025-11-25 have it: the
// server may hand out a session id with the initialize response
// (Mcp-Session-Id, sent back on every request, ended with DELETE); every
// request after initialize carries MCP-Protocol-Version; response streams
// may carry server requests (answered with a POST of the response), and a
// stream that breaks before the answer is resumed with a GET carrying
// Last-Event-ID after the server's retry delay. A GET opens the server's
// own stream of notifications, which legacy listen reads (http_events.go).

import (
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"sync"
	"time"
)

// maxResumes bounds reconnections of one response stream.
const maxResumes = 10

// defaultRetry is the reconnection delay when the server gave none.
const defaultRetry = time.Second

// legacyHTTP is the Streamable HTTP transport of the legacy revisions.
type legacyHTTP struct {
	*httpConn

	mu            sync.Mutex
	sessionID     string
	legacyVersion string
	serve         ServerRequestHandler
	events        eventStream
	// bg bounds work that outlives a request (answers to server requests,
	// the GET stream): Close cancels it.
	bg     context.Context
	stopBg context.CancelFunc
}

func newLegacyHTTP(h *httpConn) *legacyHTTP {
	bg, stop := context.WithCancel(context.Background())
	return &legacyHTTP{httpConn: h, bg: bg, stopBg: stop}
}

// Capabilities implements Transport.
func (t *legacyHTTP) Capabilities() Capabilities {
	return Capabilities{
		Binding:        BindingStreamable,
		DryRun:         t.opts.DryRun != nil,
		ServerRequests: t.SetServerRequestHandler,
		Watch:          t.Watch,
		OpenEvents:     t.StartEventStream,
		Rebind:         t.rebind(t, EraLegacy, BindingStreamable),
	}
}

// Close ends the session (DELETE) and releases idle connections.
func (t *legacyHTTP) Close() error {
	t.endSession()
	t.stopBg()
	t.client.CloseIdleConnections()
	return nil
}

// SetServerRequestHandler makes the server's requests go to h; without
// one they are refused with -32601.
func (t *legacyHTTP) SetServerRequestHandler(h ServerRequestHandler) {
	t.mu.Lock()
	t.serve = h
	t.mu.Unlock()
}

// RoundTrip implements Transport.
func (t *legacyHTTP) RoundTrip(ctx context.Context, req *Request, notify func(Notification)) (*Message, error) {
	return t.post(ctx, req, t.legacyHeaders(req), notify, t.readLegacyStream, t.noteSession)
}

// legacyHeaders are a legacy request's headers: no Mcp-Method or
// Mcp-Name, the negotiated version after initialize, and the session.
func (t *legacyHTTP) legacyHeaders(req *Request) http.Header {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	if req.Method == "initialize" {
		return h // a new session: the old id, if any, is dead
	}
	t.mu.Lock()
	if req.Version != "" {
		t.legacyVersion = req.Version
	}
	v, sid := t.legacyVersion, t.sessionID
	t.mu.Unlock()
	if v != "" {
		h.Set("MCP-Protocol-Version", v)
	}
	if sid != "" {
		h.Set("Mcp-Session-Id", sid)
	}
	return h
}

// noteSession keeps the session id an initialize response hands out, and
// turns a 404 to a request that carried one into *SessionExpiredError.
func (t *legacyHTTP) noteSession(req *Request, sent http.Header, resp *http.Response) error {
	if sid := sent.Get("Mcp-Session-Id"); sid != "" && resp.StatusCode == http.StatusNotFound {
		t.mu.Lock()
		if t.sessionID == sid {
			t.sessionID = ""
		}
		t.mu.Unlock()
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
		return &SessionExpiredError{}
	}
	if req.Method != "initialize" || resp.StatusCode >= 300 {
		return nil
	}
	sid := resp.Header.Get("Mcp-Session-Id")
	for i := 0; i < len(sid); i++ {
		if sid[i] < 0x21 || sid[i] > 0x7e {
			return &ProtocolError{Msg: "the server sent an Mcp-Session-Id with characters other than visible ASCII"}
		}
	}
	t.mu.Lock()
	t.sessionID = sid
	t.mu.Unlock()
	return nil
}

// endSession tells the server the session is over. A server that does
// not allow it answers 405, which is fine.
func (t *legacyHTTP) endSession() {
	t.mu.Lock()
	sid, v := t.sessionID, t.legacyVersion
	t.sessionID = ""
	t.mu.Unlock()
	if sid == "" || t.opts.DryRun != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	h := t.withUserHeaders(http.Header{"Mcp-Session-Id": {sid}})
	if v != "" {
		h.Set("MCP-Protocol-Version", v)
	}
	resp, err := t.send(ctx, http.MethodDelete, t.opts.URL, h, nil)
	if err == nil {
		resp.Body.Close()
	}
}

// openGET opens the server's event stream, resuming after lastID if set.
func (t *legacyHTTP) openGET(ctx context.Context, lastID string) (io.ReadCloser, error) {
	t.mu.Lock()
	sid, v := t.sessionID, t.legacyVersion
	t.mu.Unlock()
	h := t.withUserHeaders(http.Header{"Accept": {"text/event-stream"}})
	if v != "" {
		h.Set("MCP-Protocol-Version", v)
	}
	if sid != "" {
		h.Set("Mcp-Session-Id", sid)
	}
	if lastID != "" {
		h.Set("Last-Event-ID", lastID)
	}
	resp, err := t.send(ctx, http.MethodGet, t.opts.URL, h, nil)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusMethodNotAllowed {
		resp.Body.Close()
		return nil, &HTTPError{Status: resp.StatusCode, StatusText: http.StatusText(resp.StatusCode),
			Body: "the server offers no event stream at this URL (GET is not allowed)"}
	}
	if resp.StatusCode >= 300 {
		defer resp.Body.Close()
		if sid != "" && resp.StatusCode == http.StatusNotFound {
			return nil, &SessionExpiredError{}
		}
		_, err := t.failure(resp)
		if err == nil {
			err = &HTTPError{Status: resp.StatusCode, StatusText: http.StatusText(resp.StatusCode)}
		}
		return nil, err
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "text/event-stream" {
		resp.Body.Close()
		return nil, &ProtocolError{Msg: fmt.Sprintf("the server answered GET with Content-Type %q, not an event stream", mt)}
	}
	return resp.Body, nil
}

// streamHandler turns SSE events into messages: notifications to notify,
// server requests answered, and responses to onResponse (which returns
// true when the stream has given what it was read for).
func (t *legacyHTTP) streamHandler(notify func(Notification), onResponse func(*Message) bool, perr *error) func(sseEvent) error {
	return func(ev sseEvent) error {
		msg, skip, err := t.eventMessage(ev)
		switch {
		case skip:
			return nil
		case err != nil:
			*perr = err
			return errStreamDone
		}
		switch msg.Kind() {
		case "notification":
			if notify != nil {
				notify(Notification{Method: msg.Method, Params: msg.Params, Raw: append([]byte(nil), ev.Data...), More: ev.More})
			}
			return nil
		case "request":
			t.answerAsync(msg)
			return nil
		}
		if onResponse != nil && onResponse(msg) {
			return errStreamDone
		}
		return nil
	}
}

// readLegacyStream reads a POST's event stream for the response,
// resuming it with GET + Last-Event-ID when it breaks first.
func (t *legacyHTTP) readLegacyStream(ctx context.Context, body io.Reader, req *Request, notify func(Notification)) (*Message, error) {
	var result *Message
	var perr error
	onResponse := func(m *Message) bool {
		if len(m.ID) > 0 && !idEquals(m.ID, req.ID) {
			return false // an answer to another request, replayed on resumption
		}
		result = m
		return true
	}
	handle := t.streamHandler(notify, onResponse, &perr)
	st := &sseState{Retry: -1}
	err := readSSEState(body, t.opts.MaxMessage, st, handle)
	for n := 0; result == nil && perr == nil && ctx.Err() == nil && st.LastID != "" && n < maxResumes; n++ {
		if err := sleepCtx(ctx, retryDelay(st)); err != nil {
			return nil, err
		}
		rc, gerr := t.openGET(ctx, st.LastID)
		if gerr != nil {
			return nil, gerr
		}
		err = readSSEState(rc, t.opts.MaxMessage, st, handle)
		rc.Close()
	}
	return t.streamOutcome(ctx, result, perr, err)
}

func retryDelay(st *sseState) time.Duration {
	if st.Retry >= 0 {
		return time.Duration(st.Retry) * time.Millisecond
	}
	return defaultRetry
}

// answerAsync answers a server request without holding up the stream it
// came on; the answer is POSTed like any other message.
func (t *legacyHTTP) answerAsync(msg *Message) {
	t.mu.Lock()
	serve := t.serve
	t.mu.Unlock()
	go func() {
		var result []byte
		var rpcErr *RPCError
		if serve == nil {
			rpcErr = &RPCError{Code: CodeMethodNotFound, Message: "server requests are not accepted on this connection"}
		} else {
			result, rpcErr = serve(t.bg, msg.Method, msg.Params)
		}
		t.postMessage(responseLine(msg.ID, result, rpcErr))
	}()
}

// postMessage sends a response of the client's own, with the session's
// headers.
func (t *legacyHTTP) postMessage(line []byte) {
	ctx, cancel := context.WithTimeout(t.bg, 30*time.Second)
	defer cancel()
	h := t.withUserHeaders(t.legacyHeaders(&Request{}))
	resp, err := t.send(ctx, http.MethodPost, t.opts.URL, h, line)
	if err == nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
		resp.Body.Close()
	}
}
