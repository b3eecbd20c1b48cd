package commands

// urfave/cli keeps some state in package variables that every app shares:
// the --help and --version flags, which each run's flag parsing writes to
// (BoolFlag.Apply records its default), and the function that writes a
// flag's line of help. mcpctl runs several apps at once in its tests, and
// reads the environment through its factory rather than letting urfave
// read the process's; both are set up here, once, when the package loads.

import (
	"flag"
	"strings"

	"github.com/urfave/cli/v2"
)

// sharedFlag is a flag every app and command shares: it applies a copy
// of itself, so that apps running at once do not write to it.
type sharedFlag struct{ *cli.BoolFlag }

func (f sharedFlag) Apply(set *flag.FlagSet) error {
	c := *f.BoolFlag
	return c.Apply(set)
}

// Names is the flag's names as defined, without urfave's regexp
// (quicknames.go).
func (f sharedFlag) Names() []string { return definedNames(f.Name, f.Aliases) }

var _ = func() bool {
	cli.HelpFlag = sharedFlag{cli.HelpFlag.(*cli.BoolFlag)}
	cli.VersionFlag = sharedFlag{cli.VersionFlag.(*cli.BoolFlag)}
	// The environment variables of flags are mcpctl's to read (applyEnv),
	// so the flags urfave parses carry none; their help still names them.
	base := cli.FlagStringer
	cli.FlagStringer = func(f cli.Flag) string {
		s := base(f)
		if df, ok := f.(cli.DocGenerationFlag); ok && len(df.GetEnvVars()) == 0 {
			if evs := flagEnvVars()[flagNameOf(f)]; len(evs) > 0 {
				s = cli.FlagEnvHinter(evs, s)
			}
		}
		if df, ok := f.(cli.DocGenerationFlag); ok && ownDefault(f) {
			// urfave appends its own, which the usage says better.
			if d := df.GetDefaultText(); d != "" {
				urfaves := " (default: " + d + ")"
				if i := strings.LastIndex(s, urfaves); i >= 0 {
					s = s[:i] + s[i+len(urfaves):]
				}
			}
		}
		return s
	}
	return true
}()

// ownDefault reports whether a flag's usage says its default in its own
// words ("(default: any free port)" for a port whose zero value means
// that), which is then the only default its help and man page show.
func ownDefault(f cli.Flag) bool {
	df, ok := f.(cli.DocGenerationFlag)
	return ok && strings.Contains(df.GetUsage(), "(default: ")
}
