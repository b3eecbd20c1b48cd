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
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpctl/mcpctl/client"
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

// ksHeadersKey carries a request's HTTP headers (Mcp-Param-*) in its
// _meta from an invocation to the session, which takes it out and sends
// them as headers: the socket has no headers of its own.
const ksHeadersKey = "mcpctl.session/headers"

// ksProxy is the session process's state.
type ksProxy struct {
	f      *Factory
	g      *GlobalOptions
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
	s     *connection
	tap   *ksTap
	era   client.EraInfo
	init  json.RawMessage // a legacy server's InitializeResult
	lists *ksLists        // its lists, while unchanged (keepalive_lists.go)
	once  sync.Once
	stop  context.CancelFunc
}

func newKsProxy(f *Factory, g *GlobalOptions, paths ksPaths, name, server string, idle time.Duration) *ksProxy {
	p := &ksProxy{f: f, g: g, paths: paths, name: name, server: server, idle: idle,
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
	conn, err := p.f.connect(ctx, p.g, ConnectOptions{Direct: true, Wrap: tap.wrap})
	if err != nil {
		return nil, err
	}
	s := conn.(*connection)
	if _, err := s.client.Call(ctx, "server/discover", nil, nil); err != nil {
		s.Close()
		return nil, s.Explain(err)
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
	p.hello = ksHello{Session: 1, Name: p.name, PID: os.Getpid(), Era: string(be.era.Era), Version: be.era.Version,
		Headers: be.tap.current().Capabilities().Headers && be.era.Era != client.EraLegacy}
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

// fanOut hands what the server said tied to no request (list changes,
// resource updates, a task's status, log messages on stdio) once to each
// invocation that listens or has a request in flight; log messages only
// to those whose request asked for them (ksCall.logs). Progress and a
// modern subscription's notifications belong to a request: they travel
// with it.
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
	to := map[*ksClient]bool{}
	for cl := range p.clients {
		if cl.watching.Load() {
			to[cl] = true
		}
	}
	for _, call := range p.inflight {
		if n.Method != "notifications/message" || call.logs {
			to[call.cl] = true
		}
	}
	p.mu.Unlock()
	for cl := range to {
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
