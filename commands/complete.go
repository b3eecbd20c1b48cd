package commands

import (
	"encoding/json"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client/ojson"
	"github.com/mcpctl/mcpctl/output"
)

type completeOptions struct {
	invocation
	Prompt   string   // --prompt NAME
	Template string   // --template URI
	Arg      string   // ARG=PARTIAL
	Context  []string // --context K=V
}

func newCmdComplete(f *Factory, runF func(*completeOptions) error) *cli.Command {
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
		Action: actionOf(func(c *cli.Context) (*completeOptions, error) {
			if err := completeContextArgs(c.Args().Slice()); err != nil {
				return nil, err
			}
			if err := needArgs(c, 1, 1, "(--prompt NAME | --template URI) ARG=PARTIAL"); err != nil {
				return nil, err
			}
			return &completeOptions{
				invocation: invoked(f, c), Prompt: c.String("prompt"), Template: c.String("template"),
				Arg: c.Args().First(), Context: c.StringSlice("context"),
			}, nil
		}, runF, runComplete),
	}
}

func runComplete(o *completeOptions) error {
	return o.withConnection(func(conn Connection) error {
		params, err := completeParams(o)
		if err != nil {
			return err
		}
		raw, err := conn.Client().Call(o.ctx(), "completion/complete", params, nil)
		if err != nil {
			return wrapOp("completion/complete", err)
		}
		return conn.Print(o.ctx(), output.KindComplete, raw)
	})
}

func completeParams(o *completeOptions) (json.RawMessage, error) {
	prompt, template := o.Prompt, o.Template
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
	name, value, ok := strings.Cut(o.Arg, "=")
	if !ok || name == "" {
		return nil, usagef("write the argument as NAME=PARTIAL (e.g. location=Sa), not %q", o.Arg)
	}
	arg := ojson.Members{}
	arg.Set("name", ojson.String(name))
	arg.Set("value", ojson.String(value))
	params := ojson.Members{}
	params.Set("ref", ref.JSON())
	params.Set("argument", arg.JSON())
	if ctxArgs := o.Context; len(ctxArgs) > 0 {
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
