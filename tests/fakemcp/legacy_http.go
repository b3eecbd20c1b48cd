package fakemcp

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// legacyHandler serves the legacy modes over HTTP: Streamable HTTP as of
// 2025-11-25, or for "legacysse" (and "legacysselogs:N") the HTTP+SSE
// transport of 2024-11-05.
func legacyHandler(mode string) http.Handler {
	if strings.HasPrefix(mode, "legacysse") {
		return &legacySSE{srv: newServer(mode), sessions: map[string]*sseSession{}}
	}
	return &legacyHTTP{srv: newServer(mode), sessions: map[string]*httpSession{}}
}

var noID = json.RawMessage("null")

// badSession is what the TypeScript SDK's servers answer a request without
// a usable session.
var badSession = rpcError(noID, -32000, "Bad Request: No valid session ID provided", "")

// legacyHTTP is Streamable HTTP with sessions: initialize creates one, and
// every later message must name it in Mcp-Session-Id.
type legacyHTTP struct {
	srv      *server
	mu       sync.Mutex
	made     int
	sessions map[string]*httpSession
}

type httpSession struct {
	*legacySession
	id     string
	gone   chan struct{} // closed when the session ends
	events atomic.Int64  // SSE event ids, unique across the session's streams

	streamMu sync.Mutex
	stream   chan string // the open GET stream; nil when none
}

func (h *legacyHTTP) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPost:
		h.post(w, r)
	case http.MethodGet, http.MethodDelete:
		hs := h.session(w, r)
		if hs == nil {
			return
		}
		if r.Method == http.MethodDelete {
			h.end(hs, "deleted")
			return
		}
		if h.getStream(w, r, hs) { // issue 25, item 2 (getstream.go)
			return
		}
		h.listen(w, r, hs)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		w.WriteHeader(http.StatusMethodNotAllowed)
	}
}

func (h *legacyHTTP) post(w http.ResponseWriter, r *http.Request) {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		writeJSON(w, r, http.StatusUnsupportedMediaType, rpcError(noID, -32000, "Unsupported Media Type: Content-Type must be application/json", ""))
		return
	}
	body, _ := io.ReadAll(r.Body)
	var msg request
	if json.Unmarshal(body, &msg) != nil || (msg.Method == "" && len(msg.ID) == 0) {
		writeJSON(w, r, http.StatusBadRequest, rpcError(noID, -32700, "Parse error", ""))
		return
	}
	isRequest := msg.Method != "" && len(msg.ID) > 0
	if isRequest && msg.Method == "initialize" {
		hs := &httpSession{gone: make(chan struct{})}
		hs.legacySession = newLegacySession(h.srv, os.Stderr, hs.push)
		answer := hs.handle(msg, nil)
		if hs.negotiated() != "" { // a refused handshake makes no session
			h.mu.Lock()
			h.made++
			hs.id = fmt.Sprintf("sess-%d", h.made)
			h.sessions[hs.id] = hs
			h.mu.Unlock()
			w.Header().Set("Mcp-Session-Id", hs.id)
		}
		writeJSON(w, r, http.StatusOK, answer)
		return
	}
	hs := h.session(w, r)
	if hs == nil {
		if isRequest && msg.Method != "fake/count" {
			h.srv.count(msg.Method) // refused requests count too: tests see probes and retries
		}
		return
	}
	if hs.deliver(msg, body) {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	h.answer(w, r, hs, msg)
	if h.srv.mode == "legacyexpire" {
		h.end(hs, "expired")
	}
}

// answer serves a request: as plain JSON, unless handling it sends the
// client messages first, which turns the answer into an SSE stream.
func (h *legacyHTTP) answer(w http.ResponseWriter, r *http.Request, hs *httpSession, msg request) {
	streaming := false
	send := func(m string) {
		if !streaming {
			streaming = true
			w.Header().Set("Content-Type", "text/event-stream")
			w.Header().Set("Cache-Control", "no-cache")
			w.WriteHeader(http.StatusOK)
		}
		hs.event(w, m)
	}
	answer := hs.handle(msg, send)
	if streaming {
		hs.event(w, answer)
		return
	}
	writeJSON(w, r, http.StatusOK, answer)
}

// session finds the request's session, or answers as the SDKs do: 400
// without a session id, 404 for one that is unknown or gone, 400 for a
// protocol version other than the negotiated one.
func (h *legacyHTTP) session(w http.ResponseWriter, r *http.Request) *httpSession {
	id := r.Header.Get("Mcp-Session-Id")
	h.mu.Lock()
	hs := h.sessions[id]
	h.mu.Unlock()
	switch {
	case id == "":
		writeJSON(w, r, http.StatusBadRequest, badSession)
		return nil
	case hs == nil:
		writeJSON(w, r, http.StatusNotFound, badSession)
		return nil
	}
	if v := r.Header.Get("Mcp-Protocol-Version"); v != "" && v != hs.negotiated() {
		writeJSON(w, r, http.StatusBadRequest, rpcError(noID, -32000, "Bad Request: Unsupported protocol version: "+v, ""))
		return nil
	}
	return hs
}

func (h *legacyHTTP) end(hs *httpSession, why string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.sessions[hs.id] == hs {
		delete(h.sessions, hs.id)
		close(hs.gone)
		hs.logf("fakemcp: session %s %s", hs.id, why)
	}
}

// listen holds the session's standalone GET stream, where messages that
// belong to no request (resource updates) go.
func (h *legacyHTTP) listen(w http.ResponseWriter, r *http.Request, hs *httpSession) {
	if !strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
		w.WriteHeader(http.StatusNotAcceptable)
		return
	}
	ch := make(chan string, 16)
	hs.streamMu.Lock()
	if hs.stream != nil {
		hs.streamMu.Unlock()
		writeJSON(w, r, http.StatusConflict, rpcError(noID, -32000, "Conflict: Only one SSE stream is allowed per session", ""))
		return
	}
	hs.stream = ch
	hs.streamMu.Unlock()
	defer func() {
		hs.streamMu.Lock()
		hs.stream = nil
		hs.streamMu.Unlock()
	}()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	pump(w, r, hs.gone, ch, func(m string) { hs.event(w, m) })
}

// push sends an unsolicited message on the GET stream; with none open the
// message is lost, as it would be with a real server.
func (hs *httpSession) push(msg string) {
	hs.streamMu.Lock()
	defer hs.streamMu.Unlock()
	select {
	case hs.stream <- msg: // a nil stream never takes it
	default:
		hs.logf("fakemcp: no stream open, dropped %s", msg)
	}
}

func (hs *httpSession) event(w io.Writer, msg string) {
	fmt.Fprintf(w, "event: message\nid: %d\ndata: %s\n\n", hs.events.Add(1), msg)
	w.(http.Flusher).Flush()
}

// pump writes msgs on an SSE stream until the client goes away or the
// session ends, with a comment every 15s so idle connections stay up.
func pump(w http.ResponseWriter, r *http.Request, gone <-chan struct{}, msgs <-chan string, write func(string)) {
	f := w.(http.Flusher)
	f.Flush()
	tick := time.NewTicker(15 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-gone:
			return
		case m := <-msgs:
			write(m)
			f.Flush()
		case <-tick.C:
			fmt.Fprint(w, ": keep-alive\n\n")
			f.Flush()
		}
	}
}

// legacySSE is the HTTP+SSE transport of 2024-11-05: a GET opens a stream
// whose first event names the URL to POST messages to; every answer comes
// back on the stream, and POSTs get only 202.
type legacySSE struct {
	srv      *server
	mu       sync.Mutex
	made     int
	sessions map[string]*sseSession
}

type sseSession struct {
	*legacySession
	out  chan string
	gone chan struct{} // closed when the stream ends
}

func (h *legacySSE) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.HasSuffix(r.URL.Path, "/messages") {
		if r.Method != http.MethodGet {
			// What a modern client's first POST meets: its cue to fall back.
			w.Header().Set("Allow", "GET")
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		h.stream(w, r)
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	h.mu.Lock()
	ss := h.sessions[r.URL.Query().Get("sessionId")]
	h.mu.Unlock()
	if ss == nil {
		http.Error(w, "Session not found", http.StatusNotFound)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var msg request
	if json.Unmarshal(body, &msg) != nil || (msg.Method == "" && len(msg.ID) == 0) {
		http.Error(w, "Invalid message", http.StatusBadRequest)
		return
	}
	switch {
	case ss.deliver(msg, body):
	case msg.Method == "tools/call": // may wait for a client answer, POSTed here later
		go func() { ss.send(ss.handle(msg, ss.send)) }()
	default:
		ss.send(ss.handle(msg, ss.send))
	}
	w.WriteHeader(http.StatusAccepted)
}

func (h *legacySSE) stream(w http.ResponseWriter, r *http.Request) {
	ss := &sseSession{out: make(chan string, 16), gone: make(chan struct{})}
	ss.legacySession = newLegacySession(h.srv, os.Stderr, ss.send)
	h.mu.Lock()
	h.made++
	id := fmt.Sprintf("sess-%d", h.made)
	h.sessions[id] = ss
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(h.sessions, id)
		h.mu.Unlock()
		close(ss.gone)
		ss.logf("fakemcp: session %s closed", id)
	}()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	fmt.Fprintf(w, "event: endpoint\ndata: %s/messages?sessionId=%s\n\n", strings.TrimSuffix(r.URL.Path, "/"), id)
	pump(w, r, nil, ss.out, func(m string) { fmt.Fprintf(w, "event: message\ndata: %s\n\n", m) })
}

// send queues a message for the stream; once the stream is gone it is lost.
func (ss *sseSession) send(msg string) {
	select {
	case ss.out <- msg:
	case <-ss.gone:
	}
}
