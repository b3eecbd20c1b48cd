package commands

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client/ojson"
	"github.com/mcpctl/mcpctl/internal/argv"
)

// misspeltCommand is a lookup error of a bare server name that reads as a
// mistyped command instead: `mcpctl tool call x` takes "tool" for a
// server, since a command (call) follows it, and would say only that no
// server has that name. When the name is close to a command of mcpctl's
// (tool for tools) that has the command the user went on to write, the
// error says so first: the server was most likely not meant.
func misspeltCommand(c *cli.Context, name string, err error) error {
	var usage *UsageError
	if name == "" || !errors.As(err, &usage) || c.Command == nil || !strings.HasPrefix(usage.Msg, fmt.Sprintf("no server named %q ", name)) {
		return err
	}
	// The app of a line holds only the command it names (newAppFor): the
	// groups to compare with are the whole tree's.
	for _, group := range wholeTree(c.App).Commands {
		// Near in spelling only (tool, tools): a name that merely holds
		// a command's (a path with "config" in it) is no command.
		if group.Hidden || argv.EditDistance(strings.ToLower(name), group.Name) > 2 || argv.FindCommand(group.Subcommands, c.Command.Name) == nil {
			continue
		}
		return usagef("unknown command %q for 'mcpctl'; did you mean 'mcpctl %s %s'? (%q is no configured server either)", name, group.Name, c.Command.Name, name)
	}
	return err
}

// callItems explains what call takes when it is given request items
// (`call tools/call name=x`), which only tools call and the other
// commands read: call sends METHOD with one JSON object of params.
func callItems(args []string) error {
	if len(args) < 2 {
		return nil
	}
	obj := ojson.Members{}
	for _, a := range args[1:] {
		k, v, ok := strings.Cut(a, "=")
		if !ok || k == "" || strings.ContainsAny(k[:1], "{[\"-@ ") {
			return nil
		}
		obj.Set(k, ojson.String(v))
	}
	method := args[0]
	msg := fmt.Sprintf("call takes METHOD and one JSON object of params, not %s: write '%s'", shellJoin(args[1:]), shellJoin([]string{"mcpctl", "call", method, string(obj.JSON())}))
	if method == "tools/call" {
		msg += " or 'mcpctl tools call NAME key=value'"
	}
	return usagef("%s", msg)
}

// completeContextArgs explains how complete takes the arguments already
// chosen: one ARG=PARTIAL is completed, the others go in --context.
func completeContextArgs(args []string) error {
	if len(args) < 2 || !strings.Contains(args[0], "=") {
		return nil
	}
	ctx := make([]string, 0, 2*len(args))
	for _, a := range args[1:] {
		ctx = append(ctx, "--context", a)
	}
	return usagef("complete completes one argument, ARG=PARTIAL; give those already chosen with --context K=V (repeatable): 'mcpctl complete --prompt NAME %s %s'", shellJoin(ctx), shellJoin(args[:1]))
}
