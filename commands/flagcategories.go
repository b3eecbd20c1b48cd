package commands

// The global flags' categories (Server, Output, Authorization, …) are set
// where the flags are defined, but urfave never sees them: given a
// Category, its App.Setup sorts every visible flag by its rendered help
// line (Flag.String: a regexp, fmt and the environment hint per flag) in
// every process, for a help text nearly no run prints; that was 15% of the
// instructions of `mcpctl --version` (tests/bench/findings.md, section 8).
// newApp takes the categories off the flags (detachDeclarations) and the
// app's help template renders the same sections, byte for byte, when help
// is printed (globalOptionsHelp); the man pages read them here too.

import (
	"sort"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"
)

// flagCategories maps each global flag's name to its category, read from
// the definitions once, when a help text or a man page needs it.
var flagCategories = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, f := range globalFlags() {
		if cf, ok := f.(cli.CategorizableFlag); ok && cf.GetCategory() != "" {
			m[flagNameOf(f)] = cf.GetCategory()
		}
	}
	return m
})

// flagCategory is the category of a global flag, or "".
func flagCategory(f cli.Flag) string { return flagCategories()[flagNameOf(f)] }

// globalOptionsHelp renders the app's GLOBAL OPTIONS as urfave renders
// flag categories (its visibleFlagCategoryTemplate): the categories sorted
// by name, the flags without one first (under no heading), and in each the
// flags sorted by their help line.
func globalOptionsHelp(flags []cli.Flag) string {
	byCategory := map[string][]string{}
	for _, f := range flags {
		if cf, ok := f.(cli.CategorizableFlag); ok && cf.IsVisible() {
			cat := flagCategory(f)
			byCategory[cat] = append(byCategory[cat], f.String())
		}
	}
	names := make([]string, 0, len(byCategory))
	for name := range byCategory {
		names = append(names, name)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, name := range names {
		b.WriteString("\n   ")
		if name != "" {
			b.WriteString(name + "\n\n   ")
		}
		lines := byCategory[name]
		sort.Strings(lines)
		b.WriteString(strings.Join(lines, "\n   ") + "\n")
	}
	return b.String()
}

// appHelpTemplate is urfave's app help template with its GLOBAL OPTIONS
// rendered by globalOptionsHelp, and the exit codes after the description
// (as if they ended it: urfave's wrap indents each line but the first).
var appHelpTemplate = sync.OnceValue(func() string {
	const urfaveDescription = `{{template "descriptionTemplate" .}}{{end}}`
	const withExitCodes = `{{template "descriptionTemplate" .}}

   {{wrap mcpctlExitCodes 3}}{{end}}`
	const urfaveOptions = `{{if .VisibleFlagCategories}}

GLOBAL OPTIONS:{{template "visibleFlagCategoryTemplate" .}}{{else if .VisibleFlags}}

GLOBAL OPTIONS:{{template "visibleFlagTemplate" .}}{{end}}`
	const ours = `{{if .VisibleFlags}}

GLOBAL OPTIONS:{{mcpctlGlobalOptions .VisibleFlags}}{{end}}`
	t := strings.Replace(cli.AppHelpTemplate, urfaveOptions, ours, 1)
	return strings.Replace(t, urfaveDescription, withExitCodes, 1)
})
