package commands

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// normalizeArgs lets flags go anywhere on the line. urfave/cli v2 (like
// the standard flag package) stops at the first positional argument and
// silently ignores flags after it, and only knows a global flag before the
// subcommand. So the line is rebuilt from what scanArgs read as
//
//	global flags… command path… command flags… -- positionals…
//
// Unknown flags stay with the command, where urfave reports them. A "--"
// written by the user ends flag processing as usual. A bare server name
// becomes --server NAME. A line that ends in a flag that takes a value is
// a usage error: moved to the front, the flag would take the command's
// name for its value (`tools list --url` ran `--url tools list`).
func normalizeArgs(app *cli.App, args []string) ([]string, error) {
	if len(args) == 0 {
		return args, nil
	}
	l := scanArgs(app, args, false)
	if l.pending != nil {
		help := "mcpctl"
		for _, c := range l.path {
			help += " " + c.Name
		}
		return nil, usagef("%s needs a value: write %s %s; see '%s --help'", l.pendingWord, l.pendingWord, flagPlaceholder(l.pending), help)
	}
	out := append([]string(nil), l.front...)
	out = append(out, l.pathWords...)
	out = append(out, l.local...)
	if len(l.positional) > 0 {
		out = append(append(out, "--"), l.positional...)
	}
	return out, nil
}

// flagPlaceholder is what a flag's value is called in its help (URL,
// DURATION, …), or VALUE.
func flagPlaceholder(f cli.Flag) string {
	if df, ok := f.(cli.DocGenerationFlag); ok {
		if u := df.GetUsage(); strings.Count(u, "`") >= 2 {
			p := u[strings.IndexByte(u, '`')+1:]
			return p[:strings.IndexByte(p, '`')]
		}
	}
	return "VALUE"
}

// argLine is a command line as mcpctl reads it. Flag normalisation (what
// runs) and completion (what TAB offers) both read lines with scanArgs, so
// that they never disagree about which word is what.
type argLine struct {
	front       []string       // global flags with their values, and --server NAME for a bare name
	path        []*cli.Command // the command words
	pathWords   []string       // the command words as written (a name or an alias)
	local       []string       // the command's flags (and unknown ones) with their values
	positional  []string
	dashdash    bool                // the user wrote --
	bare        string              // a server name written before the command
	values      map[string][]string // every flag that takes a value (first name) → its values
	pending     cli.Flag            // the line ends in this flag, its value not written yet
	pendingWord string              // that flag as written (-s, --url)
}

// scanArgs reads args with mcpctl's rules:
//   - a flag may go anywhere: a global flag (the app's) anywhere on the
//     line, the command's own flags once the command is written; a flag
//     that takes a value takes the next word, whatever it looks like,
//     unless written --name=value; unknown flags and -h take none;
//   - "--" ends the flags: every word after it is positional;
//   - command words come first; after the first positional, none;
//   - a word before the command that is not a command names a configured
//     server when the next word that is not a flag is a command and no
//     -s/--server is given: `mcpctl weather tools list` is `mcpctl
//     --server weather tools list`. Commands win: a server named like one
//     needs -s.
//
// partial says the line is being typed: it may stop anywhere, so a bare
// word at its end still counts as a server name (the command is to come).
func scanArgs(app *cli.App, args []string, partial bool) *argLine {
	l := &argLine{values: map[string][]string{}}
	named := serverFlagGiven(args)
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			l.dashdash = true
			l.positional = append(l.positional, args[i+1:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' {
			name, inline := flagName(a)
			global := true
			f := findFlag(app.Flags, name)
			if name == "h" || name == "help" {
				f = nil // help belongs to whichever command it follows
			}
			if f == nil && len(l.path) > 0 {
				f, global = findFlag(l.path[len(l.path)-1].Flags, name), false
			}
			if f == nil {
				global = false
			}
			dst := &l.local
			if global {
				dst = &l.front
			}
			*dst = append(*dst, a)
			if f == nil || !takesValue(f) {
				continue
			}
			key := flagNameOf(f)
			switch {
			case inline:
				l.values[key] = append(l.values[key], a[strings.IndexByte(a, '=')+1:])
			case i+1 < len(args):
				*dst = append(*dst, args[i+1])
				l.values[key] = append(l.values[key], args[i+1])
				i++
			default:
				l.pending, l.pendingWord = f, a
			}
			continue
		}
		if len(l.positional) == 0 {
			if c := findCommand(l.subcommands(app), a); c != nil {
				l.path = append(l.path, c)
				l.pathWords = append(l.pathWords, a)
				continue
			}
		}
		if len(l.path) == 0 && len(l.positional) == 0 && !named && commandFollows(app, args[i+1:], partial) {
			l.bare = a
			l.front = append(l.front, "--server", a)
			continue
		}
		l.positional = append(l.positional, a)
	}
	return l
}

// subcommands are the commands that may come next.
func (l *argLine) subcommands(app *cli.App) []*cli.Command {
	if len(l.path) == 0 {
		return app.Commands
	}
	return l.path[len(l.path)-1].Subcommands
}

// serverFlagGiven reports whether -s/--server appears before any "--".
func serverFlagGiven(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if name, _ := flagName(a); len(a) > 1 && a[0] == '-' && (name == "s" || name == "server") {
			return true
		}
	}
	return false
}

// commandFollows reports whether the next word of rest that is not a
// global flag (or its value) is a command; at the end of a partial line,
// one may still come.
func commandFollows(app *cli.App, rest []string, partial bool) bool {
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "--":
			return false
		case len(a) > 1 && a[0] == '-':
			if name, inline := flagName(a); !inline {
				if f := findFlag(app.Flags, name); f != nil && takesValue(f) {
					i++
				}
			}
		default:
			return findCommand(app.Commands, a) != nil
		}
	}
	return partial
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

// findFlag is the flag of flags called name (without dashes), or nil.
func findFlag(flags []cli.Flag, name string) cli.Flag {
	for _, f := range flags {
		n, aliases := flagNames(f)
		if n == name {
			return f
		}
		for _, a := range aliases {
			if a == name {
				return f
			}
		}
	}
	return nil
}

// flagNameOf is a flag's first name.
func flagNameOf(f cli.Flag) string {
	n, _ := flagNames(f)
	return n
}

// flagNames is a flag's name and aliases as defined. urfave's Names()
// runs a regexp on each (to strip what a v1-style "name, n" would add),
// and the line is read before urfave runs: findFlag calls this for every
// flag it passes, ≈ 45 for a global flag not found, so a word like
// --version cost ≈ 45 regexp runs (tests/bench/findings.md, section 8).
// mcpctl's names have no comma or space, so the fields are the names:
// TestFlagNames checks that against Names() for every flag of the tree.
func flagNames(f cli.Flag) (string, []string) {
	switch f := f.(type) {
	case *cli.StringFlag:
		return f.Name, f.Aliases
	case *cli.BoolFlag:
		return f.Name, f.Aliases
	case *cli.IntFlag:
		return f.Name, f.Aliases
	case *cli.DurationFlag:
		return f.Name, f.Aliases
	case *cli.StringSliceFlag:
		return f.Name, f.Aliases
	case sharedFlag:
		return f.Name, f.Aliases
	}
	names := f.Names()
	return names[0], names[1:]
}
