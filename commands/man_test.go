package commands

import (
	"strings"
	"testing"

	"github.com/mcpctl/mcpctl/output"
)

func TestEsc(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"--no-validate":   `\-\-no\-validate`,
		".TH looks like":  `\&.TH looks like`,
		`a\b`:             `a\eb`,
		"it's `x` ~/a ^b": `it\(aqs \(gax\(ga \(ti/a \(hab`,
		"'CMD ARGS…'":     `\(aqCMD ARGS\[u2026]\(aq`,
		"°C":              `\[u00B0]C`,
	} {
		if got := esc(in); got != want {
			t.Errorf("esc(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestManPages(t *testing.T) {
	t.Parallel()
	ios, _, _, _ := output.Test()
	pages := ManPages(NewApp(isolate(t).factory(ios)))
	for _, name := range []string{"mcpctl.1", "mcpctl-tools-call.1", "mcpctl-config-add.1", "mcpctl-completion.1"} {
		if _, ok := pages[name]; !ok {
			t.Errorf("no %s", name)
		}
	}
	if _, ok := pages["mcpctl-__complete.1"]; ok {
		t.Error("the hidden __complete has a page")
	}
	for name, page := range pages {
		for i, line := range strings.Split(page, "\n") {
			// Text lines (not requests) must not start a request by accident.
			if strings.HasPrefix(line, "'") {
				t.Errorf("%s:%d starts with a quote: %q", name, i+1, line)
			}
		}
	}
	call := pages["mcpctl-tools-call.1"]
	for _, want := range []string{".SH EXAMPLES", `\fB\-\-no\-validate\fR`, ".B 3\n", ".BR mcpctl\\-tools (1)"} {
		if !strings.Contains(call, want) {
			t.Errorf("mcpctl-tools-call.1 lacks %q", want)
		}
	}
}
