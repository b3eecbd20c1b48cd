package commands

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpctl/mcpctl/output"
)

// TestJQWithOutputFormat: --jq's output takes the shape -o asks for: YAML
// documents for -o yaml, jq -r's lines for json and text; only a table is
// refused (issue 15 item 6).
func TestJQWithOutputFormat(t *testing.T) {
	t.Parallel()
	e := isolate(t)
	for _, name := range []string{"a", "b"} {
		if r := e.run("", "config", "add", name, "--url", "https://"+name+".example/mcp"); r.code != ExitOK {
			t.Fatalf("add %s: exit %d, stderr %q", name, r.code, r.err)
		}
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-o", "yaml", "--jq", ".servers[] | {name, target}"}, "name: a\ntarget: https://a.example/mcp\n---\nname: b\ntarget: https://b.example/mcp\n"},
		{[]string{"-o", "yaml", "--jq", "[.servers[].name]"}, "- a\n- b\n"},
		{[]string{"-o", "json", "--jq", ".servers[].name"}, "a\nb\n"},
		{[]string{"-o", "text", "--jq", ".servers[].name"}, "a\nb\n"},
	}
	for _, tc := range tests {
		r := e.run("", append([]string{"config", "list"}, tc.args...)...)
		if r.code != ExitOK || r.stdout != tc.want || r.err != "" {
			t.Errorf("%v: exit %d, stdout %q (want %q), stderr %q", tc.args, r.code, r.stdout, tc.want, r.err)
		}
	}
	r := e.run("", "version", "-o", "yaml", "--jq", "{go}")
	if r.code != ExitOK || !strings.HasPrefix(r.stdout, "go: go") || strings.Contains(r.stdout, "{") {
		t.Errorf("version: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.err)
	}
	for _, args := range [][]string{{"config", "list", "-o", "table", "--jq", "."}, {"version", "-o", "table", "--jq", "."}} {
		r := e.run("", args...)
		if r.code != ExitUsage || r.err != "mcpctl: --jq filters JSON; it cannot be combined with -o table (use -o json, text or yaml)\n" || r.stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, r.code, r.stdout, r.err)
		}
	}
}

// TestConfigListAlignedAtTerminal: config list's text lines up its columns
// at a terminal and keeps two spaces between fields on a pipe (issue 15
// item 6).
func TestConfigListAlignedAtTerminal(t *testing.T) {
	t.Parallel()
	e := isolate(t)
	cfg := "servers:\n" +
		"  w:\n    url: https://w.example/mcp\n" +
		"  longer-name:\n    command: npx\n    args: [srv]\n"
	e.writeConfig(cfg)
	run := func(tty bool) string {
		ios, _, out, errOut := output.Test()
		ios.SetStdoutTTY(tty)
		if code := Run(context.Background(), e.factory(ios), []string{"mcpctl", "config", "list", "-o", "text"}); code != ExitOK {
			t.Fatalf("tty %v: exit %d, stderr %q", tty, code, errOut.String())
		}
		return out.String()
	}
	src := "(" + e.Getenv("MCPCTL_CONFIG") + ")"
	if got, want := run(true), "w            http   https://w.example/mcp  "+src+"\nlonger-name  stdio  npx srv                "+src+"\n"; got != want {
		t.Errorf("terminal:\ngot  %q\nwant %q", got, want)
	}
	if got, want := run(false), "w  http  https://w.example/mcp  "+src+"\nlonger-name  stdio  npx srv  "+src+"\n"; got != want {
		t.Errorf("pipe:\ngot  %q\nwant %q", got, want)
	}
}
