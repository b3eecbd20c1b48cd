package commands

import (
	"fmt"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/internal/argv"
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
	checkFlags(t, "config", newCmdConfigTrust, []flagCase[configTrustOptions]{
		{args: []string{"config", "trust"}, want: &configTrustOptions{Files: []string{}}},
		{args: []string{"config", "trust", ".mcp.json", "x/.vscode/mcp.json"}, want: &configTrustOptions{Files: []string{".mcp.json", "x/.vscode/mcp.json"}}},
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

// TestConfigAddStoresOrRefusesEveryFlag: every global flag typed on a
// config add line either lands in the entry or is refused with exit 2
// naming it; none is dropped silently (issue 15 item 4). A new global flag
// is covered without a change here: addStores decides which.
func TestConfigAddStoresOrRefusesEveryFlag(t *testing.T) {
	t.Parallel()
	e := isolate(t)
	values := map[string]string{
		"output": "table", "progress": "none", "log-level": "info", "protocol-version": "2025-06-18",
		"server-stderr": "discard", "elicit": "decline", "grant": "client-credentials",
		"client-metadata-url": "https://c.example/meta.json", "token-store": "file",
	}
	urlOnly := map[string]bool{"header": true, "bearer": true, "client-id": true, "client-secret": true, "client-metadata-url": true,
		"grant": true, "assertion": true, "idp-token-endpoint": true, "idp-client-id": true, "idp-client-secret": true, "id-token": true}
	for i, fl := range globalFlags() {
		name := argv.FlagName(fl)
		if name == "url" || name == "stdio" {
			continue // what every entry has
		}
		srv := fmt.Sprintf("s%d", i)
		args := []string{"config", "add", srv, "--stdio", "demo"}
		if urlOnly[name] {
			args = []string{"config", "add", srv, "--url", "https://x.example/mcp"}
		}
		want := ""
		switch fl.(type) {
		case *cli.BoolFlag:
			args = append(args, argv.Dashed(name))
		case *cli.DurationFlag:
			args, want = append(args, argv.Dashed(name), "7s"), "7s"
		case *cli.IntFlag:
			args, want = append(args, argv.Dashed(name), "5"), "5"
		default:
			want = values[name]
			if want == "" {
				want = "v-" + name
			}
			if name == "header" {
				want = "X-Test: v"
			}
			if name == "env" {
				want = "K=v"
			}
			args = append(args, argv.Dashed(name), want)
		}
		r := e.run("", args...)
		if !addStores(name) {
			if r.code != ExitUsage || !strings.Contains(r.err, "cannot keep "+argv.Dashed(name)+" in an entry") {
				t.Errorf("%s: exit %d, stderr %q; want it refused", argv.Dashed(name), r.code, r.err)
			}
			continue
		}
		if r.code != ExitOK {
			t.Errorf("%s: exit %d, stderr %q; want it stored", argv.Dashed(name), r.code, r.err)
			continue
		}
		show := e.run("", "config", "show", srv, "-o", "json")
		stored := strings.NewReplacer("X-Test: v", `"X-Test":"v"`, "K=v", `"K":"v"`).Replace(want)
		if show.code != ExitOK || !strings.Contains(show.stdout, stored) {
			t.Errorf("%s %s: the entry is %s, want %s in it", argv.Dashed(name), want, show.stdout, stored)
		}
	}
}
