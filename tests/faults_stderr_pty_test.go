package tests

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpctl/mcpctl/tests/fakemcp"
)

// A stdio server's stderr at a real terminal (issue 13, item 4), with
// --server-stderr left at its default (inherit): the terminal gets the
// server's lines sanitised, and a flood of long lines cut, never the
// escapes themselves.
func TestServerStderrAtRealTerminal(t *testing.T) {
	bin := faultBinaries(t)
	marker := "mcpctl-fault-pty-stderr-" + filepath.Base(t.TempDir())
	for _, tc := range []struct {
		mode string
		want *regexp.Regexp
		n    int // times want must match
	}{
		{"stderrescapes", regexp.MustCompile(`(?m)^S red title link clip clear bell backspace crret c1 del bidi\\u202eend\nsecond line\tafter a tab\n(.|\n)*` + fakemcp.StderrLast), 1},
		// 20 lines of 1 MiB, each cut (a piece that waited may show first).
		{"stderrflood:20971520:1048576", regexp.MustCompile(`(?m)^F?x+… \(line cut at 4096 bytes\)$`), 20},
	} {
		out := runAtTerminal(t, bin, marker, "--stdio", "fakemcp "+tc.mode+" "+marker, "--protocol-version", "2026-07-28", "tools", "list")
		if what, bad := terminalActive(out); bad {
			t.Errorf("%s: the terminal got %s:\n%q", tc.mode, what, tail(string(out)))
		}
		if len(tc.want.FindAll(out, -1)) != tc.n {
			t.Errorf("%s: the terminal does not show %s as often as it should:\n%q", tc.mode, tc.want, tail(string(out)))
		}
		if !strings.Contains(string(out), `"method": "tools/list"`) {
			t.Errorf("%s: no answer on the terminal:\n%q", tc.mode, tail(string(out)))
		}
		noneLeft(t, marker)
	}
}
