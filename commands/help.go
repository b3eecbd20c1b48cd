package commands

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/internal/argv"
)

// A help topic is text that belongs to no single command. `mcpctl help
// TOPIC` prints it and the man page of mcpctl carries it as a section.
// Bodies are paragraphs separated by blank lines; lines indented by three
// spaces are kept as they are (tables, examples).
type helpTopic struct {
	name, title string
	body        func() string
}

var helpTopics = []helpTopic{
	{"items", "request items: the arguments of tools call and prompts get", func() string { return itemsHelp }},
	{"output", "output formats, --jq, terminals and pipes", func() string { return outputHelp }},
	{"config", "named servers: the config file and the files of other clients", func() string { return configHelp }},
	{"exit-codes", "what each exit status means", exitCodesHelp},
	{"environment", "the environment variables mcpctl reads", environmentHelp},
}

func findTopic(name string) *helpTopic {
	for i := range helpTopics {
		if helpTopics[i].name == name {
			return &helpTopics[i]
		}
	}
	return nil
}

const itemsHelp = `tools call and prompts get take their arguments as request items, HTTPie style:

   key=value        a string, typed from the tool's inputSchema (units=3 becomes 3 if the schema says integer)
   key:=JSON        any JSON value, sent as written (n:=1.50, ok:=true, tags:='["a"]')
   key=@FILE        the file's text (key=@- reads stdin); key:=@FILE.json the file's JSON
   a[b]=c a[0]=x    nested objects and array positions; tags[]=x appends
   \= \: \@ \[      escape those characters in keys; a value \@x is the literal @x

--json '{…}', --json @FILE or --json - (stdin) gives a base object that items then modify; later
items override earlier ones. tools call checks the arguments against the tool's inputSchema before
anything is sent: an unknown key names the closest declared ones, a missing one is listed with its
type, a wrong type or enum value quotes the allowed values (exit 2). A key the schema does not
declare is refused even if the schema does not forbid it (--allow-extra sends it); --no-validate
sends them as given. prompts get checks its name and arguments against prompts/list alike. 'mcpctl tools describe NAME' shows a tool's parameters and a usage line.`

const outputHelp = `-o json|yaml|table|text (MCPCTL_OUTPUT) picks the format; the default is text on a terminal and
json when stdout is a pipe or a file.

   json    the server's result exactly as received (key order, numbers, unknown fields); one
           compact line on a pipe, indented on a terminal
   yaml    the same data as YAML, key order and numbers kept
   table   one row per tool, resource, template, prompt, completion, cached result or server;
           tab-separated with a header row on a pipe, fitted to the terminal otherwise
   text    for people: tool results as their text, resources as text or a description of blobs

--jq EXPR filters the JSON result with gojq: strings print raw, other values as JSON, one per line.
Objects that pass through jq come out with sorted keys. stdout carries results only: errors,
warnings, progress, server logs and --trace go to stderr. Server text shown on a terminal is
stripped of control characters; NO_COLOR turns colour off.`

const configHelp = `Named servers live in $MCPCTL_CONFIG, else $XDG_CONFIG_HOME/mcpctl/config.yaml
(~/.config/mcpctl/config.yaml), written by 'mcpctl config add' or by hand:

   defaults:                      # global options, used when no flag or variable gives them
     output: table                # also timeout, cacheTTL, probeTimeout, progress, logLevel,
                                  # serverStderr, shutdownGrace, tokenStore
     server: weather              # the server to use when none is named
   servers:
     weather:
       url: https://weather.example.com/mcp
       headers: {Authorization: "Bearer ${WEATHER_TOKEN}"}
       timeout: 30s
     files:
       command: npx
       args: [-y, "@modelcontextprotocol/server-filesystem", "${HOME}/src"]
       env: {LOG_LEVEL: "${LOG_LEVEL:-info}"}
       cwd: /srv
       protocolVersion: 2025-11-25
       roots: [/srv/docs]
       serverStderr: /tmp/files.log
       shutdownGrace: 0           # --shutdown-grace for this server: SIGTERM at once
       keepAlive: 10m             # first use starts a session, ended after 10m unused

An entry has url (with headers, and auth: bearer is sent as an Authorization header; clientId,
clientSecret and scopes are kept for OAuth, and so are grant, assertion, idpTokenEndpoint,
idpClientId, idpClientSecret and idToken; dpop: true|false is --dpop/--no-dpop) or command (with args, env, envFile, cwd), and may set
protocolVersion, roots and any option defaults takes (output, timeout, cacheTTL, probeTimeout,
progress, logLevel, serverStderr, shutdownGrace, tokenStore). A flag wins, then its variable, then the entry
of the server in use, then defaults. keepAlive, in an entry or in defaults, keeps a session
(mcpctl help session). 'mcpctl config add' stores these flags in the entry it writes, and
refuses the global flags an entry has no place for (--jq, --insecure…).
${VAR} and ${VAR:-default} are expanded from the environment each time a server is used, so
secrets stay out of the file; an unset variable without a default is an error naming it.
Unknown keys are reported as warnings. A YAML error (exit 2, with the file, line and column)
stops the commands that need the file's servers (-s NAME, no server given, the config verbs);
the others (--url, --stdio, another client's FILE:NAME, cache list…) warn once and go on
without its defaults. 'mcpctl config edit' is how to mend it.

The servers of other clients are read where they are, never copied unless you ask
('mcpctl config import'):

   Claude Desktop   claude_desktop_config.json in the system's config folder (Claude/)
   Claude Code      .mcp.json (the nearest from the working directory upwards), ~/.claude.json
                    (user servers, and the local ones of the project you are in)
   VS Code          .vscode/mcp.json (the nearest upwards; ${input:ID} comes from MCPCTL_INPUT_ID)
   Cursor           ~/.cursor/mcp.json, and .cursor/mcp.json (the nearest upwards)

The project's files (.mcp.json, .vscode/mcp.json, .cursor/mcp.json, looked for from the working
directory up to your home folder, never across a file system's boundary) come with whatever
folder you are in, so three rules guard them:
   - a file is read only when it, and every folder from the working directory up to it, is
     yours (or root's) and no one else may write it; otherwise it is skipped with a warning;
   - it is used only once you trust it as it is: 'mcpctl config trust' (review it first:
     'mcpctl config list' shows what it would define); a changed file needs trusting again.
     Until then a name only it defines fails (exit 2), and a name you define too is yours,
     with a warning. --trust-project (MCPCTL_TRUST_PROJECT=1) uses them untrusted, for CI;
   - its ${VAR} read only the variables your config names: projectEnv: [GITHUB_TOKEN].

'mcpctl config list' shows every name with its source. Use one with -s NAME (or MCPCTL_SERVER,
or a bare NAME before the command: 'mcpctl weather tools list'; commands win, so a server named
like a command needs -s). A name defined in several places is taken from the first of:
mcpctl's own file; the project's (~/.claude.json's servers for this project, .mcp.json,
.vscode/mcp.json, .cursor/mcp.json); the user's (Claude Desktop, ~/.claude.json, Cursor).
'mcpctl config list' marks the others "shadowed by" that source, and -s FILE:NAME still picks
any entry from its file (a file you name is yours: no trust needed). A name that matches nothing lists the closest names. A malformed entry in another
client's file is skipped with a warning. Which server a command uses:
--url, --stdio or -s; else MCPCTL_URL, MCPCTL_STDIO or MCPCTL_SERVER; else defaults.server.
'mcpctl config --help' lists the commands that manage the file.`

type exitCode struct {
	code    int
	meaning string
}

// exitCodes is the exit-code table of --help, 'mcpctl help exit-codes'
// and the man pages; docs/output.md has the same table.
var exitCodes = []exitCode{
	{ExitOK, "success"},
	{ExitToolError, "the tool answered isError: true, or its task was cancelled"},
	{ExitUsage, "usage error (flags, request items, arguments that fail the tool's schema, --jq, an unknown tool, a config file or server name that cannot be used)"},
	{ExitConnection, "connection or transport failure (spawn, refused, server died, timeout, protocol violation, no answer to the era probe nor to initialize); skill content that does not match its entry; with --strict, a tool result that does not match its outputSchema"},
	{ExitServerError, "the server answered a JSON-RPC error"},
	{ExitAuth, "authentication or authorization failure"},
	{ExitInput, "the server needs input that could not be given (a continuation is printed on stdout), or it kept asking past --max-rounds"},
	{ExitInterrupted, "interrupted: Ctrl-C or SIGTERM, also at a prompt (a task keeps running unless --cancel-on-interrupt)"},
}

// exitCodeHelp follows the app's description in its help (the app help
// template, flagcategories.go): scripts are written from --help. It is
// put together when that help is printed, not in every process.
func exitCodeHelp() string { return "EXIT CODES:\n" + exitCodesHelp() }

func exitCodesHelp() string {
	var b strings.Builder
	for _, e := range exitCodes {
		lines := wrapWords(e.meaning, 88)
		fmt.Fprintf(&b, "   %-4d %s\n", e.code, lines[0])
		for _, l := range lines[1:] {
			fmt.Fprintf(&b, "        %s\n", l)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// envVar is one environment variable mcpctl reads.
type envVar struct{ name, meaning string }

// environment lists the variables: those of flags, then the others.
func environment() []envVar {
	var out []envVar
	for _, f := range globalFlags() {
		df, ok := f.(cli.DocGenerationFlag)
		if !ok {
			continue
		}
		for _, ev := range df.GetEnvVars() {
			out = append(out, envVar{ev, "--" + f.Names()[0] + ": " + strings.ReplaceAll(df.GetUsage(), "`", "")})
		}
	}
	out = append(out,
		envVar{"MCPCTL_URL", "the server's Streamable HTTP endpoint, when no --url, --stdio or -s is given"},
		envVar{"MCPCTL_STDIO", "the server's command line, when no --url, --stdio or -s is given"},
		envVar{"MCPCTL_SERVER", "a configured server name (or FILE:NAME), when no --url, --stdio or -s is given"},
		envVar{"MCPCTL_CONFIG", "mcpctl's config file (default $XDG_CONFIG_HOME/mcpctl/config.yaml)"},
		envVar{"MCPCTL_CACHE_DIR", "the result cache (default $XDG_CACHE_HOME/mcpctl/results)"},
		envVar{"MCPCTL_STATE_DIR", "tasks and the continuation key (default $XDG_STATE_HOME/mcpctl)"},
		envVar{"MCPCTL_INPUT_ID", "the value of VS Code's ${input:ID} in .vscode/mcp.json (ID upper-cased, - as _)"},
		envVar{"MCPCTL_FORCE_TTY", "treat stdout as a terminal (1) or not (0); 1 also sanitises a stdio server's stderr as at a terminal"},
		envVar{"XDG_CONFIG_HOME, XDG_CACHE_HOME, XDG_STATE_HOME", "base folders (default ~/.config, ~/.cache, ~/.local/state)"},
		envVar{"CLAUDE_CONFIG_DIR", "where Claude Code keeps .claude.json (default the home folder)"},
		envVar{"VISUAL, EDITOR", "the editor of 'mcpctl config edit' (default vi)"},
		envVar{"NO_COLOR", "no colour in the output"},
		envVar{"HTTPS_PROXY, HTTP_PROXY, NO_PROXY", "proxies for Streamable HTTP, as in Go's net/http"},
	)
	return out
}

func environmentHelp() string {
	var b strings.Builder
	for _, e := range environment() {
		fmt.Fprintf(&b, "   %s\n        %s\n", e.name, e.meaning)
	}
	return strings.TrimRight(b.String(), "\n")
}

// files lists the files mcpctl reads and writes, for the man pages.
var files = []envVar{
	{"~/.config/mcpctl/config.yaml", "named servers and defaults ($MCPCTL_CONFIG, $XDG_CONFIG_HOME/mcpctl/config.yaml)"},
	{"~/.cache/mcpctl/results/", "cached results and remembered server eras ($MCPCTL_CACHE_DIR, $XDG_CACHE_HOME/mcpctl/results; macOS: ~/Library/Caches/mcpctl/results/, Windows: %LocalAppData%\\mcpctl\\results\\)"},
	{"~/.local/state/mcpctl/", "tasks started here and the key that seals continuations ($MCPCTL_STATE_DIR, $XDG_STATE_HOME/mcpctl)"},
	{".mcp.json, .vscode/mcp.json", "project servers of Claude Code and VS Code, the nearest from the working directory upwards"},
	{"~/.claude.json", "Claude Code's user and local servers"},
	{"~/.cursor/mcp.json", "Cursor's servers"},
	{"~/.config/Claude/claude_desktop_config.json", "Claude Desktop's servers (macOS: ~/Library/Application Support/Claude/, Windows: %APPDATA%\\Claude\\)"},
}

func wrapWords(s string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = w
			continue
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}

type helpOptions struct {
	invocation
	Args []string // COMMAND… or TOPIC
}

func newCmdHelp(f *Factory, runF func(*helpOptions) error) *cli.Command {
	var names []string
	for _, t := range helpTopics {
		names = append(names, t.name)
	}
	return &cli.Command{
		Name:      "help",
		Usage:     "show the help of a command, or a topic: " + strings.Join(names, ", "),
		ArgsUsage: "[COMMAND… | TOPIC]",
		Action: actionOf(func(c *cli.Context) (*helpOptions, error) {
			return &helpOptions{invocation: invoked(f, c), Args: c.Args().Slice()}, nil
		}, runF, runHelp),
	}
}

func runHelp(o *helpOptions) error {
	var names []string
	for _, t := range helpTopics {
		names = append(names, t.name)
	}
	args, ios := o.Args, o.f.IOStreams
	if len(args) == 1 {
		if t := findTopic(args[0]); t != nil {
			_, err := fmt.Fprintf(ios.Out, "%s\n\n%s\n", strings.ToUpper(t.name[:1])+t.name[1:]+": "+t.title, t.body())
			return err
		}
	}
	cmds := o.tree().Commands
	for _, a := range args {
		cmd := argv.FindCommand(cmds, a)
		if cmd == nil || cmd.Hidden {
			var known []string
			for _, k := range cmds {
				if !k.Hidden {
					known = append(known, k.Name)
				}
			}
			if len(args) == 1 {
				known = append(known, names...)
			}
			msg := fmt.Sprintf("no help for %q", strings.Join(args, " "))
			if s := argv.Closest(a, known, 2); len(s) > 0 {
				msg += "; did you mean " + strings.Join(s, " or ") + "?"
			}
			return usagef("%s (topics: %s; commands: 'mcpctl help')", msg, strings.Join(names, ", "))
		}
		cmds = cmd.Subcommands
	}
	// A fresh app prints the help as `mcpctl COMMAND… --help` would.
	argv := append(append([]string{"mcpctl"}, args...), "--help")
	return NewApp(o.f).RunContext(o.ctx(), argv)
}

// helpTemplates gives every command (and the app) an EXAMPLES section
// from the examples table, and the app a list of help topics. What it
// sets is a short placeholder naming the command; printHelpCustom puts
// the template together when help is printed. Nearly every run shows no
// help, and building the templates of all commands up front (≈ 1.5 kB
// each) was ≈ 30 kB and 170 allocations of every process's start
// (tests/bench/findings.md).
func helpTemplates(app *cli.App) {
	app.CustomAppHelpTemplate = lazyHelp + helpApp
	var walk func(prefix string, cmds []*cli.Command)
	walk = func(prefix string, cmds []*cli.Command) {
		for _, c := range cmds {
			path := strings.TrimSpace(prefix + " " + c.Name)
			kind := helpCommandKind
			if len(c.Subcommands) > 0 {
				kind = helpGroup
			}
			c.CustomHelpTemplate = lazyHelp + kind + path
			walk(path, c.Subcommands)
		}
	}
	walk("", app.Commands)
}

// lazyHelp starts the placeholders helpTemplates sets; a NUL byte is in no
// real template. The kind follows (one byte), then the command's path.
const (
	lazyHelp        = "\x00mcpctl-help:"
	helpApp         = "a"
	helpCommandKind = "c"
	helpGroup       = "g"
)

// urfave prints all help through HelpPrinterCustom (HelpPrinter calls it
// too); mcpctl's expands the placeholders first.
var urfaveHelpPrinter = cli.HelpPrinterCustom

func init() { cli.HelpPrinterCustom = printHelpCustom }

func printHelpCustom(w io.Writer, templ string, data any, funcs map[string]any) {
	if app, ok := data.(*cli.App); ok && strings.HasPrefix(templ, lazyHelp+helpApp) {
		data = wholeTree(app) // the app's help lists every command
	}
	all := map[string]any{"mcpctlGlobalOptions": globalOptionsHelp, "mcpctlExitCodes": exitCodeHelp}
	for k, v := range funcs {
		all[k] = v
	}
	urfaveHelpPrinter(w, expandHelpTemplate(templ), data, all)
}

// expandHelpTemplate turns a placeholder into the template it stands for:
// urfave's for the app (its global options by category: globalOptionsHelp),
// a command or a command group, with the examples (and, for the app, the
// help topics) after it.
func expandHelpTemplate(templ string) string {
	rest, ok := strings.CutPrefix(templ, lazyHelp)
	if !ok || rest == "" {
		return templ
	}
	kind, path := rest[:1], rest[1:]
	switch kind {
	case helpApp:
		return appHelpTemplate() + examplesSection("") + topicsSection()
	case helpGroup:
		return cli.SubcommandHelpTemplate + examplesSection(path)
	default:
		return cli.CommandHelpTemplate + examplesSection(path)
	}
}

func examplesSection(path string) string {
	ex := examples[path]
	if len(ex) == 0 {
		return ""
	}
	return "\nEXAMPLES:\n   " + strings.Join(ex, "\n   ") + "\n"
}

func topicsSection() string {
	var b strings.Builder
	b.WriteString("\nHELP TOPICS (mcpctl help TOPIC):\n")
	names := make([]string, 0, len(helpTopics))
	width := 0
	for _, t := range helpTopics {
		names = append(names, t.name)
		width = max(width, len(t.name))
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "   %-*s  %s\n", width, n, findTopic(n).title)
	}
	return b.String()
}
