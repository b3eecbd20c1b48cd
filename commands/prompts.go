package commands

import (
	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client/ojson"
	"github.com/mcpctl/mcpctl/output"
)

func promptsCommand(ios *output.IOStreams) *cli.Command {
	return &cli.Command{
		Name:  "prompts",
		Usage: "list and get prompts",
		Subcommands: []*cli.Command{
			listCommand(ios, "list", "list the server's prompts", "prompts/list", "prompts", output.KindPromptsList),
			{
				Name:      "get",
				Usage:     "get a prompt with arguments (prompts/get)",
				ArgsUsage: "NAME [key=value]…",
				Flags:     []cli.Flag{jsonArgsFlag},
				Action: withSession(ios, func(c *cli.Context, s *session) error {
					if err := needArgs(c, 1, -1, "NAME [key=value]…"); err != nil {
						return err
					}
					name := c.Args().First()
					args, err := buildArguments(c.String("json"), c.Args().Tail(), ios.In)
					if err != nil {
						return err
					}
					params := ojson.Members{}
					params.Set("name", ojson.String(name))
					params.Set("arguments", args)
					raw, err := s.client.Call(c.Context, "prompts/get", params.JSON(), nil)
					if err != nil {
						return wrapOp("prompts/get "+name, err)
					}
					return s.print(c.Context, output.KindPromptGet, raw)
				}),
			},
		},
	}
}
