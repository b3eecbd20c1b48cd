package tests

import (
	"regexp"
	"strings"
	"testing"
)

// A tool's isError at a terminal: the text output, a person's, is marked
// by a line of mcpctl's before it (text alone may read like success);
// JSON shows "isError" itself and gets no line. (At a pipe nothing
// changes: exit_codes.txtar.)
func TestToolErrorMarkedAtTerminal(t *testing.T) {
	bin := faultBinaries(t)
	marker := "mcpctl-iserror-pty-" + strings.ReplaceAll(t.Name(), "/", "-")
	base := []string{"--stdio", "fakemcp iserror " + marker, "--server-stderr", "discard", "--protocol-version", "2026-07-28", "--no-validate", "tools", "call", "x"}
	line := regexp.MustCompile(`(?m)^mcpctl: error: tool "x" reported an error \(isError\); its result follows\nit broke\n`)
	for _, extra := range [][]string{nil, {"-o", "text"}} {
		out := runAtTerminal(t, bin, marker, append(base, extra...)...)
		if !line.Match(out) {
			t.Errorf("%v: the terminal does not show the isError line above the result:\n%q", extra, out)
		}
		if strings.Count(string(out), "isError") != 1 {
			t.Errorf("%v: isError said more than once:\n%q", extra, out)
		}
		noneLeft(t, marker)
	}
	out := runAtTerminal(t, bin, marker, append(base, "-o", "json")...)
	if strings.Contains(string(out), "reported an error") || !strings.Contains(string(out), `"isError": true`) {
		t.Errorf("-o json: want the result alone, isError in it:\n%q", out)
	}
	noneLeft(t, marker)
}
