// Package commands is mcpctl's command-line surface: the command tree, its
// flags and one file per command group. It turns argv into calls on
// package client and hands the raw results to package output; the parts
// below it live in internal/ (argv: the scanner and request items;
// interact: prompts and progress; sessiond: the session process).
//
// Main builds the process's Factory (streams, environment, working
// directory) and Run runs one command line with it: the global flags are
// read once into GlobalOptions (globals.go). Each command is made by a
// constructor newCmdX(f, runF) (action.go): its action parses flags and
// arguments into an options struct and calls runF, which a test
// replaces, or the real runX, which calls its Connect (the factory's:
// connect.go) when it needs a server. A new command gets a constructor
// and a run function in its group's file and a line in topCommands (or
// its group's Subcommands), and a table of its flags in the group's
// _test.go (checkFlags).
package commands

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/internal/argv"
	"github.com/mcpctl/mcpctl/output"
)

// Version is set at build time with -ldflags "-X github.com/mcpctl/mcpctl/commands.Version=…".
var Version = ""

func version() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// Main runs mcpctl with the process's arguments and streams and returns
// the exit code. It is the only place that knows about signals.
func Main() int {
	// The handlers are not stopped: the process exits when Main returns,
	// and signal.Stop would first wait for os/signal's goroutine to
	// settle (≈ 0.1 ms of every run here, a short one like --version
	// mostly; tests/bench/findings.md).
	ctx, _ := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// net/http logs some peer misbehaviour through the standard logger
	// ("Unsolicited response received on idle HTTP channel") besides
	// returning it as an error; stderr is for mcpctl's own one-line errors.
	log.SetOutput(io.Discard)
	return Run(ctx, ProcessFactory(output.System()), os.Args)
}

// Run executes one command line (args[0] is the program name) and returns
// the exit code. Errors are printed as one line on the factory's ErrOut,
// which, as everything on it, has the credentials sent redacted.
func Run(ctx context.Context, f *Factory, args []string) int {
	f = f.withSecrets()
	return runApp(ctx, f, newAppFor(f, args[1:]), args)
}

// runApp is Run with the command tree given: a test runs one command
// whose run function it replaced.
func runApp(ctx context.Context, f *Factory, app *cli.App, args []string) int {
	ios := f.IOStreams
	err := execute(ctx, app, args)
	if err == nil {
		return ExitOK
	}
	code := ExitCode(err)
	var tool *ToolError
	if !errors.As(err, &tool) && !errors.Is(err, client.ErrDryRun) {
		var task *client.TaskInterruptedError
		switch {
		case code == ExitInterrupted && errors.As(err, &task):
			// The task outlives mcpctl: say how to find it again.
			fmt.Fprintln(ios.ErrOut, "mcpctl: interrupted: "+output.SanitizeMessage(oneLine(inOurWords(err))))
		case code == ExitInterrupted:
			fmt.Fprintln(ios.ErrOut, "mcpctl: interrupted")
		default:
			// Errors quote what servers said: never let that drive the
			// terminal, nor a name in them hide a character.
			fmt.Fprintln(ios.ErrOut, "mcpctl: "+output.SanitizeMessage(oneLine(inOurWords(err))))
		}
	}
	return code
}

// execute runs one command line on app: flags may go anywhere
// (argv.Normalize).
func execute(ctx context.Context, app *cli.App, args []string) error {
	line, err := argv.Normalize(app, args[1:])
	if err != nil {
		return err
	}
	return app.RunContext(ctx, append([]string{args[0]}, line...))
}

// oneLine is output.OneLine, under the name the session files (keepalive_*.go,
// on their way to a package of their own) call it by.
func oneLine(s string) string { return output.OneLine(s) }

// topCommand is a command of the tree's first level: its name, for
// reading a line, and its constructor.
type topCommand struct {
	name  string
	build func(*Factory) *cli.Command
}

// topCommands is the first level of the command tree, in the order help
// lists it. (A function: the constructors reach wholeTree, which reads it.)
func topCommands() []topCommand {
	return []topCommand{
		{"discover", func(f *Factory) *cli.Command { return newCmdDiscover(f, nil) }},
		{"ping", func(f *Factory) *cli.Command { return newCmdPing(f, nil) }},
		{"tools", toolsCommand},
		{"resources", resourcesCommand},
		{"prompts", promptsCommand},
		{"skills", skillsCommand},
		{"complete", func(f *Factory) *cli.Command { return newCmdComplete(f, nil) }},
		{"call", func(f *Factory) *cli.Command { return newCmdCall(f, nil) }},
		{"batch", func(f *Factory) *cli.Command { return newCmdBatch(f, nil) }},
		{"cache", cacheCommand},
		{"tasks", tasksCommand},
		{"listen", func(f *Factory) *cli.Command { return newCmdListen(f, nil) }},
		{"resume", func(f *Factory) *cli.Command { return newCmdResume(f, nil) }},
		{"session", sessionCommand},
		{"auth", authCommand},
		{"config", configCommand},
		{"completion", func(f *Factory) *cli.Command { return newCmdCompletion(f, nil) }},
		{"man", func(f *Factory) *cli.Command { return newCmdMan(f, nil) }},
		{"version", func(f *Factory) *cli.Command { return newCmdVersion(f, nil) }},
		{"help", func(f *Factory) *cli.Command { return newCmdHelp(f, nil) }},
		{"__complete", func(f *Factory) *cli.Command { return newCmdShellComplete(f, nil) }},
	}
}

// NewApp builds the whole command tree around the factory.
func NewApp(f *Factory) *cli.App {
	top := topCommands()
	cmds := make([]*cli.Command, len(top))
	for i, tc := range top {
		cmds[i] = tc.build(f)
	}
	return newApp(f, cmds)
}

// newAppFor is the app for one command line: its tree holds only the
// command the line names, with all its subcommands, or no command when
// the line names none. A process runs one line, and building all ≈ 60
// commands (their flags, actions, usage handlers and help placeholders)
// was ≈ 70 kB and 440 allocations of every start (tests/bench/findings.md,
// section 8). What lists every command asks wholeTree for it: the app's
// help, the root's unknown-command error, help, completion and config's
// check for server names that are commands.
func newAppFor(f *Factory, args []string) *cli.App {
	// The line is read with the real rules (argv.Scan), on the global flags
	// and a name-only stand-in for each command.
	top := topCommands()
	stubs := make([]*cli.Command, len(top))
	for i, tc := range top {
		stubs[i] = &cli.Command{Name: tc.name}
	}
	app := newAppFlags(f)
	app.Commands = stubs
	var cmds []*cli.Command
	if l := argv.Scan(app, args, false); len(l.Path) > 0 {
		for i, stub := range stubs {
			if stub == l.Path[0] {
				cmds = []*cli.Command{top[i].build(f)}
			}
		}
	}
	app.Metadata[partialTreeKey] = true
	setCommands(app, cmds)
	return app
}

// partialTreeKey marks an app that holds only the command its line named.
const partialTreeKey = "mcpctl.partial-tree"

// wholeTree is app when it holds every command, else an app around the
// same factory that does, set up as urfave sets up the app it runs.
func wholeTree(app *cli.App) *cli.App {
	if app.Metadata[partialTreeKey] != true {
		return app
	}
	whole := NewApp(app.Metadata[factoryKey].(*Factory))
	whole.Setup()
	return whole
}

// newApp is the app around the given commands: mcpctl's global flags, its
// usage errors, help templates and environment.
func newApp(f *Factory, cmds []*cli.Command) *cli.App {
	app := newAppFlags(f)
	setCommands(app, cmds)
	return app
}

// setCommands gives app its commands, with mcpctl's usage handlers and
// help templates.
func setCommands(app *cli.App, cmds []*cli.Command) {
	app.Commands = cmds
	setUsageHandlers(app.Commands)
	helpTemplates(app)
	argv.QuickNames(app)
}

// newAppFlags is the app without commands.
func newAppFlags(f *Factory) *cli.App {
	ios := f.IOStreams
	flags := globalFlags()
	detachDeclarations(flags)
	app := &cli.App{
		Name:    "mcpctl",
		Usage:   "a scriptable command-line client for the Model Context Protocol",
		Version: version(),
		UsageText: "mcpctl [-s NAME | --url URL | --stdio 'CMD ARGS…'] COMMAND [ARGS…]\n" +
			"mcpctl --stdio 'my-server' tools call weather_current location=SF",
		Description: "mcpctl speaks MCP revision " + client.LatestVersion + " over stdio or Streamable HTTP, and the legacy\n" +
			"revisions " + strings.Join(client.LegacyVersions(), ", ") + " (initialize handshake, also over HTTP+SSE):\n" +
			"the first contact probes the server's era and remembers it.\n" +
			"Results are JSON when piped and human-readable on a terminal; --jq filters them.",
		Reader:    ios.In,
		Writer:    ios.Out,
		ErrWriter: ios.ErrOut,
		// urfave adds --help only to apps without a help command of their
		// own, which mcpctl has (for the topics).
		Flags:                     append(flags, cli.HelpFlag),
		HideHelpCommand:           true,
		DisableSliceFlagSeparator: true,
		// urfave would call os.Exit itself; exit codes are ours to map.
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError:   onUsageError,
		Action:         unknownCommand,
		Before:         func(c *cli.Context) error { return readGlobals(c, f) },
		Metadata:       map[string]any{factoryKey: f},
	}
	return app
}

const (
	factoryKey = "mcpctl.factory"
	globalsKey = "mcpctl.globals"
)

// readGlobals reads the global flags once, before the command runs, for
// every command to take from its invocation; --quiet goes to the streams,
// where every note is written (notef).
func readGlobals(c *cli.Context, f *Factory) error {
	g, err := parseGlobals(c, f.LookupEnv)
	if err != nil {
		return err
	}
	c.App.Metadata[globalsKey] = g
	f.IOStreams.SetQuiet(g.Quiet)
	return nil
}

// globalsOf is what readGlobals read for the app c runs: the defaults
// when it read nothing (help, completion, an app without global flags).
func globalsOf(c *cli.Context) *GlobalOptions {
	if g, ok := c.App.Metadata[globalsKey].(*GlobalOptions); ok {
		return g
	}
	return &GlobalOptions{}
}

// factoryOf is the factory an app was built around, for actions that
// belong to no command of their own (unknownCommand).
func factoryOf(c *cli.Context) *Factory { return c.App.Metadata[factoryKey].(*Factory) }

func setUsageHandlers(cmds []*cli.Command) {
	for _, c := range cmds {
		c.OnUsageError = onUsageError
		// urfave would give every command a "help" subcommand (alias "h"),
		// which swallows an argument spelled so: `config add h …` or
		// `tools call help` showed help. `mcpctl help COMMAND` is ours.
		c.HideHelpCommand = true
		if len(c.Subcommands) > 0 && c.Action == nil {
			c.Action = unknownCommand
		}
		setUsageHandlers(c.Subcommands)
	}
}

func onUsageError(c *cli.Context, err error, _ bool) error {
	msg := err.Error()
	if strings.HasPrefix(msg, "flag provided but not defined: ") {
		name := strings.TrimPrefix(msg, "flag provided but not defined: ")
		if len(name) > 2 {
			name = "-" + name // the flag package drops one dash of --name
		}
		return usagef("unknown flag %s for '%s'; see '%s --help'", name, c.Command.HelpName, argv.HelpName(c))
	}
	if e, ok := argv.BadFlagValue(c, msg); ok {
		return e
	}
	return usagef("%s; see '%s --help'", msg, argv.HelpName(c))
}

// unknownCommand is the action of the app and of command groups: with no
// arguments it shows help, otherwise it names the unknown command.
func unknownCommand(c *cli.Context) error {
	if c.Args().Len() == 0 {
		if c.Command == nil || c.Command.Name == c.App.Name {
			// The root: its template is the app's, which wants the app.
			return cli.ShowAppHelp(c)
		}
		return cli.ShowSubcommandHelp(c)
	}
	var names []string
	cmds := wholeTree(c.App).Commands
	if c.Command != nil && len(c.Command.Subcommands) > 0 {
		cmds = c.Command.Subcommands
	}
	for _, cmd := range cmds {
		if !cmd.Hidden {
			names = append(names, cmd.Name)
		}
	}
	if root := c.Command == nil || c.Command.Name == c.App.Name; root && isServerName(factoryOf(c), c.Args().First()) {
		return usagef("%q is a configured server: name a command after it, e.g. 'mcpctl %s tools list'", c.Args().First(), c.Args().First())
	}
	msg := fmt.Sprintf("unknown command %q for '%s'", c.Args().First(), argv.HelpName(c))
	if s := argv.Closest(c.Args().First(), names, 2); len(s) > 0 {
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return usagef("%s (commands: %s)", msg, strings.Join(names, ", "))
}

// misspeltCommand is a lookup error of a bare server name that reads as a
// mistyped command instead: `mcpctl tool call x` takes "tool" for a
// server, since a command (call) follows it, and would say only that no
// server has that name. When the name is close to a command of mcpctl's
// (tool for tools) that has the command the user went on to write, the
// error says so first: the server was most likely not meant.
func misspeltCommand(c *cli.Context, name string, err error) error {
	var usage *UsageError
	if name == "" || !errors.As(err, &usage) || c.Command == nil || !strings.HasPrefix(usage.Msg, fmt.Sprintf("no server named %q ", name)) {
		return err
	}
	// The app of a line holds only the command it names (newAppFor): the
	// groups to compare with are the whole tree's.
	for _, group := range wholeTree(c.App).Commands {
		// Near in spelling only (tool, tools): a name that merely holds
		// a command's (a path with "config" in it) is no command.
		if group.Hidden || argv.EditDistance(strings.ToLower(name), group.Name) > 2 || argv.FindCommand(group.Subcommands, c.Command.Name) == nil {
			continue
		}
		return usagef("unknown command %q for 'mcpctl'; did you mean 'mcpctl %s %s'? (%q is no configured server either)", name, group.Name, c.Command.Name, name)
	}
	return err
}
