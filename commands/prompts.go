package commands

import (
	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client/ojson"
	"github.com/mcpctl/mcpctl/output"
)

func promptsCommand(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "prompts",
		Usage: "list and get prompts",
		Subcommands: []*cli.Command{
			newCmdList(f, nil, "list", "list the server's prompts", "prompts/list", "prompts", output.KindPromptsList),
			newCmdPromptsGet(f, nil),
		},
	}
}

type promptsGetOptions struct {
	invocation
	Name  string
	Items []string // key=value
	JSON  string   // --json
}

func newCmdPromptsGet(f *Factory, runF func(*promptsGetOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "get",
		Usage:     "get a prompt with arguments (prompts/get)",
		ArgsUsage: "NAME [key=value]…",
		Flags:     []cli.Flag{jsonArgsFlag()},
		Action: actionOf(func(c *cli.Context) (*promptsGetOptions, error) {
			if err := needArgs(c, 1, -1, "NAME [key=value]…"); err != nil {
				return nil, err
			}
			return &promptsGetOptions{invocation: invoked(f, c), Name: c.Args().First(), Items: c.Args().Tail(), JSON: c.String("json")}, nil
		}, runF, runPromptsGet),
	}
}

func runPromptsGet(o *promptsGetOptions) error {
	return o.withSession(func(s *session) error {
		args, err := buildArguments(o.JSON, o.Items, s.ios.In)
		if err != nil {
			return err
		}
		params := ojson.Members{}
		params.Set("name", ojson.String(o.Name))
		params.Set("arguments", args)
		raw, err := s.client.Call(o.ctx(), "prompts/get", params.JSON(), nil)
		if err != nil {
			return wrapOp("prompts/get "+o.Name, err)
		}
		return s.print(o.ctx(), output.KindPromptGet, raw)
	})
}
