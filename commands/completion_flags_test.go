package commands

import "testing"

func TestCompletionManHelpFlags(t *testing.T) {
	t.Parallel()
	checkFlags(t, "", newCmdCompletion, []flagCase[completionOptions]{
		{args: []string{"completion", "zsh"}, want: &completionOptions{Shell: "zsh"}},
		{args: []string{"completion", "--dir", "out"}, want: &completionOptions{Dir: "out"}},
		{args: []string{"completion", "--dir", "out", "bash"}, err: "usage: mcpctl completion --dir DIR"},
		{args: []string{"completion"}, err: "usage: mcpctl completion bash|zsh|fish|powershell"},
		{args: []string{"completion", "tcsh"}, err: `no completion for "tcsh"`},
	})
	checkFlags(t, "", newCmdMan, []flagCase[manOptions]{
		{args: []string{"man"}, want: &manOptions{Dir: "."}},
		{args: []string{"man", "--dir", "man"}, want: &manOptions{Dir: "man"}},
		{args: []string{"man", "x"}, err: "usage: mcpctl man [--dir DIR]"},
	})
	checkFlags(t, "", newCmdHelp, []flagCase[helpOptions]{
		{args: []string{"help"}, want: &helpOptions{Args: []string{}}},
		{args: []string{"help", "tools", "call"}, want: &helpOptions{Args: []string{"tools", "call"}}},
	})
	checkFlags(t, "", newCmdShellComplete, []flagCase[shellCompleteOptions]{
		{args: []string{"__complete", "zsh", "--", "tools", "ca"}, want: &shellCompleteOptions{Shell: "zsh", Words: []string{"tools", "ca"}}},
		{args: []string{"__complete", "fish", "--"}, want: &shellCompleteOptions{Shell: "fish", Words: []string{""}}},
		{args: []string{"__complete", "bash", "--", "mcpctl tools 'ca"}, want: &shellCompleteOptions{Shell: "bash", Words: []string{"tools", "ca"},
			Typed: scanLine("mcpctl tools 'ca")}},
		{args: []string{"__complete", "tcsh", "--", "x"}, err: "usage: mcpctl __complete bash|zsh|fish|powershell"},
	})
}
