package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// StdioOptions configures a server run as a subprocess.
type StdioOptions struct {
	// Command is the argv of the server; Command[0] is looked up in PATH.
	Command []string
	// Env is the child's whole environment; nil inherits ours.
	Env []string
	Dir string
	// Stderr receives the server's stderr; nil discards it. Either way the
	// last lines are kept for error messages.
	Stderr io.Writer
	Trace  Tracer
	// DryRun, when set, receives what would be sent instead of sending.
	DryRun func(DryRunRequest)
	// CloseGrace is how long the server gets to exit by itself after its
	// stdin is closed (zero: DefaultCloseGrace; negative: none, SIGTERM
	// as soon as stdin is closed), and TermGrace how long after SIGTERM
	// before SIGKILL (zero: DefaultTermGrace; negative: none).
	CloseGrace time.Duration
	TermGrace  time.Duration
	// MaxLine bounds one message from the server (default 64 MiB).
	MaxLine int
	// Malformed, when set, is told of a line that is not a JSON-RPC
	// message; returning true skips it (a long-lived stream carries on),
	// false ends the connection as a protocol error.
	Malformed func(line []byte, err error) bool
	// TrackDescendants makes Close end what the server started even when
	// it left the server's process group (setsid) or was orphaned: on
	// Linux by a cgroup of the server's own where cgroup v2 allows one,
	// else by finding its descendants in /proc, orphans included when the
	// process is a subreaper (ReapOrphans). See descendants.go.
	TrackDescendants bool
}

// How long Close waits, by default, for a stdio server to exit by itself
// once its stdin is closed, and then after SIGTERM before SIGKILL.
//
// Close is called when the caller is done, so every answer it waited for
// has arrived: what the server does after that, nobody waits for. An idle
// server exits within milliseconds of the end of its input (a Node
// server about 10 ms, a Go one about 1 ms); one that does not (a pending
// timer, a slow shutdown routine) is waited out no longer than
// DefaultCloseGrace, then asked with SIGTERM, which the usual runtimes
// answer by exiting at once and which a server with state to flush can
// catch. Only a server that ignores SIGTERM costs DefaultTermGrace more.
const (
	DefaultCloseGrace = 100 * time.Millisecond
	DefaultTermGrace  = 2 * time.Second
)

// StdioTransport speaks newline-delimited JSON-RPC to a subprocess. The
// process is started by the first request and shut down by Close: stdin
// closed, then SIGTERM, then SIGKILL, to the whole process group, so that
// wrappers like npx leave nothing behind. On Linux it also dies with the
// process that started it, should that one be killed before Close
// (deathsig_linux.go).
type StdioTransport struct {
	opts StdioOptions

	startOnce sync.Once
	startErr  error
	cmd       *exec.Cmd
	stdin     *os.File
	tail      *tailWriter

	writeMu sync.Mutex

	mux   *mux
	lines lineReader

	mu sync.Mutex // guards waitErr

	exited    chan struct{}     // closed when the process has been reaped
	tracker   descendantTracker // nil unless TrackDescendants could be had
	noCgroup  bool              // track in /proc even where a cgroup could be made
	readDone  chan struct{}     // closed when stdout hit EOF or failed
	waitErr   error
	closeOnce sync.Once
}

// NewStdio returns a transport for the given command; nothing runs yet.
func NewStdio(opts StdioOptions) *StdioTransport {
	if opts.CloseGrace == 0 {
		opts.CloseGrace = DefaultCloseGrace
	}
	if opts.TermGrace == 0 {
		opts.TermGrace = DefaultTermGrace
	}
	if opts.MaxLine == 0 {
		opts.MaxLine = 64 << 20
	}
	t := &StdioTransport{
		opts:     opts,
		exited:   make(chan struct{}),
		readDone: make(chan struct{}),
	}
	t.mux = newMux(context.Background(), t.reply)
	t.lines = lineReader{mux: t.mux, trace: opts.Trace, malformed: opts.Malformed, maxLine: opts.MaxLine,
		where: " on stdout", hint: " (stdio servers must log to stderr)"}
	return t
}

// SetServerRequestHandler makes requests from the server (legacy
// revisions) go to h; without one they are refused with -32601.
func (t *StdioTransport) SetServerRequestHandler(h ServerRequestHandler) { t.mux.setHandler(h) }

// SetNotificationHandler makes the notifications the server sends tied
// to no request (log messages, list changes) go to h, once each, while no
// Watch caller takes them; without one they are dropped.
func (t *StdioTransport) SetNotificationHandler(h func(Notification)) { t.mux.setNotify(h) }

// Watch hands every notification the server sends to fn until ctx is done
// (nil) or the server goes away (the error that ended it). Legacy servers
// send change notifications on stdout whenever they like.
func (t *StdioTransport) Watch(ctx context.Context, fn func(Notification)) error {
	if err := t.start(); err != nil {
		return err
	}
	return t.mux.watch(ctx, fn)
}

// Capabilities implements Transport: a stdio server is one process, which
// may send requests and notifications of its own and writes a stderr.
func (t *StdioTransport) Capabilities() Capabilities {
	return Capabilities{
		Binding:        BindingStdio,
		DryRun:         t.opts.DryRun != nil,
		Stateful:       true,
		ServerRequests: t.SetServerRequestHandler,
		Answered:       t.mux.answered,
		Notifications:  t.SetNotificationHandler,
		Watch:          t.Watch,
		StderrTail:     t.StderrTail,
		Unread:         t.unread,
	}
}

// unread is how much of what was written to the server it has not read
// yet (Capabilities.Unread).
func (t *StdioTransport) unread() (int, bool) {
	if t.opts.DryRun != nil || t.start() != nil {
		return 0, false
	}
	return unread(t.stdin)
}

// StderrTail returns the last lines the server wrote to stderr.
func (t *StdioTransport) StderrTail() []string {
	if t.tail == nil {
		return nil
	}
	return t.tail.Tail()
}

func (t *StdioTransport) start() error {
	t.startOnce.Do(func() { t.startErr = t.spawn() })
	return t.startErr
}

func (t *StdioTransport) spawn() error {
	if len(t.opts.Command) == 0 {
		return &ConnError{Msg: "no server command given"}
	}
	name := t.opts.Command[0]
	path, err := exec.LookPath(name)
	if err != nil {
		return &ConnError{Msg: fmt.Sprintf("cannot start server %q", name), Err: unwrapExecErr(err)}
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return &ConnError{Msg: "cannot create pipe", Err: err}
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return &ConnError{Msg: "cannot create pipe", Err: err}
	}
	t.tail = newTailWriter(t.opts.Stderr, 5)
	build := func() *exec.Cmd {
		cmd := exec.Command(path, t.opts.Command[1:]...)
		cmd.Env = t.opts.Env
		cmd.Dir = t.opts.Dir
		// After the server exits, do not wait forever for a grandchild
		// that still holds its stderr open.
		cmd.WaitDelay = time.Second
		setProcessGroup(cmd)
		dieWithParent(cmd)
		cmd.Stdin = inR
		cmd.Stdout = outW
		cmd.Stderr = t.tail
		return cmd
	}
	cmd, tracker, err := startServer(build, t.opts.TrackDescendants, !t.noCgroup)
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return &ConnError{Msg: fmt.Sprintf("cannot start server %q", name), Err: unwrapExecErr(err)}
	}
	// The child has its own copies; ours would keep the pipes open.
	inR.Close()
	outW.Close()
	t.cmd = cmd
	t.tracker = tracker
	t.stdin = inW

	go t.wait()
	go t.read(outR)
	return nil
}

func unwrapExecErr(err error) error {
	var ee *exec.Error
	if errors.As(err, &ee) {
		return ee.Err
	}
	return err
}

func (t *StdioTransport) wait() {
	err := t.cmd.Wait()
	t.mu.Lock()
	t.waitErr = err
	t.mu.Unlock()
	close(t.exited)
	// Give the reader a moment to drain what the server wrote last.
	select {
	case <-t.readDone:
	case <-time.After(200 * time.Millisecond):
	}
	t.mux.fail(t.exitError("the server exited"))
}

func (t *StdioTransport) exitError(what string) *ConnError {
	msg := what
	t.mu.Lock()
	werr := t.waitErr
	t.mu.Unlock()
	select {
	case <-t.exited:
		var ee *exec.ExitError
		if errors.As(werr, &ee) {
			msg += " (" + ee.ProcessState.String() + ")"
		} else if werr == nil {
			msg += " (exit status 0)"
		}
	default:
	}
	return &ConnError{Msg: msg, Stderr: t.StderrTail()}
}

func (t *StdioTransport) read(r *os.File) {
	defer close(t.readDone)
	defer r.Close()
	err := t.lines.readMessages(r)
	var partial *partialMessageError
	var proto *ProtocolError
	switch {
	case errors.As(err, &partial):
		t.awaitExit()
		what := "the server closed its output in the middle of a message"
		select {
		case <-t.exited:
			what = "the server exited in the middle of a message"
		default:
		}
		ce := t.exitError(what)
		ce.Msg += ": " + snippet(partial.line)
		t.mux.fail(ce)
	case errors.As(err, &proto):
		t.mux.fail(err)
		// Nothing more can be trusted from this server.
		t.signalAll(sigKill)
	default:
		// EOF (or a failed read): the server closed stdout; report its
		// exit if it is dying.
		t.awaitExit()
		t.mux.fail(t.exitError("the server closed its output"))
	}
}

// awaitExit gives a server whose output ended a moment to exit, so that
// its exit status can be reported.
func (t *StdioTransport) awaitExit() {
	select {
	case <-t.exited:
	case <-time.After(time.Second):
	}
}

// reply writes the answer to a server request.
func (t *StdioTransport) reply(line []byte) {
	if t.opts.Trace != nil {
		t.opts.Trace(TraceEvent{Dir: "send", Body: line})
	}
	_ = t.write(context.Background(), line)
}

func (t *StdioTransport) write(ctx context.Context, line []byte) error {
	finished, err := writeLine(ctx, &t.writeMu, t.stdin, line)
	if !finished || err == nil {
		return err
	}
	if dead := t.mux.err(); dead != nil {
		return dead
	}
	if errors.Is(err, syscall.EPIPE) {
		// A server that died before reading the request closes its input
		// too: when it is exiting, its exit status and last words are the
		// better report.
		t.awaitExit()
		select {
		case <-t.exited:
			return t.exitError("the server exited")
		default:
		}
		return t.exitError("cannot write to the server: it closed its input")
	}
	return t.exitError("cannot write to the server")
}

// RoundTrip implements Transport.
func (t *StdioTransport) RoundTrip(ctx context.Context, req *Request, notify func(Notification)) (*Message, error) {
	line, _ := req.MarshalJSON()
	if t.opts.DryRun != nil {
		t.opts.DryRun(DryRunRequest{Command: t.opts.Command, Dir: t.opts.Dir, Body: line})
		return nil, ErrDryRun
	}
	if err := t.start(); err != nil {
		return nil, err
	}
	p, err := t.mux.register(req, notify)
	if err != nil {
		return nil, err
	}
	if t.opts.Trace != nil {
		t.opts.Trace(TraceEvent{Dir: "send", Body: line})
	}
	if err := t.write(ctx, line); err != nil {
		t.mux.forget(req.ID)
		return nil, err
	}
	if p == nil {
		return nil, nil
	}
	msg, err := t.mux.await(ctx, req.ID, p)
	if err != nil && ctx.Err() != nil {
		t.cancel(req.ID, context.Cause(ctx))
	}
	return msg, err
}

// cancel tells the server to stop work on id, as the stdio binding
// requires. A late answer is not mistaken for a protocol violation: the
// id is one this transport sent.
func (t *StdioTransport) cancel(id int64, cause error) {
	if t.mux.err() != nil {
		return
	}
	line := cancelNotice(id, cause, false)
	if t.opts.Trace != nil {
		t.opts.Trace(TraceEvent{Dir: "send", Body: line})
	}
	ctx, stop := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer stop()
	_ = t.write(ctx, line)
}

// Close shuts the server down as the stdio binding says: close its input,
// wait up to CloseGrace for it to exit, then SIGTERM, then SIGKILL after
// TermGrace. It is called when the caller is done: an answer it waited
// for has arrived, and a slow exit after that is not waited out.
// Stragglers in its process group, and with TrackDescendants whatever
// else it started, are ended too (SIGTERM, then SIGKILL), so no child
// outlives mcpctl.
func (t *StdioTransport) Close() error {
	if t.cmd == nil {
		return nil
	}
	t.closeOnce.Do(func() {
		if t.tracker != nil {
			// Note what is below the server while it is there to ask: an
			// orphan without a subreaper to adopt it is found only so.
			t.tracker.alive()
		}
		t.stdin.Close()
		if !waitFor(t.exited, t.opts.CloseGrace) {
			t.signalAll(sigTerm)
			if !waitFor(t.exited, t.opts.TermGrace) {
				t.signalAll(sigKill)
				<-t.exited
			}
		}
		if t.stragglers() {
			t.signalAll(sigTerm)
			deadline := time.Now().Add(t.opts.TermGrace)
			for t.stragglers() && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			t.signalAll(sigKill)
			// What forked meanwhile is found by the next look, and what
			// was adopted is reaped once SIGKILL has done its work.
			deadline = time.Now().Add(time.Second)
			for t.tracker != nil && t.tracker.alive() && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
				t.signalAll(sigKill)
			}
		}
		if t.tracker != nil {
			t.tracker.release()
		}
	})
	return nil
}

// signalAll signals the server's process group and whatever else of the
// server's is tracked.
func (t *StdioTransport) signalAll(sig os.Signal) {
	killGroup(t.cmd, sig)
	if t.tracker != nil {
		t.tracker.signal(sig)
	}
}

// stragglers reports whether anything of the server's still runs. The
// tracker looks first: it reaps the zombies it adopted, which the kernel
// still counts in the process group.
func (t *StdioTransport) stragglers() bool {
	tracked := t.tracker != nil && t.tracker.alive()
	return tracked || groupAlive(t.cmd)
}

// waitFor reports whether ch is closed within d; a d of zero or less
// only looks.
func waitFor(ch <-chan struct{}, d time.Duration) bool {
	if d <= 0 {
		select {
		case <-ch:
			return true
		default:
			return false
		}
	}
	select {
	case <-ch:
		return true
	case <-time.After(d):
		return false
	}
}
