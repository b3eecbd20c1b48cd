package commands

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/config"
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
	// Transport, when set, is how every session reaches its server in
	// place of the real HTTP and stdio transports: a test answers from the
	// same process. nil: the real ones.
	Transport func(*connSettings) (client.Transport, error)
	// tap, set in a session process (sessions.go, heldConnection), wraps
	// the transports its held connection uses (sessiond.Config.Connect).
	tap func(client.Transport) client.Transport

	// batch is set in the factory of a batch line: its sessions borrow the
	// batch's connection instead of making one.
	batch *batchRun
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

// configOptions is where the config lives on this machine.
func (f *Factory) configOptions(foreign bool) config.Options {
	cwd, _ := f.Getwd()
	d := f.Dirs()
	return config.Options{
		File: d.ConfigFile(), Foreign: foreign, Home: d.Home(), UserConfigDir: d.PlatformConfigDir(),
		ClaudeConfigDir: f.Getenv("CLAUDE_CONFIG_DIR"), Cwd: cwd,
	}
}

// configEnv is what a configured server's ${VAR} and ~ expand to.
func (f *Factory) configEnv() config.Env {
	return config.Env{Lookup: f.LookupEnv, Home: f.homeDir()}
}
