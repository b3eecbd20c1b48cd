package sessiond

// One invocation connected to the daemon: its requests relayed to the
// server under ids of the daemon's own, what comes back handed to it
// under its own ids, and the server's questions put to it.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/ojson"
	"github.com/mcpctl/mcpctl/internal/exitcode"
)

// peer is one invocation's connection.
type peer struct {
	d        *daemon
	conn     net.Conn
	out      *outbox // lines to write, in order (writer)
	watching atomic.Bool
	// ctx is its requests' context, cancelled when it hangs up or falls
	// behind.
	ctx    context.Context
	cancel context.CancelFunc

	// control: the connection said it is the session commands' own
	// (controlLine), in its first line, before any request was read. A
	// control connection (session list, stop) is no use of the session.
	control atomic.Bool

	mu    sync.Mutex
	calls map[string]*call               // its requests in flight, by its own id
	asks  map[int64]chan *client.Message // server requests put to it, by the id it was given
	next  int64                          // the last such id
	gone  chan struct{}                  // closed when the connection ends
}

// call is one request of an invocation, relayed to the server.
type call struct {
	peer   *peer
	origID json.RawMessage // the invocation's id
	id     int64           // the daemon's id for it
	token  json.RawMessage // the invocation's progress token, if any
	cancel context.CancelFunc
	// logs: log messages may be this request's. A modern server sends them
	// only for a request that asked (a log level in its _meta); a legacy
	// one for any, at the level set for the whole connection.
	logs bool
	// viaWatch: its backend's (backend.viaWatch).
	viaWatch bool
}

// accept greets a new invocation's connection and serves it.
func (d *daemon) accept(conn net.Conn) {
	pr := &peer{d: d, conn: conn, calls: map[string]*call{}, asks: map[int64]chan *client.Message{},
		gone: make(chan struct{}), out: newOutbox()}
	pr.ctx, pr.cancel = context.WithCancel(context.Background())
	d.mu.Lock()
	if d.stopped {
		d.mu.Unlock()
		conn.Close()
		return
	}
	d.peers[pr] = true
	hello := d.hello
	d.mu.Unlock()
	go pr.writer()
	line, _ := json.Marshal(hello)
	pr.send(line)
	go pr.run()
}

// send queues an answer for the invocation (one per request it sent).
func (pr *peer) send(line []byte) { pr.queue(line, false) }

// sendUnasked queues what the server says or asks unasked, bounded
// (maxUnread): an invocation that stops reading must not make the session
// hold what piles up, nor hold up the server's other invocations. One
// that falls behind is told so and disconnected (it exits 3); so is one
// a write to which waits 30s.
func (pr *peer) sendUnasked(line []byte) { pr.queue(line, true) }

func (pr *peer) queue(line []byte, unasked bool) {
	select {
	case <-pr.gone:
		return
	default:
	}
	if !pr.out.push(line, unasked) {
		pr.cancel() // nobody will read the answers of its requests
		pr.d.note("mcpctl: session: a client fell behind (more than %d MiB unread); disconnected it", maxUnread>>20)
	}
}

// drainAndClose closes the connection once what was queued for it is
// written (the answer to a stop), or after a second.
func (pr *peer) drainAndClose() {
	deadline := time.Now().Add(time.Second)
	for !pr.out.idle() && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	pr.conn.Close()
}

func (pr *peer) writer() {
	for {
		line, last, ok := pr.out.take(pr.gone)
		if !ok {
			return
		}
		_ = pr.conn.SetWriteDeadline(time.Now().Add(30 * time.Second))
		_, err := pr.conn.Write(line)
		pr.out.wrote()
		if err != nil || last {
			pr.conn.Close()
			return
		}
	}
}

// run reads the invocation's messages until it hangs up; its requests in
// flight are then cancelled.
func (pr *peer) run() {
	ctx := pr.ctx
	defer func() {
		pr.cancel()
		pr.conn.Close()
		close(pr.gone)
		d := pr.d
		d.mu.Lock()
		delete(d.peers, pr)
		if !pr.control.Load() {
			d.lastUse = time.Now()
		}
		d.mu.Unlock()
	}()
	r := bufio.NewReaderSize(pr.conn, 64<<10)
	for first := true; ; first = false {
		line, err := r.ReadBytes('\n')
		if first && string(bytes.TrimSuffix(line, []byte("\n"))) == controlLine {
			pr.control.Store(true)
			continue
		}
		if len(line) > 1 {
			pr.handle(ctx, line)
		}
		if err != nil {
			return
		}
	}
}

func (pr *peer) handle(ctx context.Context, line []byte) {
	msg, err := client.DecodeMessage(line)
	if err != nil {
		return
	}
	switch msg.Kind() {
	case "request":
		go pr.request(ctx, msg)
	case "notification":
		pr.notification(msg)
	case "response":
		id, err := strconv.ParseInt(string(msg.ID), 10, 64)
		if err != nil {
			return
		}
		pr.mu.Lock()
		ch := pr.asks[id]
		delete(pr.asks, id)
		pr.mu.Unlock()
		if ch != nil {
			ch <- msg
		}
	}
}

func (pr *peer) notification(msg *client.Message) {
	if pr.control.Load() {
		return
	}
	switch msg.Method {
	case "notifications/initialized":
		return // the daemon's own handshake initialized the server
	case watchMethod:
		pr.watching.Store(true)
		if be := pr.d.backendNow(); be != nil {
			if why := be.noStreamNow(); why != nil {
				pr.unwatch(why, false) // nothing to watch: as a one-shot run is told
			}
		}
		return
	case "notifications/cancelled":
		var c struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		_ = json.Unmarshal(msg.Params, &c)
		pr.mu.Lock()
		cl := pr.calls[string(c.RequestID)]
		pr.mu.Unlock()
		if cl != nil {
			cl.cancel() // the server's transport tells the server, under the daemon's id
		}
		return
	}
	if strings.HasPrefix(msg.Method, sessionMethods) {
		return // the session's own, never the server's
	}
	be := pr.d.backendNow()
	if be == nil {
		return // a notification is not worth starting a server for
	}
	n := &client.Request{Method: msg.Method, Params: msg.Params, Version: be.era.Version, Legacy: be.era.Era == client.EraLegacy}
	_, _ = be.tap.current().RoundTrip(context.Background(), n, nil)
}

// request relays one request of the invocation to the server and its
// answer back.
func (pr *peer) request(ctx context.Context, msg *client.Message) {
	d := pr.d
	if pr.control.Load() || strings.HasPrefix(msg.Method, sessionMethods) {
		pr.controlRequest(msg)
		return
	}
	switch msg.Method {
	case "initialize":
		be, err := d.backend(ctx)
		if err != nil {
			pr.fail(msg.ID, err)
			return
		}
		if be.era.Era == client.EraLegacy {
			pr.send(responseOf(msg.ID, be.init))
			return
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cl := &call{peer: pr, origID: msg.ID, id: d.nextID.Add(1), cancel: cancel}
	params, header := takeHeaders(msg.Params)
	params, token, version := rewriteRequest(params, cl.id)
	cl.token = token
	pr.mu.Lock()
	pr.calls[string(msg.ID)] = cl
	pr.mu.Unlock()
	defer func() {
		pr.mu.Lock()
		delete(pr.calls, string(msg.ID))
		pr.mu.Unlock()
		d.touch()
	}()
	if be := d.backendNow(); be != nil {
		// A list the server has not announced a change of since it gave
		// it: no need to wait for, or bother, the server.
		if res := be.lists.get(be.lists.key(msg.Method, msg.Params)); res != nil {
			d.served.Add(1)
			pr.send(responseOf(msg.ID, res))
			return
		}
	}
	d.mu.Lock()
	serial := d.serial
	d.mu.Unlock()
	if serial != nil {
		select {
		case serial <- struct{}{}:
			defer func() { <-serial }()
		case <-ctx.Done():
			return
		}
	}
	be, err := d.backend(ctx)
	if err != nil {
		if ctx.Err() == nil {
			pr.fail(msg.ID, err)
		}
		return
	}
	if version == "" || be.era.Era == client.EraLegacy {
		version = be.era.Version
	}
	listKey := be.lists.key(msg.Method, msg.Params)
	req := &client.Request{ID: cl.id, Method: msg.Method, Params: params, Version: version, Legacy: be.era.Era == client.EraLegacy, Header: header}
	cl.logs = req.Legacy || metaValue(msg.Params, logLevelKey) != nil
	cl.viaWatch = be.viaWatch
	d.mu.Lock()
	d.inflight = append(d.inflight, cl)
	d.mu.Unlock()
	resp, err := be.tap.current().RoundTrip(ctx, req, cl.notify)
	d.mu.Lock()
	for i, c := range d.inflight {
		if c == cl {
			d.inflight = append(d.inflight[:i:i], d.inflight[i+1:]...)
			break
		}
	}
	d.mu.Unlock()
	d.served.Add(1)
	switch {
	case ctx.Err() != nil:
		// The invocation cancelled it, or hung up: it waits for nothing.
	case err != nil && be.serverGone(err):
		d.lost(be, err)
		m, _ := d.explain(err)
		pr.send(errorOf(msg.ID, &client.RPCError{Code: codeServerGone,
			Message: "the server is gone, and its state with it (the session starts it again on the next request): " + m}))
	case err != nil:
		pr.fail(msg.ID, err)
	case resp.Error != nil:
		pr.send(errorOf(msg.ID, resp.Error))
	default:
		be.lists.put(listKey, resp.Result)
		pr.send(responseOf(msg.ID, resp.Result))
	}
}

// controlRequest answers a control request on a control connection. Any
// other request of the session's namespace, or any request but a control
// one on a control connection, is refused: a command's request neither
// controls the session nor reaches the server under its name.
func (pr *peer) controlRequest(msg *client.Message) {
	d := pr.d
	control := pr.control.Load()
	switch {
	case control && msg.Method == statusMethod:
		pr.send(responseOf(msg.ID, d.status()))
	case control && msg.Method == stopMethod:
		pr.send(responseOf(msg.ID, json.RawMessage(`{}`)))
		go d.stop("'mcpctl session stop'")
	case control:
		pr.refuse(msg.ID, msg.Method+" is not a control method of the session")
	default:
		pr.refuse(msg.ID, "reserved for the session itself: neither sent to the server nor taken from a command's request")
	}
}

// refuse answers a request the daemon will not serve, a usage error.
func (pr *peer) refuse(id json.RawMessage, msg string) {
	data, _ := json.Marshal(map[string]int{"exit": exitcode.Usage})
	pr.send(errorOf(id, &client.RPCError{Code: codeSessionFailed, Message: msg, Data: data}))
}

// fail answers a request with an error of the daemon's, in the command
// line's words and with its exit code (Config.Explain).
func (pr *peer) fail(id json.RawMessage, err error) {
	msg, code := pr.d.explain(err)
	data, _ := json.Marshal(map[string]int{"exit": code})
	pr.send(errorOf(id, &client.RPCError{Code: codeSessionFailed, Message: msg, Data: data}))
}

// ask puts a server's request to this invocation and waits for its
// answer, or for the invocation to go.
func (pr *peer) ask(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *client.RPCError) {
	ch := make(chan *client.Message, 1)
	pr.mu.Lock()
	pr.next++
	id := pr.next
	pr.asks[id] = ch
	pr.mu.Unlock()
	defer func() {
		pr.mu.Lock()
		delete(pr.asks, id)
		pr.mu.Unlock()
	}()
	line := ojson.Members{{Key: "jsonrpc", Value: json.RawMessage(`"2.0"`)}, {Key: "id", Value: json.RawMessage(strconv.FormatInt(id, 10))},
		{Key: "method", Value: ojson.String(method)}}
	if len(params) > 0 {
		line = append(line, ojson.Member{Key: "params", Value: params})
	}
	pr.sendUnasked(line.JSON())
	select {
	case msg := <-ch:
		if msg.Error != nil {
			return nil, msg.Error
		}
		return msg.Result, nil
	case <-pr.gone:
		return nil, &client.RPCError{Code: client.CodeInternalError, Message: "the client that was asked went away"}
	case <-ctx.Done():
		return nil, &client.RPCError{Code: client.CodeInternalError, Message: "the session is ending"}
	}
}
