package commands

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/mcpctl/mcpctl/output"
)

// What shellWord prints is visible at a terminal and, pasted into bash,
// is one word that is the name itself.
func TestShellWord(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	for _, tc := range []struct{ name, want string }{
		{"get_weather", "get_weather"},
		{"two words", "'two words'"},
		{"del\u200bete_all", `$'del\u200bete_all'`},
		{"\u202eevil's \\ path", `$'\u202eevil\'s \\ path'`},
		{"esc\x1b[31m\ttab", `$'esc\u001b[31m\u0009tab'`},
		{"tag\U000e0041b", `$'tag\U000e0041b'`},
	} {
		got := shellWord(tc.name)
		if got != tc.want {
			t.Errorf("shellWord(%q) = %s, want %s", tc.name, got, tc.want)
		}
		if output.SanitizeName(got) != got {
			t.Errorf("shellWord(%q) = %q hides a character", tc.name, got)
		}
		out, err := exec.Command("bash", "-c", "printf '%s\\n' "+got+" | wc -l; printf %s "+got).Output()
		if err != nil {
			t.Fatalf("bash: %v", err)
		}
		lines, word, _ := strings.Cut(string(out), "\n")
		if strings.TrimSpace(lines) != "1" || word != tc.name {
			t.Errorf("bash reads %s as %s word(s), %q; want one, %q", got, strings.TrimSpace(lines), word, tc.name)
		}
	}
}
