package commands

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/output"
)

// testEnv is the machine a unit test describes: an environment of its
// own (never the process's), with a throw-away config file, cache and
// home, so that tests run in parallel.
type testEnv struct {
	t    *testing.T
	mu   sync.Mutex
	vars map[string]string
	cwd  string
}

// isolate keeps the developer's environment out of Run: no server from
// MCPCTL_URL, no output format from MCPCTL_OUTPUT, a throw-away cache,
// config and home. Only PATH is the process's, for stdio servers.
func isolate(t *testing.T) *testEnv {
	t.Helper()
	return &testEnv{t: t, cwd: t.TempDir(), vars: map[string]string{
		"PATH":             os.Getenv("PATH"),
		"MCPCTL_CACHE_DIR": t.TempDir(),
		"MCPCTL_CONFIG":    filepath.Join(t.TempDir(), "config.yaml"),
		"HOME":             t.TempDir(),
	}}
}

// Setenv sets a variable of the test's environment.
func (e *testEnv) Setenv(k, v string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.vars[k] = v
}

// writeConfig writes mcpctl's config file of the test's environment.
func (e *testEnv) writeConfig(doc string) {
	e.t.Helper()
	if err := os.WriteFile(e.Getenv("MCPCTL_CONFIG"), []byte(doc), 0o600); err != nil {
		e.t.Fatal(err)
	}
}

func (e *testEnv) LookupEnv(k string) (string, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	v, ok := e.vars[k]
	return v, ok
}

func (e *testEnv) Getenv(k string) string {
	v, _ := e.LookupEnv(k)
	return v
}

func (e *testEnv) Environ() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for k, v := range e.vars {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// factory is a Factory for this environment around ios.
func (e *testEnv) factory(ios *output.IOStreams) *Factory {
	return &Factory{
		IOStreams: ios, LookupEnv: e.LookupEnv, Environ: e.Environ,
		Getwd: func() (string, error) { return e.cwd, nil }, GOOS: "linux",
	}
}

type runResult struct {
	code        int
	stdout, err string
}

// run runs mcpctl with args in this environment.
func (e *testEnv) run(stdin string, args ...string) runResult {
	e.t.Helper()
	ios, in, out, errOut := output.Test()
	in.WriteString(stdin)
	code := Run(context.Background(), e.factory(ios), append([]string{"mcpctl"}, args...))
	return runResult{code, out.String(), errOut.String()}
}

// runCommand runs args on an app of mcpctl's global flags and the one
// command build makes (inside group, when not ""): a test builds it with
// a run function of its own, which sees the options and reaches no server.
func (e *testEnv) runCommand(group string, build func(*Factory) *cli.Command, args ...string) runResult {
	e.t.Helper()
	ios, _, out, errOut := output.Test()
	f := e.factory(ios)
	cmd := build(f)
	if group != "" {
		cmd = &cli.Command{Name: group, Subcommands: []*cli.Command{cmd}}
	}
	code := runApp(context.Background(), f, newApp(f, []*cli.Command{cmd}), append([]string{"mcpctl"}, args...))
	return runResult{code, out.String(), errOut.String()}
}

// forget drops the invocation, so that options compare as values; it
// reports whether the action had set it.
func (in *invocation) forget() bool {
	ok := in.f != nil && in.Globals != nil && in.Connect != nil && in.IO != nil
	*in = invocation{}
	return ok
}

// flagCase is a command line and the options it means, or (want nil) the
// usage error it is: exit 2, one line starting "mcpctl: " + err.
type flagCase[O any] struct {
	args []string
	want *O
	err  string
}

// checkFlags runs each case through the command newCmd builds, with a run
// function that only keeps the options: no server, no environment but
// the test's own.
func checkFlags[O any](t *testing.T, group string, newCmd func(*Factory, func(*O) error) *cli.Command, cases []flagCase[O]) {
	t.Helper()
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			var got *O
			r := isolate(t).runCommand(group, func(f *Factory) *cli.Command {
				return newCmd(f, func(o *O) error { got = o; return nil })
			}, tc.args...)
			if tc.want == nil {
				if got != nil || r.code != ExitUsage || !strings.HasPrefix(r.err, "mcpctl: "+tc.err) || strings.Count(r.err, "\n") != 1 {
					t.Errorf("exit %d, stderr %q, options %+v; want exit 2 and one line starting %q", r.code, r.err, got, "mcpctl: "+tc.err)
				}
				return
			}
			if r.code != ExitOK || got == nil {
				t.Fatalf("exit %d, stderr %q; want the options", r.code, r.err)
			}
			if !any(got).(interface{ forget() bool }).forget() {
				t.Error("the options carry no invocation")
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("options\n got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}
