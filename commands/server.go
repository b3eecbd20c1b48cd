package commands

// Which server a command talks to. In order:
//
//  1. the flags --url, --stdio, -s/--server (or a bare NAME before the
//     command, which argv.Normalize turns into --server NAME); one at most;
//  2. the variables MCPCTL_URL, MCPCTL_STDIO, MCPCTL_SERVER; one at most;
//  3. the server of a continuation being resumed;
//  4. defaults.server in the config file.
//
// A name is looked up in mcpctl's config file and the other clients' files
// (package config), where mcpctl's own file wins over the others (the
// precedence is config's rank); FILE:NAME reads one file only. A named
// server's protocolVersion, timeout, roots and settings apply unless a
// flag or variable gives them, and before the config's defaults; --env,
// --cwd and -H add to (or override) what it sets.

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/kballard/go-shellquote"
	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/config"
	"github.com/mcpctl/mcpctl/internal/argv"
	"github.com/mcpctl/mcpctl/output"
)

const noServerHelp = "pass --url URL (Streamable HTTP), --stdio 'CMD ARGS…' (a subprocess) or -s NAME (a configured server: 'mcpctl config list'), or set MCPCTL_URL, MCPCTL_STDIO or MCPCTL_SERVER"

// serverChoice is what the command line and the environment say about
// the server.
type serverChoice struct {
	url, stdio, name string
	env              []string // --env
	cwd              string   // --cwd
	headers          []string // -H
}

func (ch serverChoice) empty() bool { return ch.url == "" && ch.stdio == "" && ch.name == "" }

// pickServer applies rule 1 and 2 above to the flag values.
func pickServer(ch serverChoice, getenv func(string) string) (serverChoice, error) {
	if ch.empty() {
		ch.url, ch.stdio, ch.name = getenv("MCPCTL_URL"), getenv("MCPCTL_STDIO"), getenv("MCPCTL_SERVER")
	}
	switch {
	case ch.url != "" && ch.stdio != "":
		return ch, usagef("both --url and --stdio given: pass only one")
	case ch.name != "" && (ch.url != "" || ch.stdio != ""):
		return ch, usagef("both -s/--server and --url or --stdio given: pass only one")
	}
	return ch, nil
}

func choiceFromContext(c *cli.Context, getenv func(string) string) (serverChoice, error) {
	return pickServer(serverChoice{
		url: c.String("url"), stdio: c.String("stdio"), name: c.String("server"),
		env: c.StringSlice("env"), cwd: c.String("cwd"), headers: c.StringSlice("header"),
	}, getenv)
}

// endpoint is the server a command talks to, fully resolved.
type endpoint struct {
	url    string
	argv   []string
	stdio  string // the command line, for messages
	env    []string
	cwd    string
	header map[string][]string
	// name is the configured name (or FILE:NAME) the server was chosen
	// by, and named its entry.
	name  string
	named *config.Endpoint
}

func (ep *endpoint) serverID() string { return serverID(ep.url, ep.argv, ep.env, ep.cwd) }

// resolveEndpoint turns a choice (and, for resume, the continuation's
// server) into an endpoint.
func resolveEndpoint(ch serverChoice, configs *configLoader, fallback *connInfo) (*endpoint, error) {
	if ch.empty() && fallback != nil {
		ch.url, ch.stdio, ch.name = fallback.url, fallback.stdio, fallback.name
		if ch.name == "" {
			ch.env, ch.cwd = fallback.env, fallback.cwd
		}
	}
	if ch.empty() {
		own, err := configs.load(false)
		if err != nil {
			return nil, err
		}
		for _, d := range own.Defaults {
			if d.Key == "server" {
				ch.name = d.Value
			}
		}
	}
	header, err := parseHeaders(ch.headers)
	if err != nil {
		return nil, err
	}
	ep := &endpoint{url: ch.url, stdio: ch.stdio, env: ch.env, cwd: ch.cwd, header: header, name: ch.name}
	switch {
	case ch.name != "":
		srv, err := configs.lookup(ch.name)
		if err != nil {
			return nil, err
		}
		named, err := srv.Resolve(configs.f.configEnv())
		if err != nil {
			return nil, usagef("%v", err)
		}
		ep.named, ep.url, ep.argv, ep.stdio = named, named.URL, named.Argv, shellJoin(named.Argv)
		ep.env = append(kvStrings(named.Env), ch.env...)
		if ep.cwd == "" {
			ep.cwd = named.Cwd
		}
		for _, h := range named.Headers {
			key := http.CanonicalHeaderKey(h.Key)
			if _, given := header[key]; !given {
				ep.header[key] = []string{h.Value}
			}
		}
	case ch.url != "":
	case ch.stdio != "":
		argv, err := shellquote.Split(ch.stdio)
		if err != nil {
			return nil, usagef("cannot split --stdio %q: %v", ch.stdio, err)
		}
		if len(argv) == 0 {
			return nil, usagef("--stdio is empty: %s", noServerHelp)
		}
		ep.argv = argv
	default:
		return nil, usagef("no server given: %s", noServerHelp)
	}
	return ep, nil
}

func kvStrings(kvs []config.KV) []string {
	var out []string
	for _, kv := range kvs {
		out = append(out, kv.Key+"="+kv.Value)
	}
	return out
}

// applyServerSettings makes a named server's protocolVersion, timeout,
// roots and settings (output, cacheTTL, serverStderr…) the values of their
// flags, unless a flag or variable gave one. It runs before the defaults
// are applied (renderOptions), which thus come last.
func applyServerSettings(c *cli.Context, ep *endpoint) error {
	n := ep.named
	if n == nil {
		return nil
	}
	where := fmt.Sprintf("server %q (%s)", n.Name, n.Source.File)
	if v := n.ProtocolVersion; v != "" && !c.IsSet("protocol-version") {
		if !client.IsSupportedVersion(v) {
			return usagef("%s: protocolVersion %q is not one mcpctl speaks (%s)", where, v, strings.Join(client.SupportedVersions(), ", "))
		}
		_ = c.Set("protocol-version", v)
	}
	if n.Timeout > 0 && !c.IsSet("timeout") {
		_ = c.Set("timeout", n.Timeout.String())
	}
	if len(n.Roots) > 0 && !c.IsSet("root") {
		for _, r := range n.Roots {
			_ = c.Set("root", r)
		}
	}
	for _, st := range n.Settings {
		if c.IsSet(st.Flag) {
			continue
		}
		if want := settingProblem(st.Flag, st.Value); want != "" || c.Set(st.Flag, st.Value) != nil {
			if want == "" {
				want = "see 'mcpctl --help'"
			}
			return usagef("server %q (%s:%d:%d): %s %s is not a valid %s: %s; fix the entry (mcpctl config edit)",
				n.Name, n.Source.File, st.Line, st.Column, st.Key, argv.ShownValue(st.Value), argv.Dashed(st.Flag), want)
		}
		configsOf(c).fromConfig[st.Flag] = true
	}
	return nil
}

// configLoader reads the config once per command line and reports its
// warnings once, on stderr (or nowhere: completion must stay silent).
type configLoader struct {
	f      *Factory
	errOut io.Writer
	own    *config.Set
	all    *config.Set
	warned map[string]bool
	// broken is mcpctl's own file when it does not parse: fatal to the
	// commands that need its servers, a warning to the others.
	broken *config.SyntaxError
	// fromConfig holds the flags a server entry or defaults gave a value.
	fromConfig map[string]bool

	defaultsApplied bool
	// keepAlive is defaults.keepAlive, checked (0: none).
	keepAlive time.Duration
}

func newConfigLoader(f *Factory, errOut io.Writer) *configLoader {
	return &configLoader{f: f, errOut: errOut, warned: map[string]bool{}, fromConfig: map[string]bool{}}
}

const configKey = "mcpctl.config"

func configsOf(c *cli.Context) *configLoader {
	return c.App.Metadata[configKey].(*configLoader)
}

// load returns mcpctl's own file (foreign false) or every source.
func (l *configLoader) load(foreign bool) (*config.Set, error) {
	set := l.own
	if foreign {
		set = l.all
	}
	if set != nil {
		return set, nil
	}
	set, err := config.Load(l.f.configOptions(foreign))
	if se := (*config.SyntaxError)(nil); errors.As(err, &se) && se.File == l.f.configFile() {
		l.broken = se
	}
	if err != nil {
		return nil, configError(err)
	}
	l.warn(set.Warnings)
	if foreign {
		l.all = set
	} else {
		l.own = set
	}
	return set, nil
}

func (l *configLoader) warn(ws []config.Warning) {
	for _, w := range ws {
		l.warnOnce(w.String())
	}
}

func (l *configLoader) warnOnce(msg string) {
	if !l.warned[msg] && l.errOut != nil {
		l.warned[msg] = true
		fmt.Fprintln(l.errOut, "mcpctl: warning: "+msg)
	}
}

// lookup finds a server by NAME in every source, or by FILE:NAME in one
// file.
func (l *configLoader) lookup(spec string) (*config.Server, error) {
	set, err := l.sourceOf(spec)
	if err != nil {
		return nil, err
	}
	name := spec
	_, n, pick := config.SplitPick(spec)
	if pick {
		name = n
	}
	srv, err := set.Lookup(name)
	if nf, ok := err.(*config.NotFoundError); ok && pick {
		nf.File = set.Read[0].File
	}
	if err != nil {
		return nil, configError(err)
	}
	return srv, nil
}

// sourceOf returns the set a spec is looked up in: one file for
// FILE:NAME, all sources otherwise.
func (l *configLoader) sourceOf(spec string) (*config.Set, error) {
	file, _, ok := config.SplitPick(spec)
	if !ok {
		return l.load(true)
	}
	set, err := config.ReadFile(l.f.expandHome(file), l.f.configOptions(true))
	if err != nil {
		return nil, configError(err)
	}
	l.warn(set.Warnings)
	return set, nil
}

// configError turns config's errors into one-line usage errors that say
// what to do.
func configError(err error) error {
	switch e := err.(type) {
	case *config.NotFoundError:
		if len(e.Known) == 0 {
			return usagef("%v: no server is configured; add one with 'mcpctl config add %s --url URL' (or --stdio 'CMD ARGS…')", e, e.Name)
		}
		msg := e.Error()
		if s := argv.Closest(e.Name, e.Known, 3); len(s) > 0 {
			msg += "; did you mean " + strings.Join(s, " or ") + "?"
		}
		return usagef("%s (servers: %s; 'mcpctl config list' shows where each is defined)", msg, strings.Join(e.Known, ", "))
	case *config.SyntaxError:
		return usagef("%v; fix the file (for mcpctl's own: mcpctl config edit)", e)
	case *config.VarError, *config.EntryError:
		return usagef("%v", e)
	}
	if os.IsNotExist(err) || os.IsPermission(err) {
		return usagef("%v", err)
	}
	return err
}

// applyDefaults gives the global flags named in the config's defaults
// section their values, unless a flag or variable already did.
func applyDefaults(c *cli.Context) error {
	l := configsOf(c)
	if l.defaultsApplied {
		return nil
	}
	l.defaultsApplied = true
	own, err := l.load(false)
	if err != nil && l.broken != nil {
		// The command needs only the defaults (a server given by --url or
		// --stdio, or none at all): a broken file costs them, with one
		// warning, not the command. Commands that need the servers fail
		// where they look them up.
		l.warnOnce(fmt.Sprintf("%v; its defaults are not used (fix it: mcpctl config edit)", l.broken))
		return nil
	}
	if err != nil {
		return err
	}
	for _, d := range own.Defaults {
		if d.Flag == "keepAlive" {
			// Not a flag: read where a session may start (keepAliveFor),
			// checked here so that a bad one is not silently none.
			v, err := time.ParseDuration(d.Value)
			if err != nil || v < 0 {
				return usagef("%s:%d:%d: defaults.keepAlive: %q is not a duration like 10m; fix the file (mcpctl config edit)", own.File, d.Line, d.Column, d.Value)
			}
			l.keepAlive = v
			continue
		}
		if d.Flag == "server" || c.IsSet(d.Flag) {
			continue
		}
		if settingProblem(d.Flag, d.Value) != "" || c.Set(d.Flag, d.Value) != nil {
			return usagef("%s:%d:%d: defaults.%s: %q is not a valid --%s; fix the file (mcpctl config edit)", own.File, d.Line, d.Column, d.Key, d.Value, d.Flag)
		}
		l.fromConfig[d.Flag] = true
	}
	return nil
}

// settingProblem checks a setting's value as its flag will, and says what
// fits ("" when it does), so that a bad one is blamed on the file (or on
// config add) rather than on a flag not given.
func settingProblem(flag, value string) string {
	dur := func() (time.Duration, bool) {
		d, err := time.ParseDuration(value)
		return d, err == nil
	}
	switch flag {
	case "output":
		if _, err := output.ParseFormat(value); err != nil {
			return "use one of json, yaml, table, text"
		}
	case "progress":
		if !contains([]string{"auto", "bar", "json", "none"}, value) {
			return "use one of auto, bar, json, none"
		}
	case "log-level":
		if !validLogLevel(value) {
			return "use one of " + strings.Join(logLevels, ", ")
		}
	case "timeout", "cache-ttl":
		if d, ok := dur(); !ok || d < 0 {
			return "want a duration such as 30s or 2m"
		}
	case "probe-timeout":
		if d, ok := dur(); !ok || d <= 0 {
			return "want a positive duration such as 3s"
		}
	case "token-store":
		return tokenStoreProblem(value)
	case "server-stderr":
		if value == "" {
			return "use inherit, discard or a FILE"
		}
	case "shutdown-grace":
		if d, ok := dur(); !ok || d < 0 {
			return "want a duration such as 100ms or 2s (0: SIGTERM at once)"
		}
	}
	return ""
}

// isServerName reports whether name is configured, for a hint; the config
// is read quietly, and a broken one makes it false.
func isServerName(f *Factory, name string) bool {
	set, err := newConfigLoader(f, nil).load(true)
	if err != nil {
		return false
	}
	_, err = set.Lookup(name)
	return err == nil
}
