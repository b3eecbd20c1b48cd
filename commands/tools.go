package commands

import (
	"encoding/json"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/ojson"
	"github.com/mcpctl/mcpctl/internal/argv"
	"github.com/mcpctl/mcpctl/output"
)

func toolsCommand(f *Factory) *cli.Command {
	return &cli.Command{
		Name:        "tools",
		Usage:       "list, describe and call tools",
		Subcommands: []*cli.Command{newCmdToolsList(f, nil), newCmdToolsDescribe(f, nil), newCmdToolsCall(f, nil)},
	}
}

// listOptions are those of every listing (tools list, resources list, …).
type listOptions struct {
	invocation
	Cursor string
	All    bool // no --cursor: follow nextCursor to the end
}

func parseList(f *Factory) func(c *cli.Context) (*listOptions, error) {
	return func(c *cli.Context) (*listOptions, error) {
		if err := needArgs(c, 0, 0, "[--cursor CURSOR]"); err != nil {
			return nil, err
		}
		return &listOptions{invocation: invoked(f, c), Cursor: c.String("cursor"), All: !c.IsSet("cursor")}, nil
	}
}

func newCmdToolsList(f *Factory, runF func(*listOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "list",
		Usage:     "list the server's tools (tools/list)",
		ArgsUsage: " ",
		Flags:     []cli.Flag{cursorFlag()},
		Action:    actionOf(parseList(f), runF, runToolsList),
	}
}

func runToolsList(o *listOptions) error {
	return o.withConnection(func(conn Connection) error {
		raw, warnings, err := conn.Client().ListTools(o.ctx(), o.Cursor, o.All)
		if err != nil {
			return wrapOp("tools/list", err)
		}
		conn.Warn(warnings...)
		return conn.Print(o.ctx(), output.KindToolsList, raw)
	})
}

type toolsDescribeOptions struct {
	invocation
	Name string
}

func newCmdToolsDescribe(f *Factory, runF func(*toolsDescribeOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "describe",
		Usage:     "show one tool's parameters, types, defaults and output schema",
		ArgsUsage: "NAME",
		Action: actionOf(func(c *cli.Context) (*toolsDescribeOptions, error) {
			if err := needArgs(c, 1, 1, "NAME"); err != nil {
				return nil, err
			}
			return &toolsDescribeOptions{invocation: invoked(f, c), Name: c.Args().First()}, nil
		}, runF, runToolsDescribe),
	}
}

func runToolsDescribe(o *toolsDescribeOptions) error {
	return o.withConnection(func(conn Connection) error {
		list, warnings, err := conn.Client().ListTools(o.ctx(), "", true)
		if err != nil {
			return wrapOp("tools/list", err)
		}
		conn.Warn(warnings...)
		tool, err := client.FindTool(list, o.Name)
		if err != nil {
			return err
		}
		if err := conn.Print(o.ctx(), output.KindToolDescribe, tool); err != nil {
			return err
		}
		if render := conn.Output(); render.Format == output.FormatText && render.Query == nil {
			printToolUsage(o.IO, o.Name, tool)
		}
		return nil
	})
}

type toolsCallOptions struct {
	invocation
	Name       string
	Items      []string // key=value, key:=JSON, …
	JSON       string   // --json: '{…}', @FILE or -
	NoValidate bool
	AllowExtra bool // --allow-extra: keys the schema does not declare are sent too
	Strict     bool // --strict: a result that breaks the outputSchema is an error
	NoWait     bool
	Task       bool // --task
	Out        binaryOut
}

func newCmdToolsCall(f *Factory, runF func(*toolsCallOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "call",
		Usage:     "call a tool (tools/call)",
		ArgsUsage: "NAME [key=value | key:=JSON | key=@FILE | a[b]=c | tags[]=x]…",
		Description: itemsHelp + "\n\n" + outHelp + "\n\nExit status 1 when the tool answers isError: true. A structuredContent is checked against the\n" +
			"tool's outputSchema: one that does not match is printed as received, after a warning on stderr;\n" +
			"with --strict it is an error (exit 3, nothing printed). --no-validate skips the check.",
		Flags: append([]cli.Flag{jsonArgsFlag(), noValidateFlag(), allowExtraFlag("tool's inputSchema"), strictFlag(), &cli.BoolFlag{Name: "no-wait", Usage: "if the server answers with a task, print its handle and exit ('mcpctl tasks list' shows it, 'mcpctl tasks wait' follows it); a stdio server's tasks end with it, so there only through a session"},
			&cli.BoolFlag{Name: "task", Usage: "run a tool whose execution.taskSupport is optional as a task (2025-11-25 servers; tools that require it always are)"}}, binaryOutFlags()...),
		Action: actionOf(func(c *cli.Context) (*toolsCallOptions, error) {
			if err := needArgs(c, 1, -1, "NAME [key=value | key:=JSON]…"); err != nil {
				return nil, err
			}
			if err := strictOrNoValidate(c); err != nil {
				return nil, err
			}
			out, err := parseBinaryOut(c, f.IOStreams)
			if err != nil {
				return nil, err
			}
			if out.Path != "" && c.Bool("no-wait") {
				return nil, usagef("--out writes the result, which --no-wait does not wait for: 'mcpctl tasks wait ID --out …' writes it once the task ends")
			}
			return &toolsCallOptions{
				invocation: invoked(f, c), Name: c.Args().First(), Items: c.Args().Tail(),
				JSON: c.String("json"), NoValidate: c.Bool("no-validate"), AllowExtra: c.Bool("allow-extra"), Strict: c.Bool("strict"),
				NoWait: c.Bool("no-wait"), Task: c.Bool("task"), Out: out,
			}, nil
		}, runF, runToolsCall),
	}
}

func runToolsCall(o *toolsCallOptions) error {
	if err := o.Out.check(); err != nil {
		return err
	}
	return o.withConnection(func(conn Connection) error {
		if o.NoWait && conn.ServerEndsWithRun() {
			return noWaitEndsWithRun()
		}
		args, stringPaths, err := argv.ParseItems(o.JSON, o.Items, o.IO.In)
		if err != nil {
			return err
		}
		ctx := o.ctx()
		op := "tools/call " + o.Name
		return o.Out.done(op, conn.FinishCall(ctx, op, output.KindToolCall, o.Out.wrap(o.IO, func() (json.RawMessage, error) {
			co := &client.CallOptions{NoWait: o.NoWait, Task: o.Task}
			// The definition the call is made with: the one PrepareArgs is
			// given last (CallTool fetches the list again on a refusal).
			var used json.RawMessage
			if !o.NoValidate {
				co.PrepareArgs = func(tool, args json.RawMessage) (json.RawMessage, error) {
					used = tool
					return prepareToolArgs(o.Name, tool, args, stringPaths, o.AllowExtra, conn.Trace)
				}
			}
			if o.Globals.DryRun {
				return dryToolCall(ctx, conn, o.IO, o.Name, args, co)
			}
			res, err := conn.Client().CallTool(ctx, o.Name, args, co)
			if err != nil || used == nil {
				return res, err
			}
			if err := checkToolResult(ctx, conn, o.Name, used, res, o.Strict); err != nil {
				return nil, err
			}
			return res, nil
		})))
	})
}

func toolCallParams(name string, args json.RawMessage) json.RawMessage {
	o := ojson.Members{}
	o.Set("name", ojson.String(name))
	o.Set("arguments", args)
	return o.JSON()
}

func isToolError(raw json.RawMessage) bool {
	var r struct {
		IsError bool `json:"isError"`
	}
	_ = json.Unmarshal(raw, &r)
	return r.IsError
}
