package commands

import (
	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/output"
)

// withSession adapts a command body to a urfave action: it validates the
// flags, connects, and always shuts the server down afterwards.
func withSession(ios *output.IOStreams, body func(c *cli.Context, s *session) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		s, err := newSession(c, ios)
		if err != nil {
			return err
		}
		defer s.Close()
		return s.explain(body(c, s))
	}
}

// needArgs checks the number of positional arguments.
func needArgs(c *cli.Context, min, max int, usage string) error {
	n := c.Args().Len()
	if n < min || (max >= 0 && n > max) {
		return usagef("usage: %s %s", c.Command.HelpName, usage)
	}
	return nil
}

var cursorFlag = &cli.StringFlag{Name: "cursor", Usage: "fetch only the page at `CURSOR` (default: follow nextCursor to the end, all the pages within one --timeout and --max-message-size)"}

var jsonArgsFlag = &cli.StringFlag{Name: "json", Usage: "arguments as a JSON object: `'{…}'`, @FILE or - (stdin); key=value items override it"}
