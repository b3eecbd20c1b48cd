package commands

import (
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/output"
)

func TestResourcesFlags(t *testing.T) {
	t.Parallel()
	templates := func(f *Factory, runF func(*listOptions) error) *cli.Command {
		return newCmdList(f, runF, "templates", "list the server's resource templates", "resources/templates/list", "resourceTemplates", output.KindTemplatesList)
	}
	checkFlags(t, "resources", templates, []flagCase[listOptions]{
		{args: []string{"resources", "templates"}, want: &listOptions{All: true}},
		{args: []string{"resources", "templates", "--cursor", "c2"}, want: &listOptions{Cursor: "c2"}},
		{args: []string{"resources", "templates", "x"}, err: "usage: mcpctl resources templates [--cursor CURSOR]"},
	})
	checkFlags(t, "resources", newCmdResourcesRead, []flagCase[resourcesReadOptions]{
		{args: []string{"resources", "read", "file:///a"}, want: &resourcesReadOptions{URI: "file:///a"}},
		{args: []string{"resources", "read", "file:///a", "--out", "a.png"}, want: &resourcesReadOptions{URI: "file:///a", Out: "a.png"}},
		{args: []string{"resources", "read", "--out", "-", "file:///a"}, want: &resourcesReadOptions{URI: "file:///a", Out: "-"}},
		{args: []string{"resources", "read"}, err: "usage: mcpctl resources read URI [--out FILE]"},
	})
}

func TestPromptsFlags(t *testing.T) {
	t.Parallel()
	list := func(f *Factory, runF func(*listOptions) error) *cli.Command {
		return newCmdList(f, runF, "list", "list the server's prompts", "prompts/list", "prompts", output.KindPromptsList)
	}
	checkFlags(t, "prompts", list, []flagCase[listOptions]{
		{args: []string{"prompts", "list"}, want: &listOptions{All: true}},
	})
	checkFlags(t, "prompts", newCmdPromptsGet, []flagCase[promptsGetOptions]{
		{args: []string{"prompts", "get", "greet", "name=Ann", "--json", "{}"}, want: &promptsGetOptions{Name: "greet", Items: []string{"name=Ann"}, JSON: "{}"}},
		{args: []string{"prompts", "get", "greet"}, want: &promptsGetOptions{Name: "greet", Items: []string{}}},
		{args: []string{"prompts", "get", "greet", "nmae=Ann", "--allow-extra"}, want: &promptsGetOptions{Name: "greet", Items: []string{"nmae=Ann"}, AllowExtra: true}}, // issue 15 item 3
		{args: []string{"prompts", "get", "--no-validate", "greet"}, want: &promptsGetOptions{Name: "greet", Items: []string{}, NoValidate: true}},
		{args: []string{"prompts", "get"}, err: "usage: mcpctl prompts get NAME [key=value]…"},
	})
}

func TestDiscoverPingFlags(t *testing.T) {
	t.Parallel()
	for _, cmd := range []struct {
		name string
		new  func(*Factory, func(*noOptions) error) *cli.Command
	}{{"discover", newCmdDiscover}, {"ping", newCmdPing}} {
		checkFlags(t, "", cmd.new, []flagCase[noOptions]{
			{args: []string{cmd.name}, want: &noOptions{}},
			{args: []string{"--url", "http://127.0.0.1:1/mcp", cmd.name, "--timeout", "1s"}, want: &noOptions{}},
			{args: []string{cmd.name, "extra"}, err: "usage: mcpctl " + cmd.name},
		})
	}
}

func TestCallFlags(t *testing.T) {
	t.Parallel()
	checkFlags(t, "", newCmdCall, []flagCase[callOptions]{
		{args: []string{"call", "ping"}, want: &callOptions{Method: "ping"}},
		{args: []string{"call", "x/y", `{"a":1}`}, want: &callOptions{Method: "x/y", Params: `{"a":1}`, HasParams: true}},
		{args: []string{"call", "x/y", "-"}, want: &callOptions{Method: "x/y", Params: "-", HasParams: true}},
		{args: []string{"call", "x/y", ""}, want: &callOptions{Method: "x/y", HasParams: true}},
		{args: []string{"call"}, err: "usage: mcpctl call METHOD [PARAMS-JSON | -]"},
		{args: []string{"call", "a", "b", "c"}, err: "usage: mcpctl call METHOD [PARAMS-JSON | -]"},
	})
}

func TestCompleteFlags(t *testing.T) {
	t.Parallel()
	checkFlags(t, "", newCmdComplete, []flagCase[completeOptions]{
		{args: []string{"complete", "--prompt", "p", "loc=Sa", "--context", "a=1", "--context", "b=2"},
			want: &completeOptions{Prompt: "p", Arg: "loc=Sa", Context: []string{"a=1", "b=2"}}},
		{args: []string{"complete", "x=", "--template", "file:///{x}"}, want: &completeOptions{Template: "file:///{x}", Arg: "x="}},
		{args: []string{"complete"}, err: "usage: mcpctl complete (--prompt NAME | --template URI) ARG=PARTIAL"},
	})
	// What the options then mean for the request.
	for _, tc := range []struct {
		o    completeOptions
		want string // the params, or the usage error
	}{
		{completeOptions{Prompt: "p", Arg: "loc=Sa", Context: []string{"a=1"}}, `{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"loc","value":"Sa"},"context":{"arguments":{"a":"1"}}}`},
		{completeOptions{Template: "u", Arg: "x="}, `{"ref":{"type":"ref/resource","uri":"u"},"argument":{"name":"x","value":""}}`},
		{completeOptions{Prompt: "p", Template: "u", Arg: "x="}, "pass either --prompt or --template, not both"},
		{completeOptions{Arg: "x="}, "say what to complete: --prompt NAME or --template URI"},
		{completeOptions{Prompt: "p", Arg: "x"}, `write the argument as NAME=PARTIAL (e.g. location=Sa), not "x"`},
		{completeOptions{Prompt: "p", Arg: "x=", Context: []string{"nope"}}, `invalid --context "nope": write it as K=V`},
	} {
		raw, err := completeParams(&tc.o)
		got := string(raw)
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("completeParams(%+v) = %s, want %s", tc.o, got, tc.want)
		}
	}
}
