package commands

import (
	"regexp"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/internal/argv"
	"github.com/mcpctl/mcpctl/output"
)

// Every flag of every command, the app's own included, shows its default
// once and a placeholder that says what to give: urfave writes "value"
// for a flag whose usage has no `PLACEHOLDER`, and appends its own
// "(default: …)" to a usage that gave one already.
func TestFlagHelpLines(t *testing.T) {
	t.Parallel()
	ios, _, _, _ := output.Test()
	app := NewApp(isolate(t).factory(ios))
	placeholderValue := regexp.MustCompile(`^\s*--?[\w-]+ value\b|, -?-?[\w-]+ value\b`)
	check := func(where string, flags []cli.Flag) {
		for _, f := range flags {
			line := f.String()
			if strings.Count(line, "(default:") > 1 {
				t.Errorf("%s: %s shows its default twice: %s", where, argv.FlagName(f), line)
			}
			df, ok := f.(cli.DocGenerationFlag)
			if !ok || !df.TakesValue() {
				continue
			}
			if placeholderValue.MatchString(line) || strings.Count(df.GetUsage(), "`") < 2 {
				t.Errorf("%s: --%s has no placeholder of its own: %s", where, argv.FlagName(f), line)
			}
		}
	}
	check("mcpctl", app.Flags)
	for path, cmds := range visibleCommands(app) {
		if path == "" {
			continue
		}
		check("mcpctl "+path, cmds[len(cmds)-1].Flags)
	}
	// The man pages write the same lines their own way.
	for name, page := range ManPages(app) {
		for _, line := range strings.Split(page, "\n") {
			if strings.Count(line, "(default:") > 1 || strings.Contains(line, `\fIvalue\fR`) {
				t.Errorf("%s: %s", name, line)
			}
		}
	}
}
