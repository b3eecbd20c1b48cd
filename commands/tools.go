package commands

import (
	"encoding/json"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client"
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
					return s.print(c.Context, output.KindToolDescribe, tool)
				}),
			},
			{
				Name:      "call",
				Usage:     "call a tool (tools/call)",
				ArgsUsage: "NAME [key=value | key:=JSON]…",
				Description: "Arguments: key=value sends a string, key:=JSON any JSON value\n" +
					"(key:=42, key:=true, key:='[1,2]'). --json gives a base object that items override.\n" +
					"Exit status 1 when the tool answers isError: true.",
				Flags: []cli.Flag{jsonArgsFlag},
				Action: withSession(ios, func(c *cli.Context, s *session) error {
					if err := needArgs(c, 1, -1, "NAME [key=value | key:=JSON]…"); err != nil {
						return err
					}
					name := c.Args().First()
					args, err := buildArguments(c.String("json"), c.Args().Tail(), ios.In)
					if err != nil {
						return err
					}
					var raw json.RawMessage
					if s.dryRun {
						// A dry run shows the call itself, not the tool list
						// that would be fetched first for its headers.
						raw, err = s.client.Call(c.Context, "tools/call", toolCallParams(name, args), nil)
					} else {
						raw, err = s.client.CallTool(c.Context, name, args, nil)
					}
					if err != nil {
						return wrapOp(fmt.Sprintf("tools/call %s", name), err)
					}
					if err := s.print(c.Context, output.KindToolCall, raw); err != nil {
						return err
					}
					if isToolError(raw) {
						return &ToolError{Name: name}
					}
					return nil
				}),
			},
		},
	}
}

func toolCallParams(name string, args json.RawMessage) json.RawMessage {
	o := newObject()
	o.set("name", jsonString(name))
	o.set("arguments", args)
	return o.raw()
}

func isToolError(raw json.RawMessage) bool {
	var r struct {
		IsError bool `json:"isError"`
	}
	_ = json.Unmarshal(raw, &r)
	return r.IsError
}
