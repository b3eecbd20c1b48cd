package commands

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/config"
	"github.com/mcpctl/mcpctl/internal/secrets"
	"github.com/mcpctl/mcpctl/output"
)

// Factory is everything a command takes from the world outside mcpctl:
// the streams, the environment, the working directory, the system's name
// (which decides where files live) and how a session reaches its server.
// Main builds the one of the process (ProcessFactory); a test builds its
// own, so that flag handling runs without a server and tests run in
// parallel without touching the process environment.
//
// This file is the only one in package commands that reads the process
// environment (a test checks it): everything else asks the factory.
type Factory struct {
	IOStreams *output.IOStreams
	// LookupEnv reads a variable, like os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Environ is the whole environment, like os.Environ: what a stdio
	// server inherits.
	Environ func() []string
	// Getwd is the working directory, where project config files are
	// looked for.
	Getwd func() (string, error)
	// GOOS names the system (runtime.GOOS): config.Dirs' rules.
	GOOS string
	// Connect reaches the server the global options name, for a command
	// (see Connection). nil is the real one (connect.go); a test answers
	// from the same process, a batch line borrows the batch's connection,
	// and the session process wraps what it holds.
	Connect ConnectFunc

	// configs reads the config files once for the factory's commands.
	configs *configLoader
	// secrets are the credential values the command sends, kept out of
	// what it prints from servers (Run sets them up: trace.go).
	secrets *secrets.Set
}

// ConnectFunc reaches the server g names, as how says.
type ConnectFunc func(ctx context.Context, g *GlobalOptions, how ConnectOptions) (Connection, error)

// ConnectOptions is what a command asks of its connection beyond the
// global options.
type ConnectOptions struct {
	// Pageable: the command has --cursor, so a listing too large or too
	// slow can be paged by hand (a hint names it).
	Pageable bool
	// Listen: a line that is not JSON-RPC is reported and skipped, not
	// fatal (one bad line should not end hours of listening).
	Listen bool
	// Fallback is the server to reach when neither flags nor variables
	// name one (resume: the continuation's).
	Fallback *connInfo
	// Direct reaches the server itself, never through a kept-alive
	// session; Wrap, when set, wraps each transport the client uses (the
	// session process's own connection).
	Direct bool
	Wrap   func(client.Transport) client.Transport
}

// Connection is what a command holds while it talks to a server: the
// client, and the command line's way of showing what comes back.
type Connection interface {
	// Client sends the requests.
	Client() *client.Client
	// ServerID is the server's identity, which its cached results, its
	// tasks and its session are kept under.
	ServerID() string
	// Output is how results are printed: -o, --jq, the config's choice.
	Output() output.Options
	// Print renders a raw result on stdout.
	Print(ctx context.Context, kind output.Kind, raw json.RawMessage) error
	// Warn says on stderr what the user should know that does not stop
	// the command.
	Warn(msgs ...string)
	// Trace writes a --trace line (none without --trace); msg may quote
	// the server.
	Trace(msg string)
	// FinishCall runs a call that may go through input rounds or a task
	// and prints its result: a tool's isError is a *ToolError (exit 1)
	// once the result is printed, a task handle is printed as it is; a
	// nil result, with no error, prints nothing.
	FinishCall(ctx context.Context, op string, kind output.Kind, call func() (json.RawMessage, error)) error
	// Explain adds to an error what the user can do about it.
	Explain(err error) error
	// ServerEndsWithRun says the server, and every task it runs, ends
	// when this command does: a stdio server the run started (not a
	// session's, nor a dry run's, which starts none).
	ServerEndsWithRun() bool
	// Reconnect replaces the client with one on a fresh transport to the
	// same server (a new server process on stdio), for listen after the
	// connection broke.
	Reconnect() error
	// Close ends the connection: a stdio server is shut down.
	Close()
}

// connInfo is how a server was reached, kept in continuations so that
// resume can reach it again.
type connInfo struct {
	url, stdio, cwd string
	env             []string
	name            string // a configured server, found again by name
}

// ProcessFactory is the factory of this process: its environment, its
// working directory and the given streams.
func ProcessFactory(ios *output.IOStreams) *Factory {
	return &Factory{
		IOStreams: ios,
		LookupEnv: os.LookupEnv,
		Environ:   os.Environ,
		Getwd:     os.Getwd,
		GOOS:      runtime.GOOS,
	}
}

// Getenv reads a variable, "" when it is unset.
func (f *Factory) Getenv(key string) string {
	v, _ := f.LookupEnv(key)
	return v
}

// Dirs is where mcpctl keeps its files on this machine.
func (f *Factory) Dirs() config.Dirs { return config.Dirs{Getenv: f.Getenv, GOOS: f.GOOS} }

// configFile is mcpctl's own config file (config.Dirs).
func (f *Factory) configFile() string { return f.Dirs().ConfigFile() }

func (f *Factory) homeDir() string { return f.Dirs().Home() }

// expandHome expands a leading ~/ in a file named on the command line.
func (f *Factory) expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return filepath.Join(f.homeDir(), rest)
	}
	return p
}

// configOptions is where the config lives on this machine, and the
// record of the project files the user trusts.
func (f *Factory) configOptions(foreign bool) config.Options {
	cwd, _ := f.Getwd()
	d := f.Dirs()
	trust, _ := d.TrustFile() // none without a state folder: nothing is trusted
	return config.Options{
		File: d.ConfigFile(), Foreign: foreign, Home: d.Home(), UserConfigDir: d.PlatformConfigDir(),
		ClaudeConfigDir: f.Getenv("CLAUDE_CONFIG_DIR"), Cwd: cwd, TrustFile: trust,
	}
}

// configEnv is what a configured server's ${VAR} and ~ expand to.
func (f *Factory) configEnv() config.Env {
	return config.Env{Lookup: f.LookupEnv, Home: f.homeDir()}
}

// config is the factory's config loader for the run's global options
// (--trust-project decides whether the project's files are used
// untrusted), made on first use; its warnings go to the factory's stderr,
// once each.
func (f *Factory) config(g *GlobalOptions) *configLoader {
	trustAll := g != nil && g.TrustProject
	if f.configs == nil || f.configs.trustAll != trustAll {
		f.configs = newConfigLoader(f.configOptions, f.configEnv(), f.expandHome, f.configFile(), f.IOStreams.ErrOut)
		f.configs.trustAll = trustAll
	}
	return f.configs
}

// stateDir is where mcpctl keeps what must outlive one run (task ids, the
// key that seals continuations, OAuth tokens): config.Dirs.
func (f *Factory) stateDir() (string, error) { return f.Dirs().StateDir() }
