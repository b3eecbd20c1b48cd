package commands

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/oauth"
	"github.com/mcpctl/mcpctl/internal/sessiond"
	"github.com/mcpctl/mcpctl/output"
)

// connInfo is how the server was reached, kept in continuations so that
// resume can reach it again.
type connInfo struct {
	url, stdio, cwd string
	env             []string
	name            string // a configured server, found again by name
}

// session is what a command needs to do its work: a client for the chosen
// server and the validated output options. Everything the flags can get
// wrong is checked in newSession, before any process starts or byte is
// sent.
type session struct {
	*connSettings
	f      *Factory
	ios    *output.IOStreams
	client *client.Client
	render output.Options
	closer []func()

	opts     client.Options
	progress *progressView
	oauth    *oauth.Manager // nil unless OAuth is in use
	input    *inputHandler
	pageable bool // the command has --cursor: a listing may be paged by hand
	dryOut   *dryRunPrinter
	// ks is the connection to a running session of this server
	// (sessions_use.go) until dial takes it; viaSession says the
	// server is reached through one.
	ks         *sessiond.Conn
	viaSession bool
	borrowed   bool // a batch line's: the client and the rest are the batch's, closed by it
}

// connSettings is how a session reaches its server, resolved once from
// the flags and the endpoint before anything starts. The transport is a
// function of it (session.dial), which changes nothing, so a reconnect
// reaches the same server the same way.
type connSettings struct {
	ep           *endpoint
	http         bool
	target       string // URL or command, for messages
	serverID     string // cache key part
	credentialID string
	conn         connInfo
	maxMessage   int                 // --max-message-size, which bounds a listing's pages together too
	header       map[string][]string // HTTP: -H, the named server's headers, --bearer
	insecure     bool
	childEnv     []string // stdio: the factory's environment with --env
	serverStderr string   // --server-stderr
	trace        bool
	dryRun       bool
	listen       bool // lines that are not JSON-RPC are reported, not fatal

	// shutdownGrace is --shutdown-grace in the client's terms: how long
	// the stdio server may take to exit once its stdin is closed
	// (negative: SIGTERM at once).
	shutdownGrace time.Duration
}

func newSession(c *cli.Context, f *Factory) (*session, error) {
	return newSessionFor(c, f, nil)
}

// newSessionFor is newSession, reaching the server through fallback when
// no server flag or variable names one (resume uses the continuation's).
func newSessionFor(c *cli.Context, f *Factory, fallback *connInfo) (*session, error) {
	if f.batch != nil {
		// A batch line: the batch's one connection (batch.go).
		return f.batch.session(c, f), nil
	}
	ios := f.IOStreams
	ch, err := choiceFromContext(c, f.Getenv)
	if err != nil {
		return nil, err
	}
	ep, err := resolveEndpoint(ch, configsOf(c), fallback)
	if err != nil {
		return nil, misspeltCommand(c, ch.name, err)
	}
	if err := applyServerSettings(c, ep); err != nil {
		return nil, err
	}
	render, err := renderOptions(c, ios)
	if err != nil {
		return nil, err
	}
	s := &session{f: f, ios: ios, render: render, pageable: hasFlag(c.Command, "cursor")}
	input, err := readInputConfig(c, ios)
	if err != nil {
		return nil, err
	}
	progress, err := newProgressView(c.String("progress"), ios)
	if err != nil {
		return nil, err
	}
	s.progress = progress
	if lvl := c.String("log-level"); lvl != "" && !validLogLevel(lvl) {
		return nil, usagef("invalid --log-level %q: use one of %s", lvl, strings.Join(logLevels, ", "))
	}
	if s.connSettings, err = resolveSettings(c, f, ep); err != nil {
		return nil, err
	}
	s.ks = s.keepalive(c)
	var hello sessiond.Hello
	if s.ks != nil {
		s.viaSession, hello = true, s.ks.Hello
	}
	if s.http {
		if s.insecure {
			fmt.Fprintln(ios.ErrOut, "mcpctl: warning: --insecure: TLS certificates are not verified")
		}
		if _, fixed := s.header["Authorization"]; !fixed {
			if s.oauth, err = s.oauthManager(c, ep.url); err != nil {
				return nil, err
			}
		}
	} else if !s.dryRun && !s.viaSession {
		// mcpctl is a short-lived command, so it may adopt the orphans of
		// the servers it starts (process-wide): a daemon a server forked
		// off is then still found and ended at exit. Where the kernel
		// refuses, the server's cgroup or its process tree still serve.
		_ = client.ReapOrphans()
	}
	t, closeT, err := s.dial()
	if err != nil {
		s.Close()
		return nil, err
	}
	s.closer = append(s.closer, closeT)
	tasks := !c.Bool("no-tasks")
	opts := client.Options{
		ClientInfo:   client.Implementation{Name: "mcpctl", Version: version()},
		Capabilities: input.capabilities(tasks),
		Timeout:      c.Duration("timeout"),
		Limits: client.Limits{
			MaxTimeout:  c.Duration("max-timeout"),
			MaxListSize: s.maxMessage,
			MaxRounds:   c.Int("max-rounds"),
		},
		Hooks:    client.Hooks{OnNotify: s.notification},
		ServerID: s.serverID,
		Cache:    client.CacheOptions{CredentialID: s.credentialID},
		Input:    s.inputHandler(c, input),
		LogLevel: c.String("log-level"),
		DryRun:   s.dryRun,
		Tasks: client.TaskOptions{
			Declared:          tasks,
			CancelOnInterrupt: c.Bool("cancel-on-interrupt"),
			OnCreated:         func(h json.RawMessage) { f.rememberTask(s.serverID, h) },
			OnStatus:          s.taskStatus,
		},
	}
	if c.IsSet("timeout") {
		opts.Tasks.Timeout = c.Duration("timeout")
	}
	switch {
	case c.Bool("no-cache"):
		// A dry run keeps the cache: it reads what a real run would know
		// already (the tool list), and the client writes nothing then.
		opts.Cache.Mode = client.CacheOff
	case c.Bool("refresh"):
		opts.Cache.Mode = client.CacheRefresh
	}
	if opts.Cache.Mode != client.CacheOff {
		if cache, err := f.openCache(); err == nil {
			opts.Cache.Store = cache
		}
	}
	if s.trace {
		opts.Hooks.Log = func(msg string) { fmt.Fprintln(s.ios.ErrOut, "# "+msg) }
	}
	if v := c.String("protocol-version"); v != "" {
		if !client.IsSupportedVersion(v) {
			s.Close()
			return nil, usagef("unsupported --protocol-version %q; mcpctl speaks %s", v, strings.Join(client.SupportedVersions(), ", "))
		}
		// A pinned version pins the era too: no probe.
		opts.ProtocolVersion, opts.PinVersion, opts.Era = v, true, client.EraModern
		if client.IsLegacyVersion(v) {
			opts.Era = client.EraLegacy
		}
	}
	if err := s.eraOptions(c, &opts); err != nil {
		s.Close()
		return nil, err
	}
	if s.viaSession {
		sessionOptions(hello, &opts)
	}
	s.opts = opts
	s.opts.Reopen = s.reopen
	s.client = client.New(t, s.opts)
	return s, nil
}

// reopen is a new transport to the same server, for the client to retry
// on; the session closes it at the end.
func (s *session) reopen() (client.Transport, error) {
	t, closeT, err := s.dial()
	if err != nil {
		return nil, err
	}
	s.closer = append(s.closer, closeT)
	return t, nil
}

// resolveSettings reads how to reach the server from the flags and the
// endpoint; it starts nothing.
func resolveSettings(c *cli.Context, f *Factory, ep *endpoint) (*connSettings, error) {
	maxMessage, err := parseSize("--max-message-size", c.String("max-message-size"))
	if err != nil {
		return nil, err
	}
	st := &connSettings{
		ep: ep, maxMessage: maxMessage, serverID: ep.serverID(), conn: connInfo{name: ep.name},
		trace: c.Bool("trace"), dryRun: c.Bool("dry-run"), insecure: c.Bool("insecure"),
		listen: c.Command != nil && c.Command.Name == "listen",
	}
	if st.shutdownGrace, err = shutdownGrace(c.Duration("shutdown-grace")); err != nil {
		return nil, err
	}
	if ep.url != "" {
		st.http, st.target = true, ep.url
		if ep.name == "" {
			st.conn.url = ep.url
		}
		st.credentialID = credentialID(ep.header)
		st.header = map[string][]string{}
		for k, v := range ep.header {
			st.header[k] = append([]string(nil), v...)
		}
		if err := bearer(c, st.header); err != nil {
			return nil, err
		}
		if _, fixed := st.header["Authorization"]; !fixed {
			// OAuth: private results are kept apart from those of other
			// credentials (the token itself changes, and never reaches the
			// disk).
			st.credentialID = client.HashCredential("oauth", ep.url)
		}
		return st, nil
	}
	if st.childEnv, err = childEnv(f.Environ, ep.env); err != nil {
		return nil, err
	}
	if st.childEnv == nil {
		// The factory's environment, which is the process's but in tests.
		st.childEnv = f.Environ()
	}
	st.serverStderr = c.String("server-stderr")
	st.target = ep.stdio
	if ep.name == "" {
		// A named server is found again by its name: its expanded
		// variables (API keys) stay out of continuation documents.
		st.conn = connInfo{stdio: ep.stdio, env: ep.env, cwd: ep.cwd}
	}
	return st, nil
}

// inputHandler answers the server's questions; its prompts end with the
// command (Ctrl-C, SIGTERM) and, when --timeout was given, at its
// deadline.
func (s *session) inputHandler(c *cli.Context, cfg *inputConfig) *inputHandler {
	h := newInputHandler(cfg, s.ios)
	h.progress, h.open = s.progress, s.f.openURL
	if c.Context != nil {
		h.base = c.Context
	}
	if c.IsSet("timeout") {
		h.setDeadline(c.Duration("timeout"))
	}
	s.input = h
	return h
}

// eraOptions sets how the server's era is found and remembered, and what
// legacy servers' results are cached for.
func (s *session) eraOptions(c *cli.Context, opts *client.Options) error {
	opts.ProbeTimeout = c.Duration("probe-timeout")
	if opts.ProbeTimeout <= 0 {
		return usagef("--probe-timeout must be positive")
	}
	opts.Cache.TTL = c.Duration("cache-ttl")
	if opts.Cache.TTL < 0 {
		return usagef("--cache-ttl must not be negative")
	}
	opts.Hooks.Warn = func(msg string) {
		s.progress.clear()
		fmt.Fprintln(s.ios.ErrOut, "mcpctl: warning: "+output.SanitizeMessage(msg))
	}
	if dir, err := s.f.eraDir(); err == nil {
		// Read in a dry run too (the client never writes it then), so that
		// it shows the requests of the era a real run would use.
		opts.EraStore = &client.FileEraStore{Dir: dir}
	}
	return nil
}

// malformed is the policy for lines that are not JSON-RPC: a listen stream
// reports them and carries on (one bad line should not end hours of
// listening); a single call treats them as the protocol error they are.
func (s *session) malformed() func([]byte, error) bool {
	if !s.listen {
		return nil
	}
	return func(line []byte, err error) bool {
		fmt.Fprintln(s.ios.ErrOut, "mcpctl: warning: skipped a malformed message: "+output.SanitizeMessage(err.Error()))
		return true
	}
}

// reconnect replaces the client with a new one on a fresh transport (a
// new server process on stdio), for listen after the old one broke.
func (s *session) reconnect() error {
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
func (s *session) Close() {
	if s.borrowed {
		return
	}
	s.input.abandon()
	s.progress.done()
	if s.client != nil {
		s.client.Close()
	}
	for i := len(s.closer) - 1; i >= 0; i-- {
		s.closer[i]()
	}
}

// renderOptions reads the output flags (with the config's defaults).
func renderOptions(c *cli.Context, ios *output.IOStreams) (output.Options, error) {
	if err := applyDefaults(c); err != nil {
		return output.Options{}, err
	}
	format, err := output.ParseFormat(c.String("output"))
	if err != nil {
		return output.Options{}, usagef("%v", err)
	}
	var opts output.Options
	if expr := c.String("jq"); expr != "" {
		if format == output.FormatTable && configsOf(c).fromConfig["output"] {
			// A table the config prefers yields to a --jq typed now: the
			// user asked for the filter, not for that format.
			format = ""
		}
		if err := jqFormatUsable(format); err != nil {
			return opts, err
		}
		q, err := output.CompileQuery(expr)
		if err != nil {
			return opts, usagef("%v", err)
		}
		opts.Query = q
	}
	if format == "" {
		format = output.DefaultFormat(ios.IsStdoutTTY())
	}
	opts.Format = format
	return opts, nil
}

// jqFormatUsable says whether -o can shape --jq's output: json and text
// (strings raw, other values JSON, as jq -r), yaml (a document for each
// result); a table needs rows of a known shape, which a filter's output
// does not have.
func jqFormatUsable(format output.Format) error {
	if format == output.FormatTable {
		return usagef("--jq filters JSON; it cannot be combined with -o %s (use -o json, text or yaml)", format)
	}
	return nil
}

// dial builds a transport to the server the settings name, and what to
// close when the session ends; the session and its settings stay as they
// are. Factory.Transport, when set, stands in for the real transports.
func (s *session) dial() (client.Transport, func(), error) {
	st := s.connSettings
	if s.f.Transport != nil {
		t, err := s.f.Transport(st)
		return t, func() {}, err
	}
	if s.viaSession {
		return s.dialKeepalive()
	}
	t, closeT, err := s.dialServer()
	if err == nil && s.f.tap != nil {
		t = s.f.tap(t)
	}
	return t, closeT, err
}

// dialServer is dial's transport to the server itself.
func (s *session) dialServer() (client.Transport, func(), error) {
	st := s.connSettings
	var trace client.Tracer
	if st.trace {
		trace = newTracer(s.ios.ErrOut)
	}
	var dry func(client.DryRunRequest)
	if st.dryRun {
		if s.dryOut == nil { // one for the session: a stdio command is named once
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

// shutdownGrace checks --shutdown-grace and turns it into the client's
// CloseGrace, where zero is the default and a negative value none.
func shutdownGrace(d time.Duration) (time.Duration, error) {
	switch {
	case d < 0:
		return 0, usagef("--shutdown-grace must not be negative (0 sends SIGTERM as soon as the server's stdin is closed)")
	case d == 0:
		return -1, nil
	}
	return d, nil
}

// serverStderr is where a stdio server's stderr goes. Inherited, it is
// passed on to ours: as it is when ours is not a terminal (a log file or a
// CI capture gets the server's exact bytes, and an unfinished last line
// is ended when the server is gone, so that mcpctl's error line starts a
// line), and sanitised line by line when it is one (or MCPCTL_FORCE_TTY
// says so), written above the progress bar, so that the server cannot
// drive the terminal.
func (s *session) serverStderr(mode string) (io.Writer, func(), error) {
	switch mode {
	case "", "inherit":
		var w interface {
			io.Writer
			Close() error
		}
		if s.ios.StderrToTerminal() {
			w = output.NewLineSanitizer(aboveBar{s.progress})
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

func parseHeaders(values []string) (map[string][]string, error) {
	h := map[string][]string{}
	for _, v := range values {
		name, value, ok := strings.Cut(v, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t\r\n") {
			// Only the first word: the rest may well be a credential.
			shown, _, more := strings.Cut(strings.TrimSpace(v), " ")
			if more {
				shown += " …"
			}
			return nil, usagef("invalid header %q: write it as 'Name: value'", shown)
		}
		if strings.ContainsAny(value, "\r\n") {
			return nil, usagef("invalid header %q: the value contains a line break", name)
		}
		key := http.CanonicalHeaderKey(name)
		h[key] = append(h[key], strings.TrimSpace(value))
	}
	return h, nil
}

// childEnv is our environment plus the --env values.
func childEnv(environ func() []string, values []string) ([]string, error) {
	if len(values) == 0 {
		return nil, nil
	}
	env := environ()
	for _, v := range values {
		k, _, ok := strings.Cut(v, "=")
		if !ok || k == "" {
			return nil, usagef("invalid --env %q: write it as KEY=VALUE", v)
		}
		env = append(env, v)
	}
	return env, nil
}

// notification shows request-scoped server notifications on stderr: log
// messages as "[level] logger: data", progress as --progress says.
func (s *session) notification(n client.Notification) {
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
		s.progress.clear()
		fmt.Fprintln(s.ios.ErrOut, output.SanitizeLine(line+data))
	case "notifications/progress":
		s.progress.update(n.Params)
	}
}

// print renders a raw result on stdout.
func (s *session) print(ctx context.Context, kind output.Kind, raw json.RawMessage) error {
	s.progress.done()
	return output.Render(ctx, s.ios, s.render, kind, raw)
}

func (s *session) warn(msgs []string) {
	for _, m := range msgs {
		fmt.Fprintln(s.ios.ErrOut, "mcpctl: warning: "+output.SanitizeMessage(m))
	}
}
