package commands

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/ojson"
	"github.com/mcpctl/mcpctl/output"
)

func toolsCommand(ios *output.IOStreams) *cli.Command {
	return &cli.Command{
		Name:  "tools",
		Usage: "list, describe and call tools",
		Subcommands: []*cli.Command{
			{
				Name:      "list",
				Usage:     "list the server's tools (tools/list)",
				ArgsUsage: " ",
				Flags:     []cli.Flag{cursorFlag},
				Action: withSession(ios, func(c *cli.Context, s *session) error {
					if err := needArgs(c, 0, 0, "[--cursor CURSOR]"); err != nil {
						return err
					}
					raw, warnings, err := s.client.ListTools(c.Context, c.String("cursor"), !c.IsSet("cursor"))
					if err != nil {
						return wrapOp("tools/list", err)
					}
					s.warn(warnings)
					return s.print(c.Context, output.KindToolsList, raw)
				}),
			},
			{
				Name:      "describe",
				Usage:     "show one tool's parameters, types, defaults and output schema",
				ArgsUsage: "NAME",
				Action: withSession(ios, func(c *cli.Context, s *session) error {
					if err := needArgs(c, 1, 1, "NAME"); err != nil {
						return err
					}
					list, warnings, err := s.client.ListTools(c.Context, "", true)
					if err != nil {
						return wrapOp("tools/list", err)
					}
					s.warn(warnings)
					tool, err := client.FindTool(list, c.Args().First())
					if err != nil {
						return err
					}
					if err := s.print(c.Context, output.KindToolDescribe, tool); err != nil {
						return err
					}
					if s.render.Format == output.FormatText && s.render.Query == nil {
						printToolUsage(ios, c.Args().First(), tool)
					}
					return nil
				}),
			},
			{
				Name:        "call",
				Usage:       "call a tool (tools/call)",
				ArgsUsage:   "NAME [key=value | key:=JSON | key=@FILE | a[b]=c | tags[]=x]…",
				Description: itemsHelp + "\n\nExit status 1 when the tool answers isError: true.",
				Flags:       []cli.Flag{jsonArgsFlag, noValidateFlag, &cli.BoolFlag{Name: "no-wait", Usage: "if the server answers with a task, print its handle and exit ('mcpctl tasks list' shows it, 'mcpctl tasks wait' follows it)"}},
				Action: withSession(ios, func(c *cli.Context, s *session) error {
					if err := needArgs(c, 1, -1, "NAME [key=value | key:=JSON]…"); err != nil {
						return err
					}
					name := c.Args().First()
					args, stringPaths, err := parseRequestItems(c.String("json"), c.Args().Tail(), ios.In)
					if err != nil {
						return err
					}
					return s.finishToolCall(c, "tools/call "+name, func() (json.RawMessage, error) {
						if s.dryRun {
							// A dry run shows the call as given: typing would
							// need the tool list, which a dry run does not fetch.
							return s.client.Call(c.Context, "tools/call", toolCallParams(name, args), nil)
						}
						co := &client.CallOptions{NoWait: c.Bool("no-wait")}
						if !c.Bool("no-validate") {
							co.PrepareArgs = func(tool, args json.RawMessage) (json.RawMessage, error) {
								return prepareToolArgs(name, tool, args, stringPaths, s.opts.Hooks.Log)
							}
						}
						return s.client.CallTool(c.Context, name, args, co)
					})
				}),
			},
		},
	}
}

// finishToolCall runs a call whose answer is a CallToolResult (a tool
// call, a task's result) and prints it: exit 1 when the tool says isError,
// the task handle as it is with --no-wait.
func (s *session) finishToolCall(c *cli.Context, op string, call func() (json.RawMessage, error)) error {
	return s.finishCall(c, op, output.KindToolCall, call)
}

// finishCall is finishToolCall for any call that may go through input
// rounds or a task.
func (s *session) finishCall(c *cli.Context, op string, kind output.Kind, call func() (json.RawMessage, error)) error {
	raw, err := call()
	s.progress.done()
	if err != nil {
		return wrapOp(op, err)
	}
	if rt, _ := resultType(raw); rt == "task" {
		kind = output.KindGeneric
		fmt.Fprintf(s.ios.ErrOut, "mcpctl: the server runs this as a task; 'mcpctl tasks wait %s' follows it\n", output.SanitizeLine(client.TaskIDOf(raw)))
	}
	if err := s.print(c.Context, kind, raw); err != nil {
		return err
	}
	if isToolError(raw) {
		return &ToolError{Name: strings.TrimPrefix(op, "tools/call ")}
	}
	return nil
}

func resultType(raw json.RawMessage) (string, error) {
	var r struct {
		ResultType string `json:"resultType"`
	}
	err := json.Unmarshal(raw, &r)
	return r.ResultType, err
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
