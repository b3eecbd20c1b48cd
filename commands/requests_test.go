package commands

import "testing"

// TestCommandWords: a command word that reads as a mistyped command, call
// given request items and complete given two arguments say what was
// meant, with exit 2, before any server is needed.
func TestCommandWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"tool", "call", "x"}, "mcpctl: unknown command \"tool\" for 'mcpctl'; did you mean 'mcpctl tools call'? (\"tool\" is no configured server either)\n"},
		{[]string{"task", "get", "x"}, "mcpctl: unknown command \"task\" for 'mcpctl'; did you mean tasks? (commands: "},
		{[]string{"call", "tools/call", "name=x"}, "mcpctl: call takes METHOD and one JSON object of params, not name=x: write 'mcpctl call tools/call '{\"name\":\"x\"}'' or 'mcpctl tools call NAME key=value'\n"},
		{[]string{"call", "ping", "a=1", "b=2"}, "mcpctl: call takes METHOD and one JSON object of params, not a=1 b=2: write 'mcpctl call ping '{\"a\":\"1\",\"b\":\"2\"}''\n"},
		{[]string{"complete", "--prompt", "p", "city=Sa", "country=US"}, "mcpctl: complete completes one argument, ARG=PARTIAL; give those already chosen with --context K=V (repeatable): 'mcpctl complete --prompt NAME --context country=US city=Sa'\n"},
	} {
		r := isolate(t).run("", tc.args...)
		if r.code != ExitUsage || len(r.err) < len(tc.want) || r.err[:len(tc.want)] != tc.want {
			t.Errorf("%q: exit %d, stderr %q; want exit %d, %q", tc.args, r.code, r.err, ExitUsage, tc.want)
		}
	}
}
