package commands

import (
	"strings"
	"testing"

	"github.com/kballard/go-shellquote"
	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/internal/argv"
	"github.com/mcpctl/mcpctl/output"
)

// visibleCommands lists every command path a user can type.
func visibleCommands(app *cli.App) map[string][]*cli.Command {
	out := map[string][]*cli.Command{"": nil}
	var walk func(prefix []*cli.Command, cmds []*cli.Command)
	walk = func(prefix []*cli.Command, cmds []*cli.Command) {
		for _, c := range cmds {
			if c.Hidden {
				continue
			}
			path := append(append([]*cli.Command(nil), prefix...), c)
			out[commandPath(path)] = path
			walk(path, c.Subcommands)
		}
	}
	walk(nil, app.Commands)
	return out
}

// TestExamples checks that every command has examples, and that each
// example names its own command and only flags that exist there.
func TestExamples(t *testing.T) {
	t.Parallel()
	ios, _, _, _ := output.Test()
	app := NewApp(isolate(t).factory(ios))
	cmds := visibleCommands(app)
	for path := range cmds {
		if len(examples[path]) == 0 {
			t.Errorf("%q has no examples", "mcpctl "+path)
		}
	}
	for path, exs := range examples {
		if _, ok := cmds[path]; !ok {
			t.Errorf("examples for %q, which is no command", path)
			continue
		}
		ownCommand := false
		for _, ex := range exs {
			if strings.Contains(ex, "{{") {
				t.Errorf("%q: {{ would be read as a template", ex)
			}
			words, err := shellquote.Split(ex)
			if err != nil {
				t.Errorf("%q: %v", ex, err)
				continue
			}
			// The mcpctl part of a pipeline, without redirections.
			for len(words) > 0 && words[0] != "mcpctl" {
				words = words[1:]
			}
			for i, w := range words {
				if strings.HasPrefix(w, ">") || w == "|" {
					words = words[:i]
					break
				}
			}
			if len(words) == 0 {
				t.Errorf("%q does not run mcpctl", ex)
				continue
			}
			line, _ := argv.Normalize(app, words[1:])
			runs := (&completer{app: app}).parse(line).Command()
			cmdPath, ok := cmds[runs]
			if !ok || runs == "" {
				t.Errorf("%q runs no command", ex)
				continue
			}
			ownCommand = ownCommand || runs == path || strings.HasPrefix(runs, path+" ") || path == ""
			scope := append([]cli.Flag(nil), app.Flags...)
			for _, c := range cmdPath {
				scope = append(scope, c.Flags...)
			}
			for _, w := range line {
				if w == "--" {
					break
				}
				if name, _ := argv.SplitFlag(w); strings.HasPrefix(w, "-") && argv.FindFlag(scope, name) == nil {
					t.Errorf("%q: no flag %s for %q", ex, w, "mcpctl "+runs)
				}
			}
		}
		if !ownCommand {
			t.Errorf("no example of %q runs it", "mcpctl "+path)
		}
	}
}

func TestHelpTopics(t *testing.T) {
	t.Parallel()
	for _, topic := range []string{"items", "output", "config", "exit-codes", "environment"} {
		e := isolate(t)
		r := e.run("", "help", topic)
		if r.code != ExitOK || r.err != "" || len(r.stdout) < 200 {
			t.Errorf("help %s: exit %d, stderr %q, stdout %q", topic, r.code, r.err, r.stdout)
		}
	}
	e := isolate(t)
	r := e.run("", "help", "exit-codes")
	for _, e := range exitCodes {
		if !strings.Contains(r.stdout, e.meaning[:min(20, len(e.meaning))]) {
			t.Errorf("help exit-codes lacks %d", e.code)
		}
	}
	r = e.run("", "help", "tools", "call")
	if r.code != ExitOK || !strings.Contains(r.stdout, "mcpctl tools call - call a tool") || !strings.Contains(r.stdout, "EXAMPLES:\n   mcpctl -s weather tools call") {
		t.Errorf("help tools call: %d %q", r.code, r.stdout)
	}
	r = e.run("", "help", "itmes")
	if r.code != ExitUsage || !strings.Contains(r.err, `no help for "itmes"; did you mean items?`) {
		t.Errorf("help itmes: %d %q", r.code, r.err)
	}
	r = e.run("", "--help")
	if !strings.Contains(r.stdout, "HELP TOPICS (mcpctl help TOPIC):\n   config ") || !strings.Contains(r.stdout, "EXAMPLES:") {
		t.Errorf("mcpctl --help:\n%s", r.stdout)
	}
}

// Every command's --help ends with its examples. (Not `help --help`:
// urfave shows the app's help for any command named help.)
func TestHelpShowsExamples(t *testing.T) {
	t.Parallel()
	ios, _, _, _ := output.Test()
	for path := range visibleCommands(NewApp(isolate(t).factory(ios))) {
		if path == "help" {
			continue
		}
		e := isolate(t)
		args := append(strings.Fields(path), "--help")
		r := e.run("", args...)
		want := "EXAMPLES:\n   " + examples[path][0] + "\n"
		if r.code != ExitOK || !strings.Contains(r.stdout, want) {
			t.Errorf("mcpctl %s --help: exit %d, no %q in:\n%s", path, r.code, want, r.stdout)
		}
	}
}
