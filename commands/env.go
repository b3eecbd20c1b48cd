package commands

// The environment variables of global flags (MCPCTL_TIMEOUT for --timeout,
// …) are declared on the flags, as urfave/cli has them, but read by mcpctl
// from its factory: the flags urfave parses carry none (detachDeclarations), and
// applyEnv sets from the factory's environment each flag the command line
// does not give. So a test describes the environment without touching the
// process's, and help, man pages and the environment topic still list the
// variables.

import (
	"strconv"
	"sync"
	"time"

	"github.com/urfave/cli/v2"
)

// flagEnvVars maps a global flag's name to its variables, as declared.
var flagEnvVars = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, f := range globalFlags() {
		if df, ok := f.(cli.DocGenerationFlag); ok && len(df.GetEnvVars()) > 0 {
			m[flagNameOf(f)] = df.GetEnvVars()
		}
	}
	return m
})

// envVarsOf is a flag's variables, whether or not they were detached.
func envVarsOf(f cli.Flag) []string {
	if df, ok := f.(cli.DocGenerationFlag); ok && len(df.GetEnvVars()) > 0 {
		return df.GetEnvVars()
	}
	return flagEnvVars()[flagNameOf(f)]
}

// detachDeclarations removes from flags what mcpctl declares on them but
// urfave must not act on: the variables, so that urfave does not read them
// from the process, and the categories, which urfave would sort the flags
// by in every process (flagcategories.go). A flag type missing here keeps
// both: TestAppFlagsDetached fails then.
func detachDeclarations(flags []cli.Flag) {
	for _, f := range flags {
		switch f := f.(type) {
		case *cli.StringFlag:
			f.EnvVars, f.Category = nil, ""
		case *cli.BoolFlag:
			f.EnvVars, f.Category = nil, ""
		case *cli.DurationFlag:
			f.EnvVars, f.Category = nil, ""
		case *cli.IntFlag:
			f.EnvVars, f.Category = nil, ""
		case *cli.StringSliceFlag:
			f.EnvVars, f.Category = nil, ""
		}
	}
}

// applyEnv gives each global flag that the command line leaves unset the
// value of its variable, with urfave's rules: an empty variable sets a
// string flag to "" and a boolean one to false, and leaves a duration or
// a number alone; a value that does not parse is a usage error, in the
// words of a flag's (badFlagValue).
func applyEnv(c *cli.Context, f *Factory) error {
	for _, fl := range c.App.Flags {
		name := flagNameOf(fl)
		evs := flagEnvVars()[name]
		if len(evs) == 0 || c.IsSet(name) {
			continue
		}
		for _, ev := range evs {
			val, ok := f.LookupEnv(ev)
			if !ok {
				continue
			}
			var err error
			switch declared(fl).(type) {
			case *cli.BoolFlag:
				// The flag parses it (strconv's rules: true, false, 1, 0, …),
				// as urfave did: no typer of ours (TestOneOfEach).
				if val == "" {
					val = "false"
				}
			case *cli.DurationFlag:
				_, err = time.ParseDuration(val)
			case *cli.IntFlag:
				_, err = strconv.ParseInt(val, 0, 64)
			}
			if val == "" {
				break // an empty duration or number leaves the flag alone
			}
			if err == nil {
				if err = c.Set(name, val); err == nil {
					setFromEnv(c)[name] = true
				}
			}
			if err != nil {
				return usagef("%s=%s (%s): %s; see 'mcpctl --help'", ev, shownValue(val), dashed(name), flagWants(fl))
			}
			break
		}
	}
	return nil
}

const fromEnvKey = "mcpctl.fromEnv"

// setFromEnv is the set of global flags applyEnv gave a value: IsSet
// reports those too, but a command that records what was typed (config
// add) must tell them apart.
func setFromEnv(c *cli.Context) map[string]bool {
	if c.App.Metadata == nil {
		c.App.Metadata = map[string]any{}
	}
	m, ok := c.App.Metadata[fromEnvKey].(map[string]bool)
	if !ok {
		m = map[string]bool{}
		c.App.Metadata[fromEnvKey] = m
	}
	return m
}

// typed reports whether a global flag was given on the command line, not
// only through its variable. Only before the config's values are applied
// (applyServerSettings, applyDefaults set flags too): config add, which
// uses it, never applies them.
func typed(c *cli.Context, flag string) bool {
	return c.IsSet(flag) && !setFromEnv(c)[flag]
}
