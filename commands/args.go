package commands

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// normalizeArgs lets flags go anywhere on the line. urfave/cli v2 (like
// the standard flag package) stops at the first positional argument and
// silently ignores flags after it, and only knows a global flag before the
// subcommand. So the line is rebuilt as
//
//	global flags… command path… command flags… -- positionals…
//
// Unknown flags stay with the command, where urfave reports them. A "--"
// written by the user ends flag processing as usual.
//
// A word before the command that is not a command itself names a
// configured server when a command follows it: `mcpctl weather tools
// list` is `mcpctl --server weather tools list`. Commands win: a server
// named like one (or any name, alongside -s) needs -s.
func normalizeArgs(app *cli.App, args []string) []string {
	if len(args) == 0 {
		return args
	}
	globals := flagArity(app.Flags)
	// -h and --help belong to whichever command they follow.
	delete(globals, "h")
	delete(globals, "help")
	var front, path, local, positional []string
	flags := app.Flags
	subs := app.Commands
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			positional = append(positional, args[i+1:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' {
			name, inline := flagName(a)
			if takes, ok := globals[name]; ok {
				front = append(front, a)
				if takes && !inline && i+1 < len(args) {
					front = append(front, args[i+1])
					i++
				}
				continue
			}
			local = append(local, a)
			if takes, ok := flagArity(flags)[name]; ok && takes && !inline && i+1 < len(args) {
				local = append(local, args[i+1])
				i++
			}
			continue
		}
		if len(path) == 0 && len(positional) == 0 && findCommand(subs, a) == nil && bareServer(app, args[i+1:], args) {
			front = append(front, "--server", a)
			continue
		}
		if len(positional) == 0 {
			if sub := findCommand(subs, a); sub != nil {
				path = append(path, a)
				flags, subs = sub.Flags, sub.Subcommands
				continue
			}
		}
		positional = append(positional, a)
	}
	out := append(append(front, path...), local...)
	if len(positional) > 0 {
		out = append(append(out, "--"), positional...)
	}
	return out
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

// flagName returns a flag's name without dashes and whether its value is
// inline (--name=value).
func flagName(a string) (string, bool) {
	a = strings.TrimLeft(a, "-")
	if i := strings.IndexByte(a, '='); i >= 0 {
		return a[:i], true
	}
	return a, false
}

// flagArity maps every name and alias of flags to whether it takes a value.
func flagArity(flags []cli.Flag) map[string]bool {
	m := map[string]bool{"h": false, "help": false}
	for _, f := range flags {
		takes := true
		if _, isBool := f.(*cli.BoolFlag); isBool {
			takes = false
		}
		for _, n := range f.Names() {
			m[n] = takes
		}
	}
	return m
}

// bareServer reports whether a word in front of rest is a server name:
// the next word that is not a flag is a command, and no -s/--server is
// given.
func bareServer(app *cli.App, rest, all []string) bool {
	for _, a := range all {
		if a == "--" {
			break
		}
		if name, _ := flagName(a); len(a) > 1 && a[0] == '-' && (name == "s" || name == "server") {
			return false
		}
	}
	globals := flagArity(app.Flags)
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "--":
			return false
		case len(a) > 1 && a[0] == '-':
			if name, inline := flagName(a); globals[name] && !inline {
				i++
			}
		default:
			return findCommand(app.Commands, a) != nil
		}
	}
	return false
}
