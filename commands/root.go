// Package commands is mcpctl's command-line surface: flags, request items
// and one file per command group. It turns argv into calls on package
// client and hands the raw results to package output.
//
// Main builds the process's Factory (streams, environment, working
// directory) and Run runs one command line with it. Each command is made
// by a constructor newCmdX(f, runF) (action.go): its action parses flags
// and arguments into an options struct and calls runF, which a test
// replaces, or the real runX, which opens a session (session.go) when it
// needs a server. A new command gets a constructor and a run function in
// its group's file and a line in topCommands (or its group's Subcommands), and
// a table of its flags in the group's _test.go (checkFlags).
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
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client"
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
// the exit code. Errors are printed as one line on the factory's ErrOut.
func Run(ctx context.Context, f *Factory, args []string) int {
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
// (normalizeArgs).
func execute(ctx context.Context, app *cli.App, args []string) error {
	line, err := normalizeArgs(app, args[1:])
	if err != nil {
		return err
	}
	return app.RunContext(ctx, append([]string{args[0]}, line...))
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

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
		{"session", keepaliveCommand},
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
	// The line is read with the real rules (scanArgs), on the global flags
	// and a name-only stand-in for each command.
	top := topCommands()
	stubs := make([]*cli.Command, len(top))
	for i, tc := range top {
		stubs[i] = &cli.Command{Name: tc.name}
	}
	app := newAppFlags(f)
	app.Commands = stubs
	var cmds []*cli.Command
	if l := scanArgs(app, args, false); len(l.path) > 0 {
		for i, stub := range stubs {
			if stub == l.path[0] {
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
	quickFlagNames(app)
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
		Before:         func(c *cli.Context) error { return applyEnv(c, f) },
		Metadata:       map[string]any{configKey: newConfigLoader(f, ios.ErrOut), factoryKey: f},
	}
	return app
}

const factoryKey = "mcpctl.factory"

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
		return usagef("unknown flag %s for '%s'; see '%s --help'", name, c.Command.HelpName, helpName(c))
	}
	if e, ok := badFlagValue(c, msg); ok {
		return e
	}
	return usagef("%s; see '%s --help'", msg, helpName(c))
}

func helpName(c *cli.Context) string {
	if c.Command != nil && c.Command.HelpName != "" {
		return c.Command.HelpName
	}
	return "mcpctl"
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
	msg := fmt.Sprintf("unknown command %q for '%s'", c.Args().First(), helpName(c))
	if s := closest(c.Args().First(), names, 2); len(s) > 0 {
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return usagef("%s (commands: %s)", msg, strings.Join(names, ", "))
}

const (
	catServer = "Server"
	catOutput = "Output"
	catDebug  = "Debugging"
	catCache  = "Cache"
	catInput  = "Answering the server (input requests, tasks)"
)

func globalFlags() []cli.Flag {
	return append([]cli.Flag{
		&cli.StringFlag{Name: "server", Aliases: []string{"s"}, Usage: "use the configured server `NAME` (mcpctl config list), or FILE:NAME from one file (or set MCPCTL_SERVER)", Category: catServer},
		&cli.StringFlag{Name: "url", Usage: "the server's Streamable HTTP endpoint `URL` (or set MCPCTL_URL)", Category: catServer},
		&cli.StringFlag{Name: "stdio", Usage: "run the server as a subprocess: `'CMD ARGS…'`, split like a shell (or set MCPCTL_STDIO)", Category: catServer},
		&cli.StringSliceFlag{Name: "env", Usage: "set `K=V` in the stdio server's environment (repeatable)", Category: catServer},
		&cli.StringFlag{Name: "cwd", Usage: "working `DIR`ectory of the stdio server", Category: catServer},
		&cli.StringSliceFlag{Name: "header", Aliases: []string{"H"}, Usage: "add an HTTP header `'Name: value'` (repeatable)", Category: catServer},
		&cli.StringFlag{Name: "protocol-version", Usage: "pin the protocol `VERSION` and skip era detection (" + strings.Join(client.SupportedVersions(), ", ") + "; the last four are legacy: initialize handshake)", EnvVars: []string{"MCPCTL_PROTOCOL_VERSION"}, Category: catServer},
		&cli.DurationFlag{Name: "probe-timeout", Usage: "wait up to `DURATION` for a server/discover answer before taking the server for a legacy one (initialize)", Value: client.DefaultProbeTimeout, EnvVars: []string{"MCPCTL_PROBE_TIMEOUT"}, Category: catServer},
		&cli.DurationFlag{Name: "timeout", Usage: "bound every request, and all the pages of a listing together, by `DURATION` (0 = no bound); when given, also how long prompts may wait, counted from the command's start", Value: 60 * time.Second, EnvVars: []string{"MCPCTL_TIMEOUT"}, Category: catServer},
		&cli.StringFlag{Name: "server-stderr", Usage: "the stdio server's stderr: inherit (sanitised line by line when stderr is a terminal), discard or a `FILE` (kept exactly)", Value: "inherit", EnvVars: []string{"MCPCTL_SERVER_STDERR"}, Category: catServer},
		&cli.DurationFlag{Name: "shutdown-grace", Usage: "when done, close the stdio server's stdin and give it `DURATION` to exit, then SIGTERM (0: at once), then SIGKILL after " + client.DefaultTermGrace.String() + " more", Value: client.DefaultCloseGrace, EnvVars: []string{"MCPCTL_SHUTDOWN_GRACE"}, Category: catServer},
		&cli.BoolFlag{Name: "insecure", Usage: "skip TLS certificate verification (unsafe)", Category: catServer},
		&cli.StringFlag{Name: "max-message-size", Usage: "refuse a message from the server larger than `SIZE`, and a listing whose pages come to more in all (such as 64MiB, 10MB or 1048576)", Value: "64MiB", EnvVars: []string{"MCPCTL_MAX_MESSAGE_SIZE"}, Category: catServer},
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "output `FORMAT`: json, yaml, table or text (default: text on a terminal, json otherwise)", EnvVars: []string{"MCPCTL_OUTPUT"}, Category: catOutput},
		&cli.StringFlag{Name: "jq", Usage: "filter the JSON result with a jq `EXPR` (strings print raw; -o yaml: YAML documents)", Category: catOutput},
		&cli.BoolFlag{Name: "refresh", Usage: "ignore cached results, and stale lists as hints: fetch first (still store new ones)", Category: catCache},
		&cli.DurationFlag{Name: "cache-ttl", Usage: "keep results that carry no ttlMs (all of a legacy server's) fresh for `DURATION`", EnvVars: []string{"MCPCTL_CACHE_TTL"}, Category: catCache},
		&cli.BoolFlag{Name: "no-cache", Usage: "neither read nor write the result cache", EnvVars: []string{"MCPCTL_NO_CACHE"}, Category: catCache},
		&cli.StringSliceFlag{Name: "answer", Usage: "answer input request KEY's field: `KEY.FIELD=VALUE` (repeatable; typed by the requested schema)", Category: catInput},
		&cli.StringFlag{Name: "answers", Usage: "answers as an InputResponses JSON object: `FILE` or - (stdin)", Category: catInput},
		&cli.StringFlag{Name: "elicit", Usage: "answer elicitations without asking: `MODE` accept-defaults, decline or cancel", EnvVars: []string{"MCPCTL_ELICIT"}, Category: catInput},
		&cli.StringSliceFlag{Name: "root", Usage: "offer `PATH|URI` as a root when the server asks (repeatable; declares the roots capability)", Category: catInput},
		&cli.StringFlag{Name: "sampling-cmd", Usage: "answer sampling/createMessage by piping its params to `CMD`, which prints a CreateMessageResult", Category: catInput},
		&cli.BoolFlag{Name: "open-urls", Usage: "at a terminal, open URL elicitations in the browser ($BROWSER, else the platform's opener) without asking", Category: catInput},
		&cli.IntFlag{Name: "max-rounds", Usage: "give up after `N` input_required rounds (retries of a request, or polls that find a task waiting for input)", Value: 10, Category: catInput},
		&cli.BoolFlag{Name: "no-tasks", Usage: "do not declare the Tasks extension", Category: catInput},
		&cli.BoolFlag{Name: "cancel-on-interrupt", Usage: "send tasks/cancel when Ctrl-C stops waiting for a task", Category: catInput},
		&cli.StringFlag{Name: "progress", Usage: "show progress as `MODE`: auto (a bar when stderr is a terminal), bar, json (lines on stderr) or none", Value: "auto", EnvVars: []string{"MCPCTL_PROGRESS"}, Category: catOutput},
		&cli.DurationFlag{Name: "max-timeout", Usage: "progress extends --timeout, up to `DURATION` in all (0: no cap)", Category: catServer},
		&cli.StringFlag{Name: "log-level", Usage: "ask the server for log messages of at least `LEVEL` (debug … emergency)", EnvVars: []string{"MCPCTL_LOG_LEVEL"}, Category: catOutput},
		&cli.BoolFlag{Name: "trace", Usage: "print every message sent and received to stderr (credentials redacted)", EnvVars: []string{"MCPCTL_TRACE"}, Category: catDebug},
		&cli.BoolFlag{Name: "no-session", Usage: "reach the server directly even when a session (mcpctl session) is running for it", EnvVars: []string{"MCPCTL_NO_SESSION"}, Category: catServer},
		&cli.BoolFlag{Name: "dry-run", Usage: "print what a real run would send (its era, tool typing and headers, from what earlier runs remembered and cached) and send nothing", Category: catDebug},
	}, append(authFlags(), dpopFlags()...)...)
}
