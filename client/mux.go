package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"sync"
)

// mux is the message multiplexer of a connection that carries many
// requests at once (stdio, HTTP+SSE, NewConn): it matches each response to
// the request in flight with its id, hands each notification to the
// request it is tied to or, tied to none, once to the Watch callers or the
// connection's handler (route.go), answers the server's own requests
// through the handler, and ends every request with one error when the
// connection fails. The transports feed it decoded messages and write what
// it gives them; the rules are the same for all of them.
type mux struct {
	// bg is the context server requests are answered in; reply sends an
	// answer (a JSON-RPC response line) back to the server.
	bg    context.Context
	reply func(line []byte)

	mu       sync.Mutex
	pending  map[int64]*pendingCall
	maxSent  int64         // the highest request id sent: ids up to it are known
	dead     error         // set once the connection can carry nothing more
	deadCh   chan struct{} // closed when dead is set
	serve    ServerRequestHandler
	untied   func(Notification) // for notifications tied to no request
	watchers watchSet
	// asked counts the server's requests so far, answering those not yet
	// answered (their answers not yet written); quiet is closed while
	// answering is 0 (answered).
	asked, answering int
	quiet            chan struct{}
}

type pendingCall struct {
	method string
	notify func(Notification)
	done   chan callResult
}

type callResult struct {
	msg *Message
	err error
}

func newMux(bg context.Context, reply func(line []byte)) *mux {
	quiet := make(chan struct{})
	close(quiet)
	return &mux{bg: bg, reply: reply, pending: map[int64]*pendingCall{}, deadCh: make(chan struct{}), quiet: quiet}
}

// setHandler makes requests from the server go to h; without one they are
// refused with -32601.
func (m *mux) setHandler(h ServerRequestHandler) {
	m.mu.Lock()
	m.serve = h
	m.mu.Unlock()
}

// setNotify makes notifications tied to no request go to h when no Watch
// caller takes them; without it they are dropped.
func (m *mux) setNotify(h func(Notification)) {
	m.mu.Lock()
	m.untied = h
	m.mu.Unlock()
}

// register notes req as in flight before it is sent, and returns what its
// answer will arrive on (nil for a notification), or why the connection
// can carry nothing.
func (m *mux) register(req *Request, notify func(Notification)) (*pendingCall, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.dead != nil {
		return nil, m.dead
	}
	if req.IsNotification() {
		return nil, nil
	}
	p := &pendingCall{method: req.Method, notify: notify, done: make(chan callResult, 1)}
	m.pending[req.ID] = p
	m.maxSent = max(m.maxSent, req.ID)
	return p, nil
}

// forget stops waiting for id; a late answer is then ignored.
func (m *mux) forget(id int64) {
	m.mu.Lock()
	delete(m.pending, id)
	m.mu.Unlock()
}

// await waits for p's answer. When ctx ends first the request is
// forgotten and ctx's error returned; telling the server is the
// transport's business (cancelNotice).
func (m *mux) await(ctx context.Context, id int64, p *pendingCall) (*Message, error) {
	select {
	case r := <-p.done:
		return r.msg, r.err
	case <-ctx.Done():
		select {
		case r := <-p.done:
			// It came as the wait ended: an answer the server gave is not
			// thrown away (the era probe goes by which came first).
			return r.msg, r.err
		default:
		}
		m.forget(id)
		return nil, ctx.Err()
	}
}

// deliver dispatches one message from the server. An error means the
// server broke the protocol: the transport gives the connection up with it.
//
// The one rule for response ids: an answer to a request in flight ends
// it; an answer to an id this connection sent but no longer waits for (a
// request cancelled or timed out, a second answer) is dropped; an answer
// to an id never sent is a protocol error.
func (m *mux) deliver(msg *Message, raw []byte, more bool) error {
	switch msg.Kind() {
	case "notification":
		m.route(Notification{Method: msg.Method, Params: msg.Params, Raw: append([]byte(nil), raw...), More: more})
	case "request":
		if m.echoed(msg) {
			// A program that copies its input to its output (cat) sends
			// each request back: no server, and nothing to answer.
			return &NotServerError{Echo: true, Method: msg.Method}
		}
		// Legacy servers ask things (elicitation, roots, ping); modern ones
		// must not, and are told so rather than left waiting. The question
		// is counted here, in the order of the server's messages, so that
		// answered sees it once a response that came after it has.
		m.mu.Lock()
		m.asked++
		if m.answering++; m.answering == 1 {
			m.quiet = make(chan struct{})
		}
		m.mu.Unlock()
		go m.answer(msg)
	case "response":
		id, ok := parseID(msg.ID)
		m.mu.Lock()
		p := m.pending[id]
		if ok && p != nil {
			delete(m.pending, id)
		}
		sent := ok && id >= 1 && id <= m.maxSent
		m.mu.Unlock()
		if p != nil {
			p.done <- callResult{msg: msg}
			return nil
		}
		if sent {
			return nil
		}
		return &ResponseIDError{ID: msg.ID}
	}
	return nil
}

// echoed reports whether a request from the server is one of ours come
// back: the method of the request in flight under its id. A server's own
// requests have methods a client serves (roots/list, elicitation), never
// one it sends; ping goes both ways, and the ids of the two sides may
// meet.
func (m *mux) echoed(msg *Message) bool {
	id, ok := parseID(msg.ID)
	if !ok || msg.Method == "ping" {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	p := m.pending[id]
	return p != nil && p.method == msg.Method
}

func (m *mux) answer(msg *Message) {
	m.mu.Lock()
	serve := m.serve
	m.mu.Unlock()
	var res json.RawMessage
	rpcErr := &RPCError{Code: CodeMethodNotFound, Message: "server requests are not accepted on this connection"}
	if serve != nil {
		res, rpcErr = serve(m.bg, msg.Method, msg.Params)
	}
	m.reply(responseLine(msg.ID, res, rpcErr))
	m.mu.Lock()
	if m.answering--; m.answering == 0 {
		close(m.quiet)
	}
	m.mu.Unlock()
}

// answered waits until every request the server has sent so far is
// answered, its answer written (or the connection died, or ctx ended),
// and says how many the server has sent in all.
func (m *mux) answered(ctx context.Context) (int, error) {
	m.mu.Lock()
	quiet := m.quiet
	m.mu.Unlock()
	select {
	case <-quiet:
	case <-m.deadCh:
		return 0, m.err()
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.asked, nil
}

// fail ends every pending call with err and marks the connection dead;
// the first error is the one that stays.
func (m *mux) fail(err error) {
	m.mu.Lock()
	if m.dead == nil {
		m.dead = err
		close(m.deadCh)
	}
	pend := m.pending
	m.pending = map[int64]*pendingCall{}
	m.mu.Unlock()
	for _, p := range pend {
		p.done <- callResult{err: err}
	}
}

// err is why the connection is dead, or nil.
func (m *mux) err() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.dead
}

// watch hands fn every notification until ctx is done (nil) or the
// connection dies (why).
func (m *mux) watch(ctx context.Context, fn func(Notification)) error {
	return watchUntil(ctx, &m.watchers, fn, m.deadCh, m.err)
}

func parseID(raw []byte) (int64, bool) {
	s := string(bytes.Trim(bytes.TrimSpace(raw), `"`))
	id, err := strconv.ParseInt(s, 10, 64)
	return id, err == nil
}

// cancelNotice is notifications/cancelled for request id, with the reason
// its context gave: the stdio binding requires it, and on HTTP+SSE
// nothing else tells the server to stop.
func cancelNotice(id int64, cause error, legacy bool) []byte {
	reason := "cancelled by the user"
	if errors.Is(cause, context.DeadlineExceeded) {
		reason = "timed out"
	}
	n := &Request{Method: "notifications/cancelled", Legacy: legacy,
		Params: []byte(`{"requestId":` + strconv.FormatInt(id, 10) + `,"reason":"` + reason + `"}`)}
	line, _ := n.MarshalJSON()
	return line
}

// copyLineBelow is the size under which a message and its newline are
// written in one piece (one write for a small message; above, a second
// write is cheaper than a copy).
const copyLineBelow = 64 << 10

// writeLine writes one message line (a newline added) to w under mu, so
// that concurrent requests never interleave, and gives up waiting when
// ctx ends: a peer that stops reading must not hold the caller. The write
// itself goes on in the background and, when it fails, is reported to no
// one. finished says the write ended (err is then its own error, for the
// caller to put in its words); else err is ctx's.
func writeLine(ctx context.Context, mu *sync.Mutex, w io.Writer, line []byte) (finished bool, err error) {
	errc := make(chan error, 1)
	go func() {
		mu.Lock()
		defer mu.Unlock()
		var err error
		if len(line) < copyLineBelow {
			_, err = w.Write(append(line[:len(line):len(line)], '\n'))
		} else if _, err = w.Write(line); err == nil {
			// A large message is not copied to add its newline.
			_, err = w.Write(newline)
		}
		errc <- err
	}()
	select {
	case err := <-errc:
		return true, err
	case <-ctx.Done():
		return false, ctx.Err()
	}
}
