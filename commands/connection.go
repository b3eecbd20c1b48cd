package commands

// The connection a command holds while it talks to its server (one run's:
// not to be confused with a session, `mcpctl session`, which keeps a
// server's connection alive between runs). connect.go builds it.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/oauth"
	"github.com/mcpctl/mcpctl/internal/interact"
	"github.com/mcpctl/mcpctl/internal/sessiond"
	"github.com/mcpctl/mcpctl/output"
)

// connection is the real Connection: a client for the chosen server, the
// validated settings it was made from, and what shows the server's
// notifications and questions on the terminal.
type connection struct {
	*connSettings
	f      *Factory
	ios    *output.IOStreams
	client *client.Client
	opts   client.Options
	closer []func()

	progress *interact.Progress
	oauth    *oauth.Manager // nil unless OAuth is in use
	input    *interact.Handler
	dryOut   *dryRunPrinter
	// dialer builds the transport to the server from the settings
	// (dialServer when nil); wrap, when set, wraps each transport the
	// client uses (the session process's).
	dialer func(*connSettings) (client.Transport, error)
	wrap   func(client.Transport) client.Transport
	// ks is the connection to a running session of this server
	// (sessions_use.go) until dial takes it; viaSession says the
	// server is reached through one.
	ks         *sessiond.Conn
	viaSession bool
	borrowed   bool // a batch line's: the client and the rest are the batch's, closed by it
	// printed, on a batch line's connection, keeps what Print is given
	// as it came: the line's JSON line is written from it, not from a
	// rendering of it (a large result is not copied twice more).
	printed *[]json.RawMessage
}

func (s *connection) Client() *client.Client { return s.client }

func (s *connection) Output() output.Options { return s.render }

func (s *connection) ServerID() string { return s.serverID }

// ServerEndsWithRun: a stdio server started by this run (a batch's by
// the batch), not the one a session holds (viaSession, or the session
// process's own connection, which wrap marks), is stopped when the run
// ends.
func (s *connection) ServerEndsWithRun() bool {
	return !s.http && !s.viaSession && s.wrap == nil && !s.dryRun
}

// endpoint is the server, as resolved.
func (s *connection) endpoint() *endpoint { return s.ep }

// Print renders a raw result on stdout.
func (s *connection) Print(ctx context.Context, kind output.Kind, raw json.RawMessage) error {
	s.progress.Done()
	if s.printed != nil {
		*s.printed = append(*s.printed, raw)
		return nil
	}
	return output.Render(ctx, s.ios, s.render, kind, raw)
}

func (s *connection) Warn(msgs ...string) {
	if len(msgs) > 0 {
		s.progress.Clear() // a warning during a call is not drawn over
	}
	for _, m := range msgs {
		fmt.Fprintln(s.ios.ErrOut, "mcpctl: warning: "+output.SanitizeMessage(m))
	}
}

func (s *connection) Trace(msg string) {
	if s.opts.Hooks.Log != nil {
		s.opts.Hooks.Log(output.SanitizeLine(msg))
	}
}

// FinishCall runs a call whose answer may be a task handle or a tool's
// result and prints it: exit 1 when the tool says isError.
func (s *connection) FinishCall(ctx context.Context, op string, kind output.Kind, call func() (json.RawMessage, error)) error {
	raw, err := call()
	s.progress.Done()
	if err != nil {
		return wrapOp(op, err)
	}
	if raw == nil {
		return nil // nothing left to print: --out wrote it all (binaryOut.wrap)
	}
	if id := client.CreatedTaskID(raw); id != "" {
		kind = output.KindGeneric
		notef(s.ios, "the server runs this as a task; 'mcpctl tasks wait %s' follows it", output.SanitizeLine(id))
	}
	toolErr := isToolError(raw)
	if toolErr && s.textAtTerminal() {
		// Text shows the tool's words only, which may read like success:
		// a person is told (the exit status tells a script, and a pipe
		// gets the result alone, as ever).
		fmt.Fprintln(s.ios.ErrOut, "mcpctl: "+toolErrorLine(op))
	}
	if err := s.Print(ctx, kind, raw); err != nil {
		return err
	}
	if toolErr {
		return &ToolError{Name: strings.TrimPrefix(op, "tools/call ")}
	}
	return nil
}

// textAtTerminal reports whether the result goes to a terminal as text
// (-o text, or no -o), where nothing else marks it.
func (s *connection) textAtTerminal() bool {
	f := s.render.Format
	return s.ios.IsStdoutTTY() && s.render.Query == nil && (f == "" || f == output.FormatText)
}

// toolErrorLine is the line above a result with isError: true.
func toolErrorLine(op string) string {
	if name, ok := strings.CutPrefix(op, "tools/call "); ok {
		return fmt.Sprintf("error: tool %s reported an error (isError); its result follows", output.SanitizeLine(strconv.Quote(name)))
	}
	return "error: the tool reported an error (isError); its result follows"
}

// reopen is a new transport to the same server, for the client to retry
// on; the connection closes it at the end.
func (s *connection) reopen() (client.Transport, error) {
	t, closeT, err := s.dial()
	if err != nil {
		return nil, err
	}
	s.closer = append(s.closer, closeT)
	return t, nil
}

// Reconnect replaces the client with a new one on a fresh transport (a
// new server process on stdio), for listen after the old one broke.
func (s *connection) Reconnect() error {
	if s.client != nil {
		s.client.Close()
	}
	t, err := s.reopen()
	if err != nil {
		return err
	}
	// The era is remembered (or pinned), so the new client skips the probe.
	s.client = client.New(t, s.opts)
	return nil
}

// Close shuts the server down (stdio) and releases files.
func (s *connection) Close() {
	if s.borrowed {
		return
	}
	s.input.Abandon()
	s.progress.Done()
	if s.client != nil {
		s.client.Close()
	}
	for i := len(s.closer) - 1; i >= 0; i-- {
		s.closer[i]()
	}
}

// malformed is the policy for lines that are not JSON-RPC: a listen stream
// reports them and carries on (one bad line should not end hours of
// listening); a single call treats them as the protocol error they are.
func (s *connection) malformed() func([]byte, error) bool {
	if !s.listen {
		return nil
	}
	return func(line []byte, err error) bool {
		fmt.Fprintln(s.ios.ErrOut, "mcpctl: warning: skipped a malformed message: "+output.SanitizeMessage(err.Error()))
		return true
	}
}

// dial builds a transport to the server the settings name, and what to
// close when the connection ends; the connection and its settings stay
// as they are, so that a reconnect reaches the same server the same way.
func (s *connection) dial() (client.Transport, func(), error) {
	if s.viaSession {
		return s.dialKeepalive()
	}
	var t client.Transport
	closeT := func() {}
	var err error
	if s.dialer != nil {
		t, err = s.dialer(s.connSettings)
	} else {
		t, closeT, err = s.dialServer()
	}
	if err == nil && s.wrap != nil {
		t = s.wrap(t)
	}
	return t, closeT, err
}

// dialServer is dial's transport to the server itself.
func (s *connection) dialServer() (client.Transport, func(), error) {
	st := s.connSettings
	var trace client.Tracer
	if st.trace {
		trace = newTracer(s.ios.ErrOut)
	}
	var dry func(client.DryRunRequest)
	if st.dryRun {
		if s.dryOut == nil { // one for the connection: a stdio command is named once
			s.dryOut = &dryRunPrinter{w: s.ios.Out}
		}
		dry = s.dryOut.print
	}
	if st.http {
		header := map[string][]string{}
		for k, v := range st.header {
			header[k] = append([]string(nil), v...) // the transport may add to it
		}
		opts := client.HTTPOptions{URL: st.ep.url, Header: header, Insecure: st.insecure, Trace: trace, DryRun: dry,
			Malformed: s.malformed(), MaxMessage: st.maxMessage}
		if s.oauth != nil {
			opts.Auth = s.oauth
		}
		t, err := client.NewHTTP(opts)
		if err != nil {
			return nil, nil, usagef("%v", err)
		}
		return t, func() {}, nil
	}
	stderr, closeStderr, err := s.serverStderr(st.serverStderr)
	if err != nil {
		return nil, nil, err
	}
	return client.NewStdio(client.StdioOptions{
		Command: st.ep.argv, Env: st.childEnv, Dir: st.ep.cwd, Stderr: stderr, Trace: trace, DryRun: dry, Malformed: s.malformed(),
		MaxLine: st.maxMessage, TrackDescendants: true, CloseGrace: st.shutdownGrace,
	}), closeStderr, nil
}

// serverStderr is where a stdio server's stderr goes. Inherited, it is
// passed on to ours: as it is when ours is not a terminal (a log file or a
// CI capture gets the server's exact bytes, and an unfinished last line
// is ended when the server is gone, so that mcpctl's error line starts a
// line), and sanitised line by line when it is one (or MCPCTL_FORCE_TTY
// says so), written above the progress bar, so that the server cannot
// drive the terminal.
func (s *connection) serverStderr(mode string) (io.Writer, func(), error) {
	switch mode {
	case "", "inherit":
		var w interface {
			io.Writer
			Close() error
		}
		if s.ios.StderrToTerminal() {
			w = output.NewLineSanitizer(s.progress.Above())
		} else {
			w = output.NewLinePasser(s.ios.ErrOut)
		}
		return w, func() { w.Close() }, nil
	case "discard":
		return nil, func() {}, nil
	}
	f, err := os.OpenFile(mode, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, nil, usagef("--server-stderr: %v", err)
	}
	return f, func() { f.Close() }, nil
}

// notification shows request-scoped server notifications on stderr: log
// messages as "[level] logger: data", progress as --progress says.
func (s *connection) notification(n client.Notification) {
	switch n.Method {
	case "notifications/message":
		var p struct {
			Level  string          `json:"level"`
			Logger string          `json:"logger"`
			Data   json.RawMessage `json:"data"`
		}
		_ = json.Unmarshal(n.Params, &p)
		data := string(p.Data)
		var str string
		if json.Unmarshal(p.Data, &str) == nil {
			data = str
		}
		line := "[" + p.Level + "] "
		if p.Logger != "" {
			line += p.Logger + ": "
		}
		s.progress.Clear()
		fmt.Fprintln(s.ios.ErrOut, output.SanitizeLine(line+data))
	case "notifications/progress":
		s.progress.Update(n.Params)
	}
}
