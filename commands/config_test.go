package commands

import (
	"strings"
	"testing"
)

func TestConfigFlags(t *testing.T) {
	t.Parallel()
	checkFlags(t, "config", newCmdConfigList, []flagCase[noOptions]{
		{args: []string{"config", "list"}, want: &noOptions{}},
		{args: []string{"config", "list", "x"}, err: "usage: mcpctl config list"},
	})
	checkFlags(t, "config", newCmdConfigShow, []flagCase[configNameOptions]{
		{args: []string{"config", "show", "f.json:web"}, want: &configNameOptions{Name: "f.json:web"}},
		{args: []string{"config", "show"}, err: "usage: mcpctl config show NAME|FILE:NAME"},
	})
	checkFlags(t, "config", newCmdConfigRemove, []flagCase[configNameOptions]{
		{args: []string{"config", "remove", "web"}, want: &configNameOptions{Name: "web"}},
		{args: []string{"config", "remove"}, err: "usage: mcpctl config remove NAME"},
	})
	checkFlags(t, "config", newCmdConfigAdd, []flagCase[configAddOptions]{
		{args: []string{"config", "add", "web", "--url", "https://x/mcp", "--force", "--description", "d"},
			want: &configAddOptions{Name: "web", Description: "d", Force: true}},
		{args: []string{"config", "add"}, err: "usage: mcpctl config add NAME (--url URL | --stdio 'CMD ARGS…')"},
	})
	checkFlags(t, "config", newCmdConfigImport, []flagCase[configImportOptions]{
		{args: []string{"config", "import", "~/.cursor/mcp.json", "--all"}, want: &configImportOptions{File: "~/.cursor/mcp.json", Names: []string{}, All: true}},
		{args: []string{"config", "import", "f", "a", "b", "--force"}, want: &configImportOptions{File: "f", Names: []string{"a", "b"}, Force: true}},
		{args: []string{"config", "import"}, err: "usage: mcpctl config import FILE (--all | NAME…)"},
	})
	checkFlags(t, "config", newCmdConfigEdit, []flagCase[noOptions]{
		{args: []string{"config", "edit"}, want: &noOptions{}},
		{args: []string{"config", "edit", "x"}, err: "usage: mcpctl config edit"},
	})
}

// config add records only server flags typed on the command line, not
// those set through their variables (MCPCTL_TIMEOUT).
func TestConfigAddIgnoresVariables(t *testing.T) {
	t.Parallel()
	e := isolate(t)
	e.Setenv("MCPCTL_TIMEOUT", "9s")
	e.Setenv("MCPCTL_PROTOCOL_VERSION", "2025-06-18")
	if r := e.run("", "config", "add", "a", "--url", "https://a.example/mcp"); r.code != ExitOK {
		t.Fatalf("exit %d, stderr %q", r.code, r.err)
	}
	if r := e.run("", "config", "add", "b", "--url", "https://b.example/mcp", "--timeout", "3s"); r.code != ExitOK {
		t.Fatalf("exit %d, stderr %q", r.code, r.err)
	}
	r := e.run("", "config", "show", "a", "-o", "json")
	if r.code != ExitOK || strings.Contains(r.stdout, "timeout") || strings.Contains(r.stdout, "protocolVersion") {
		t.Errorf("a: %d %s", r.code, r.stdout)
	}
	r = e.run("", "config", "show", "b", "-o", "json")
	if r.code != ExitOK || !strings.Contains(r.stdout, `"timeout":"3s"`) {
		t.Errorf("b: %d %s", r.code, r.stdout)
	}
}
