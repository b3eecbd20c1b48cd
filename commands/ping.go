package commands

import (
	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/output"
)

func pingCommand(ios *output.IOStreams) *cli.Command {
	return &cli.Command{
		Name:        "ping",
		Usage:       "check that the server answers (ping; server/discover on modern servers, which have no ping)",
		ArgsUsage:   " ",
		Description: "Prints the server's answer ({}) and exits 0 when it answers.",
		Action: withSession(ios, func(c *cli.Context, s *session) error {
			if err := needArgs(c, 0, 0, ""); err != nil {
				return err
			}
			raw, err := s.client.Ping(c.Context)
			if err != nil {
				return wrapOp("ping", err)
			}
			return s.print(c.Context, output.KindGeneric, raw)
		}),
	}
}
