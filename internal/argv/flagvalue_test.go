package argv

import (
	"errors"
	"io"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/internal/exitcode"
)

// TestBadFlagValue: a flag value that does not parse is one line naming
// the flag, the value and what fits, not the flag package's `invalid value
// "abc" for flag -timeout: parse error`. (Package commands runs the same
// through the CLI, with the MCPCTL_* variables.)
func TestBadFlagValue(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--timeout", "abc", "tools", "list"}, "--timeout abc: want a duration such as 30s or 2m; see 'mcpctl --help'"},
		{[]string{"tools", "list", "--timeout=5q"}, "--timeout 5q: want a duration such as 30s or 2m; see 'mcpctl --help'"},
		{[]string{"--insecure=maybe", "tools", "list"}, "--insecure maybe: want true or false; see 'mcpctl --help'"},
		{[]string{"listen", "--count", "two words"}, "--count \"two words\": want a whole number such as 10; see 'mcpctl listen --help'"},
		{[]string{"tools", "list", "--timeout="}, "--timeout \"\": want a duration such as 30s or 2m; see 'mcpctl --help'"},
	} {
		app := testApp()
		app.Writer, app.ErrWriter = io.Discard, io.Discard
		app.ExitErrHandler = func(*cli.Context, error) {} // the error carries an exit code: urfave would exit
		onUsage := func(c *cli.Context, err error, _ bool) error {
			if e, ok := BadFlagValue(c, err.Error()); ok {
				return e
			}
			return err
		}
		app.OnUsageError = onUsage
		var walk func([]*cli.Command)
		walk = func(cmds []*cli.Command) {
			for _, c := range cmds {
				c.OnUsageError, c.Action = onUsage, func(*cli.Context) error { return nil }
				walk(c.Subcommands)
			}
		}
		walk(app.Commands)
		line, err := Normalize(app, tc.args)
		if err != nil {
			t.Fatal(err)
		}
		err = app.Run(append([]string{"mcpctl"}, line...))
		var ue *exitcode.UsageError
		if !errors.As(err, &ue) || ue.Msg != tc.want {
			t.Errorf("%q: %v; want the usage error %q", tc.args, err, tc.want)
		}
	}
	if _, ok := BadFlagValue(nil, "flag provided but not defined: -x"); ok {
		t.Error("BadFlagValue took another message for a bad value")
	}
}

func TestShownValue(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"abc": "abc", "": `""`, "two words": `"two words"`, "a\tb": `"a\tb"`, "é": "é", "\x1b[2J": `"\x1b[2J"`} {
		if got := ShownValue(in); got != want {
			t.Errorf("ShownValue(%q) = %s, want %s", in, got, want)
		}
	}
	if Dashed("s") != "-s" || Dashed("url") != "--url" {
		t.Errorf("Dashed: %s %s", Dashed("s"), Dashed("url"))
	}
}
