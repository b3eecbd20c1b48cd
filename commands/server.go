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
	"net/http"
	"strings"
	"time"

	"github.com/kballard/go-shellquote"

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

// choiceOf is what the global options say about the server.
func choiceOf(g *GlobalOptions, getenv func(string) string) (serverChoice, error) {
	return pickServer(serverChoice{url: g.URL, stdio: g.Stdio, name: g.Server, env: g.Env, cwd: g.Cwd, headers: g.Header}, getenv)
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
		named, err := srv.Resolve(configs.env)
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
// flags in g, unless a flag or variable gave one. It runs before the
// defaults are applied (applyDefaults), which thus come last.
func applyServerSettings(g *GlobalOptions, ep *endpoint) error {
	n := ep.named
	if n == nil {
		return nil
	}
	where := fmt.Sprintf("server %q (%s)", n.Name, n.Source.File)
	if v := n.ProtocolVersion; v != "" && !g.IsSet("protocol-version") {
		if !client.IsSupportedVersion(v) {
			return usagef("%s: protocolVersion %q is not one mcpctl speaks (%s)", where, v, strings.Join(client.SupportedVersions(), ", "))
		}
		_ = g.SetFromConfig("protocol-version", v)
	}
	if n.Timeout > 0 {
		_ = g.SetFromConfig("timeout", n.Timeout.String())
	}
	if len(n.Roots) > 0 {
		_ = g.SetFromConfig("root", n.Roots...)
	}
	for _, st := range n.Settings {
		if g.IsSet(st.Flag) {
			continue
		}
		if want := settingProblem(st.Flag, st.Value); want != "" || g.SetFromConfig(st.Flag, st.Value) != nil {
			if want == "" {
				want = "see 'mcpctl --help'"
			}
			return usagef("server %q (%s:%d:%d): %s %s is not a valid %s: %s; fix the entry (mcpctl config edit)",
				n.Name, n.Source.File, st.Line, st.Column, st.Key, argv.ShownValue(st.Value), argv.Dashed(st.Flag), want)
		}
	}
	return nil
}

// applyDefaults gives the global flags named in the config's defaults
// section their values in g, unless a flag, a variable or the server's
// entry already did.
func applyDefaults(g *GlobalOptions, l *configLoader) error {
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
		if d.Flag == "server" || g.IsSet(d.Flag) {
			continue
		}
		if settingProblem(d.Flag, d.Value) != "" || g.SetFromConfig(d.Flag, d.Value) != nil {
			return usagef("%s:%d:%d: defaults.%s: %q is not a valid --%s; fix the file (mcpctl config edit)", own.File, d.Line, d.Column, d.Key, d.Value, d.Flag)
		}
	}
	return nil
}

// effectiveOptions is g with the config's defaults applied, on a copy:
// what a command that reaches no server (config list, cache list) prints
// with.
func effectiveOptions(g *GlobalOptions, l *configLoader) (*GlobalOptions, error) {
	eff := g.Clone()
	return eff, applyDefaults(eff, l)
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
	set, err := newConfigLoader(f.configOptions, f.configEnv(), f.expandHome, f.configFile(), nil).load(true)
	if err != nil {
		return false
	}
	_, err = set.Lookup(name)
	var untrusted *config.UntrustedError
	return err == nil || errors.As(err, &untrusted)
}
