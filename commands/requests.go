package commands

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpctl/mcpctl/client/ojson"
	"github.com/mcpctl/mcpctl/internal/argv"
	"github.com/mcpctl/mcpctl/output"
	"github.com/urfave/cli/v2"
)

// The commands that send one request and print its answer: discover,
// ping, call and complete.

func newCmdDiscover(f *Factory, runF func(*noOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "discover",
		Usage:     "show the server's versions, capabilities and instructions (server/discover)",
		ArgsUsage: " ",
		Action:    actionOf(parseNone(f), runF, runDiscover),
	}
}

func runDiscover(o *noOptions) error {
	return o.withConnection(func(conn Connection) error {
		raw, err := conn.Client().Call(o.ctx(), "server/discover", nil, nil)
		if err != nil {
			return wrapOp("server/discover", err)
		}
		return conn.Print(o.ctx(), output.KindDiscover, raw)
	})
}

// noOptions are those of a command with no flags or arguments of its own.
type noOptions struct{ invocation }

func parseNone(f *Factory) func(*cli.Context) (*noOptions, error) {
	return func(c *cli.Context) (*noOptions, error) {
		if err := needArgs(c, 0, 0, ""); err != nil {
			return nil, err
		}
		return &noOptions{invoked(f, c)}, nil
	}
}

func newCmdPing(f *Factory, runF func(*noOptions) error) *cli.Command {
	return &cli.Command{
		Name:        "ping",
		Usage:       "check that the server answers (ping; server/discover on modern servers, which have no ping)",
		ArgsUsage:   " ",
		Description: "Prints the server's answer ({}) and exits 0 when it answers.",
		Action:      actionOf(parseNone(f), runF, runPing),
	}
}

func runPing(o *noOptions) error {
	return o.withConnection(func(conn Connection) error {
		raw, err := conn.Client().Ping(o.ctx())
		if err != nil {
			return wrapOp("ping", err)
		}
		return conn.Print(o.ctx(), output.KindGeneric, raw)
	})
}

type callOptions struct {
	invocation
	Method    string
	Params    string          // PARAMS-JSON, or - for stdin
	RawParams json.RawMessage // params read already (a batch's JSON line), instead of Params
	HasParams bool            // PARAMS-JSON was given
}

func newCmdCall(f *Factory, runF func(*callOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "call",
		Usage:     "send any method with any params; mcpctl still adds _meta",
		ArgsUsage: "METHOD [PARAMS-JSON | -]",
		Description: "PARAMS-JSON is a JSON object, or - to read it from stdin. Keys you put in\n" +
			"params._meta are kept; mcpctl adds the protocol version, capabilities and client info.",
		Action: actionOf(func(c *cli.Context) (*callOptions, error) {
			if err := callItems(c.Args().Slice()); err != nil {
				return nil, err
			}
			if err := needArgs(c, 1, 2, "METHOD [PARAMS-JSON | -]"); err != nil {
				return nil, err
			}
			return &callOptions{invocation: invoked(f, c), Method: c.Args().Get(0), Params: c.Args().Get(1), HasParams: c.Args().Len() == 2}, nil
		}, runF, runCall),
	}
}

func runCall(o *callOptions) error {
	return o.withConnection(func(conn Connection) error {
		var params json.RawMessage
		if o.HasParams {
			data := []byte(o.RawParams)
			if data == nil {
				var err error
				if data, err = argv.ReadJSONArg("params", o.Params, o.IO.In); err != nil {
					return err
				}
			}
			if _, err := argv.ParseObject("params", data); err != nil {
				return err
			}
			// As given: the client sends a key given twice once, with
			// its last value, as ParseObject reads it.
			params = data
		}
		raw, err := conn.Client().Call(o.ctx(), o.Method, params, nil)
		if err != nil {
			return wrapOp(o.Method, err)
		}
		return conn.Print(o.ctx(), output.KindGeneric, raw)
	})
}

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
