package commands

import (
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/internal/argv"
	"github.com/urfave/cli/v2"
)

// The global flags: their definitions, their variables and categories,
// and how urfave shows them. Nothing here reads a flag's value: that is
// globals.go, once per command line.
//
// The environment variables of global flags (MCPCTL_TIMEOUT for
// --timeout, …) are declared on the flags, as urfave/cli has them, but
// read by mcpctl from its factory (parseGlobals): the flags urfave parses
// carry none (detachDeclarations). So a test describes the environment
// without touching the process's, and help, man pages and the environment
// topic still list the variables.
//
// The global flags' categories (Server, Output, Authorization, …) are set
// where the flags are defined, but urfave never sees them either: given a
// Category, its App.Setup sorts every visible flag by its rendered help
// line (Flag.String: a regexp, fmt and the environment hint per flag) in
// every process, for a help text nearly no run prints; that was 15% of the
// instructions of `mcpctl --version` (tests/bench/findings.md, section 8).
// newApp takes the categories off the flags (detachDeclarations) and the
// app's help template renders the same sections, byte for byte, when help
// is printed (globalOptionsHelp); the man pages read them here too.
//
// urfave/cli keeps some state in package variables that every app shares:
// the --help and --version flags, which each run's flag parsing writes to
// (BoolFlag.Apply records its default), and the function that writes a
// flag's line of help. mcpctl runs several apps at once in its tests;
// both are set up here, once, when the package loads.

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
		&cli.DurationFlag{Name: "probe-timeout", Usage: "give a server whose era is not known yet `DURATION` to answer at all, its start included, before refusing it as no MCP server", Value: client.DefaultProbeTimeout, EnvVars: []string{"MCPCTL_PROBE_TIMEOUT"}, Category: catServer},
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
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "leave out mcpctl's notes on stderr (a file written, a session started or stopped, a task to follow; docs/output.md lists them): errors and warnings stay", EnvVars: []string{"MCPCTL_QUIET"}, Category: catOutput},
		&cli.StringFlag{Name: "log-level", Usage: "ask the server for log messages of at least `LEVEL` (debug … emergency)", EnvVars: []string{"MCPCTL_LOG_LEVEL"}, Category: catOutput},
		&cli.BoolFlag{Name: "trace", Usage: "print every message sent and received to stderr (credentials redacted)", EnvVars: []string{"MCPCTL_TRACE"}, Category: catDebug},
		&cli.BoolFlag{Name: "no-session", Usage: "reach the server directly even when a session (mcpctl session) is running for it", EnvVars: []string{"MCPCTL_NO_SESSION"}, Category: catServer},
		&cli.BoolFlag{Name: "trust-project", Usage: "use the project's config files (.mcp.json, .vscode/mcp.json, .cursor/mcp.json) without 'mcpctl config trust': for CI, where the checkout is the job's own", EnvVars: []string{"MCPCTL_TRUST_PROJECT"}, Category: catServer},
		&cli.BoolFlag{Name: "dry-run", Usage: "print what a real run would send (its era, tool typing and headers, from what earlier runs remembered and cached) and send nothing", Category: catDebug},
	}, append(authFlags(), dpopFlags()...)...)
}

const catAuth = "Authorization"

func authFlags() []cli.Flag {
	return append([]cli.Flag{
		&cli.StringFlag{Name: "bearer", Usage: "send `TOKEN` as Authorization: Bearer (no OAuth login)", EnvVars: []string{"MCPCTL_BEARER"}, Category: catAuth},
		&cli.StringFlag{Name: "client-id", Usage: "a pre-registered OAuth client `ID`", EnvVars: []string{"MCPCTL_CLIENT_ID"}, Category: catAuth},
		&cli.StringFlag{Name: "client-secret", Usage: "the pre-registered client's `SECRET`", EnvVars: []string{"MCPCTL_CLIENT_SECRET"}, Category: catAuth},
		&cli.StringFlag{Name: "client-metadata-url", Usage: "use the Client ID Metadata Document at `URL` as client id, where supported", EnvVars: []string{"MCPCTL_CLIENT_METADATA_URL"}, Category: catAuth},
		&cli.StringFlag{Name: "grant", Usage: "OAuth grant `TYPE`: authorization-code (a login in a browser), client-credentials (the client as itself: --client-id with --client-secret or --client-key), jwt-bearer (a workload's own JWT: --assertion) or id-jag (enterprise-managed: --id-token exchanged at --idp-token-endpoint)", Value: "authorization-code", EnvVars: []string{"MCPCTL_GRANT"}, Category: catAuth},
		&cli.StringFlag{Name: "client-key", Usage: "sign client assertions (private_key_jwt) with the PEM private key in `FILE`", EnvVars: []string{"MCPCTL_CLIENT_KEY"}, Category: catAuth},
		&cli.StringFlag{Name: "client-key-alg", Usage: "the assertion's signing `ALG` (default: ES256/384/512 by curve, RS256 for RSA)", Category: catAuth},
		&cli.IntFlag{Name: "callback-port", Usage: "listen for the authorization redirect on 127.0.0.1:`PORT` (default: any free port)", Category: catAuth},
		tokenStoreFlag(),
		&cli.BoolFlag{Name: "no-browser", Usage: "print the authorization URL and read the redirect URL pasted on stdin", Category: catAuth},
	}, grantFlags()...)
}

func grantFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "assertion", Usage: "--grant jwt-bearer: the workload's JWT (`TOKEN`, @FILE, or - for stdin)", EnvVars: []string{"MCPCTL_ASSERTION"}, Category: catAuth},
		&cli.StringFlag{Name: "idp-token-endpoint", Usage: "--grant id-jag: the identity provider's token endpoint `URL`", EnvVars: []string{"MCPCTL_IDP_TOKEN_ENDPOINT"}, Category: catAuth},
		&cli.StringFlag{Name: "idp-client-id", Usage: "--grant id-jag: this client's `ID` at the identity provider", EnvVars: []string{"MCPCTL_IDP_CLIENT_ID"}, Category: catAuth},
		&cli.StringFlag{Name: "idp-client-secret", Usage: "--grant id-jag: this client's `SECRET` at the identity provider, if it has one", EnvVars: []string{"MCPCTL_IDP_CLIENT_SECRET"}, Category: catAuth},
		&cli.StringFlag{Name: "id-token", Usage: "--grant id-jag: the user's ID token from the identity provider (`TOKEN`, @FILE, or - for stdin)", EnvVars: []string{"MCPCTL_ID_TOKEN"}, Category: catAuth},
	}
}

func dpopFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "dpop", Usage: "bind OAuth tokens to a key of mcpctl's (DPoP, RFC 9449) even where the authorization server does not advertise it, and refuse unbound ones", EnvVars: []string{"MCPCTL_DPOP"}, Category: catAuth},
		&cli.BoolFlag{Name: "no-dpop", Usage: "never bind OAuth tokens with DPoP: Bearer tokens only", Category: catAuth},
	}
}

// tokenStores are the values of --token-store.
var tokenStores = []string{"auto", "keychain", "file"}

func tokenStoreFlag() cli.Flag {
	return &cli.StringFlag{Name: "token-store", Usage: "keep OAuth tokens in `STORE`: auto (the OS keychain where there is one, else files), keychain, or file (0600 files in the state directory)", Value: "auto", EnvVars: []string{"MCPCTL_TOKEN_STORE"}, Category: catAuth}
}

// flagEnvVars maps a global flag's name to its variables, as declared.
var flagEnvVars = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, f := range globalFlags() {
		if df, ok := f.(cli.DocGenerationFlag); ok && len(df.GetEnvVars()) > 0 {
			m[argv.FlagName(f)] = df.GetEnvVars()
		}
	}
	return m
})

// envVarsOf is a flag's variables, whether or not they were detached.
func envVarsOf(f cli.Flag) []string {
	if df, ok := f.(cli.DocGenerationFlag); ok && len(df.GetEnvVars()) > 0 {
		return df.GetEnvVars()
	}
	return flagEnvVars()[argv.FlagName(f)]
}

// detachDeclarations removes from flags what mcpctl declares on them but
// urfave must not act on: the variables, so that urfave does not read them
// from the process, and the categories, which urfave would sort the flags
// by in every process (globalOptionsHelp). A flag type missing here keeps
// both: TestAppFlagsDetached fails then.
func detachDeclarations(flags []cli.Flag) {
	for _, f := range flags {
		switch f := f.(type) {
		case *cli.StringFlag:
			f.EnvVars, f.Category = nil, ""
		case *cli.BoolFlag:
			f.EnvVars, f.Category = nil, ""
		case *cli.DurationFlag:
			f.EnvVars, f.Category = nil, ""
		case *cli.IntFlag:
			f.EnvVars, f.Category = nil, ""
		case *cli.StringSliceFlag:
			f.EnvVars, f.Category = nil, ""
		}
	}
}

var _ = func() bool {
	cli.HelpFlag = argv.SharedFlag{BoolFlag: cli.HelpFlag.(*cli.BoolFlag)}
	cli.VersionFlag = argv.SharedFlag{BoolFlag: cli.VersionFlag.(*cli.BoolFlag)}
	// The environment variables of flags are mcpctl's to read (applyEnv),
	// so the flags urfave parses carry none; their help still names them.
	base := cli.FlagStringer
	cli.FlagStringer = func(f cli.Flag) string {
		s := base(f)
		if df, ok := f.(cli.DocGenerationFlag); ok && len(df.GetEnvVars()) == 0 {
			if evs := flagEnvVars()[argv.FlagName(f)]; len(evs) > 0 {
				s = cli.FlagEnvHinter(evs, s)
			}
		}
		if df, ok := f.(cli.DocGenerationFlag); ok && ownDefault(f) {
			// urfave appends its own, which the usage says better.
			if d := df.GetDefaultText(); d != "" {
				urfaves := " (default: " + d + ")"
				if i := strings.LastIndex(s, urfaves); i >= 0 {
					s = s[:i] + s[i+len(urfaves):]
				}
			}
		}
		return s
	}
	return true
}()

// ownDefault reports whether a flag's usage says its default in its own
// words ("(default: any free port)" for a port whose zero value means
// that), which is then the only default its help and man page show.
func ownDefault(f cli.Flag) bool {
	df, ok := f.(cli.DocGenerationFlag)
	return ok && strings.Contains(df.GetUsage(), "(default: ")
}

// flagCategories maps each global flag's name to its category, read from
// the definitions once, when a help text or a man page needs it.
var flagCategories = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, f := range globalFlags() {
		if cf, ok := f.(cli.CategorizableFlag); ok && cf.GetCategory() != "" {
			m[argv.FlagName(f)] = cf.GetCategory()
		}
	}
	return m
})

// flagCategory is the category of a global flag, or "".
func flagCategory(f cli.Flag) string { return flagCategories()[argv.FlagName(f)] }

// globalOptionsHelp renders the app's GLOBAL OPTIONS as urfave renders
// flag categories (its visibleFlagCategoryTemplate): the categories sorted
// by name, the flags without one first (under no heading), and in each the
// flags sorted by their help line.
func globalOptionsHelp(flags []cli.Flag) string {
	byCategory := map[string][]string{}
	for _, f := range flags {
		if cf, ok := f.(cli.CategorizableFlag); ok && cf.IsVisible() {
			cat := flagCategory(f)
			byCategory[cat] = append(byCategory[cat], f.String())
		}
	}
	names := make([]string, 0, len(byCategory))
	for name := range byCategory {
		names = append(names, name)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, name := range names {
		b.WriteString("\n   ")
		if name != "" {
			b.WriteString(name + "\n\n   ")
		}
		lines := byCategory[name]
		sort.Strings(lines)
		b.WriteString(strings.Join(lines, "\n   ") + "\n")
	}
	return b.String()
}

// appHelpTemplate is urfave's app help template with its GLOBAL OPTIONS
// rendered by globalOptionsHelp, and the exit codes after the description
// (as if they ended it: urfave's wrap indents each line but the first).
var appHelpTemplate = sync.OnceValue(func() string {
	const urfaveDescription = `{{template "descriptionTemplate" .}}{{end}}`
	const withExitCodes = `{{template "descriptionTemplate" .}}

   {{wrap mcpctlExitCodes 3}}{{end}}`
	const urfaveOptions = `{{if .VisibleFlagCategories}}

GLOBAL OPTIONS:{{template "visibleFlagCategoryTemplate" .}}{{else if .VisibleFlags}}

GLOBAL OPTIONS:{{template "visibleFlagTemplate" .}}{{end}}`
	const ours = `{{if .VisibleFlags}}

GLOBAL OPTIONS:{{mcpctlGlobalOptions .VisibleFlags}}{{end}}`
	t := strings.Replace(cli.AppHelpTemplate, urfaveOptions, ours, 1)
	return strings.Replace(t, urfaveDescription, withExitCodes, 1)
})
