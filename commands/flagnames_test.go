package commands

import (
	"flag"
	"fmt"
	"io"
	"reflect"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/internal/argv"
	"github.com/mcpctl/mcpctl/output"
)

// TestFlagNames: argv.FlagNames reads the names urfave's Names() gives, for
// every flag of the tree (and urfave's help and version flags); the flags
// urfave runs are wrapped (argv.QuickNames), and their Names() is what
// urfave's own would be; argv.FindFlag finds each flag by each of them.
func TestFlagNames(t *testing.T) {
	t.Parallel()
	ios, _, _, _ := output.Test()
	app := NewApp(isolate(t).factory(ios))
	n := 0
	check := func(where string, flags []cli.Flag) {
		for _, f := range flags {
			n++
			name, aliases := argv.FlagNames(argv.Declared(f))
			urfaves := cli.FlagNames(name, aliases)
			if got := append([]string{name}, aliases...); !reflect.DeepEqual(got, urfaves) {
				t.Errorf("%s: flagNames = %q, urfave's Names() = %q", where, got, urfaves)
			}
			if got := f.Names(); !reflect.DeepEqual(got, urfaves) || !reflect.DeepEqual(argv.Declared(f).Names(), urfaves) {
				t.Errorf("%s: Names() = %q, of the flag as defined %q, urfave's %q", where, got, argv.Declared(f).Names(), urfaves)
			}
			if _, shared := f.(argv.SharedFlag); argv.Declared(f) == f && !shared {
				t.Errorf("%s: --%s (%T) is not wrapped: urfave runs its Names() regexp O(flags²) times (argv.QuickNames)", where, name, f)
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

// TestQuickApply: a wrapped flag that applies itself (argv.QuickNames) puts
// into a flag set what urfave's Apply of the flag as defined puts there,
// for every such flag of the tree: the same names, usage, default and type
// of value, and the same value after parsing one.
func TestQuickApply(t *testing.T) {
	t.Parallel()
	ios, _, _, _ := output.Test()
	app := NewApp(isolate(t).factory(ios))
	type entry struct{ name, usage, def, typ, val string }
	applied := func(f cli.Flag, arg string) []entry {
		set := flag.NewFlagSet("t", flag.ContinueOnError)
		set.SetOutput(io.Discard)
		if err := f.Apply(set); err != nil {
			t.Fatalf("--%s: Apply: %v", argv.FlagName(f), err)
		}
		if err := set.Parse([]string{"--" + argv.FlagName(f) + "=" + arg}); err != nil {
			t.Fatalf("--%s=%s: %v", argv.FlagName(f), arg, err)
		}
		var out []entry
		set.VisitAll(func(fl *flag.Flag) {
			out = append(out, entry{fl.Name, fl.Usage, fl.DefValue, fmt.Sprintf("%T", fl.Value), fl.Value.String()})
		})
		return out
	}
	n := 0
	check := func(where string, flags []cli.Flag) {
		for _, f := range flags {
			var arg string
			switch argv.Declared(f).(type) {
			case *cli.StringFlag:
				arg = "text"
			case *cli.IntFlag:
				arg = "7"
			case *cli.DurationFlag:
				arg = "3s"
			default:
				continue
			}
			if argv.Declared(f) == f {
				continue // not wrapped: urfave's own Apply (TestFlagNames says which must be)
			}
			n++
			if got, want := applied(f, arg), applied(argv.Declared(f), arg); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: --%s applies as %+v, urfave's Apply as %+v", where, argv.FlagName(f), got, want)
			}
		}
	}
	check("mcpctl", app.Flags)
	var walk func(path string, cmds []*cli.Command)
	walk = func(path string, cmds []*cli.Command) {
		for _, c := range cmds {
			check(path+" "+c.Name, c.Flags)
			walk(path+" "+c.Name, c.Subcommands)
		}
	}
	walk("mcpctl", app.Commands)
	if n < 40 {
		t.Fatalf("checked %d flags, not the tree's", n)
	}
}
