package argv

import (
	"flag"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/internal/exitcode"
)

// Normalize lets flags go anywhere on the line. urfave/cli v2 (like
// the standard flag package) stops at the first positional argument and
// silently ignores flags after it, and only knows a global flag before the
// subcommand. So the line is rebuilt from what Scan read as
//
//	global flags… command path… command flags… -- positionals…
//
// Unknown flags stay with the command, where urfave reports them. A "--"
// written by the user ends flag processing as usual. A bare server name
// becomes --server NAME. A line that ends in a flag that takes a value is
// a usage error: moved to the front, the flag would take the command's
// name for its value (`tools list --url` ran `--url tools list`).
func Normalize(app *cli.App, args []string) ([]string, error) {
	if len(args) == 0 {
		return args, nil
	}
	l := Scan(app, args, false)
	if l.Pending != nil {
		help := "mcpctl"
		for _, c := range l.Path {
			help += " " + c.Name
		}
		return nil, exitcode.Usagef("%s needs a value: write %s %s; see '%s --help'", l.PendingWord, l.PendingWord, flagPlaceholder(l.Pending), help)
	}
	out := append([]string(nil), l.Front...)
	out = append(out, l.PathWords...)
	out = append(out, l.Local...)
	if len(l.Positional) > 0 {
		out = append(append(out, "--"), l.Positional...)
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

// Line is a command line as mcpctl reads it. Flag normalisation (what
// runs) and completion (what TAB offers) both read lines with Scan, so
// that they never disagree about which word is what.
type Line struct {
	Front       []string       // global flags with their values, and --server NAME for a bare name
	Path        []*cli.Command // the command words
	PathWords   []string       // the command words as written (a name or an alias)
	Local       []string       // the command's flags (and unknown ones) with their values
	Positional  []string
	DashDash    bool                // the user wrote --
	Bare        string              // a server name written before the command
	Values      map[string][]string // every flag that takes a value (first name) → its values
	Pending     cli.Flag            // the line ends in this flag, its value not written yet
	PendingWord string              // that flag as written (-s, --url)
}

// Scan reads args with mcpctl's rules:
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
func Scan(app *cli.App, args []string, partial bool) *Line {
	l := &Line{Values: map[string][]string{}}
	named := serverFlagGiven(args)
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			l.DashDash = true
			l.Positional = append(l.Positional, args[i+1:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' {
			name, inline := SplitFlag(a)
			global := true
			f := FindFlag(app.Flags, name)
			if name == "h" || name == "help" {
				f = nil // help belongs to whichever command it follows
			}
			if f == nil && len(l.Path) > 0 {
				f, global = FindFlag(l.Path[len(l.Path)-1].Flags, name), false
			}
			if f == nil {
				global = false
			}
			dst := &l.Local
			if global {
				dst = &l.Front
			}
			*dst = append(*dst, a)
			if f == nil || !TakesValue(f) {
				continue
			}
			key := FlagName(f)
			switch {
			case inline:
				l.Values[key] = append(l.Values[key], a[strings.IndexByte(a, '=')+1:])
			case i+1 < len(args):
				*dst = append(*dst, args[i+1])
				l.Values[key] = append(l.Values[key], args[i+1])
				i++
			default:
				l.Pending, l.PendingWord = f, a
			}
			continue
		}
		if len(l.Positional) == 0 {
			if c := FindCommand(l.subcommands(app), a); c != nil {
				l.Path = append(l.Path, c)
				l.PathWords = append(l.PathWords, a)
				continue
			}
		}
		if len(l.Path) == 0 && len(l.Positional) == 0 && !named && commandFollows(app, args[i+1:], partial) {
			l.Bare = a
			l.Front = append(l.Front, "--server", a)
			continue
		}
		l.Positional = append(l.Positional, a)
	}
	return l
}

// subcommands are the commands that may come next.
func (l *Line) subcommands(app *cli.App) []*cli.Command {
	if len(l.Path) == 0 {
		return app.Commands
	}
	return l.Path[len(l.Path)-1].Subcommands
}

// Last is the last value given to the flag named flag (its first name),
// or "".
func (l *Line) Last(flag string) string {
	if vs := l.Values[flag]; len(vs) > 0 {
		return vs[len(vs)-1]
	}
	return ""
}

// Command is the command's full name ("tools call"), or "".
func (l *Line) Command() string {
	var names []string
	for _, c := range l.Path {
		names = append(names, c.Name)
	}
	return strings.Join(names, " ")
}

// serverFlagGiven reports whether -s/--server appears before any "--".
func serverFlagGiven(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if name, _ := SplitFlag(a); len(a) > 1 && a[0] == '-' && (name == "s" || name == "server") {
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
			if name, inline := SplitFlag(a); !inline {
				if f := FindFlag(app.Flags, name); f != nil && TakesValue(f) {
					i++
				}
			}
		default:
			return FindCommand(app.Commands, a) != nil
		}
	}
	return partial
}

// FindCommand is the command of cmds called name (or by an alias), or nil.
func FindCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

// SplitFlag returns a flag word's name without dashes and whether its
// value is inline (--name=value).
func SplitFlag(a string) (string, bool) {
	a = strings.TrimLeft(a, "-")
	if i := strings.IndexByte(a, '='); i >= 0 {
		return a[:i], true
	}
	return a, false
}

// FindFlag is the flag of flags called name (without dashes), or nil.
func FindFlag(flags []cli.Flag, name string) cli.Flag {
	for _, f := range flags {
		n, aliases := FlagNames(f)
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

// FlagName is a flag's first name.
func FlagName(f cli.Flag) string {
	n, _ := FlagNames(f)
	return n
}

// TakesValue reports whether a flag takes a value (a flag that does not
// say is taken to).
func TakesValue(f cli.Flag) bool {
	df, ok := f.(cli.DocGenerationFlag)
	return !ok || df.TakesValue()
}

// FlagNames is a flag's name and aliases as defined. urfave's Names()
// runs a regexp on each (to strip what a v1-style "name, n" would add),
// and the line is read before urfave runs: FindFlag calls this for every
// flag it passes, ≈ 45 for a global flag not found, so a word like
// --version cost ≈ 45 regexp runs (tests/bench/findings.md, section 8).
// mcpctl's names have no comma or space, so the fields are the names:
// TestFlagNames (package commands) checks that against Names() for every
// flag of the tree.
func FlagNames(f cli.Flag) (string, []string) {
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
	case SharedFlag:
		return f.Name, f.Aliases
	}
	names := f.Names()
	return names[0], names[1:]
}

// SharedFlag is a flag every app and command shares (urfave's --help and
// --version): it applies a copy of itself, so that apps running at once
// do not write to it.
type SharedFlag struct{ *cli.BoolFlag }

// Apply implements cli.Flag.
func (f SharedFlag) Apply(set *flag.FlagSet) error {
	c := *f.BoolFlag
	return c.Apply(set)
}

// Names is the flag's names as defined, without urfave's regexp
// (quick.go).
func (f SharedFlag) Names() []string { return definedNames(f.Name, f.Aliases) }
