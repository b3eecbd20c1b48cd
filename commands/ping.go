package commands

import (
	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/output"
)

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
