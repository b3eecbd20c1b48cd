package commands

// The session process: `mcpctl session serve`, and the bounded log it
// keeps (keepalive_proxy.go has what it does).

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/output"
)

type sessionServeOptions struct {
	invocation
	idle    time.Duration
	name    string
	readyFD int
}

// newCmdSessionServe is the session process itself (hidden): started by
// session start, never by hand.
func newCmdSessionServe(f *Factory, runF func(*sessionServeOptions) error) *cli.Command {
	return &cli.Command{
		Name:   "serve",
		Hidden: true,
		Usage:  "run a session in this process (started by 'session start')",
		Flags: []cli.Flag{
			&cli.DurationFlag{Name: "idle", Value: defaultIdle},
			&cli.StringFlag{Name: "name"},
			&cli.IntFlag{Name: "ready-fd", Value: -1},
		},
		Action: actionOf(func(c *cli.Context) (*sessionServeOptions, error) {
			return &sessionServeOptions{invoked(f, c), c.Duration("idle"), c.String("name"), c.Int("ready-fd")}, nil
		}, runF, runSessionServe),
	}
}

func runSessionServe(o *sessionServeOptions) error {
	var ready io.WriteCloser = nopWriteCloser{io.Discard}
	if o.readyFD >= 0 {
		// Not for the server to inherit: the starter waits for this
		// pipe's line, or its end.
		closeOnExec(o.readyFD)
		ready = os.NewFile(uintptr(o.readyFD), "ready")
	}
	report := func(v any) {
		b, _ := json.Marshal(v)
		_, _ = ready.Write(append(b, '\n'))
		ready.Close()
	}
	fail := func(err error) error {
		report(map[string]any{"error": oneLine(inOurWords(err)), "exit": ExitCode(err)})
		return err
	}
	if !keepaliveSupported {
		return fail(usagef("%v", errKeepaliveUnsupported))
	}
	restrictUmask()
	// A session start always reaches the server, and keeps its stderr in
	// the log.
	g := o.Globals.Clone()
	g.NoCache, g.ServerStderr = true, "inherit"
	st, err := resolve(o.f, g, ConnectOptions{})
	if err != nil {
		return fail(err)
	}
	dir, err := o.f.sessionDir(true)
	if err != nil {
		return fail(usagef("%v", err))
	}
	p := ksPaths{dir: dir, id: ksID(st.serverID)}
	if err := p.checkLength(); err != nil {
		return fail(err)
	}
	lock, err := lockSession(p.lock())
	if errors.Is(err, errSessionLocked) {
		return fail(&sessionError{Code: ExitUsage, Msg: fmt.Sprintf("%s already has a session starting or running: see 'mcpctl session list'", redactTarget(st))})
	}
	if err != nil {
		return fail(err)
	}
	defer lock.Close()
	_ = os.Remove(p.socket()) // we hold the lock: any socket there is stale
	// The server's stderr and the session's own notes go to the log,
	// which is kept to a bounded size.
	blog, err := openBoundedLog(p.log(), 1<<20)
	if err != nil {
		return fail(err)
	}
	defer blog.Close()
	held := *o.f
	held.IOStreams = &output.IOStreams{In: o.IO.In, Out: blog, ErrOut: blog}
	name := sessionName(st, o.name)
	server := st.target
	if st.http {
		server = client.RedactURL(st.target)
	}
	px := newKsProxy(&held, g, p, name, server, o.idle)
	if _, err := px.connect(o.ctx()); err != nil {
		p.remove()
		return fail(err)
	}
	l, err := net.Listen("unix", p.socket())
	if err != nil {
		px.stop("cannot listen")
		p.remove()
		return fail(fmt.Errorf("cannot listen on %s: %w", p.socket(), err))
	}
	_ = os.Chmod(p.socket(), 0o600)
	px.mu.Lock()
	hello := px.hello
	px.mu.Unlock()
	rec := &ksRecord{Name: name, Server: px.server, ServerID: st.serverID, Era: hello.Era, Version: hello.Version,
		PID: os.Getpid(), Started: px.started.UTC(), Idle: o.idle.String()}
	if err := rec.write(p.record()); err != nil {
		l.Close()
		px.stop("cannot write its record")
		p.remove()
		return fail(err)
	}
	fmt.Fprintf(blog, "mcpctl: session %s: serving %s (%s %s) on %s\n", name, px.server, hello.Era, hello.Version, p.socket())
	report(hello)
	// Ctrl-C and SIGTERM end the command's context; the session then
	// stops as session stop stops it.
	go px.serve(o.ctx(), l)
	<-px.done
	p.remove()
	return nil
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// boundedLog keeps a log file under max bytes: when it grows past, the
// older half goes.
type boundedLog struct {
	mu   sync.Mutex
	f    *os.File
	max  int64
	size int64
}

func openBoundedLog(path string, max int64) (*boundedLog, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	fi, _ := f.Stat()
	return &boundedLog{f: f, max: max, size: fi.Size()}, nil
}

func (b *boundedLog) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.size+int64(len(p)) > b.max {
		keep := make([]byte, b.max/2)
		n, _ := b.f.ReadAt(keep, max(0, b.size-b.max/2))
		_ = b.f.Truncate(0)
		_, _ = b.f.Write([]byte("[… older lines dropped: the log is kept under " + strconv.FormatInt(b.max>>10, 10) + " KiB]\n"))
		_, _ = b.f.Write(keep[:n])
		fi, _ := b.f.Stat()
		b.size = fi.Size()
	}
	n, err := b.f.Write(p)
	b.size += int64(n)
	return n, err
}

func (b *boundedLog) Close() error { return b.f.Close() }
