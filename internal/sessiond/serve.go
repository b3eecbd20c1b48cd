package sessiond

// The daemon: Serve, and the held connection to the server.

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
	"github.com/mcpctl/mcpctl/internal/exitcode"
)

// Config is what a session process is: where its files are, what it is
// called, and how it reaches its server.
type Config struct {
	// Dir is the sessions folder (OpenDir), ID the server's (ID).
	Dir *Dir
	ID  string
	// Name is what the session is called; Server the server as shown
	// (its URL without credentials, or its command); ServerID its
	// identity, for the record.
	Name, Server, ServerID string
	// Idle ends the session once no invocation has used it this long.
	Idle time.Duration
	// Log takes the session's own notes (a *Log from OpenLog, which the
	// server's stderr goes to as well); nil: none.
	Log io.Writer
	// Connect builds the held client exactly as a one-shot run would,
	// with every transport it uses wrapped by wrap: the daemon learns
	// from it the transport in use after an HTTP Rebind, and receives the
	// server's requests. close shuts the connection down as a one-shot
	// run ends it (on stdio: the server). Connect is called again when
	// the server has died and a request comes.
	Connect func(ctx context.Context, wrap func(client.Transport) client.Transport) (c *client.Client, close func(), err error)
	// Explain is an error as the command line would put it: a one-line
	// message and the exit code. nil: the error's own text, exit 3.
	Explain func(error) (msg string, code int)
}

// Serve runs the session cfg describes until it is stopped (Stop), unused
// for cfg.Idle, or ctx is done; it then shuts the server down and removes
// the session's files. It holds the session's lock, connects (Connect,
// and the era probe a one-shot run does first), listens on the socket
// (0600), writes the record and calls ready with what every connection
// will be told. A config it cannot use (the lock held: ErrLocked; the
// socket's path too long: *SocketPathError; Connect or the probe failing;
// no socket to listen on) is its error, and leaves no socket or record
// behind.
func Serve(ctx context.Context, cfg Config, ready func(Hello)) error {
	if !Supported {
		return ErrUnsupported
	}
	if cfg.Connect == nil || cfg.Idle <= 0 || cfg.Dir == nil || cfg.ID == "" {
		return errors.New("sessiond: a Config needs Dir, ID, Connect and a positive Idle")
	}
	p := Paths{Dir: cfg.Dir, ID: cfg.ID}
	if err := p.CheckLength(); err != nil {
		return err
	}
	l, err := p.lock()
	if err != nil {
		return err
	}
	defer l.Close()
	_ = cfg.Dir.root.Remove(p.sockName()) // we hold the lock: any socket there is stale
	d := newDaemon(cfg, p)
	if _, err := d.connect(ctx); err != nil {
		d.stop("")
		p.remove()
		return err
	}
	ln, err := net.Listen("unix", p.Socket())
	if err != nil {
		d.stop("cannot listen")
		p.remove()
		return fmt.Errorf("cannot listen on %s: %w", p.Socket(), err)
	}
	_ = cfg.Dir.root.Chmod(p.sockName(), 0o600)
	hello := d.helloNow()
	start, _, _ := procStart(os.Getpid())
	rec := &record{Name: cfg.Name, Server: cfg.Server, ServerID: cfg.ServerID, Era: hello.Era, Version: hello.Version,
		PID: os.Getpid(), ProcStart: start, Started: d.started.UTC(), Idle: cfg.Idle.String()}
	if err := p.writeRecord(rec); err != nil {
		ln.Close()
		d.stop("cannot write its record")
		p.remove()
		return err
	}
	d.note("mcpctl: session %s: serving %s (%s %s) on %s", cfg.Name, cfg.Server, hello.Era, hello.Version, p.Socket())
	if ready != nil {
		ready(hello)
	}
	d.serve(ctx, ln)
	<-d.done
	p.remove()
	return nil
}

// daemon is a session process's state.
type daemon struct {
	cfg     Config
	paths   Paths
	started time.Time
	nextID  atomic.Int64
	served  atomic.Int64

	mu       sync.Mutex
	be       *backend
	hello    Hello
	peers    map[*peer]bool
	inflight []*call // requests sent to the server, oldest first
	lastUse  time.Time
	listener net.Listener
	// serial holds the one slot of a legacy server (see Package); nil for
	// a modern one.
	serial   chan struct{}
	stopped  bool
	stopOnce sync.Once
	done     chan struct{}
	// connecting serialises connecting (again).
	connecting sync.Mutex
}

// backend is one connection to the server: one server process on stdio.
type backend struct {
	client *client.Client
	close  func()
	tap    *tap
	era    client.EraInfo
	init   json.RawMessage // a legacy server's InitializeResult
	lists  *lists          // its lists, while unchanged (lists.go)
	// viaWatch: the connection is shared by every request (stdio,
	// HTTP+SSE, a stream), so what the server says that is not tied to a
	// request comes to the daemon's watch (untied); Streamable HTTP ties
	// all it sends on a request's stream to that request.
	viaWatch bool
	// holdsState: the connection is the server's state (stdio, a
	// stream): when it breaks, the server is gone.
	holdsState bool
	// stream: a legacy Streamable HTTP server, whose own stream (the GET
	// stream) carries what is tied to no request: the daemon keeps it
	// open (stream.go), and what comes on it goes to untied.
	stream bool
	once   sync.Once
	stop   context.CancelFunc
	wctx   context.Context

	watchMu  sync.Mutex
	watching bool
	noStream *Error // the server has no stream of its own: why (stream.go)
}

func newDaemon(cfg Config, p Paths) *daemon {
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	d := &daemon{cfg: cfg, paths: p, started: time.Now(), peers: map[*peer]bool{}, done: make(chan struct{})}
	d.lastUse = d.started
	// Ids the daemon sends start far above any the held client used for
	// its own probe and handshake on the same connection.
	d.nextID.Store(1 << 32)
	return d
}

// note writes a line to the session's log.
func (d *daemon) note(format string, a ...any) {
	fmt.Fprintf(d.cfg.Log, format+"\n", a...)
}

// explain is err in the command line's words, with its exit code.
func (d *daemon) explain(err error) (string, int) {
	if d.cfg.Explain != nil {
		return d.cfg.Explain(err)
	}
	return err.Error(), exitcode.Connection
}

var errStopping = &client.ConnError{Msg: "the session is stopping"}

// connect connects to the server and does what a one-shot run does
// first: the era probe, and for a legacy server the initialize
// handshake.
func (d *daemon) connect(ctx context.Context) (*backend, error) {
	tp := &tap{d: d}
	c, closeC, err := d.cfg.Connect(ctx, tp.wrap)
	if err != nil {
		return nil, err
	}
	if tp.current() == nil {
		closeC()
		return nil, errors.New("sessiond: Connect built a client whose transport it did not wrap")
	}
	if _, err := c.Call(ctx, "server/discover", nil, nil); err != nil {
		closeC()
		return nil, err
	}
	be := &backend{client: c, close: closeC, tap: tp, era: c.Era(), init: c.InitializeResult()}
	if be.era.Era == client.EraLegacy {
		be.lists = newLists(be.init)
	}
	caps := tp.current().Capabilities()
	be.holdsState = caps.Binding == client.BindingStdio || caps.Binding == client.BindingStream
	be.viaWatch = caps.Watch != nil && caps.Binding != client.BindingStreamable
	be.stream = caps.Watch != nil && caps.Binding == client.BindingStreamable && be.era.Era == client.EraLegacy
	be.wctx, be.stop = context.WithCancel(context.Background())
	d.mu.Lock()
	if d.stopped {
		d.mu.Unlock()
		be.stop()
		closeC()
		return nil, errStopping
	}
	d.be = be
	d.hello = Hello{Session: 1, Name: d.cfg.Name, PID: os.Getpid(), Era: be.era.Era, Version: be.era.Version,
		Headers: caps.Headers && be.era.Era != client.EraLegacy, Initialize: be.init}
	if be.era.Era == client.EraLegacy && d.serial == nil {
		d.serial = make(chan struct{}, 1)
	}
	d.mu.Unlock()
	d.watch(be)
	return be, nil
}

// watch makes sure the daemon hears what the server says unasked, on a
// shared connection or a legacy Streamable HTTP server's own stream
// (keepStream). A stdio server's death ends it: that is how the daemon
// learns of it between requests. (An HTTP+SSE stream may break and be
// opened again: the next request watches again.)
func (d *daemon) watch(be *backend) {
	if !be.viaWatch && !be.stream {
		return
	}
	be.watchMu.Lock()
	defer be.watchMu.Unlock()
	if be.watching || be.wctx.Err() != nil || be.noStream != nil {
		return
	}
	watch := be.tap.current().Capabilities().Watch
	if watch == nil {
		return
	}
	be.watching = true
	if be.stream {
		go d.keepStream(be, watch)
		return
	}
	go func() {
		err := watch(be.wctx, d.untied)
		be.watchMu.Lock()
		be.watching = false
		be.watchMu.Unlock()
		if err != nil && be.wctx.Err() == nil && be.holdsState {
			d.lost(be, err)
		}
	}()
}

// backend is the connection to the server, connected again if it died.
func (d *daemon) backend(ctx context.Context) (*backend, error) {
	d.connecting.Lock()
	defer d.connecting.Unlock()
	d.mu.Lock()
	be, stopped := d.be, d.stopped
	d.mu.Unlock()
	switch {
	case stopped:
		return nil, errStopping
	case be != nil:
		d.watch(be)
		return be, nil
	}
	d.note("mcpctl: session: starting the server again")
	return d.connect(ctx)
}

// backendNow is the connection to the server, nil when it is gone.
func (d *daemon) backendNow() *backend {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.be
}

// lost forgets a backend whose server is gone and shuts it down.
func (d *daemon) lost(be *backend, why error) {
	be.once.Do(func() {
		d.mu.Lock()
		if d.be == be {
			d.be = nil
		}
		d.mu.Unlock()
		msg, _ := d.explain(why)
		d.note("mcpctl: session: the server is gone: %s", msg)
		be.stop()
		go be.close()
	})
}

// serverGone tells a failure that means the server (or the connection
// that held its state) is gone from one of this request alone: on stdio
// or a stream a broken or closed connection (the process is gone, or is
// given up); over HTTP the server saying it no longer knows the session
// (404). An HTTP server that cannot be reached now may still know it
// later.
func (be *backend) serverGone(err error) bool {
	var expired *client.SessionExpiredError
	if errors.As(err, &expired) {
		return true
	}
	if !be.holdsState {
		return false
	}
	var conn *client.ConnError
	var proto *client.ProtocolError
	return errors.As(err, &conn) || errors.As(err, &proto) || errors.Is(err, io.EOF)
}

func (d *daemon) helloNow() Hello {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.hello
}

// serve accepts invocations until the session is stopped, idle too long,
// or ctx is done.
func (d *daemon) serve(ctx context.Context, l net.Listener) {
	d.mu.Lock()
	d.listener = l
	d.mu.Unlock()
	go d.idleWatch(ctx)
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			if uid, _, err := peerOf(conn); err != nil || uid != os.Getuid() {
				d.note("mcpctl: session: refused a connection from user %d", uid)
				conn.Close()
				continue
			}
			d.accept(conn)
		}
	}()
}

// idleWatch ends the session once no invocation has used it for Idle.
func (d *daemon) idleWatch(ctx context.Context) {
	idle := d.cfg.Idle
	t := time.NewTicker(min(time.Second, idle/4+time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			d.stop("the session process was told to end")
			return
		case <-d.done:
			return
		case <-t.C:
			d.mu.Lock()
			unused := d.users() == 0 && len(d.inflight) == 0 && time.Since(d.lastUse) >= idle
			d.mu.Unlock()
			if unused {
				d.stop("unused for " + idle.String())
				return
			}
		}
	}
}

// users is how many invocations are connected: the session commands'
// own connections (session list, stop) are no use of it. d.mu is held.
func (d *daemon) users() int {
	n := 0
	for pr := range d.peers {
		if !pr.control.Load() {
			n++
		}
	}
	return n
}

// touch notes a use of the session.
func (d *daemon) touch() {
	d.mu.Lock()
	d.lastUse = time.Now()
	d.mu.Unlock()
}

// stop ends the session: no new connections, the server shut down as a
// one-shot run shuts it down, every invocation's connection closed, the
// socket and record removed. why is for the log ("": nothing to note).
func (d *daemon) stop(why string) {
	d.stopOnce.Do(func() {
		if why != "" {
			d.note("mcpctl: session: stopping: %s", why)
		}
		d.mu.Lock()
		d.stopped = true
		l := d.listener
		be := d.be
		d.be = nil
		peers := d.peers
		d.peers = map[*peer]bool{}
		d.mu.Unlock()
		if l != nil {
			l.Close()
		}
		_ = d.paths.Dir.root.Remove(d.paths.sockName())
		_ = d.paths.Dir.root.Remove(d.paths.recordName())
		for pr := range peers {
			pr.drainAndClose()
		}
		if be != nil {
			be.once.Do(func() {
				be.stop()
				be.close()
			})
		}
		close(d.done)
	})
}

// status is what session list shows of a running session.
func (d *daemon) status() json.RawMessage {
	d.mu.Lock()
	defer d.mu.Unlock()
	st := map[string]any{
		"name": d.cfg.Name, "server": d.cfg.Server, "era": d.hello.Era, "protocolVersion": d.hello.Version,
		"pid": os.Getpid(), "started": d.started.UTC().Format(time.RFC3339),
		"idle": time.Since(d.lastUse).Round(time.Second).String(), "idleTimeout": d.cfg.Idle.String(),
		"requests": d.served.Load(), "connections": d.users(), "serverRunning": d.be != nil,
	}
	if len(d.inflight) > 0 || d.users() > 0 {
		st["idle"] = "0s"
	}
	b, _ := json.Marshal(st)
	return b
}
