package commands

import (
	"encoding/json"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/internal/argv"
	"github.com/mcpctl/mcpctl/output"
)

type callOptions struct {
	invocation
	Method    string
	Params    string // PARAMS-JSON, or - for stdin
	HasParams bool   // PARAMS-JSON was given
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
			data, err := argv.ReadJSONArg("params", o.Params, o.IO.In)
			if err != nil {
				return err
			}
			obj, err := argv.ParseObject("params", data)
			if err != nil {
				return err
			}
			params = obj.JSON()
		}
		raw, err := conn.Client().Call(o.ctx(), o.Method, params, nil)
		if err != nil {
			return wrapOp(o.Method, err)
		}
		return conn.Print(o.ctx(), output.KindGeneric, raw)
	})
}
