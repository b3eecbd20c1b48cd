package client

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
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
	// CloseGrace is how long the server gets to exit after its stdin is
	// closed, and TermGrace how long after SIGTERM, before SIGKILL.
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

// StdioTransport speaks newline-delimited JSON-RPC to a subprocess. The
// process is started by the first request and shut down by Close: stdin
// closed, then SIGTERM, then SIGKILL, to the whole process group, so that
// wrappers like npx leave nothing behind.
type StdioTransport struct {
	opts StdioOptions

	startOnce sync.Once
	startErr  error
	cmd       *exec.Cmd
	stdin     *os.File
	tail      *tailWriter

	writeMu sync.Mutex

	mu      sync.Mutex
	pending map[int64]*pendingCall
	maxSent int64         // the highest request id sent: ids up to it are known
	dead    error         // set once the connection can carry nothing more
	deadCh  chan struct{} // closed when dead is set
	serve   ServerRequestHandler

	watchers watchSet

	exited    chan struct{}     // closed when the process has been reaped
	tracker   descendantTracker // nil unless TrackDescendants could be had
	noCgroup  bool              // track in /proc even where a cgroup could be made
	readDone  chan struct{}     // closed when stdout hit EOF or failed
	waitErr   error
	closeOnce sync.Once
}

type pendingCall struct {
	notify func(Notification)
	done   chan callResult
}

type callResult struct {
	msg *Message
	err error
}

// NewStdio returns a transport for the given command; nothing runs yet.
func NewStdio(opts StdioOptions) *StdioTransport {
	if opts.CloseGrace == 0 {
		opts.CloseGrace = 2 * time.Second
	}
	if opts.TermGrace == 0 {
		opts.TermGrace = 2 * time.Second
	}
	if opts.MaxLine == 0 {
		opts.MaxLine = 64 << 20
	}
	return &StdioTransport{
		opts:     opts,
		pending:  map[int64]*pendingCall{},
		exited:   make(chan struct{}),
		readDone: make(chan struct{}),
		deadCh:   make(chan struct{}),
	}
}

// SetServerRequestHandler makes requests from the server (legacy
// revisions) go to h; without one they are refused with -32601.
func (t *StdioTransport) SetServerRequestHandler(h ServerRequestHandler) {
	t.mu.Lock()
	t.serve = h
	t.mu.Unlock()
}

// Watch hands every notification the server sends to fn until ctx is done
// (nil) or the server goes away (the error that ended it). Legacy servers
// send change notifications on stdout whenever they like.
func (t *StdioTransport) Watch(ctx context.Context, fn func(Notification)) error {
	if err := t.start(); err != nil {
		return err
	}
	return watchUntil(ctx, &t.watchers, fn, t.deadCh, func() error {
		t.mu.Lock()
		defer t.mu.Unlock()
		return t.dead
	})
}

// Capabilities implements Transport: a stdio server is one process, which
// may send requests and notifications of its own and writes a stderr.
func (t *StdioTransport) Capabilities() Capabilities {
	return Capabilities{
		Binding:        BindingStdio,
		DryRun:         t.opts.DryRun != nil,
		Stateful:       true,
		ServerRequests: t.SetServerRequestHandler,
		Watch:          t.Watch,
		StderrTail:     t.StderrTail,
	}
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
	t.fail(t.exitError("the server exited"))
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
	err := t.readMessages(r)
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
		t.fail(ce)
	case errors.As(err, &proto):
		t.fail(err)
		// Nothing more can be trusted from this server.
		t.signalAll(sigKill)
	default:
		// EOF (or a failed read): the server closed stdout; report its
		// exit if it is dying.
		t.awaitExit()
		t.fail(t.exitError("the server closed its output"))
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

// readMessages hands every line of r to handleLine until r ends or a line
// breaks the protocol, and returns why it stopped: io.EOF at a clean end,
// *partialMessageError when the output ended inside a message, a read
// error, or what broke the protocol.
func (t *StdioTransport) readMessages(r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := readLine(br, t.opts.MaxLine)
		if errors.Is(err, errLineTooLong) {
			return &MessageTooLargeError{Limit: t.opts.MaxLine}
		}
		if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 {
			// A last message without its newline still counts if whole;
			// half of one means the server died writing it. (Other text
			// is reported as the stray output it is.)
			if err != nil && trimmed[0] == '{' && !json.Valid(trimmed) {
				return &partialMessageError{line: trimmed}
			}
			if perr := t.handleLine(line, br.Buffered() > 0); perr != nil {
				return perr
			}
		}
		if err != nil {
			return err
		}
	}
}

// partialMessageError: the output ended in the middle of a line.
type partialMessageError struct{ line []byte }

func (e *partialMessageError) Error() string { return "the output ended inside a message" }

var errLineTooLong = errors.New("line too long")

func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var line lineBuffer
	for {
		chunk, err := br.ReadSlice('\n')
		line.add(chunk)
		if line.len() > max {
			return nil, errLineTooLong
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return line.bytes(), err
	}
}

func (t *StdioTransport) handleLine(line []byte, more bool) error {
	line = bytes.TrimSpace(line)
	if t.opts.Trace != nil {
		t.opts.Trace(TraceEvent{Dir: "recv", Body: line})
	}
	msg, err := DecodeMessage(line)
	if err != nil && t.opts.Malformed != nil && t.opts.Malformed(line, err) {
		return nil
	}
	if err != nil {
		if bytes.HasPrefix(line, []byte("{")) || bytes.HasPrefix(line, []byte("[")) {
			return err
		}
		return &ProtocolError{Msg: "the server wrote something that is not JSON on stdout: " + snippet(line) +
			" (stdio servers must log to stderr)"}
	}
	switch msg.Kind() {
	case "notification":
		n := Notification{Method: msg.Method, Params: msg.Params, Raw: append([]byte(nil), line...), More: more}
		fanOut(n, &t.mu, &t.pending, &t.watchers)
	case "request":
		// Legacy servers ask things (elicitation, roots, ping); modern ones
		// must not, and are told so rather than left waiting.
		t.mu.Lock()
		serve := t.serve
		t.mu.Unlock()
		go t.answer(msg, serve)
	case "response":
		id, ok := parseID(msg.ID)
		t.mu.Lock()
		p := t.pending[id]
		if ok && p != nil {
			delete(t.pending, id)
		}
		sent := ok && id >= 1 && id <= t.maxSent
		t.mu.Unlock()
		if p != nil {
			p.done <- callResult{msg: msg}
			return nil
		}
		if sent {
			// A late answer to a cancelled request, or a second answer to
			// one already answered: the first one counted.
			return nil
		}
		return &ProtocolError{Msg: "the server answered a request id mcpctl never sent: " + snippet(msg.ID)}
	}
	return nil
}

func parseID(raw []byte) (int64, bool) {
	s := string(bytes.Trim(bytes.TrimSpace(raw), `"`))
	id, err := strconv.ParseInt(s, 10, 64)
	return id, err == nil
}

func (t *StdioTransport) answer(msg *Message, serve ServerRequestHandler) {
	var res json.RawMessage
	rpcErr := &RPCError{Code: CodeMethodNotFound, Message: "mcpctl does not accept server requests on this protocol version"}
	if serve != nil {
		res, rpcErr = serve(context.Background(), msg.Method, msg.Params)
	}
	line := responseLine(msg.ID, res, rpcErr)
	if t.opts.Trace != nil {
		t.opts.Trace(TraceEvent{Dir: "send", Body: line})
	}
	_ = t.write(context.Background(), line)
}

// fail ends every pending call with err and marks the connection dead.
func (t *StdioTransport) fail(err error) {
	t.mu.Lock()
	if t.dead == nil {
		t.dead = err
		close(t.deadCh)
	}
	pend := t.pending
	t.pending = map[int64]*pendingCall{}
	t.mu.Unlock()
	for _, p := range pend {
		p.done <- callResult{err: err}
	}
}

func (t *StdioTransport) write(ctx context.Context, line []byte) error {
	buf := make([]byte, 0, len(line)+1)
	buf = append(buf, line...)
	buf = append(buf, '\n')
	errc := make(chan error, 1)
	go func() {
		t.writeMu.Lock()
		defer t.writeMu.Unlock()
		_, err := t.stdin.Write(buf)
		errc <- err
	}()
	select {
	case err := <-errc:
		if err != nil {
			t.mu.Lock()
			dead := t.dead
			t.mu.Unlock()
			if dead != nil {
				return dead
			}
			if errors.Is(err, syscall.EPIPE) {
				// A server that died before reading the request closes
				// its input too: when it is exiting, its exit status and
				// last words are the better report.
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
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
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
	var p *pendingCall
	t.mu.Lock()
	if t.dead != nil {
		err := t.dead
		t.mu.Unlock()
		return nil, err
	}
	if !req.IsNotification() {
		p = &pendingCall{notify: notify, done: make(chan callResult, 1)}
		t.pending[req.ID] = p
		t.maxSent = max(t.maxSent, req.ID)
	}
	t.mu.Unlock()

	if t.opts.Trace != nil {
		t.opts.Trace(TraceEvent{Dir: "send", Body: line})
	}
	if err := t.write(ctx, line); err != nil {
		t.forget(req.ID)
		return nil, err
	}
	if p == nil {
		return nil, nil
	}
	select {
	case r := <-p.done:
		return r.msg, r.err
	case <-ctx.Done():
		t.forget(req.ID)
		t.cancel(req.ID, context.Cause(ctx))
		return nil, ctx.Err()
	}
}

func (t *StdioTransport) forget(id int64) {
	t.mu.Lock()
	delete(t.pending, id)
	t.mu.Unlock()
}

// cancel tells the server to stop work on id, as the stdio binding
// requires. A late answer is not mistaken for a protocol violation: the
// id is one mcpctl sent.
func (t *StdioTransport) cancel(id int64, cause error) {
	t.mu.Lock()
	dead := t.dead != nil
	t.mu.Unlock()
	if dead {
		return
	}
	reason := "cancelled by the user"
	if errors.Is(cause, context.DeadlineExceeded) {
		reason = "timed out"
	}
	n := &Request{Method: "notifications/cancelled",
		Params: []byte(`{"requestId":` + strconv.FormatInt(id, 10) + `,"reason":"` + reason + `"}`)}
	line, _ := n.MarshalJSON()
	if t.opts.Trace != nil {
		t.opts.Trace(TraceEvent{Dir: "send", Body: line})
	}
	ctx, stop := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer stop()
	_ = t.write(ctx, line)
}

// Close shuts the server down as the stdio binding says: close its input,
// wait, then SIGTERM, then SIGKILL. Stragglers in its process group, and
// with TrackDescendants whatever else it started, are ended too (SIGTERM,
// then SIGKILL), so no child outlives mcpctl.
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

func waitFor(ch <-chan struct{}, d time.Duration) bool {
	select {
	case <-ch:
		return true
	case <-time.After(d):
		return false
	}
}
