package commands

import (
	"context"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/internal/argv"
	"github.com/mcpctl/mcpctl/output"
)

// TestAppFlagsDetached: the flags urfave parses carry neither variables
// (mcpctl reads them from its factory) nor categories (urfave's Setup
// would sort every flag by its help line in every process), while the
// definitions keep both for help, man pages and the environment topic.
func TestAppFlagsDetached(t *testing.T) {
	t.Parallel()
	ios, _, _, _ := output.Test()
	app := NewApp(isolate(t).factory(ios))
	for _, f := range app.Flags {
		if df, ok := f.(cli.DocGenerationFlag); ok && len(df.GetEnvVars()) > 0 {
			t.Errorf("--%s reaches urfave with the variables %v", argv.FlagName(f), df.GetEnvVars())
		}
		if cf, ok := f.(cli.CategorizableFlag); ok && cf.GetCategory() != "" {
			t.Errorf("--%s reaches urfave in the category %q", argv.FlagName(f), cf.GetCategory())
		}
	}
	cats := map[string]bool{}
	for _, c := range flagCategories() {
		cats[c] = true
	}
	for _, c := range []string{catServer, catOutput, catDebug, catCache, catInput, catAuth} {
		if !cats[c] {
			t.Errorf("no flag in the category %q", c)
		}
	}
}

// TestGlobalOptionsAsUrfave: the app's help renders the global flags'
// categories exactly as urfave renders flags that carry a Category, and
// the exit codes as urfave renders a description that ends with them (the
// reference app below hands urfave the flags as defined, such a
// description, and its own template).
func TestGlobalOptionsAsUrfave(t *testing.T) {
	t.Parallel()
	e := isolate(t)
	ios, _, out, _ := output.Test()
	ref := NewApp(e.factory(ios))
	ref.Flags = append(globalFlags(), cli.HelpFlag)
	ref.Description += "\n\n" + exitCodeHelp()
	ref.CustomAppHelpTemplate = cli.AppHelpTemplate + examplesSection("") + topicsSection()
	if err := ref.RunContext(context.Background(), []string{"mcpctl", "--help"}); err != nil {
		t.Fatal(err)
	}
	want := out.String()
	if !strings.Contains(want, "\n   "+catAuth+"\n\n   --assertion TOKEN") {
		t.Fatalf("the reference help has no categories:\n%s", want)
	}
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}, {}} {
		r := e.run("", args...)
		if r.code != ExitOK || r.stdout != want {
			t.Errorf("mcpctl %s: exit %d, help differs from urfave's rendering:\n%s\nwant:\n%s", strings.Join(args, " "), r.code, r.stdout, want)
		}
	}
}
