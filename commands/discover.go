package commands

import (
	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/output"
)

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
