package commands

import (
	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/output"
)

func discoverCommand(ios *output.IOStreams) *cli.Command {
	return &cli.Command{
		Name:      "discover",
		Usage:     "show the server's versions, capabilities and instructions (server/discover)",
		ArgsUsage: " ",
		Action: withSession(ios, func(c *cli.Context, s *session) error {
			if err := needArgs(c, 0, 0, ""); err != nil {
				return err
			}
			raw, err := s.client.Call(c.Context, "server/discover", nil, nil)
			if err != nil {
				return wrapOp("server/discover", err)
			}
			return s.print(c.Context, output.KindDiscover, raw)
		}),
	}
}
