package commands

import (
	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client/ojson"
	"github.com/mcpctl/mcpctl/internal/argv"
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
	// NoValidate and AllowExtra skip the checks against prompts/list:
	// all of them, or only the one of undeclared arguments.
	NoValidate, AllowExtra bool
}

func newCmdPromptsGet(f *Factory, runF func(*promptsGetOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "get",
		Usage:     "get a prompt with arguments (prompts/get)",
		ArgsUsage: "NAME [key=value]…",
		Description: "The prompt and its arguments are checked against prompts/list before anything is sent\n" +
			"(a fresh cached list costs no request): an unknown prompt, a missing required argument\n" +
			"or one the prompt does not declare is refused (exit 2) with the closest names.",
		Flags: []cli.Flag{jsonArgsFlag(), allowExtraFlag("prompt"),
			&cli.BoolFlag{Name: "no-validate", Usage: "send the prompt and its arguments as given, without checking them against prompts/list"}},
		Action: actionOf(func(c *cli.Context) (*promptsGetOptions, error) {
			if err := needArgs(c, 1, -1, "NAME [key=value]…"); err != nil {
				return nil, err
			}
			return &promptsGetOptions{invocation: invoked(f, c), Name: c.Args().First(), Items: c.Args().Tail(), JSON: c.String("json"),
				NoValidate: c.Bool("no-validate"), AllowExtra: c.Bool("allow-extra")}, nil
		}, runF, runPromptsGet),
	}
}

func runPromptsGet(o *promptsGetOptions) error {
	return o.withConnection(func(conn Connection) error {
		args, _, err := argv.ParseItems(o.JSON, o.Items, o.IO.In)
		if err != nil {
			return err
		}
		if !o.NoValidate && !o.Globals.DryRun {
			// A dry run fetches nothing, so it shows the request unchecked.
			if err := checkPrompt(o.ctx(), conn, o.Name, args, o.AllowExtra); err != nil {
				return wrapOp("prompts/get "+o.Name, err)
			}
		}
		params := ojson.Members{}
		params.Set("name", ojson.String(o.Name))
		params.Set("arguments", args)
		raw, err := conn.Client().Call(o.ctx(), "prompts/get", params.JSON(), nil)
		if err != nil {
			return wrapOp("prompts/get "+o.Name, err)
		}
		return conn.Print(o.ctx(), output.KindPromptGet, raw)
	})
}
