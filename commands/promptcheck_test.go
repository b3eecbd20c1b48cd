package commands

import (
	"encoding/json"
	"errors"
	"testing"
)

// Issue 15 item 3: prompts get is checked against prompts/list before it
// is sent, as tools call is against tools/list.
func TestCheckPromptCall(t *testing.T) {
	t.Parallel()
	prompts, ok := promptsOf(json.RawMessage(`{"prompts":[{"name":"simple-prompt"},` +
		`{"name":"args-prompt","arguments":[{"name":"city","required":true},{"name":"state"}]}]}`))
	if !ok {
		t.Fatal("the list was not read")
	}
	cases := []struct {
		name, args string
		allowExtra bool
		want       string // "" accepted
	}{
		{"args-prompt", `{"city":"Paris","state":"TX"}`, false, ""},
		{"args-prompt", `{"city":"Paris"}`, false, ""},
		{"simple-prompt", `{}`, false, ""},
		{"args-prmpt", `{"city":"Paris"}`, false, `the server has no prompt "args-prmpt"; did you mean "args-prompt"?`},
		{"zzz", `{}`, false, `the server has no prompt "zzz" ('mcpctl prompts list' shows them)`},
		{"args-prompt", `{"state":"TX"}`, false,
			`invalid arguments: missing required argument "city" ('mcpctl prompts list' shows its arguments; --no-validate sends them anyway)`},
		{"args-prompt", `{"city":"Paris","sate":"TX"}`, false,
			`invalid arguments: unknown argument "sate"; did you mean "state"? ('mcpctl prompts list' shows its arguments; --allow-extra sends them anyway)`},
		{"args-prompt", `{"city":"Paris","sate":"TX"}`, true, ""},
		{"args-prompt", `{"sate":"TX"}`, true,
			`invalid arguments: missing required argument "city" ('mcpctl prompts list' shows its arguments; --no-validate sends them anyway)`},
		{"args-prompt", `{"city":"P","zzzzzz":"1"}`, false,
			`invalid arguments: unknown argument "zzzzzz"; known arguments: "city" or "state" ('mcpctl prompts list' shows its arguments; --allow-extra sends them anyway)`},
		{"simple-prompt", `{"x":"1"}`, false,
			`invalid arguments: unknown argument "x"; this prompt takes no arguments ('mcpctl prompts list' shows its arguments; --allow-extra sends them anyway)`},
		{"args-prompt", `{"city":"P","a\u200bb":"1"}`, false,
			`invalid arguments: unknown argument "a\u200bb"; known arguments: "city" or "state" ('mcpctl prompts list' shows its arguments; --allow-extra sends them anyway)`},
	}
	for _, c := range cases {
		err := checkPromptCall(prompts, c.name, json.RawMessage(c.args), c.allowExtra)
		got := ""
		if err != nil {
			got = err.Error()
			var u *UsageError
			if !errors.As(err, &u) {
				t.Errorf("%s %s: not a usage error (exit 2): %T", c.name, c.args, err)
			}
		}
		if got != c.want {
			t.Errorf("%s %s:\n got %s\nwant %s", c.name, c.args, got, c.want)
		}
	}
	if _, ok := promptsOf(json.RawMessage(`{"headers":{}}`)); ok {
		t.Error("a result with no prompts array was taken for a list")
	}
}
