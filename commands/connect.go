package commands

// How a command reaches its server: the factory's Connect, in four steps,
//
//  1. resolve: the server and every setting, from the global options, the
//     server's entry and the config's defaults, all checked before any
//     process starts or byte is sent;
//  2. find (or, for a keepAlive server, start) a kept-alive session of the
//     server (sessions_use.go);
//  3. the client's options;
//  4. dial: the transport, to the server or to its session's socket.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/config"
	"github.com/mcpctl/mcpctl/internal/argv"
	"github.com/mcpctl/mcpctl/internal/interact"
	"github.com/mcpctl/mcpctl/internal/sessiond"
	"github.com/mcpctl/mcpctl/output"
)

// connSettings is how a connection reaches its server and shows what it
// says, resolved once from the options and the endpoint before anything
// starts. The transport is a function of it (connection.dial), which
// changes nothing, so a reconnect reaches the same server the same way.
type connSettings struct {
	// g is the global options with the server's entry and the config's
	// defaults applied.
	g            *GlobalOptions
	ep           *endpoint
	http         bool
	target       string // URL or command, for messages
	serverID     string // cache key part
	credentialID string
	sessionID    string // the session that may serve this caller (sessionID)
	conn         connInfo
	maxMessage   int                 // --max-message-size, which bounds a listing's pages together too
	header       map[string][]string // HTTP: -H, the named server's headers, --bearer
	insecure     bool
	childEnv     []string // stdio: the factory's environment with --env
	serverStderr string   // --server-stderr
	trace        bool
	dryRun       bool
	listen       bool // lines that are not JSON-RPC are reported, not fatal
	pageable     bool // the command has --cursor: a listing may be paged by hand
	render       output.Options
	answers      *interact.Config // how the server's questions are answered

	// shutdownGrace is --shutdown-grace in the client's terms: how long
	// the stdio server may take to exit once its stdin is closed
	// (negative: SIGTERM at once).
	shutdownGrace time.Duration
}

// connect is the factory's Connect, the real one when none is set.
func (f *Factory) connect(ctx context.Context, g *GlobalOptions, how ConnectOptions) (Connection, error) {
	if f.Connect != nil {
		return f.Connect(ctx, g, how)
	}
	return connectVia(ctx, f, g, how, nil)
}

// connectVia is the real Connect. dial, when set, builds the transport to
// the server from the settings in place of the real HTTP and stdio
// transports: a test answers from the same process.
func connectVia(ctx context.Context, f *Factory, g *GlobalOptions, how ConnectOptions, dial func(*connSettings) (client.Transport, error)) (Connection, error) {
	st, err := resolve(f, g, how)
	if err != nil {
		return nil, err
	}
	s := &connection{connSettings: st, f: f, ios: f.IOStreams, dialer: dial, wrap: how.Wrap}
	if s.progress, err = interact.NewProgress(st.g.Progress, s.ios); err != nil {
		return nil, err
	}
	if !how.Direct && how.Wrap == nil && dial == nil {
		s.ks = s.keepalive(ctx)
		s.viaSession = s.ks != nil
	}
	if s.http && s.insecure {
		fmt.Fprintln(s.ios.ErrOut, "mcpctl: warning: --insecure: TLS certificates are not verified")
	}
	switch {
	case s.viaSession:
		// The session holds the connection, and its credentials.
	case s.http:
		if _, fixed := s.header["Authorization"]; !fixed {
			if s.oauth, err = s.oauthManager(s.ep.url); err != nil {
				return nil, err
			}
		}
	case !s.dryRun:
		// mcpctl is a short-lived command, so it may adopt the orphans of
		// the servers it starts (process-wide): a daemon a server forked
		// off is then still found and ended at exit. Where the kernel
		// refuses, the server's cgroup or its process tree still serve.
		_ = client.ReapOrphans()
	}
	var hello sessiond.Hello
	if s.ks != nil {
		hello = s.ks.Hello
	}
	t, closeT, err := s.dial()
	if err != nil {
		s.Close()
		return nil, err
	}
	s.closer = append(s.closer, closeT)
	s.opts = s.clientOptions(ctx)
	if s.viaSession {
		sessionOptions(hello, &s.opts)
	}
	s.client = client.New(t, s.opts)
	return s, nil
}

// resolve reads how to reach the server, and how to show what it says,
// from the global options, the server's entry and the config's defaults
// (in that order: a flag or variable wins), and checks it all; it starts
// nothing.
func resolve(f *Factory, g *GlobalOptions, how ConnectOptions) (*connSettings, error) {
	ch, err := choiceOf(g, f.Getenv)
	if err != nil {
		return nil, err
	}
	ep, err := resolveEndpoint(ch, f.config(g), how.Fallback)
	if err != nil {
		return nil, err
	}
	eff := g.Clone()
	if err := applyServerSettings(eff, ep); err != nil {
		return nil, err
	}
	if err := applyDefaults(eff, f.config(g)); err != nil {
		return nil, err
	}
	render, err := renderOptions(eff, f.IOStreams)
	if err != nil {
		return nil, err
	}
	input, err := readInputConfig(eff, f.IOStreams)
	if err != nil {
		return nil, err
	}
	if _, err := interact.NewProgress(eff.Progress, f.IOStreams); err != nil {
		return nil, err
	}
	if lvl := eff.LogLevel; lvl != "" && !validLogLevel(lvl) {
		return nil, usagef("invalid --log-level %q: use one of %s", lvl, strings.Join(logLevels, ", "))
	}
	st, err := resolveSettings(eff, f, ep)
	if err != nil {
		return nil, err
	}
	st.sessionID = sessionID(f, st)
	st.render, st.answers, st.pageable, st.listen = render, input, how.Pageable, how.Listen
	if v := eff.ProtocolVersion; v != "" && !client.IsSupportedVersion(v) {
		return nil, usagef("unsupported --protocol-version %q; mcpctl speaks %s", v, strings.Join(client.SupportedVersions(), ", "))
	}
	if eff.ProbeTimeout <= 0 {
		return nil, usagef("--probe-timeout must be positive")
	}
	if eff.CacheTTL < 0 {
		return nil, usagef("--cache-ttl must not be negative")
	}
	f.noteSecrets(st)
	return st, nil
}

// resolveSettings reads how to reach the server from the options and the
// endpoint; it starts nothing.
func resolveSettings(g *GlobalOptions, f *Factory, ep *endpoint) (*connSettings, error) {
	maxMessage, err := argv.ParseSize("--max-message-size", g.MaxMessageSize)
	if err != nil {
		return nil, err
	}
	st := &connSettings{
		g: g, ep: ep, maxMessage: maxMessage, serverID: ep.serverID(), conn: connInfo{name: ep.name},
		trace: g.Trace, dryRun: g.DryRun, insecure: g.Insecure,
	}
	if st.shutdownGrace, err = shutdownGrace(g.ShutdownGrace); err != nil {
		return nil, err
	}
	if ep.url != "" {
		st.http, st.target = true, ep.url
		if ep.name == "" {
			st.conn.url = ep.url
		}
		st.header = map[string][]string{}
		for k, v := range ep.header {
			st.header[k] = append([]string(nil), v...)
		}
		if err := bearer(g.Bearer, st.header); err != nil {
			return nil, err
		}
		st.credentialID = credentialID(st.header) // --bearer's among them
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
	st.serverStderr = g.ServerStderr
	st.target = ep.stdio
	if ep.name == "" {
		// A named server is found again by its name: its expanded
		// variables (API keys) stay out of continuation documents.
		st.conn = connInfo{stdio: ep.stdio, env: ep.env, cwd: ep.cwd}
	}
	return st, nil
}

// clientOptions are the client's options: what it declares, how long it
// waits, what it caches, how it answers the server and where its
// notifications and warnings go.
func (s *connection) clientOptions(ctx context.Context) client.Options {
	g := s.g
	tasks := !g.NoTasks
	opts := client.Options{
		ClientInfo:   client.Implementation{Name: "mcpctl", Version: version()},
		Capabilities: s.answers.Capabilities(tasks),
		Timeout:      g.Timeout,
		Limits: client.Limits{
			MaxTimeout:  g.MaxTimeout,
			MaxListSize: s.maxMessage,
			MaxRounds:   g.MaxRounds,
		},
		Hooks:    client.Hooks{OnNotify: s.notification},
		ServerID: s.serverID,
		Cache:    client.CacheOptions{CredentialID: s.credentialID, TTL: g.CacheTTL},
		Input:    s.inputHandler(ctx),
		LogLevel: g.LogLevel,
		DryRun:   s.dryRun,
		Tasks: client.TaskOptions{
			Declared:          tasks,
			CancelOnInterrupt: g.CancelOnInterrupt,
			EndsWithCall:      s.ServerEndsWithRun(),
			OnCreated:         func(h json.RawMessage) { s.f.rememberTask(s.serverID, h) },
			OnStatus:          s.taskStatus,
		},
		ProbeTimeout: g.ProbeTimeout,
	}
	if g.IsSet("timeout") {
		opts.Tasks.Timeout = g.Timeout
	}
	switch {
	case g.NoCache:
		// A dry run keeps the cache: it reads what a real run would know
		// already (the tool list), and the client writes nothing then.
		opts.Cache.Mode = client.CacheOff
	case g.Refresh:
		opts.Cache.Mode = client.CacheRefresh
	}
	if opts.Cache.Mode != client.CacheOff {
		if cache, err := s.f.openCache(); err == nil {
			opts.Cache.Store = cache
		}
	}
	if s.trace {
		opts.Hooks.Log = func(msg string) { fmt.Fprintln(s.ios.ErrOut, "# "+msg) }
	}
	if v := g.ProtocolVersion; v != "" {
		// A pinned version pins the era too: no probe.
		opts.ProtocolVersion, opts.PinVersion, opts.Era = v, true, client.EraModern
		if client.IsLegacyVersion(v) {
			opts.Era = client.EraLegacy
		}
	}
	opts.Hooks.Warn = func(msg string) {
		s.progress.Clear()
		fmt.Fprintln(s.ios.ErrOut, "mcpctl: warning: "+output.SanitizeMessage(msg))
	}
	if dir, err := s.f.eraDir(); err == nil {
		// Read in a dry run too (the client never writes it then), so that
		// it shows the requests of the era a real run would use.
		opts.EraStore = &client.FileEraStore{Dir: dir}
	}
	opts.Reopen = s.reopen
	return opts
}

// inputHandler answers the server's questions; its prompts end with the
// command (Ctrl-C, SIGTERM) and, when --timeout was given, at its
// deadline.
func (s *connection) inputHandler(ctx context.Context) *interact.Handler {
	cmd := interact.Command{Context: ctx, Progress: s.progress, Open: s.f.openURL}
	if s.g.IsSet("timeout") {
		cmd.Timeout = s.g.Timeout
	}
	s.input = interact.NewHandler(s.answers, s.ios, cmd)
	return s.input
}

// renderOptions reads the output options (the config's defaults applied).
func renderOptions(g *GlobalOptions, ios *output.IOStreams) (output.Options, error) {
	format, err := output.ParseFormat(g.Output)
	if err != nil {
		return output.Options{}, usagef("%v", err)
	}
	var opts output.Options
	if expr := g.JQ; expr != "" {
		if format == output.FormatTable && g.FromConfig("output") {
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

func parseHeaders(values []string) (map[string][]string, error) {
	kvs, err := config.ParseHeaders(values)
	if err != nil {
		return nil, configError(err)
	}
	h := map[string][]string{}
	for _, kv := range kvs {
		key := http.CanonicalHeaderKey(kv.Key)
		h[key] = append(h[key], kv.Value)
	}
	return h, nil
}

// childEnv is our environment plus the --env values.
func childEnv(environ func() []string, values []string) ([]string, error) {
	if len(values) == 0 {
		return nil, nil
	}
	if _, err := config.ParseEnv(values); err != nil {
		return nil, configError(err)
	}
	return append(environ(), values...), nil
}

// logLevels are the levels of logging/setLevel (--log-level), least
// severe first.
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

func validLogLevel(l string) bool {
	for _, v := range logLevels {
		if v == l {
			return true
		}
	}
	return false
}
