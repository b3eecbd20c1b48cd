package commands

import (
	"reflect"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/internal/argv"
	"github.com/mcpctl/mcpctl/output"
)

// TestFlagNames: argv.FlagNames reads the names urfave's Names() gives, for
// every flag of the tree (and urfave's help and version flags), and
// argv.FindFlag finds each flag by each of them.
func TestFlagNames(t *testing.T) {
	t.Parallel()
	ios, _, _, _ := output.Test()
	app := NewApp(isolate(t).factory(ios))
	n := 0
	check := func(where string, flags []cli.Flag) {
		for _, f := range flags {
			n++
			name, aliases := argv.FlagNames(f)
			if got, want := append([]string{name}, aliases...), f.Names(); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: flagNames = %q, Names() = %q", where, got, want)
			}
			for _, nm := range f.Names() {
				if argv.FindFlag(flags, nm) != f {
					t.Errorf("%s: argv.FindFlag(%q) is not the flag %q", where, nm, f.Names())
				}
			}
		}
	}
	check("mcpctl", append(app.Flags, cli.VersionFlag))
	var walk func(path string, cmds []*cli.Command)
	walk = func(path string, cmds []*cli.Command) {
		for _, c := range cmds {
			check(path+" "+c.Name, c.Flags)
			walk(path+" "+c.Name, c.Subcommands)
		}
	}
	walk("mcpctl", app.Commands)
	if n < 60 {
		t.Fatalf("checked %d flags, not the tree's", n)
	}
	if argv.FindFlag(app.Flags, "no-such-flag") != nil || argv.FindFlag(app.Flags, "") != nil {
		t.Error("argv.FindFlag found a flag that is not there")
	}
}
