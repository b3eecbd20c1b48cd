package commands

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"
)

// The process environment (variables, home, working directory) is read
// in one file of package commands, the factory's process constructor;
// every other file asks the factory, so that tests can describe a machine.
// The packages under internal/, parts of the command line, are given what
// they need of it (interact's $BROWSER) and read none of it themselves.
func TestProcessEnvironmentReadOnlyByFactory(t *testing.T) {
	t.Parallel()
	reads := regexp.MustCompile(`\b(os\.(Getenv|LookupEnv|Environ|Setenv|Unsetenv|Clearenv|ExpandEnv|UserHomeDir|UserConfigDir|UserCacheDir|Getwd)|syscall\.(Getenv|Environ))\b`)
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	internal := 0
	err = filepath.WalkDir(filepath.Join("..", "internal"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
			files = append(files, p)
			internal++
		}
		return err
	})
	if err != nil || internal == 0 {
		t.Fatalf("found %d files under internal/: %v", internal, err)
	}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") || file == "factory.go" {
			continue
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if trimmed := strings.TrimSpace(line); strings.HasPrefix(trimmed, "//") {
				continue
			}
			if m := reads.FindString(line); m != "" {
				t.Errorf("%s:%d: %s: ask the Factory instead", file, i+1, m)
			}
		}
	}
}

// The variables of flags come from the factory's environment, with
// urfave's rules, and the command line wins over them.
func TestFlagVariablesFromFactory(t *testing.T) {
	t.Parallel()
	var got *listOptions
	build := func(f *Factory) *cli.Command {
		return newCmdToolsList(f, func(o *listOptions) error { got = o; return nil })
	}
	for _, tc := range []struct {
		name    string
		env     map[string]string
		args    []string
		timeout time.Duration
		set     bool
	}{
		{"default", nil, nil, 60 * time.Second, false},
		{"variable", map[string]string{"MCPCTL_TIMEOUT": "5s"}, nil, 5 * time.Second, true},
		{"flag wins", map[string]string{"MCPCTL_TIMEOUT": "5s"}, []string{"--timeout", "7s"}, 7 * time.Second, true},
		{"empty duration is no value", map[string]string{"MCPCTL_TIMEOUT": ""}, nil, 60 * time.Second, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := isolate(t)
			for k, v := range tc.env {
				e.Setenv(k, v)
			}
			got = nil
			r := e.runCommand("tools", build, append(tc.args, "tools", "list")...)
			if r.code != ExitOK || got == nil {
				t.Fatalf("exit %d, stderr %q", r.code, r.err)
			}
			if d := got.Globals.Timeout; d != tc.timeout || got.Globals.IsSet("timeout") != tc.set {
				t.Errorf("--timeout %v (set %v), want %v (set %v)", d, got.Globals.IsSet("timeout"), tc.timeout, tc.set)
			}
		})
	}
	e := isolate(t)
	e.Setenv("MCPCTL_TRACE", "maybe")
	r := e.runCommand("tools", build, "tools", "list")
	if r.code != ExitUsage || !strings.Contains(r.err, `MCPCTL_TRACE=maybe (--trace): want true or false`) {
		t.Errorf("a bad MCPCTL_TRACE: exit %d, stderr %q", r.code, r.err)
	}
}
