package commands

import (
	"context"

	"github.com/urfave/cli/v2"
)

// A command is built by a constructor newCmdX(f, runF): its action parses
// the command's flags and arguments into an options struct (xOptions) and
// hands it to runF when a test gives one, to the real run function (runX)
// otherwise. So a test checks what a command line means without a server,
// and the run function reads nothing from the command line itself.
//
// Every options struct embeds an invocation: the factory, and what urfave
// parsed, for the global flags a session is built from.

// invocation is one run of a command.
type invocation struct {
	f *Factory
	c *cli.Context
}

func invoked(f *Factory, c *cli.Context) invocation { return invocation{f: f, c: c} }

// ctx is the command's context: it ends at Ctrl-C or SIGTERM.
func (in invocation) ctx() context.Context { return in.c.Context }

// withSession connects to the server the global flags name, runs body and
// always shuts the server down afterwards.
func (in invocation) withSession(body func(s *session) error) error {
	s, err := newSession(in.c, in.f)
	if err != nil {
		return err
	}
	defer s.Close()
	return s.explain(body(s))
}

// actionOf is the action of a command: parse, then runF (a test's) or run.
func actionOf[O any](parse func(*cli.Context) (*O, error), runF, run func(*O) error) cli.ActionFunc {
	if runF == nil {
		runF = run
	}
	return func(c *cli.Context) error {
		o, err := parse(c)
		if err != nil {
			return err
		}
		return runF(o)
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

func cursorFlag() cli.Flag {
	return &cli.StringFlag{Name: "cursor", Usage: "fetch only the page at `CURSOR` (default: follow nextCursor to the end, all the pages within one --timeout and --max-message-size)"}
}

func jsonArgsFlag() cli.Flag {
	return &cli.StringFlag{Name: "json", Usage: "arguments as a JSON object: `'{…}'`, @FILE or - (stdin); key=value items override it"}
}
