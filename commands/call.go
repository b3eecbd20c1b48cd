package commands

import (
	"encoding/json"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/output"
)

func callCommand(ios *output.IOStreams) *cli.Command {
	return &cli.Command{
		Name:      "call",
		Usage:     "send any method with any params; mcpctl still adds _meta",
		ArgsUsage: "METHOD [PARAMS-JSON | -]",
		Description: "PARAMS-JSON is a JSON object, or - to read it from stdin. Keys you put in\n" +
			"params._meta are kept; mcpctl adds the protocol version, capabilities and client info.",
		Action: withSession(ios, func(c *cli.Context, s *session) error {
			if err := needArgs(c, 1, 2, "METHOD [PARAMS-JSON | -]"); err != nil {
				return err
			}
			method := c.Args().Get(0)
			var params json.RawMessage
			if c.Args().Len() == 2 {
				data, err := readJSONArg("params", c.Args().Get(1), ios.In)
				if err != nil {
					return err
				}
				obj, err := parseObject("params", data)
				if err != nil {
					return err
				}
				params = obj.JSON()
			}
			raw, err := s.client.Call(c.Context, method, params, nil)
			if err != nil {
				return wrapOp(method, err)
			}
			return s.print(c.Context, output.KindGeneric, raw)
		}),
	}
}
