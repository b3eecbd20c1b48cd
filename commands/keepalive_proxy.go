package commands

// The session process: `mcpctl session serve` (hidden), started detached
// by `session start` or a keepAlive server's first use. It builds the
// connection a one-shot run would (newSessionFor: the same flags, the
// same era probe and handshake), once, and then relays newline-delimited
// JSON-RPC between the server and every invocation that connects to its
// socket:
//
//   - request ids are rewritten to ids of the session's own, and so are
//     progress tokens, so that invocations never collide; responses,
//     progress and a listen's notifications go back to the invocation
//     whose request they belong to, under its own ids;
//   - a legacy server's initialize was done once: an invocation's
//     initialize is answered from it, its notifications/initialized
//     dropped, so no stateful server is initialized twice;
//   - a server's requests to the client (elicitation, sampling, roots) go
//     to the invocation whose request is in flight. The legacy protocol
//     cannot say which request such a question belongs to, so a legacy
//     server is sent one request at a time: there is then always exactly
//     one to ask;
//   - notifications/cancelled from an invocation (Ctrl-C, a timeout) or
//     its disconnecting cancels only its own requests;
//   - when the server dies, the requests in flight are answered with an
//     error that says its state is gone (exit 3), and the next request
//     starts it again. Nothing is ever sent twice.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/ojson"
)

// Methods the session answers itself, never the server's.
const (
	ksStatusMethod = "mcpctl/session/status"
	ksStopMethod   = "mcpctl/session/stop"
	ksWatchMethod  = "mcpctl/session/watch" // a notification: send me what the server says unasked
)

// Errors the session answers in place of the server. The invocation turns
// them back into errors of mcpctl's (keepalive_dial.go).
const (
	// codeServerGone: the server died while the request was in flight.
	codeServerGone = -32090
	// codeSessionFailed: the request could not be sent or answered for a
	// reason the session says in words; data.exit is the exit code.
	codeSessionFailed = -32091
)

const ksProgressKey = "progressToken"

// ksProxy is the session process's state.
type ksProxy struct {
	f      *Factory
	c      *cli.Context
	paths  ksPaths
	name   string
	server string
	idle   time.Duration

	started time.Time
	nextID  atomic.Int64
	served  atomic.Int64
	// serial holds the one slot of a legacy server (see above); nil for a
	// modern one.
	serial chan struct{}

	mu       sync.Mutex
	be       *ksBackend
	hello    ksHello
	clients  map[*ksClient]bool
	inflight []*ksCall // requests sent to the server, oldest first
	lastUse  time.Time
	listener net.Listener
	stopOnce sync.Once
	done     chan struct{}
	// connecting serialises starting the server (again).
	connecting sync.Mutex
}

// ksBackend is one connection to the server: one server process on stdio.
type ksBackend struct {
	s     *session
	tap   *ksTap
	era   client.EraInfo
	init  json.RawMessage // a legacy server's InitializeResult
	lists *ksLists        // its lists, while unchanged (keepalive_lists.go)
	once  sync.Once
	stop  context.CancelFunc
}

func newKsProxy(f *Factory, c *cli.Context, paths ksPaths, name, server string, idle time.Duration) *ksProxy {
	p := &ksProxy{f: f, c: c, paths: paths, name: name, server: server, idle: idle,
		started: time.Now(), clients: map[*ksClient]bool{}, done: make(chan struct{})}
	p.lastUse = p.started
	// Ids the session sends start far above any the held client used for
	// its own probe and handshake on the same connection.
	p.nextID.Store(1 << 32)
	return p
}

// connect starts the server and does what a one-shot run does first: the
// era probe, and for a legacy server the initialize handshake.
func (p *ksProxy) connect(ctx context.Context) (*ksBackend, error) {
	tap := &ksTap{p: p}
	p.f.tap = tap.wrap
	s, err := newSessionFor(p.c, p.f, nil)
	if err != nil {
		return nil, err
	}
	if _, err := s.client.Call(ctx, "server/discover", nil, nil); err != nil {
		s.Close()
		return nil, s.explain(err)
	}
	be := &ksBackend{s: s, tap: tap, era: s.client.Era(), init: s.client.InitializeResult()}
	if be.era.Era == client.EraLegacy {
		be.lists = newKsLists(be.init)
	}
	wctx, stop := context.WithCancel(context.Background())
	be.stop = stop
	// A stdio server's death ends its notifications: that is how the
	// session learns of it between requests. (An HTTP server's event
	// stream may break and be resumed; its session is given up only when
	// the server says it no longer knows it.)
	if caps := tap.current().Capabilities(); caps.Watch != nil && caps.Binding == client.BindingStdio {
		watch := caps.Watch
		go func() {
			if err := watch(wctx, p.fanOut); err != nil && wctx.Err() == nil {
				p.lost(be, err)
			}
		}()
	}
	p.mu.Lock()
	p.be = be
	p.hello = ksHello{Session: 1, Name: p.name, PID: os.Getpid(), Era: string(be.era.Era), Version: be.era.Version}
	if be.era.Era == client.EraLegacy && p.serial == nil {
		p.serial = make(chan struct{}, 1)
	}
	p.mu.Unlock()
	return be, nil
}

// backend is the connection to the server, started again if it died.
func (p *ksProxy) backend(ctx context.Context) (*ksBackend, error) {
	p.connecting.Lock()
	defer p.connecting.Unlock()
	p.mu.Lock()
	be := p.be
	p.mu.Unlock()
	if be != nil {
		return be, nil
	}
	fmt.Fprintln(p.f.IOStreams.ErrOut, "mcpctl: session: starting the server again")
	return p.connect(ctx)
}

// backendNow is the connection to the server, nil when it is gone.
func (p *ksProxy) backendNow() *ksBackend {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.be
}

// lost forgets a backend whose server is gone and shuts it down.
func (p *ksProxy) lost(be *ksBackend, why error) {
	be.once.Do(func() {
		p.mu.Lock()
		if p.be == be {
			p.be = nil
		}
		p.mu.Unlock()
		fmt.Fprintln(p.f.IOStreams.ErrOut, "mcpctl: session: the server is gone: "+oneLine(inOurWords(why)))
		be.stop()
		go be.s.Close()
	})
}

// serve accepts invocations until the session is stopped, idle too long,
// or its process told to end.
func (p *ksProxy) serve(ctx context.Context, l net.Listener) {
	p.mu.Lock()
	p.listener = l
	p.mu.Unlock()
	go p.idleWatch(ctx)
	for {
		conn, err := l.Accept()
		if err != nil {
			return
		}
		if uid, err := peerOf(conn); err != nil || uid != os.Getuid() {
			fmt.Fprintf(p.f.IOStreams.ErrOut, "mcpctl: session: refused a connection from user %d\n", uid)
			conn.Close()
			continue
		}
		cl := &ksClient{p: p, conn: conn, calls: map[string]*ksCall{}, asks: map[int64]chan *client.Message{},
			gone: make(chan struct{}), out: make(chan []byte, ksQueue)}
		go cl.writer()
		p.mu.Lock()
		p.clients[cl] = true
		p.lastUse = time.Now()
		hello := p.hello
		p.mu.Unlock()
		line, _ := json.Marshal(hello)
		cl.send(line)
		go cl.run()
	}
}

// idleWatch ends the session once no invocation has used it for p.idle.
func (p *ksProxy) idleWatch(ctx context.Context) {
	tick := min(time.Second, p.idle/4+time.Millisecond)
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			p.stop("the session process was told to end")
			return
		case <-p.done:
			return
		case <-t.C:
			p.mu.Lock()
			unused := len(p.clients) == 0 && time.Since(p.lastUse) >= p.idle
			p.mu.Unlock()
			if unused {
				p.stop("unused for " + p.idle.String())
				return
			}
		}
	}
}

// stop ends the session: no new connections, every invocation's
// connection closed, the server shut down as a one-shot run shuts it
// down, the session's files removed.
func (p *ksProxy) stop(why string) {
	p.stopOnce.Do(func() {
		fmt.Fprintln(p.f.IOStreams.ErrOut, "mcpctl: session: stopping: "+why)
		p.mu.Lock()
		l := p.listener
		be := p.be
		p.be = nil
		clients := p.clients
		p.clients = map[*ksClient]bool{}
		p.mu.Unlock()
		if l != nil {
			l.Close()
		}
		_ = os.Remove(p.paths.socket())
		_ = os.Remove(p.paths.record())
		for cl := range clients {
			cl.drainAndClose()
		}
		if be != nil {
			be.once.Do(func() {
				be.stop()
				be.s.Close()
			})
		}
		close(p.done)
	})
}

// touch notes a use of the session.
func (p *ksProxy) touch() {
	p.mu.Lock()
	p.lastUse = time.Now()
	p.mu.Unlock()
}

// fanOut hands what the server said on its own (list changes, resource
// updates) to every invocation listening. Progress and a modern
// subscription's notifications belong to a request: they travel with it.
func (p *ksProxy) fanOut(n client.Notification) {
	p.mu.Lock()
	be := p.be
	p.mu.Unlock()
	if be != nil {
		be.lists.saw(n.Method)
	}
	if n.Method == "notifications/progress" || metaValue(n.Params, client.SubscriptionIDKey) != nil {
		return
	}
	line := n.Raw
	if len(line) == 0 {
		line = notificationLine(n.Method, n.Params)
	}
	p.mu.Lock()
	var to []*ksClient
	for cl := range p.clients {
		if cl.watching.Load() {
			to = append(to, cl)
		}
	}
	p.mu.Unlock()
	for _, cl := range to {
		cl.send(line)
	}
}

// status is what `session list` shows of a running session.
func (p *ksProxy) status() json.RawMessage {
	p.mu.Lock()
	defer p.mu.Unlock()
	st := map[string]any{
		"name": p.name, "server": p.server, "era": p.hello.Era, "protocolVersion": p.hello.Version,
		"pid": os.Getpid(), "started": p.started.UTC().Format(time.RFC3339),
		"idle": time.Since(p.lastUse).Round(time.Second).String(), "idleTimeout": p.idle.String(),
		"requests": p.served.Load(), "connections": len(p.clients), "serverRunning": p.be != nil,
	}
	if len(p.inflight) > 0 || len(p.clients) > 0 {
		st["idle"] = "0s"
	}
	b, _ := json.Marshal(st)
	return b
}

// ksClient is one invocation's connection.
type ksClient struct {
	p        *ksProxy
	conn     net.Conn
	out      chan []byte  // lines to write, in order (writer)
	unsent   atomic.Int64 // lines queued and not yet written
	watching atomic.Bool

	mu    sync.Mutex
	calls map[string]*ksCall             // its requests in flight, by its own id
	asks  map[int64]chan *client.Message // server requests put to it, by the id it was given
	next  int64                          // the last such id
	gone  chan struct{}                  // closed when the connection ends
}

// ksCall is one request of an invocation, relayed to the server.
type ksCall struct {
	cl     *ksClient
	origID json.RawMessage // the invocation's id
	id     int64           // the session's id for it
	token  json.RawMessage // the invocation's progress token, if any
	cancel context.CancelFunc
	// logs: log messages may be this request's. A modern server sends them
	// only for a request that asked (a logLevel in its _meta); a legacy
	// one for any, at the level set for the whole connection.
	logs bool
}

// ksQueue is how many lines may wait for one invocation to read them.
const ksQueue = 4096

// send queues a line for the invocation. One that stops reading must not
// hold up the server's other invocations: when its queue is full, or a
// write waits 30s, its connection is closed (its requests then end with
// exit 3).
func (cl *ksClient) send(line []byte) {
	cl.unsent.Add(1)
	select {
	case cl.out <- append(append(make([]byte, 0, len(line)+1), line...), '\n'):
	case <-cl.gone:
		cl.unsent.Add(-1)
	default:
		cl.unsent.Add(-1)
		cl.conn.Close()
	}
}

// drainAndClose closes the connection once what was queued for it is
// written (the answer to a stop), or after a second.
func (cl *ksClient) drainAndClose() {
	deadline := time.Now().Add(time.Second)
	for cl.unsent.Load() > 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	cl.conn.Close()
}

func (cl *ksClient) writer() {
	for {
		select {
		case line := <-cl.out:
			_ = cl.conn.SetWriteDeadline(time.Now().Add(30 * time.Second))
			_, err := cl.conn.Write(line)
			cl.unsent.Add(-1)
			if err != nil {
				cl.conn.Close()
				return
			}
		case <-cl.gone:
			return
		}
	}
}

// run reads the invocation's messages until it hangs up; its requests in
// flight are then cancelled.
func (cl *ksClient) run() {
	ctx, cancel := context.WithCancel(context.Background())
	defer func() {
		cancel()
		cl.conn.Close()
		close(cl.gone)
		p := cl.p
		p.mu.Lock()
		delete(p.clients, cl)
		p.lastUse = time.Now()
		p.mu.Unlock()
	}()
	r := bufio.NewReaderSize(cl.conn, 64<<10)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 1 {
			cl.handle(ctx, line)
		}
		if err != nil {
			return
		}
	}
}

func (cl *ksClient) handle(ctx context.Context, line []byte) {
	msg, err := client.DecodeMessage(line)
	if err != nil {
		return
	}
	switch msg.Kind() {
	case "request":
		go cl.request(ctx, msg)
	case "notification":
		cl.notification(msg)
	case "response":
		id, err := strconv.ParseInt(string(msg.ID), 10, 64)
		if err != nil {
			return
		}
		cl.mu.Lock()
		ch := cl.asks[id]
		delete(cl.asks, id)
		cl.mu.Unlock()
		if ch != nil {
			ch <- msg
		}
	}
}

func (cl *ksClient) notification(msg *client.Message) {
	p := cl.p
	switch msg.Method {
	case "notifications/initialized":
		return // the session's own handshake initialized the server
	case ksWatchMethod:
		cl.watching.Store(true)
		return
	case "notifications/cancelled":
		var c struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		_ = json.Unmarshal(msg.Params, &c)
		cl.mu.Lock()
		call := cl.calls[string(c.RequestID)]
		cl.mu.Unlock()
		if call != nil {
			call.cancel() // the server's transport tells the server, under the session's id
		}
		return
	}
	p.mu.Lock()
	be := p.be
	p.mu.Unlock()
	if be == nil {
		return // a notification is not worth starting a server for
	}
	n := &client.Request{Method: msg.Method, Params: msg.Params, Version: be.era.Version, Legacy: be.era.Era == client.EraLegacy}
	_, _ = be.tap.current().RoundTrip(context.Background(), n, nil)
}

// request relays one request of the invocation to the server and its
// answer back.
func (cl *ksClient) request(ctx context.Context, msg *client.Message) {
	p := cl.p
	switch msg.Method {
	case ksStatusMethod:
		cl.send(responseOf(msg.ID, p.status()))
		return
	case ksStopMethod:
		cl.send(responseOf(msg.ID, json.RawMessage(`{}`)))
		go p.stop("'mcpctl session stop'")
		return
	case "initialize":
		be, err := p.backend(ctx)
		if err != nil {
			cl.fail(msg.ID, err)
			return
		}
		if be.era.Era == client.EraLegacy {
			cl.send(responseOf(msg.ID, be.init))
			return
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	call := &ksCall{cl: cl, origID: msg.ID, id: p.nextID.Add(1), cancel: cancel}
	params, token, version := rewriteRequest(msg.Params, call.id)
	call.token = token
	cl.mu.Lock()
	cl.calls[string(msg.ID)] = call
	cl.mu.Unlock()
	defer func() {
		cl.mu.Lock()
		delete(cl.calls, string(msg.ID))
		cl.mu.Unlock()
		p.touch()
	}()
	if be := p.backendNow(); be != nil {
		// A list the server has not announced a change of since it gave
		// it: no need to wait for, or bother, the server.
		if res := be.lists.get(be.lists.key(msg.Method, msg.Params)); res != nil {
			p.served.Add(1)
			cl.send(responseOf(msg.ID, res))
			return
		}
	}
	if p.serial != nil {
		select {
		case p.serial <- struct{}{}:
			defer func() { <-p.serial }()
		case <-ctx.Done():
			return
		}
	}
	be, err := p.backend(ctx)
	if err != nil {
		if ctx.Err() == nil {
			cl.fail(msg.ID, err)
		}
		return
	}
	if version == "" || be.era.Era == client.EraLegacy {
		version = be.era.Version
	}
	listKey := be.lists.key(msg.Method, msg.Params)
	req := &client.Request{ID: call.id, Method: msg.Method, Params: params, Version: version, Legacy: be.era.Era == client.EraLegacy}
	call.logs = req.Legacy || metaValue(msg.Params, "io.modelcontextprotocol/logLevel") != nil
	p.mu.Lock()
	p.inflight = append(p.inflight, call)
	p.mu.Unlock()
	resp, err := be.tap.current().RoundTrip(ctx, req, call.notify)
	p.mu.Lock()
	for i, c := range p.inflight {
		if c == call {
			p.inflight = append(p.inflight[:i:i], p.inflight[i+1:]...)
			break
		}
	}
	p.mu.Unlock()
	p.served.Add(1)
	switch {
	case ctx.Err() != nil:
		// The invocation cancelled it, or hung up: it waits for nothing.
	case err != nil && serverGone(err, be.tap.current().Capabilities().Binding):
		p.lost(be, err)
		cl.send(errorOf(msg.ID, &client.RPCError{Code: codeServerGone,
			Message: "the server is gone, and its state with it (the session starts it again on the next request): " + oneLine(inOurWords(err))}))
	case err != nil:
		cl.fail(msg.ID, err)
	case resp.Error != nil:
		cl.send(errorOf(msg.ID, resp.Error))
	default:
		be.lists.put(listKey, resp.Result)
		cl.send(responseOf(msg.ID, resp.Result))
	}
}

// fail answers a request with an error of the session's, in mcpctl's
// words and with its exit code.
func (cl *ksClient) fail(id json.RawMessage, err error) {
	data, _ := json.Marshal(map[string]int{"exit": ExitCode(err)})
	cl.send(errorOf(id, &client.RPCError{Code: codeSessionFailed, Message: oneLine(inOurWords(err)), Data: data}))
}

// notify passes on a notification of the server's that belongs to this
// request, under the invocation's own ids. On stdio every notification
// reaches every request in flight: a progress or subscription
// notification is passed on only by the request it names.
func (call *ksCall) notify(n client.Notification) {
	if be := call.cl.p.backendNow(); be != nil {
		be.lists.saw(n.Method)
	}
	params := n.Params
	mine := strconv.FormatInt(call.id, 10)
	if n.Method == "notifications/message" && !call.logs {
		return // another request's, which asked for them
	}
	if n.Method == "notifications/progress" {
		tok := topValue(params, ksProgressKey)
		if string(tok) != mine && string(tok) != `"`+mine+`"` {
			return
		}
		if call.token != nil {
			params = setTop(params, ksProgressKey, call.token)
		}
	} else if sid := metaValue(params, client.SubscriptionIDKey); sid != nil {
		if string(sid) != mine && string(sid) != `"`+mine+`"` {
			return
		}
		params = setMeta(params, client.SubscriptionIDKey, call.origID)
	}
	call.cl.send(notificationLine(n.Method, params))
}

// ask puts a server's request to this invocation and waits for its
// answer, or for the invocation to go.
func (cl *ksClient) ask(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *client.RPCError) {
	ch := make(chan *client.Message, 1)
	cl.mu.Lock()
	cl.next++
	id := cl.next
	cl.asks[id] = ch
	cl.mu.Unlock()
	line := ojson.Members{{Key: "jsonrpc", Value: json.RawMessage(`"2.0"`)}, {Key: "id", Value: json.RawMessage(strconv.FormatInt(id, 10))},
		{Key: "method", Value: ojson.String(method)}}
	if len(params) > 0 {
		line = append(line, ojson.Member{Key: "params", Value: params})
	}
	cl.send(line.JSON())
	select {
	case msg := <-ch:
		if msg.Error != nil {
			return nil, msg.Error
		}
		return msg.Result, nil
	case <-cl.gone:
		return nil, &client.RPCError{Code: client.CodeInternalError, Message: "the client that was asked went away"}
	case <-ctx.Done():
		return nil, &client.RPCError{Code: client.CodeInternalError, Message: "the session is ending"}
	}
}

// ksTap stands between the held client and its transports: the session
// learns which transport is in use (HTTP switches on the era), and the
// server's requests come to the session, which routes them.
type ksTap struct {
	p        *ksProxy
	mu       sync.Mutex
	cur      client.Transport
	fallback client.ServerRequestHandler
}

type tapped struct {
	tp *ksTap
	client.Transport
}

func (tp *ksTap) wrap(t client.Transport) client.Transport {
	tp.mu.Lock()
	tp.cur = t
	tp.mu.Unlock()
	return &tapped{tp, t}
}

func (tp *ksTap) current() client.Transport {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	return tp.cur
}

func (t *tapped) RoundTrip(ctx context.Context, req *client.Request, notify func(client.Notification)) (*client.Message, error) {
	t.tp.mu.Lock()
	t.tp.cur = t.Transport // the one the client uses is the one in use
	t.tp.mu.Unlock()
	return t.Transport.RoundTrip(ctx, req, notify)
}

func (t *tapped) Capabilities() client.Capabilities {
	caps := t.Transport.Capabilities()
	if install := caps.ServerRequests; install != nil {
		caps.ServerRequests = func(h client.ServerRequestHandler) {
			t.tp.mu.Lock()
			t.tp.fallback = h
			t.tp.mu.Unlock()
			install(t.tp.route)
		}
	}
	if rebind := caps.Rebind; rebind != nil {
		caps.Rebind = func(era client.Era, binding string) (client.Transport, error) {
			nt, err := rebind(era, binding)
			if err != nil || nt == t.Transport {
				return t, err
			}
			return t.tp.wrap(nt), nil
		}
	}
	return caps
}

// route answers a server's request: the invocation whose request is in
// flight is asked (a legacy server has only one), else the session's own
// flags answer, as they did during the handshake.
func (tp *ksTap) route(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *client.RPCError) {
	if method == "ping" {
		return json.RawMessage(`{}`), nil
	}
	p := tp.p
	p.mu.Lock()
	var owner *ksCall
	if len(p.inflight) > 0 {
		owner = p.inflight[0]
	}
	p.mu.Unlock()
	if owner != nil {
		return owner.cl.ask(ctx, method, params)
	}
	tp.mu.Lock()
	h := tp.fallback
	tp.mu.Unlock()
	if h == nil {
		return nil, &client.RPCError{Code: client.CodeMethodNotFound, Message: "no client is there to answer " + method}
	}
	return h(ctx, method, params)
}

// serverGone tells a failure that means the server (or the connection
// that held its state) is gone from one of this request alone: on stdio
// a broken or closed connection (the process is gone, or is given up);
// over HTTP the server saying it no longer knows the session (404). An
// HTTP server that cannot be reached now may still know it later.
func serverGone(err error, binding string) bool {
	var expired *client.SessionExpiredError
	if errors.As(err, &expired) {
		return true
	}
	if binding != client.BindingStdio {
		return false
	}
	var conn *client.ConnError
	var proto *client.ProtocolError
	return errors.As(err, &conn) || errors.As(err, &proto) || errors.Is(err, io.EOF)
}

// rewriteRequest puts the session's id in place of the invocation's
// progress token, and reads the protocol version the request declares.
func rewriteRequest(params json.RawMessage, id int64) (out, token json.RawMessage, version string) {
	out = params
	meta := topValue(params, "_meta")
	if meta == nil {
		return out, nil, ""
	}
	if v := topValue(meta, "io.modelcontextprotocol/protocolVersion"); v != nil {
		_ = json.Unmarshal(v, &version)
	}
	if token = topValue(meta, ksProgressKey); token != nil {
		out = setMeta(params, ksProgressKey, json.RawMessage(strconv.FormatInt(id, 10)))
	}
	return out, token, version
}

// topValue is obj's member key, or nil.
func topValue(obj json.RawMessage, key string) json.RawMessage {
	fields, err := ojson.SplitObject(obj)
	if err != nil {
		return nil
	}
	return fields.Get(key)
}

func metaValue(params json.RawMessage, key string) json.RawMessage {
	return topValue(topValue(params, "_meta"), key)
}

// setTop sets obj's member key, keeping the others and their order.
func setTop(obj json.RawMessage, key string, v json.RawMessage) json.RawMessage {
	fields, err := ojson.SplitObject(obj)
	if err != nil {
		return obj
	}
	fields.Set(key, v)
	return fields.JSON()
}

func setMeta(params json.RawMessage, key string, v json.RawMessage) json.RawMessage {
	meta := topValue(params, "_meta")
	if meta == nil {
		return params
	}
	return setTop(params, "_meta", setTop(meta, key, v))
}

func responseOf(id, result json.RawMessage) []byte {
	if len(result) == 0 {
		result = json.RawMessage(`{}`)
	}
	return ojson.Members{{Key: "jsonrpc", Value: json.RawMessage(`"2.0"`)}, {Key: "id", Value: id}, {Key: "result", Value: result}}.JSON()
}

func errorOf(id json.RawMessage, e *client.RPCError) []byte {
	b, _ := json.Marshal(e)
	return ojson.Members{{Key: "jsonrpc", Value: json.RawMessage(`"2.0"`)}, {Key: "id", Value: id}, {Key: "error", Value: b}}.JSON()
}

func notificationLine(method string, params json.RawMessage) []byte {
	m := ojson.Members{{Key: "jsonrpc", Value: json.RawMessage(`"2.0"`)}, {Key: "method", Value: ojson.String(method)}}
	if len(params) > 0 {
		m = append(m, ojson.Member{Key: "params", Value: params})
	}
	return m.JSON()
}
