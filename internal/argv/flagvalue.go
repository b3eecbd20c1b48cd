package argv

// A flag value that does not parse is reported by the standard flag
// package, under urfave, as `invalid value "abc" for flag -timeout: parse
// error`: it names the flag with one dash and says nothing of what would
// fit. mcpctl says it in its own words, one line naming the flag, the
// value and what the flag wants; the same words serve the flags'
// MCPCTL_* variables (commands' applyEnv).

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/internal/exitcode"
)

// flagValueErr matches the flag package's two messages for a value that
// does not parse: bool flags have their own.
var flagValueErr = sync.OnceValue(func() *regexp.Regexp { // compiled on first use, not in every process's init
	return regexp.MustCompile(`^invalid (?:boolean )?value ("(?:[^"\\]|\\.)*") for (?:flag )?-(\S+): `)
})

// BadFlagValue is the flag package's message msg in mcpctl's words, or
// ok false when msg is no such message or the flag is not known.
func BadFlagValue(c *cli.Context, msg string) (error, bool) {
	m := flagValueErr().FindStringSubmatch(msg)
	if m == nil {
		return nil, false
	}
	val, err := strconv.Unquote(m[1])
	if err != nil {
		return nil, false
	}
	fl := flagNamed(c, m[2])
	if fl == nil || FlagWants(fl) == "" {
		return nil, false
	}
	return exitcode.Usagef("%s %s: %s; see '%s --help'", Dashed(m[2]), ShownValue(val), FlagWants(fl), HelpName(c)), true
}

// HelpName is the name of c's command as its help is asked for
// ("mcpctl tools call"), or mcpctl.
func HelpName(c *cli.Context) string {
	if c.Command != nil && c.Command.HelpName != "" {
		return c.Command.HelpName
	}
	return "mcpctl"
}

// flagNamed is the flag called name (or by an alias) on c's command, the
// commands above it or the app.
func flagNamed(c *cli.Context, name string) cli.Flag {
	var sets [][]cli.Flag
	for _, cc := range c.Lineage() {
		if cc.Command != nil {
			sets = append(sets, cc.Command.Flags)
		}
	}
	sets = append(sets, c.App.Flags)
	for _, set := range sets {
		for _, fl := range set {
			for _, n := range fl.Names() {
				if n == name {
					return fl
				}
			}
		}
	}
	return nil
}

// FlagWants says what fits a flag of fl's kind ("" for a string flag,
// which takes anything, and for flags with parsers of their own).
func FlagWants(fl cli.Flag) string {
	switch Declared(fl).(type) {
	case *cli.DurationFlag:
		return "want a duration such as 30s or 2m"
	case *cli.IntFlag:
		return "want a whole number such as 10"
	case *cli.BoolFlag:
		return "want true or false"
	}
	return ""
}

// Dashed is a flag's name as written on a command line.
func Dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// ShownValue is a value as the message shows it: as written, or quoted
// when it is empty or holds a space or anything unprintable, so that the
// reader sees where it ends.
func ShownValue(v string) string {
	q := strconv.Quote(v)
	if v == "" || q[1:len(q)-1] != v || strings.IndexFunc(v, unicode.IsSpace) >= 0 {
		return q
	}
	return v
}
