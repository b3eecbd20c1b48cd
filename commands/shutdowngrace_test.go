package commands

import (
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client"
)

// Issue 16, item 4: how long a stdio server gets to exit once its stdin
// is closed comes from --shutdown-grace, MCPCTL_SHUTDOWN_GRACE, the
// server's entry (shutdownGrace) or the config's defaults, in that order;
// 0 means SIGTERM at once, which the client spells as a negative grace.
func TestShutdownGraceSources(t *testing.T) {
	t.Parallel()
	const entry = "servers:\n  slow:\n    command: srv\n    shutdownGrace: 0\n  plain:\n    command: srv\n"
	const defaults = "defaults:\n  shutdownGrace: 300ms\n"
	for _, tc := range []struct {
		name   string
		config string
		env    string
		args   []string
		want   time.Duration
	}{
		{"built-in default", "", "", []string{"--stdio", "srv"}, client.DefaultCloseGrace},
		{"flag", "", "", []string{"--stdio", "srv", "--shutdown-grace", "250ms"}, 250 * time.Millisecond},
		{"flag 0 is at once", "", "", []string{"--stdio", "srv", "--shutdown-grace", "0"}, -1},
		{"environment", "", "2s", []string{"--stdio", "srv"}, 2 * time.Second},
		{"flag over environment", "", "2s", []string{"--stdio", "srv", "--shutdown-grace", "1s"}, time.Second},
		{"defaults", defaults, "", []string{"--stdio", "srv"}, 300 * time.Millisecond},
		{"entry", entry, "", []string{"-s", "slow"}, -1},
		{"entry over defaults", defaults + entry, "", []string{"-s", "slow"}, -1},
		{"defaults for an entry without", defaults + entry, "", []string{"-s", "plain"}, 300 * time.Millisecond},
		{"environment over entry", entry, "700ms", []string{"-s", "slow"}, 700 * time.Millisecond},
		{"flag over entry", entry, "", []string{"-s", "slow", "--shutdown-grace", "50ms"}, 50 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := isolate(t)
			if tc.config != "" {
				e.writeConfig(tc.config)
			}
			if tc.env != "" {
				e.Setenv("MCPCTL_SHUTDOWN_GRACE", tc.env)
			}
			var got *time.Duration
			build := func(f *Factory) *cli.Command {
				return newCmdToolsList(f, func(o *listOptions) error {
					st, err := resolve(o.f, o.Globals, ConnectOptions{})
					if err != nil {
						return err
					}
					got = &st.shutdownGrace
					return nil
				})
			}
			r := e.runCommand("tools", build, append(tc.args, "tools", "list")...)
			if r.code != ExitOK || got == nil {
				t.Fatalf("exit %d, stderr %q", r.code, r.err)
			}
			if *got != tc.want {
				t.Errorf("grace %v, want %v", *got, tc.want)
			}
		})
	}
}

func TestShutdownGraceBad(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		config, env string
		args        []string
		err         string
	}{
		{"", "", []string{"--shutdown-grace", "-1s"}, "mcpctl: --shutdown-grace must not be negative (0 sends SIGTERM as soon as the server's stdin is closed)"},
		{"", "", []string{"--shutdown-grace", "soon"}, "mcpctl: --shutdown-grace soon: want a duration such as 30s or 2m"},
		{"", "soon", nil, "mcpctl: MCPCTL_SHUTDOWN_GRACE=soon (--shutdown-grace): want a duration such as 30s or 2m"},
		{"defaults:\n  shutdownGrace: -1s\n", "", nil, `defaults.shutdownGrace: "-1s" is not a valid --shutdown-grace; fix the file (mcpctl config edit)`},
		{"servers:\n  s:\n    command: srv\n    shutdownGrace: soon\n", "", []string{"-s", "s"}, `shutdownGrace soon is not a valid --shutdown-grace: want a duration such as 100ms or 2s (0: SIGTERM at once); fix the entry (mcpctl config edit)`},
	} {
		t.Run(strings.Join(append(tc.args, tc.env, tc.config), " "), func(t *testing.T) {
			t.Parallel()
			e := isolate(t)
			if tc.config != "" {
				e.writeConfig(tc.config)
			}
			if tc.env != "" {
				e.Setenv("MCPCTL_SHUTDOWN_GRACE", tc.env)
			}
			args := tc.args
			if len(args) == 0 || args[0] != "-s" {
				args = append([]string{"--stdio", "srv"}, args...)
			}
			r := e.run("", append(args, "tools", "list")...)
			if r.code != ExitUsage || !strings.Contains(r.err, tc.err) || strings.Count(r.err, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want exit 2 and one line with %q", r.code, r.err, tc.err)
			}
		})
	}
}
