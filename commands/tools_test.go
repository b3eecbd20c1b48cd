package commands

import "testing"

func TestToolsFlags(t *testing.T) {
	t.Parallel()
	checkFlags(t, "tools", newCmdToolsList, []flagCase[listOptions]{
		{args: []string{"tools", "list"}, want: &listOptions{All: true}},
		{args: []string{"tools", "list", "--cursor", "abc"}, want: &listOptions{Cursor: "abc"}},
		{args: []string{"--cursor=x", "tools", "list"}, want: &listOptions{Cursor: "x"}}, // a command's flag may come first
		{args: []string{"tools", "list", "--cursor="}, want: &listOptions{}},
		{args: []string{"tools", "list", "extra"}, err: "usage: mcpctl tools list [--cursor CURSOR]"},
	})
	checkFlags(t, "tools", newCmdToolsDescribe, []flagCase[toolsDescribeOptions]{
		{args: []string{"tools", "describe", "echo"}, want: &toolsDescribeOptions{Name: "echo"}},
		{args: []string{"tools", "describe"}, err: "usage: mcpctl tools describe NAME"},
		{args: []string{"tools", "describe", "a", "b"}, err: "usage: mcpctl tools describe NAME"},
	})
	checkFlags(t, "tools", newCmdToolsCall, []flagCase[toolsCallOptions]{
		{args: []string{"tools", "call", "echo"}, want: &toolsCallOptions{Name: "echo", Items: []string{}}},
		{args: []string{"tools", "call", "echo", "a=1", "n:=2", "--json", `{"b":3}`, "--no-wait"},
			want: &toolsCallOptions{Name: "echo", Items: []string{"a=1", "n:=2"}, JSON: `{"b":3}`, NoWait: true}},
		{args: []string{"--no-validate", "tools", "call", "echo", "a=1"}, want: &toolsCallOptions{Name: "echo", Items: []string{"a=1"}, NoValidate: true}},
		{args: []string{"tools", "call", "--no-validate", "echo", "a=1", "-o", "json"},
			want: &toolsCallOptions{Name: "echo", Items: []string{"a=1"}, NoValidate: true}},
		{args: []string{"tools", "call", "echo", "--", "--json", "x=1"}, want: &toolsCallOptions{Name: "echo", Items: []string{"--json", "x=1"}}},
		{args: []string{"tools", "call", "--", "--odd-name"}, want: &toolsCallOptions{Name: "--odd-name", Items: []string{}}},
		{args: []string{"tools", "call", "echo", "txet=hi", "--allow-extra"}, want: &toolsCallOptions{Name: "echo", Items: []string{"txet=hi"}, AllowExtra: true}}, // issue 15 item 2
		{args: []string{"tools", "call", "echo", "--strict"}, want: &toolsCallOptions{Name: "echo", Items: []string{}, Strict: true}},
		{args: []string{"tools", "call", "echo", "--strict", "--no-validate"}, err: "--strict fails a result that does not match the outputSchema, --no-validate does not check it: give one of them"},
		{args: []string{"tools", "call"}, err: "usage: mcpctl tools call NAME [key=value | key:=JSON]…"},
		{args: []string{"tools", "call", "echo", "--bogus"}, err: "unknown flag --bogus for 'mcpctl tools call'"},
		{args: []string{"tools", "call", "echo", "--json"}, err: "--json needs a value"},
		// Issue 25, item 4: --out and --force.
		{args: []string{"tools", "call", "shot", "--out", "a.png"}, want: &toolsCallOptions{Name: "shot", Items: []string{}, Out: binaryOut{Path: "a.png"}}},
		{args: []string{"tools", "call", "shot", "--force", "--out=shots/"}, want: &toolsCallOptions{Name: "shot", Items: []string{}, Out: binaryOut{Path: "shots/", Force: true}}},
		{args: []string{"tools", "call", "shot", "--force"}, err: "--force lets --out replace files: give --out too"},
		{args: []string{"tools", "call", "shot", "--out="}, err: "--out needs a FILE, a DIR/ or - (stdout)"},
		{args: []string{"tools", "call", "shot", "--out", "a.png", "--no-wait"}, err: "--out writes the result, which --no-wait does not wait for"},
	})
}
