package commands

import (
	"strings"
	"testing"
)

func TestCompletionCommand(t *testing.T) {
	t.Parallel()
	for shell, marker := range map[string]string{
		"bash": "complete -o default -F _mcpctl mcpctl", "zsh": "#compdef mcpctl",
		"fish": "complete -c mcpctl", "powershell": "Register-ArgumentCompleter -Native -CommandName mcpctl",
	} {
		e := isolate(t)
		r := e.run("", "completion", shell)
		if r.code != ExitOK || !strings.Contains(r.stdout, marker) || !strings.Contains(r.stdout, "__complete "+shell) {
			t.Errorf("completion %s: exit %d, stdout lacks %q or the __complete call", shell, r.code, marker)
		}
	}
	e := isolate(t)
	r := e.run("", "completion", "tcsh")
	if r.code != ExitUsage || !strings.Contains(r.err, `no completion for "tcsh": mcpctl has bash, zsh, fish and powershell`) {
		t.Errorf("tcsh: %d %q", r.code, r.err)
	}
}
