package commands

import (
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/mcpctl/mcpctl/output"
)

// TestTopCommands: the names newAppFor reads a line with are the names
// the constructors give (a top-level alias would need a name here too).
func TestTopCommands(t *testing.T) {
	t.Parallel()
	ios, _, _, _ := output.Test()
	f := isolate(t).factory(ios)
	for _, tc := range topCommands() {
		if c := tc.build(f); !reflect.DeepEqual(c.Names(), []string{tc.name}) {
			t.Errorf("topCommands names %q, its constructor %q", tc.name, c.Names())
		}
	}
}

// TestAppForLine: Run builds the subtree of the command the line names,
// whatever the command, and none for a line that names none; what lists
// commands still sees them all.
func TestAppForLine(t *testing.T) {
	t.Parallel()
	e := isolate(t)
	cfg, _ := e.LookupEnv("MCPCTL_CONFIG")
	if err := os.WriteFile(cfg, []byte("servers:\n  weather:\n    url: http://127.0.0.1:1/mcp\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ios, _, _, _ := output.Test()
	f := e.factory(ios)
	for _, tc := range []struct {
		line string
		want []string // the commands of the app, with their subcommands
	}{
		{"--version", nil},
		{"", nil},
		{"--help", nil},
		{"bogus", nil},
		{"tools list", []string{"tools", "tools call", "tools describe", "tools list"}},
		{"--url http://x tools list --cursor c", []string{"tools", "tools call", "tools describe", "tools list"}},
		{"-o tools ping", []string{"ping"}},                                    // -o takes "tools" for its value
		{"weather cache list", []string{"cache", "cache clear", "cache list"}}, // a bare server name
		{"ping -- tools", []string{"ping"}},
		{"help tools call", []string{"help"}},
		{"__complete bash -- 'mcpctl tools '", []string{"__complete"}},
	} {
		app := newAppFor(f, strings.Fields(tc.line))
		var got []string
		for path := range visibleCommands(app) {
			if path != "" {
				got = append(got, path)
			}
		}
		for _, c := range app.Commands {
			if c.Hidden {
				got = append(got, c.Name)
			}
		}
		sort.Strings(got)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("mcpctl %s: the app holds %q, want %q", tc.line, got, tc.want)
		}
	}

	// The app's help, its unknown-command error, help and completion list
	// every command although the line named none of them.
	var all []string
	for _, tc := range topCommands() {
		if tc.name != "__complete" {
			all = append(all, tc.name)
		}
	}
	r := e.run("", "--help")
	for _, name := range all {
		if !strings.Contains(r.stdout, "\n   "+name+" ") {
			t.Errorf("mcpctl --help does not list %s:\n%s", name, r.stdout)
		}
	}
	if r := e.run("", "bogus"); r.code != ExitUsage || !strings.Contains(r.err, "(commands: "+strings.Join(all, ", ")+")") {
		t.Errorf("mcpctl bogus: exit %d, %q", r.code, r.err)
	}
	if r := e.run("", "help", "tools", "call"); r.code != ExitOK || !strings.Contains(r.stdout, "mcpctl tools call") {
		t.Errorf("mcpctl help tools call: exit %d, %q", r.code, r.stdout)
	}
	_, cands := e.complete("bash", "mcpctl tools ")
	if !reflect.DeepEqual(cands, []string{"list", "describe", "call"}) {
		t.Errorf("completion of 'mcpctl tools ': %q", cands)
	}
}
