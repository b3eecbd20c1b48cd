package commands

// `mcpctl session`: kept-alive server connections (docs/sessions.md). The
// daemon itself is internal/sessiond; here are its commands, and
// (sessions_use.go) how an invocation uses or starts one.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/internal/secrets"
	"github.com/mcpctl/mcpctl/internal/sessiond"
	"github.com/mcpctl/mcpctl/output"
)

const defaultIdle = 10 * time.Minute

func sessionCommand(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "session",
		Usage: "keep a server's connection alive in the background for the commands that follow",
		Description: "'session start' with the usual server selection (-s NAME, --url, --stdio, --env, --cwd, auth\n" +
			"flags, --root, --sampling-cmd) starts a background process that holds the connection: a stdio\n" +
			"server runs (and is initialized) once, an HTTP server's legacy session is kept. While it runs,\n" +
			"every mcpctl command naming the same server as the same caller (the same credentials and\n" +
			"headers; for stdio the same folder and --env) goes through it (--no-session bypasses it;\n" +
			"--trace says '# session: NAME (pid N)'), and the server's state lives from one command to the\n" +
			"next. A server entry with 'keepAlive: 10m' (or defaults.keepAlive) starts its session on first\n" +
			"use. Many commands may use one session at once (a legacy server is sent one request at a\n" +
			"time, so that its questions reach the right command). The socket lives in\n" +
			"$XDG_RUNTIME_DIR/mcpctl/sessions (else the state directory's sessions/); Linux and macOS only.",
		Subcommands: []*cli.Command{
			newCmdSessionStart(f, nil), newCmdSessionList(f, nil), newCmdSessionStop(f, nil),
			newCmdSessionLogs(f, nil), newCmdSessionServe(f, nil),
		},
	}
}

type sessionStartOptions struct {
	invocation
	idle    time.Duration
	name    string
	replace bool
}

func newCmdSessionStart(f *Factory, runF func(*sessionStartOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "start",
		Usage:     "start a session for the server the flags name; returns once the server is connected",
		ArgsUsage: " ",
		Flags: []cli.Flag{
			&cli.DurationFlag{Name: "idle", Usage: "end the session after `DURATION` unused", Value: defaultIdle},
			&cli.StringFlag{Name: "name", Usage: "call the session `NAME` (default: the configured server's name, else a short id)"},
			&cli.BoolFlag{Name: "replace", Usage: "stop the server's running session first"},
		},
		Action: actionOf(func(c *cli.Context) (*sessionStartOptions, error) {
			if err := needArgs(c, 0, 0, ""); err != nil {
				return nil, err
			}
			if c.Duration("idle") <= 0 {
				return nil, usagef("--idle must be positive")
			}
			return &sessionStartOptions{invoked(f, c), c.Duration("idle"), c.String("name"), c.Bool("replace")}, nil
		}, runF, runSessionStart),
	}
}

func runSessionStart(o *sessionStartOptions) error {
	if !sessiond.Supported {
		return usagef("%v", sessiond.ErrUnsupported)
	}
	if o.Globals.DryRun {
		return usagef("--dry-run cannot start a session: a session holds a real connection")
	}
	st, err := resolve(o.f, o.Globals, ConnectOptions{})
	if err != nil {
		return err
	}
	p, err := o.f.sessionPaths(st, true)
	if err != nil {
		return err
	}
	if o.replace {
		if _, err := sessiond.Stop(p); err != nil {
			return err
		}
	}
	hello, err := startKeepalive(o.f, st, o.idle, o.name)
	if err != nil {
		return err
	}
	ios := o.f.IOStreams
	name := output.ShowName(hello.Name, ios.StderrToTerminal())
	notef(ios, "session %s started (pid %d, %s %s); it ends after %s unused, or with 'mcpctl session stop %s'",
		name, hello.PID, hello.Era, hello.Version, o.idle, name)
	return nil
}

// sessionName is what a session is called: the configured server's name,
// else a short id.
func sessionName(st *connSettings, given string) string {
	switch {
	case given != "":
		return given
	case st.ep.name != "":
		return st.ep.name
	}
	return st.sessionID[:8]
}

// redactTarget names the server for messages: its URL without
// credentials, or its command.
func redactTarget(st *connSettings) string {
	if st.http {
		return client.RedactURL(st.target)
	}
	return fmt.Sprintf("%q", st.target)
}

// sessionFileError puts what sessiond says about a session's files in
// mcpctl's words: a socket path too long, a session of the server
// already starting or running.
func sessionFileError(err error, st *connSettings) error {
	var long *sessiond.SocketPathError
	switch {
	case errors.As(err, &long):
		return usagef("%v: set XDG_RUNTIME_DIR (or MCPCTL_STATE_DIR) to a shorter folder", long)
	case errors.Is(err, sessiond.ErrLocked):
		return &sessiond.Error{Code: ExitUsage, Msg: fmt.Sprintf("%s already has a session starting or running: see 'mcpctl session list'", redactTarget(st))}
	case errors.Is(err, sessiond.ErrUnsupported):
		return usagef("%v", err)
	}
	return err
}

type sessionListOptions struct{ invocation }

func newCmdSessionList(f *Factory, runF func(*sessionListOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "list",
		Usage:     "list the running sessions: name, server, era, pid, started, idle, requests served",
		ArgsUsage: " ",
		Action: actionOf(func(c *cli.Context) (*sessionListOptions, error) {
			return &sessionListOptions{invoked(f, c)}, needArgs(c, 0, 0, "")
		}, runF, runSessionList),
	}
}

// liveSessions asks every session in the folder how it is; stale ones
// are cleaned up on the way.
func liveSessions(f *Factory) ([]sessiond.State, error) {
	dir, err := f.sessionDir(false)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, usagef("%v", err)
	}
	return sessiond.List(dir), nil
}

func runSessionList(o *sessionListOptions) error {
	ios := o.f.IOStreams
	list, err := liveSessions(o.f)
	if err != nil {
		return err
	}
	eff, err := effectiveOptions(o.Globals, o.f.config(o.Globals))
	if err != nil {
		return err
	}
	render, err := renderOptions(eff, ios)
	if err != nil {
		return err
	}
	if render.Format == output.FormatTable || render.Format == output.FormatText {
		if render.Query == nil {
			if len(list) == 0 {
				notef(ios, "no sessions are running")
				return nil
			}
			// Names and servers are cells of a table: a terminal gets what
			// it would not show as escapes, a pipe one line each.
			cell := output.SanitizeLine
			if ios.IsStdoutTTY() {
				cell = output.SanitizeName
			}
			tw := tabwriter.NewWriter(ios.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tSERVER\tERA\tPID\tSTARTED\tIDLE\tREQUESTS")
			for _, s := range list {
				idle, requests := s.Idle, fmt.Sprint(s.Requests)
				if s.Unresponsive {
					// Its process does not answer (stopped?): 'session
					// stop' ends it by its pid.
					idle, requests = "unresponsive", "-"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s %s\t%d\t%s\t%s\t%s\n", cell(s.Name), cell(s.Server),
					s.Era, s.Version, s.PID, s.Started, idle, requests)
			}
			return tw.Flush()
		}
	}
	if list == nil {
		list = []sessiond.State{}
	}
	b, _ := json.Marshal(map[string]any{"sessions": list})
	return output.Render(o.ctx(), ios, render, output.KindGeneric, b)
}

type sessionStopOptions struct {
	invocation
	names []string
	all   bool
}

func newCmdSessionStop(f *Factory, runF func(*sessionStopOptions) error) *cli.Command {
	return &cli.Command{
		Name:        "stop",
		Usage:       "stop sessions: their servers shut down as a one-shot run ends them",
		ArgsUsage:   "NAME… | --all",
		Description: "With no NAME, -s NAME (or MCPCTL_SERVER) names the session, as for session start.",
		Flags:       []cli.Flag{&cli.BoolFlag{Name: "all", Usage: "stop every running session"}},
		Action: actionOf(func(c *cli.Context) (*sessionStopOptions, error) {
			o := &sessionStopOptions{invoked(f, c), c.Args().Slice(), c.Bool("all")}
			if len(o.names) == 0 && !o.all && o.Globals.Server != "" {
				// mcpctl -s NAME session stop: the session start -s NAME made
				o.names = []string{o.Globals.Server}
			}
			if o.all == (len(o.names) > 0) {
				return nil, usagef("usage: %s NAME… | --all", c.Command.HelpName)
			}
			return o, nil
		}, runF, runSessionStop),
	}
}

func runSessionStop(o *sessionStopOptions) error {
	list, err := liveSessions(o.f)
	if err != nil {
		return err
	}
	for _, want := range o.names {
		if findSession(list, want) == nil {
			return noSuchSession(list, want)
		}
	}
	for _, s := range list {
		if !o.all && !contains(o.names, s.Name) {
			continue
		}
		if _, err := sessiond.Stop(s.Paths); err != nil {
			return err
		}
		ios := o.f.IOStreams
		notef(ios, "stopped session %s (pid %d)", output.ShowName(s.Name, ios.StderrToTerminal()), s.PID)
	}
	return nil
}

func findSession(list []sessiond.State, name string) *sessiond.State {
	for i := range list {
		if list[i].Name == name {
			return &list[i]
		}
	}
	return nil
}

// noSuchSession is the usage error for a session name that no running
// session has.
func noSuchSession(list []sessiond.State, name string) error {
	var names []string
	for _, s := range list {
		names = append(names, s.Name)
	}
	msg := fmt.Sprintf("no session is called %q", name)
	if len(names) > 0 {
		msg += " (running: " + strings.Join(names, ", ") + ")"
	} else {
		msg += " (none is running)"
	}
	return usagef("%s", msg)
}

type sessionLogsOptions struct {
	invocation
	name string
}

func newCmdSessionLogs(f *Factory, runF func(*sessionLogsOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "logs",
		Usage:     "print a session's log: its server's stderr and the session's own notes (the last MiB)",
		ArgsUsage: "NAME",
		Action: actionOf(func(c *cli.Context) (*sessionLogsOptions, error) {
			if err := needArgs(c, 1, 1, "NAME"); err != nil {
				return nil, err
			}
			return &sessionLogsOptions{invoked(f, c), c.Args().First()}, nil
		}, runF, runSessionLogs),
	}
}

func runSessionLogs(o *sessionLogsOptions) error {
	list, err := liveSessions(o.f)
	if err != nil {
		return err
	}
	s := findSession(list, o.name)
	if s == nil {
		return noSuchSession(list, o.name)
	}
	data, err := s.Paths.ReadLog()
	if err != nil {
		return err
	}
	ios := o.f.IOStreams
	if !ios.IsStdoutTTY() {
		_, err = ios.Out.Write(data)
		return err
	}
	for _, l := range strings.SplitAfter(string(data), "\n") {
		fmt.Fprint(ios.Out, output.SanitizeLine(strings.TrimSuffix(l, "\n")))
		if strings.HasSuffix(l, "\n") {
			fmt.Fprintln(ios.Out)
		}
	}
	return nil
}

type sessionServeOptions struct {
	invocation
	idle       time.Duration
	name       string
	readyFD    int
	settingsFD int
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
			&cli.IntFlag{Name: "settings-fd", Value: -1},
		},
		Action: actionOf(func(c *cli.Context) (*sessionServeOptions, error) {
			return &sessionServeOptions{invoked(f, c), c.Duration("idle"), c.String("name"), c.Int("ready-fd"), c.Int("settings-fd")}, nil
		}, runF, runSessionServe),
	}
}

// runSessionServe runs the session (sessiond.Serve) with the settings its
// starter wrote on the settings pipe, and tells its starter on the ready
// pipe: the hello, or the error in mcpctl's words with its exit code.
func runSessionServe(o *sessionServeOptions) error {
	var ready *os.File
	if o.readyFD >= 0 {
		// Not for the server to inherit: the starter waits for this
		// pipe's line, or its end.
		sessiond.CloseOnExec(o.readyFD)
		ready = os.NewFile(uintptr(o.readyFD), "ready")
	}
	report := func(v any) {
		if ready != nil {
			b, _ := json.Marshal(v)
			_, _ = ready.Write(append(b, '\n'))
			ready.Close()
		}
	}
	var held atomic.Pointer[Connection]
	explain := func(err error) (string, int) {
		if c := held.Load(); c != nil {
			err = (*c).Explain(err)
		}
		// An invocation prints it: without the credentials the session
		// holds, which it may not know (an OAuth token).
		return o.f.secrets.Redact(oneLine(inOurWords(err))), ExitCode(err)
	}
	fail := func(err error) error {
		msg, code := explain(err)
		report(map[string]any{"error": msg, "exit": code})
		return err
	}
	if !sessiond.Supported {
		return fail(usagef("%v", sessiond.ErrUnsupported))
	}
	sessiond.RestrictUmask()
	g := o.Globals.Clone()
	if o.settingsFD >= 0 {
		if err := readSettings(o.settingsFD, g); err != nil {
			return fail(err)
		}
	}
	// A session start always reaches the server, and keeps its stderr in
	// the log.
	g.NoCache, g.ServerStderr = true, "inherit"
	st, err := resolve(o.f, g, ConnectOptions{})
	if err != nil {
		return fail(err)
	}
	p, err := o.f.sessionPaths(st, true)
	if err != nil {
		return fail(err)
	}
	if err := p.CheckLength(); err != nil {
		return fail(sessionFileError(err, st))
	}
	log, err := p.OpenLog(sessiond.LogSize)
	if err != nil {
		return fail(err)
	}
	defer log.Close()
	server := st.target
	if st.http {
		server = client.RedactURL(st.target)
	}
	cfg := sessiond.Config{Dir: p.Dir, ID: p.ID, Name: sessionName(st, o.name), Server: server, ServerID: st.serverID,
		Idle: o.idle, Log: log, Connect: heldConnection(o.f, g, log, &held), Explain: explain}
	// Ctrl-C and SIGTERM end the command's context; the session then
	// stops as session stop stops it.
	if err := sessiond.Serve(o.ctx(), cfg, func(h sessiond.Hello) { report(h) }); err != nil {
		return fail(sessionFileError(err, st))
	}
	return nil
}

// maxSettings bounds the settings a session process reads from its
// starter: its flags, headers and variables come to far less.
const maxSettings = 16 << 20

// readSettings applies the settings document on the pipe fd (the
// starter's sessionSettings) to g, as flags typed.
func readSettings(fd int, g *GlobalOptions) error {
	sessiond.CloseOnExec(fd) // not for the server to inherit
	pipe := os.NewFile(uintptr(fd), "settings")
	defer pipe.Close()
	doc, err := io.ReadAll(io.LimitReader(pipe, maxSettings+1))
	if err != nil {
		return fmt.Errorf("reading the session's settings: %w", err)
	}
	if len(doc) > maxSettings {
		return fmt.Errorf("the session's settings are over %d bytes", maxSettings)
	}
	return g.applySettings(doc)
}

// heldConnection is how the session process connects to its server: as a
// one-shot run with the same options connects (the factory's Connect,
// never through a session), with the daemon's wrap on every transport,
// and with the server's stderr and the connection's notes in the
// session's log. held is the latest connection, whose Explain adds the
// hints a one-shot run gives.
func heldConnection(f *Factory, g *GlobalOptions, log io.Writer, held *atomic.Pointer[Connection]) func(context.Context, func(client.Transport) client.Transport) (*client.Client, func(), error) {
	return func(ctx context.Context, wrap func(client.Transport) client.Transport) (*client.Client, func(), error) {
		inLog := *f
		inLog.IOStreams = &output.IOStreams{In: f.IOStreams.In, Out: log, ErrOut: f.secrets.Writer(log)}
		redacted := func(t client.Transport) client.Transport { return wrap(redactErrors(t, f.secrets)) }
		conn, err := inLog.connect(ctx, g, ConnectOptions{Direct: true, Wrap: redacted})
		if err != nil {
			return nil, nil, err
		}
		held.Store(&conn)
		return conn.Client(), conn.Close, nil
	}
}

// redactErrors wraps the session's transport so that what it relays to
// invocations of the server's errors and log messages (those of a
// request, and those tied to none: on stdio, on a legacy HTTP server's
// own stream) has the session's credentials redacted: an invocation
// prints them, and does not know every credential the session sent (its
// OAuth token). Results are left as the server wrote them.
func redactErrors(t client.Transport, s *secrets.Set) client.Transport {
	return &redactingTransport{t, s}
}

type redactingTransport struct {
	client.Transport
	s *secrets.Set
}

// redacting is fn, given log messages with the credentials redacted.
func (r *redactingTransport) redacting(fn func(client.Notification)) func(client.Notification) {
	if fn == nil {
		return nil
	}
	return func(n client.Notification) {
		if n.Method == "notifications/message" {
			n.Params, n.Raw = r.s.RedactJSON(n.Params), r.s.RedactJSON(n.Raw)
		}
		fn(n)
	}
}

func (r *redactingTransport) RoundTrip(ctx context.Context, req *client.Request, notify func(client.Notification)) (*client.Message, error) {
	m, err := r.Transport.RoundTrip(ctx, req, r.redacting(notify))
	if m != nil && m.Error != nil {
		e, c := *m.Error, *m
		e.Message, e.Data = r.s.Redact(e.Message), r.s.RedactJSON(e.Data)
		c.Error = &e
		m = &c
	}
	return m, err
}

func (r *redactingTransport) Capabilities() client.Capabilities {
	caps := r.Transport.Capabilities()
	if install := caps.Notifications; install != nil {
		caps.Notifications = func(fn func(client.Notification)) { install(r.redacting(fn)) }
	}
	if watch := caps.Watch; watch != nil {
		caps.Watch = func(ctx context.Context, fn func(client.Notification)) error { return watch(ctx, r.redacting(fn)) }
	}
	if open := caps.OpenEvents; open != nil {
		caps.OpenEvents = func(ctx context.Context, fn func(client.Notification)) { open(ctx, r.redacting(fn)) }
	}
	if rebind := caps.Rebind; rebind != nil {
		caps.Rebind = func(era client.Era, binding string) (client.Transport, error) {
			nt, err := rebind(era, binding)
			if err != nil || nt == r.Transport {
				return r, err
			}
			return redactErrors(nt, r.s), nil
		}
	}
	return caps
}
