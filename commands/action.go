package commands

import (
	"context"

	"github.com/mcpctl/mcpctl/output"
	"github.com/urfave/cli/v2"
)

// A command is built by a constructor newCmdX(f, runF): its action parses
// the command's flags and arguments into an options struct (xOptions) and
// hands it to runF when a test gives one, to the real run function (runX)
// otherwise. So a test checks what a command line means without a server,
// and the run function reads nothing from the command line itself: a test
// can call it with options of its own, and a Connect that answers from
// the same process.
//
// Every options struct embeds an invocation: what every command is given
// besides its own flags and arguments.

// invocation is one run of a command.
type invocation struct {
	Ctx context.Context // ends at Ctrl-C or SIGTERM
	IO  *output.IOStreams
	// Globals are the global flags, read once (globals.go).
	Globals *GlobalOptions
	// Connect reaches the server Globals name.
	Connect func(context.Context) (Connection, error)
	// f is the machine, for the commands that work on it (config, cache,
	// auth, sessions): its directories and environment.
	f *Factory
	// tree is the whole command tree, for the commands that show it
	// (help, completion).
	tree func() *cli.App
}

// invoked is the invocation of the command c is running.
func invoked(f *Factory, c *cli.Context) invocation {
	g := globalsOf(c)
	how := ConnectOptions{Pageable: hasFlag(c.Command, "cursor"), Listen: c.Command != nil && c.Command.Name == "listen"}
	return invocation{Ctx: c.Context, IO: f.IOStreams, Globals: g, f: f, tree: func() *cli.App { return wholeTree(c.App) },
		Connect: func(ctx context.Context) (Connection, error) {
			conn, err := f.connect(ctx, g, how)
			if err != nil {
				return nil, misspeltCommand(c, g.Server, err)
			}
			return conn, nil
		}}
}

// ctx is the command's context: it ends at Ctrl-C or SIGTERM.
func (in invocation) ctx() context.Context {
	if in.Ctx == nil {
		return context.Background()
	}
	return in.Ctx
}

// withConnection connects to the server the global options name, runs
// body and always shuts the server down afterwards.
func (in invocation) withConnection(body func(conn Connection) error) error {
	conn, err := in.Connect(in.ctx())
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Explain(body(conn))
}

// renderOptions are the output options of a command that reaches no
// server: the global options with the config's defaults.
func (in invocation) renderOptions() (output.Options, error) {
	eff, err := effectiveOptions(in.Globals, in.f.config(in.Globals))
	if err != nil {
		return output.Options{}, err
	}
	return renderOptions(eff, in.IO)
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
