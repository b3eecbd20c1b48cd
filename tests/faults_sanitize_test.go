package tests

import (
	"encoding/json"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// Checks for the fault cases of issue 13, items 4 (a stdio server's
// stderr at a terminal) and 9 (names that lie at a terminal).

// invisibleToolNames are the invisible mode's tool names as a terminal
// must show them: every invisible or direction-changing character as an
// escape.
var invisibleToolNames = []string{`del\u200bete_all`, `\u202eevil`, `safe\ufeff`, `soft\u00adhyphen`, `tag\U000e0041\U000e0042`,
	`l\u200erm\u200f`, `wj\u2060x\u180e`, `nb\u00a0sp`, `vs\ufe0f`, `ko\u3164`}

// decodeJSONString is s (JSON string text, without the quotes) decoded.
func decodeJSONString(s string) string {
	var out string
	if err := json.Unmarshal([]byte(`"`+s+`"`), &out); err != nil {
		panic(err)
	}
	return out
}

func stdoutHas(want ...string) func(*testing.T, string, *faultRun) {
	return func(t *testing.T, _ string, r *faultRun) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(string(r.stdout), w) {
				t.Errorf("stdout does not have %q:\n%s", w, tail(string(r.stdout)))
			}
		}
	}
}

func stderrHas(want ...string) func(*testing.T, string, *faultRun) {
	return func(t *testing.T, _ string, r *faultRun) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(r.stderr, w) {
				t.Errorf("stderr does not have %q:\n%q", w, tail(r.stderr))
			}
		}
	}
}

// stderrLines wants exactly n lines of stderr to match re, and stderr to
// be at most max bytes long.
func stderrLines(re string, n, max int) func(*testing.T, string, *faultRun) {
	rx := regexp.MustCompile(re)
	return func(t *testing.T, _ string, r *faultRun) {
		t.Helper()
		got := 0
		for _, l := range strings.Split(r.stderr, "\n") {
			if rx.MatchString(l) {
				got++
			}
		}
		if got != n {
			t.Errorf("%d lines of stderr match %s, want %d; stderr begins %.300q", got, re, n, r.stderr)
		}
		if len(r.stderr) > max {
			t.Errorf("stderr is %d bytes, more than %d", len(r.stderr), max)
		}
	}
}

// stderrText wants the lines of stderr that match line (anchored), put
// together, to be want: a line the server wrote may have been shown in
// pieces (a part that waited 200ms for the rest is shown on its own),
// but nothing may be lost or added.
func stderrText(line, want string) func(*testing.T, string, *faultRun) {
	rx := regexp.MustCompile("^(" + line + ")$")
	return func(t *testing.T, _ string, r *faultRun) {
		t.Helper()
		var got strings.Builder
		for _, l := range strings.Split(r.stderr, "\n") {
			if rx.MatchString(l) {
				got.WriteString(l)
			}
		}
		if got.String() != want {
			t.Errorf("stderr's lines of %s come to %d bytes, not the %d written; stderr begins %.300q", line, got.Len(), len(want), r.stderr)
		}
	}
}

// usageCallsTool checks that the usage line "tools describe" prints
// names the tool: its word, as bash reads it, is the tool's real name.
func usageCallsTool(t *testing.T, stdout []byte, name string) {
	t.Helper()
	m := regexp.MustCompile(`(?m)^Usage:\n  mcpctl tools call (\S+)`).FindSubmatch(stdout)
	if m == nil {
		t.Fatalf("no usage line:\n%s", stdout)
	}
	if strings.ContainsFunc(string(m[1]), invisible) {
		t.Errorf("the usage line shows the name %q with an invisible character", m[1])
	}
	got, err := exec.Command("bash", "-c", "printf %s "+string(m[1])).Output()
	if err != nil {
		t.Fatalf("bash: %v", err)
	}
	if string(got) != name {
		t.Errorf("pasted, the usage line's %s names %q, not the tool %q", m[1], got, name)
	}
}
