package commands

import (
	"encoding/json"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client/ojson"
	"github.com/mcpctl/mcpctl/output"
)

func completeCommand(ios *output.IOStreams) *cli.Command {
	return &cli.Command{
		Name:      "complete",
		Usage:     "complete a prompt or resource-template argument (completion/complete)",
		ArgsUsage: "(--prompt NAME | --template URI) ARG=PARTIAL",
		Description: "Asks the server for the values an argument of a prompt, or a variable of a resource\n" +
			"template, may take, given what is typed so far. --context k=v passes arguments already\n" +
			"chosen (repeatable).",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "prompt", Usage: "complete an argument of prompt `NAME`"},
			&cli.StringFlag{Name: "template", Usage: "complete a variable of resource template `URI`"},
			&cli.StringSliceFlag{Name: "context", Usage: "an argument already resolved, `K=V` (repeatable)"},
		},
		Action: withSession(ios, func(c *cli.Context, s *session) error {
			if err := needArgs(c, 1, 1, "(--prompt NAME | --template URI) ARG=PARTIAL"); err != nil {
				return err
			}
			params, err := completeParams(c)
			if err != nil {
				return err
			}
			raw, err := s.client.Call(c.Context, "completion/complete", params, nil)
			if err != nil {
				return wrapOp("completion/complete", err)
			}
			return s.print(c.Context, output.KindComplete, raw)
		}),
	}
}

func completeParams(c *cli.Context) (json.RawMessage, error) {
	prompt, template := c.String("prompt"), c.String("template")
	ref := ojson.Members{}
	switch {
	case prompt != "" && template != "":
		return nil, usagef("pass either --prompt or --template, not both")
	case prompt != "":
		ref.Set("type", ojson.String("ref/prompt"))
		ref.Set("name", ojson.String(prompt))
	case template != "":
		ref.Set("type", ojson.String("ref/resource"))
		ref.Set("uri", ojson.String(template))
	default:
		return nil, usagef("say what to complete: --prompt NAME or --template URI")
	}
	name, value, ok := strings.Cut(c.Args().First(), "=")
	if !ok || name == "" {
		return nil, usagef("write the argument as NAME=PARTIAL (e.g. location=Sa), not %q", c.Args().First())
	}
	arg := ojson.Members{}
	arg.Set("name", ojson.String(name))
	arg.Set("value", ojson.String(value))
	params := ojson.Members{}
	params.Set("ref", ref.JSON())
	params.Set("argument", arg.JSON())
	if ctxArgs := c.StringSlice("context"); len(ctxArgs) > 0 {
		args := ojson.Members{}
		for _, kv := range ctxArgs {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				return nil, usagef("invalid --context %q: write it as K=V", kv)
			}
			args.Set(k, ojson.String(v))
		}
		ctx := ojson.Members{}
		ctx.Set("arguments", args.JSON())
		params.Set("context", ctx.JSON())
	}
	return params.JSON(), nil
}
