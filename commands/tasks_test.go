package commands

import (
	"testing"

	"github.com/urfave/cli/v2"
)

func TestTasksFlags(t *testing.T) {
	t.Parallel()
	get := func(f *Factory, runF func(*taskOptions) error) *cli.Command {
		return newCmdTaskMethod(f, runF, "get", "show a task (tasks/get)", "tasks/get")
	}
	for _, cmd := range []struct {
		name string
		new  func(*Factory, func(*taskOptions) error) *cli.Command
	}{{"get", get}, {"wait", newCmdTasksWait}, {"update", newCmdTasksUpdate}} {
		checkFlags(t, "tasks", cmd.new, []flagCase[taskOptions]{
			{args: []string{"tasks", cmd.name, "t-1"}, want: &taskOptions{ID: "t-1"}},
			{args: []string{"tasks", cmd.name, "--answer", "q.a=1", "t-1"}, want: &taskOptions{ID: "t-1"}},
			{args: []string{"tasks", cmd.name}, err: "usage: mcpctl tasks " + cmd.name + " TASK-ID"},
			{args: []string{"tasks", cmd.name, "a", "b"}, err: "usage: mcpctl tasks " + cmd.name + " TASK-ID"},
		})
	}
	// Issue 25, item 4: the commands that print a tool's result take --out.
	for _, cmd := range []struct {
		name string
		new  func(*Factory, func(*taskOptions) error) *cli.Command
	}{{"wait", newCmdTasksWait}, {"result", newCmdTasksResult}} {
		checkFlags(t, "tasks", cmd.new, []flagCase[taskOptions]{
			{args: []string{"tasks", cmd.name, "t-1", "--out", "shots/", "--force"}, want: &taskOptions{ID: "t-1", Out: binaryOut{Path: "shots/", Force: true}}},
			{args: []string{"tasks", cmd.name, "t-1", "--force"}, err: "--force lets --out replace files: give --out too"},
		})
	}
	checkFlags(t, "tasks", newCmdTasksList, []flagCase[tasksListOptions]{
		{args: []string{"tasks", "list"}, want: &tasksListOptions{}},
		{args: []string{"tasks", "list", "--from-server"}, want: &tasksListOptions{fromServer: true}},
	})
}

func TestCacheFlags(t *testing.T) {
	t.Parallel()
	checkFlags(t, "cache", newCmdCacheList, []flagCase[noOptions]{{args: []string{"cache", "list", "-o", "table"}, want: &noOptions{}}})
	checkFlags(t, "cache", newCmdCacheClear, []flagCase[noOptions]{{args: []string{"cache", "clear"}, want: &noOptions{}}})
}

func TestAuthFlags(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"login", "status", "logout", "token"} {
		build := func(f *Factory, runF func(*noOptions) error) *cli.Command {
			return newCmdAuth(f, runF, name, "", nil)
		}
		checkFlags(t, "auth", build, []flagCase[noOptions]{
			{args: []string{"--url", "https://x.example/mcp", "auth", name, "--no-browser", "--callback-port", "8123"}, want: &noOptions{}},
			{args: []string{"auth", name, "extra"}, err: "usage: mcpctl auth " + name},
		})
	}
}

func TestListenFlags(t *testing.T) {
	t.Parallel()
	checkFlags(t, "", newCmdListen, []flagCase[listenOptions]{
		{args: []string{"listen", "--tools"}, want: &listenOptions{Tools: true}},
		{args: []string{"listen", "--prompts", "--resources", "--resource", "a://1", "--resource", "a://2", "--task", "t1",
			"--strict", "--refetch", "--count", "3", "--for", "5s", "--no-reconnect", "--once"},
			want: &listenOptions{Prompts: true, Resources: true, Resource: []string{"a://1", "a://2"}, Task: []string{"t1"},
				Strict: true, Refetch: true, Count: 3, For: 5e9, NoReconnect: true, Once: true}},
		{args: []string{"listen", "x"}, err: "usage: mcpctl listen [--tools]"},
		{args: []string{"listen", "--count", "x"}, err: `--count x: want a whole number such as 10`},
	})
}

func TestResumeFlags(t *testing.T) {
	t.Parallel()
	checkFlags(t, "", newCmdResume, []flagCase[resumeOptions]{
		{args: []string{"resume", "k.json"}, want: &resumeOptions{File: "k.json"}},
		{args: []string{"resume", "-", "--answers", "a.json"}, want: &resumeOptions{File: "-"}},
		{args: []string{"resume", "-", "--answers", "-"}, err: "the continuation and --answers cannot both come from stdin"},
		{args: []string{"resume"}, err: "usage: mcpctl resume CONTINUATION-FILE|-"},
		{args: []string{"resume", "k.json", "--strict"}, want: &resumeOptions{File: "k.json", Strict: true}},
		{args: []string{"resume", "k.json", "--no-validate"}, want: &resumeOptions{File: "k.json", NoValidate: true}},
		{args: []string{"resume", "k.json", "--no-validate", "--strict"}, err: "--strict fails a result that does not match the outputSchema, --no-validate does not check it: give one of them"},
	})
}
