package argv

// urfave/cli's Flag.Names() runs a regexp over each name (cli.FlagNames
// strips what a v1-style "name, n" would add), and urfave asks for the
// names O(flags²) times per command line: Context.IsSet finds a flag the
// line leaves unset by calling Names() on every flag before it, and at each
// level of the line runFlagActions asks IsSet for every name of every flag,
// as applyEnv does for each global flag. With ≈ 55 global flags that was
// ≈ 10 M of the 13 M instructions `mcpctl version` ran, and as much in
// every command that runs an action (tests/bench/findings.md, "Start-up,
// issue 23"). So the flags urfave runs are wrapped: the wrapper's Names()
// is the names as defined, which is what FlagNames makes of names without
// a comma or a space (mcpctl's have none: TestFlagNames), and everything
// else is the flag's own (help, parsing, defaults). What switches on a
// flag's type asks Declared for the flag as defined.
//
// Apply, which urfave calls for each flag at each level of a line to build
// its flag set, calls Names() too, on the flag as defined: the string,
// duration and number wrappers apply themselves as urfave's Apply does
// for a flag that reads no variable and no file (the global flags urfave
// runs: detachDeclarations), with the names as defined
// (TestQuickApply). urfave's boolean and list flags keep their Apply: the
// values they put in the set are of types urfave does not export.

import (
	"flag"

	"github.com/urfave/cli/v2"
)

type (
	quickString struct {
		*cli.StringFlag
		names []string
	}
	quickBool struct {
		*cli.BoolFlag
		names []string
	}
	quickInt struct {
		*cli.IntFlag
		names []string
	}
	quickDuration struct {
		*cli.DurationFlag
		names []string
	}
	quickStringSlice struct {
		*cli.StringSliceFlag
		names []string
	}
)

func (f *quickString) Names() []string      { return f.names }
func (f *quickBool) Names() []string        { return f.names }
func (f *quickInt) Names() []string         { return f.names }
func (f *quickDuration) Names() []string    { return f.names }
func (f *quickStringSlice) Names() []string { return f.names }

func (f *quickString) declared() cli.Flag      { return f.StringFlag }
func (f *quickBool) declared() cli.Flag        { return f.BoolFlag }
func (f *quickInt) declared() cli.Flag         { return f.IntFlag }
func (f *quickDuration) declared() cli.Flag    { return f.DurationFlag }
func (f *quickStringSlice) declared() cli.Flag { return f.StringSliceFlag }

func (f *quickString) Apply(set *flag.FlagSet) error {
	if len(f.EnvVars) > 0 || f.FilePath != "" {
		return f.StringFlag.Apply(set)
	}
	for _, name := range f.names {
		if f.Destination != nil {
			set.StringVar(f.Destination, name, f.Value, f.Usage)
			continue
		}
		set.String(name, f.Value, f.Usage)
	}
	return nil
}

func (f *quickInt) Apply(set *flag.FlagSet) error {
	if len(f.EnvVars) > 0 || f.FilePath != "" {
		return f.IntFlag.Apply(set)
	}
	for _, name := range f.names {
		if f.Destination != nil {
			set.IntVar(f.Destination, name, f.Value, f.Usage)
			continue
		}
		set.Int(name, f.Value, f.Usage)
	}
	return nil
}

func (f *quickDuration) Apply(set *flag.FlagSet) error {
	if len(f.EnvVars) > 0 || f.FilePath != "" {
		return f.DurationFlag.Apply(set)
	}
	for _, name := range f.names {
		if f.Destination != nil {
			set.DurationVar(f.Destination, name, f.Value, f.Usage)
			continue
		}
		set.Duration(name, f.Value, f.Usage)
	}
	return nil
}

// Declared is the flag as it was defined (*cli.StringFlag, …), whether or
// not it was wrapped (QuickNames).
func Declared(f cli.Flag) cli.Flag {
	if q, ok := f.(interface{ declared() cli.Flag }); ok {
		return q.declared()
	}
	return f
}

// QuickNames wraps the flags of app and of every command in its tree.
// A flag already wrapped, or of a type not listed, is left as it is.
func QuickNames(app *cli.App) {
	quickNames(app.Flags)
	var walk func(cmds []*cli.Command)
	walk = func(cmds []*cli.Command) {
		for _, c := range cmds {
			quickNames(c.Flags)
			walk(c.Subcommands)
		}
	}
	walk(app.Commands)
}

func quickNames(flags []cli.Flag) {
	for i, f := range flags {
		switch f := f.(type) {
		case *cli.StringFlag:
			flags[i] = &quickString{f, definedNames(f.Name, f.Aliases)}
		case *cli.BoolFlag:
			flags[i] = &quickBool{f, definedNames(f.Name, f.Aliases)}
		case *cli.IntFlag:
			flags[i] = &quickInt{f, definedNames(f.Name, f.Aliases)}
		case *cli.DurationFlag:
			flags[i] = &quickDuration{f, definedNames(f.Name, f.Aliases)}
		case *cli.StringSliceFlag:
			flags[i] = &quickStringSlice{f, definedNames(f.Name, f.Aliases)}
		}
	}
}

// definedNames is name and its aliases in one slice with no spare
// capacity, so that appending to what Names() returns copies it.
func definedNames(name string, aliases []string) []string {
	names := make([]string, 0, 1+len(aliases))
	return append(append(names, name), aliases...)
}
