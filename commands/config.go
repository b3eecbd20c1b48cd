package commands

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/kballard/go-shellquote"
	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/atomicfile"
	"github.com/mcpctl/mcpctl/client/ojson"
	"github.com/mcpctl/mcpctl/config"
	"github.com/mcpctl/mcpctl/internal/argv"
	"github.com/mcpctl/mcpctl/output"
)

func configCommand(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "config",
		Usage: "named servers: list, show, add, remove, import and edit them; trust a project's",
		Description: "mcpctl's own servers live in $MCPCTL_CONFIG, else $XDG_CONFIG_HOME/mcpctl/config.yaml\n" +
			"(~/.config/mcpctl/config.yaml). The servers of Claude Desktop, Claude Code (~/.claude.json and\n" +
			"the project's .mcp.json), VS Code (.vscode/mcp.json) and Cursor (~/.cursor/mcp.json, and the\n" +
			"project's .cursor/mcp.json) are read as they are. Use a server with -s NAME (or MCPCTL_SERVER,\n" +
			"or a bare NAME before the command). A name in several files is taken from mcpctl's own first,\n" +
			"then the project's files, then the user's ('config list' marks the others shadowed); -s\n" +
			"FILE:NAME picks an entry from one file.\n\n" +
			"The project's files (found from the working directory upwards, up to your home folder) are\n" +
			"used only once you trust them ('config trust', --trust-project in CI), only when they and the\n" +
			"folders above them are yours alone, and their ${VAR} read only the variables projectEnv names\n" +
			"in mcpctl's config. See 'mcpctl help config'.",
		Subcommands: []*cli.Command{
			newCmdConfigList(f, nil),
			newCmdConfigShow(f, nil),
			newCmdConfigAdd(f, nil),
			newCmdConfigRemove(f, nil),
			newCmdConfigImport(f, nil),
			newCmdConfigEdit(f, nil),
			newCmdConfigTrust(f, nil),
		},
	}
}

// configNameOptions are those of a config subcommand that names one
// server.
type configNameOptions struct {
	invocation
	Name string // NAME or FILE:NAME
}

type configAddOptions struct {
	invocation
	Name        string
	Description string
	Force       bool
	// The entry's server flags (--url, --stdio, -H, --env, --cwd, --root,
	// --protocol-version, the settings of config.SettingKeys, --bearer and
	// the OAuth client's) are the global ones: serverFromFlags reads them
	// and refuses the other global flags.
}

type configImportOptions struct {
	invocation
	File       string
	Names      []string
	All, Force bool
}

func newCmdConfigList(f *Factory, runF func(*noOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "list",
		Usage:     "list every server mcpctl can name, where each is defined, and which are shadowed",
		ArgsUsage: " ",
		Action: actionOf(func(c *cli.Context) (*noOptions, error) {
			if err := needArgs(c, 0, 0, ""); err != nil {
				return nil, err
			}
			return &noOptions{invoked(f, c)}, nil
		}, runF, runConfigList),
	}
}

func runConfigList(o *noOptions) error {
	ios := o.IO
	// The servers first: a broken file is this command's error, not a
	// warning about its defaults.
	set, err := o.f.config(o.Globals).load(true)
	if err != nil {
		return err
	}
	render, err := o.renderOptions()
	if err != nil {
		return err
	}
	return output.Render(o.ctx(), ios, render, output.KindConfigList, configListing(set, o.f.homeDir()))
}

func configListing(set *config.Set, home string) json.RawMessage {
	type entry struct {
		Name        string `json:"name"`
		Kind        string `json:"kind"`
		Target      string `json:"target"`
		Source      string `json:"source"`
		Format      string `json:"format"`
		File        string `json:"file"`
		Project     string `json:"project,omitempty"`
		Description string `json:"description,omitempty"`
		Problem     string `json:"problem,omitempty"`
		// Trust is set for a project file's entry: trusted, untrusted
		// or changed (since trusted: both not used), trust-project
		// (used untrusted, by --trust-project).
		Trust string `json:"trust,omitempty"`
		// ShadowedBy is the source of the entry the name finds instead
		// (in the form of source); -s FILE:NAME still picks this one.
		ShadowedBy string `json:"shadowedBy,omitempty"`
	}
	out := struct {
		Servers []entry `json:"servers"`
	}{Servers: []entry{}}
	for _, s := range set.Every() {
		out.Servers = append(out.Servers, entry{
			Name: s.Name, Kind: s.Type, Target: serverTarget(s), Source: sourceName(s.Source, home),
			Format: s.Source.Format, File: s.Source.File, Project: s.Source.Project,
			Description: s.Description, Problem: s.Problem, Trust: string(s.Source.Trust),
		})
		if by := set.ShadowedBy(s); by != nil && s.Source.Trust.Usable() {
			out.Servers[len(out.Servers)-1].ShadowedBy = sourceName(by.Source, home)
		}
	}
	b, _ := json.Marshal(out)
	return b
}

func serverTarget(s *config.Server) string {
	if s.URL != "" {
		return s.URL
	}
	return shellJoin(s.Argv())
}

// sourceName shows a source's file the short way: ~ for the home folder,
// and the project a ~/.claude.json entry belongs to.
func sourceName(src config.Source, home string) string {
	name := src.File
	if home != "" {
		if rel, err := filepath.Rel(home, src.File); err == nil && !strings.HasPrefix(rel, "..") {
			name = filepath.Join("~", rel)
		}
	}
	if src.Project != "" {
		name += " (project " + src.Project + ")"
	}
	return name
}

func newCmdConfigShow(f *Factory, runF func(*configNameOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "show one server's entry as written (variables not expanded)",
		ArgsUsage: "NAME|FILE:NAME",
		Action: actionOf(func(c *cli.Context) (*configNameOptions, error) {
			if err := needArgs(c, 1, 1, "NAME|FILE:NAME"); err != nil {
				return nil, err
			}
			return &configNameOptions{invocation: invoked(f, c), Name: c.Args().First()}, nil
		}, runF, runConfigShow),
	}
}

func runConfigShow(o *configNameOptions) error {
	ios := o.IO
	loader := o.f.config(o.Globals)
	srv, err := loader.lookup(o.Name)
	if err != nil {
		// An entry of an untrusted project file is shown, to be reviewed
		// before it is trusted; it is still not used.
		if srv = loader.untrusted(o.Name); srv == nil {
			return err
		}
		fmt.Fprintf(ios.ErrOut, "mcpctl: warning: server %q is not used: %s is not trusted ('mcpctl config trust %s' once you have reviewed it)\n",
			srv.Name, srv.Source.File, shellquote.Join(srv.Source.File))
	}
	render, err := o.renderOptions()
	if err != nil {
		return err
	}
	if render.Format == output.FormatText && render.Query == nil {
		render.Format = output.FormatYAML // an entry reads best the way it is written
	}
	if err := output.Render(o.ctx(), ios, render, output.KindGeneric, serverJSON(srv)); err != nil {
		return err
	}
	if srv.Problem != "" {
		fmt.Fprintln(ios.ErrOut, "mcpctl: warning: "+(&config.EntryError{Server: srv.Name, Where: srv.Source.File, Msg: srv.Problem}).Error())
	}
	return nil
}

// serverJSON is an entry as `config show` prints it.
func serverJSON(s *config.Server) json.RawMessage {
	o := ojson.Members{}
	str := func(k, v string) {
		if v != "" {
			o.Set(k, ojson.String(v))
		}
	}
	list := func(k string, vs []string) {
		if len(vs) > 0 {
			b, _ := json.Marshal(vs)
			o.Set(k, b)
		}
	}
	kvs := func(k string, kvs []config.KV) {
		if len(kvs) > 0 {
			m := ojson.Members{}
			for _, kv := range kvs {
				m.Set(kv.Key, ojson.String(kv.Value))
			}
			o.Set(k, m.JSON())
		}
	}
	str("name", s.Name)
	src := ojson.Members{}
	src.Set("format", ojson.String(s.Source.Format))
	src.Set("file", ojson.String(s.Source.File))
	if s.Source.Project != "" {
		src.Set("project", ojson.String(s.Source.Project))
	}
	if s.Source.Trust != config.NotProject {
		src.Set("trust", ojson.String(string(s.Source.Trust)))
	}
	o.Set("source", src.JSON())
	str("description", s.Description)
	str("type", s.Type)
	str("url", s.URL)
	kvs("headers", s.Headers)
	kvs("auth", s.Auth)
	str("command", s.Command)
	list("args", s.Args)
	kvs("env", s.Env)
	str("envFile", s.EnvFile)
	str("cwd", s.Cwd)
	str("protocolVersion", s.ProtocolVersion)
	if s.Timeout > 0 {
		str("timeout", config.FormatDuration(s.Timeout))
	}
	list("roots", s.Roots)
	if s.KeepAlive > 0 {
		str("keepAlive", config.FormatDuration(s.KeepAlive))
	}
	for _, st := range s.Settings {
		str(st.Key, st.Value)
	}
	str("problem", s.Problem)
	return o.JSON()
}

func newCmdConfigAdd(f *Factory, runF func(*configAddOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "add",
		Usage:     "add a server to mcpctl's config file",
		ArgsUsage: "NAME (--url URL [-H 'Name: value']… | --stdio 'CMD ARGS…' [--env K=V]… [--cwd DIR])",
		Description: "The server flags are the ones every command takes. Also recorded: --root, --protocol-version,\n" +
			"the options an entry may set (-o, --timeout, --cache-ttl, --probe-timeout, --progress, --log-level,\n" +
			"--server-stderr, --shutdown-grace) and, for a URL, --bearer, --client-id, --client-secret and\n" +
			"--client-metadata-url (under auth:). Any other global flag is refused (exit 2): an entry has no\n" +
			"place for it. Only what is typed is stored, not MCPCTL_* variables. Values are stored as given,\n" +
			"so '${TOKEN}' (in single quotes) keeps a reference that is expanded from the environment each\n" +
			"time the server is used.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "description", Usage: "a `NOTE` about the server, shown by config show"},
			&cli.BoolFlag{Name: "force", Usage: "replace an entry of the same name"},
		},
		Action: actionOf(func(c *cli.Context) (*configAddOptions, error) {
			if err := needArgs(c, 1, 1, "NAME (--url URL | --stdio 'CMD ARGS…')"); err != nil {
				return nil, err
			}
			return &configAddOptions{invocation: invoked(f, c), Name: c.Args().First(), Description: c.String("description"), Force: c.Bool("force")}, nil
		}, runF, runConfigAdd),
	}
}

func runConfigAdd(o *configAddOptions) error {
	name := o.Name
	if err := checkServerName(name); err != nil {
		return err
	}
	srv, err := serverFromFlags(o)
	if err != nil {
		return err
	}
	return saveServers(o.invocation, []*config.Server{srv}, o.Force, "added %s to %s")
}

// checkServerName refuses names that -s could not give back.
func checkServerName(name string) error {
	switch {
	case name == "" || strings.HasPrefix(name, "-"):
		return usagef("invalid server name %q: it must not be empty or start with -", name)
	case strings.ContainsAny(name, ":/\\ \t\r\n"):
		return usagef("invalid server name %q: use letters, digits, - and _ (no spaces, :, / or \\)", name)
	}
	return nil
}

// serverFromFlags builds an entry from the server flags on the command
// line (never from MCPCTL_URL and friends: the entry records what was
// typed).
func serverFromFlags(o *configAddOptions) (*config.Server, error) {
	g, name := o.Globals, o.Name
	s := &config.Server{Name: name, Description: o.Description}
	url, stdio := g.URL, g.Stdio
	switch {
	case url != "" && stdio != "":
		return nil, usagef("both --url and --stdio given: pass only one")
	case url != "":
		s.Type, s.URL = "http", url
		if len(g.Env) > 0 || g.Cwd != "" {
			return nil, usagef("--env and --cwd are for stdio servers; %q has a URL", name)
		}
	case stdio != "":
		argv, err := shellquote.Split(stdio)
		if err != nil || len(argv) == 0 {
			return nil, usagef("cannot split --stdio %q into a command", stdio)
		}
		s.Type, s.Command, s.Args = "stdio", argv[0], argv[1:]
		if len(s.Args) == 0 {
			s.Args = nil
		}
		if len(g.Header) > 0 {
			return nil, usagef("-H is for servers with a URL; %q runs a command", name)
		}
	default:
		return nil, usagef("say how to reach %q: --url URL or --stdio 'CMD ARGS…'", name)
	}
	var err error
	if s.Headers, err = config.ParseHeaders(g.Header); err != nil {
		return nil, configError(err)
	}
	if s.Env, err = config.ParseEnv(g.Env); err != nil {
		return nil, configError(err)
	}
	s.Cwd = g.Cwd
	s.Roots = g.Root
	if g.Typed("protocol-version") {
		v := g.ProtocolVersion
		if !client.IsSupportedVersion(v) {
			return nil, usagef("unsupported --protocol-version %q; mcpctl speaks %s", v, strings.Join(client.SupportedVersions(), ", "))
		}
		s.ProtocolVersion = v
	}
	if g.Typed("timeout") {
		s.Timeout = g.Timeout
	}
	for _, k := range config.SettingKeys() {
		if k.Flag == "timeout" || !g.Typed(k.Flag) {
			continue
		}
		v := g.settingText(k.Flag)
		if want := settingProblem(k.Flag, v); want != "" {
			return nil, usagef("invalid %s %s for %q: %s", argv.Dashed(k.Flag), argv.ShownValue(v), name, want)
		}
		if (k.Flag == "server-stderr" || k.Flag == "shutdown-grace") && s.URL != "" {
			return nil, usagef("%s is for stdio servers; %q has a URL", argv.Dashed(k.Flag), name)
		}
		s.Settings = append(s.Settings, config.Setting{Key: k.Key, Flag: k.Flag, Value: v})
	}
	for _, a := range addAuthKeys {
		if !g.Typed(a.flag) {
			continue
		}
		if s.URL == "" {
			return nil, usagef("%s is for servers with a URL; %q runs a command", argv.Dashed(a.flag), name)
		}
		s.Auth = append(s.Auth, config.KV{Key: a.key, Value: g.settingText(a.flag)})
	}
	if refused := unstorable(g); len(refused) > 0 {
		it := "it"
		if len(refused) > 1 {
			it = "them"
		}
		return nil, usagef("config add cannot keep %s in an entry (not a server setting); drop %s: 'mcpctl config add --help' lists what an entry keeps", strings.Join(refused, ", "), it)
	}
	return s, nil
}

// addAuthKeys are the auth flags an entry keeps, under auth:.
var addAuthKeys = []struct{ flag, key string }{
	{"bearer", "bearer"}, {"client-id", "clientId"}, {"client-secret", "clientSecret"}, {"client-metadata-url", "clientMetadataUrl"},
	{"grant", "grant"}, {"assertion", "assertion"}, {"idp-token-endpoint", "idpTokenEndpoint"},
	{"idp-client-id", "idpClientId"}, {"idp-client-secret", "idpClientSecret"}, {"id-token", "idToken"},
}

// addStores reports whether config add keeps a global flag in the entry
// it writes: how to reach the server, the settings a server entry holds
// (config.SettingKeys) and the auth it holds.
func addStores(flag string) bool {
	switch flag {
	case "url", "stdio", "header", "env", "cwd", "root", "protocol-version", "timeout":
		return true
	}
	for _, k := range config.SettingKeys() {
		if k.Flag == flag {
			return true
		}
	}
	for _, a := range addAuthKeys {
		if a.flag == flag {
			return true
		}
	}
	return false
}

// unstorable lists the global flags typed on a config add command line
// that an entry has no place for: refused rather than dropped, so that
// nobody believes --jq or --insecure was recorded.
func unstorable(g *GlobalOptions) []string {
	var out []string
	for _, fl := range globalFlags() {
		if name := argv.FlagName(fl); !addStores(name) && g.Typed(name) {
			out = append(out, argv.Dashed(name))
		}
	}
	return out
}

// saveServers puts entries into mcpctl's file: all of them, or none when
// one would replace an entry and force is not set.
func saveServers(in invocation, servers []*config.Server, force bool, report string) error {
	doc, err := config.OpenDoc(in.f.configFile())
	if err != nil {
		return configError(err)
	}
	var names, clash []string
	for _, s := range servers {
		if doc.Has(s.Name) && !force {
			clash = append(clash, s.Name)
		}
		names = append(names, s.Name)
	}
	if len(clash) > 0 {
		return usagef("%s already in %s: pass --force to replace, or 'mcpctl config remove NAME' first", quoteList(clash), doc.File)
	}
	for _, s := range servers {
		doc.Put(s)
	}
	if err := doc.Save(); err != nil {
		return fmt.Errorf("writing %s: %w", doc.File, err)
	}
	notef(in.f.IOStreams, report, quoteList(names), doc.File)
	for _, n := range names {
		if argv.FindCommand(in.tree().Commands, n) != nil {
			notef(in.f.IOStreams, "note: %q is also a command; use this server with -s %s", n, n)
		}
	}
	return nil
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

func newCmdConfigRemove(f *Factory, runF func(*configNameOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "remove",
		Usage:     "remove a server from mcpctl's config file",
		ArgsUsage: "NAME",
		Action: actionOf(func(c *cli.Context) (*configNameOptions, error) {
			if err := needArgs(c, 1, 1, "NAME"); err != nil {
				return nil, err
			}
			return &configNameOptions{invocation: invoked(f, c), Name: c.Args().First()}, nil
		}, runF, runConfigRemove),
	}
}

func runConfigRemove(o *configNameOptions) error {
	ios := o.IO
	name := o.Name
	doc, err := config.OpenDoc(o.f.configFile())
	if err != nil {
		return configError(err)
	}
	if !doc.Remove(name) {
		set, err := o.f.config(o.Globals).load(true)
		if err != nil {
			return err
		}
		for _, s := range set.Every() {
			if s.Name == name {
				return usagef("server %q comes from %s, which mcpctl only reads; edit that file", name, s.Source.File)
			}
		}
		own, _ := o.f.config(o.Globals).load(false)
		return configError(&config.NotFoundError{Name: name, File: doc.File, Known: own.Names()})
	}
	if err := doc.Save(); err != nil {
		return fmt.Errorf("writing %s: %w", doc.File, err)
	}
	notef(ios, "removed %q from %s", name, doc.File)
	return nil
}

func newCmdConfigImport(f *Factory, runF func(*configImportOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "import",
		Usage:     "copy servers from another client's file into mcpctl's",
		ArgsUsage: "FILE (--all | NAME…)",
		Description: "FILE is any file mcpctl reads (claude_desktop_config.json, .mcp.json, ~/.claude.json,\n" +
			".vscode/mcp.json, ~/.cursor/mcp.json, another config.yaml). References stay references:\n" +
			"${env:X} becomes ${X}, VS Code's ${input:ID} becomes ${MCPCTL_INPUT_ID}, ${workspaceFolder}\n" +
			"the folder itself. Importing is optional: -s NAME already finds servers in those files.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "all", Usage: "import every server of FILE"},
			&cli.BoolFlag{Name: "force", Usage: "replace entries of the same name"},
		},
		Action: actionOf(func(c *cli.Context) (*configImportOptions, error) {
			if err := needArgs(c, 1, -1, "FILE (--all | NAME…)"); err != nil {
				return nil, err
			}
			return &configImportOptions{invocation: invoked(f, c), File: c.Args().First(), Names: c.Args().Tail(), All: c.Bool("all"), Force: c.Bool("force")}, nil
		}, runF, runConfigImport),
	}
}

func runConfigImport(o *configImportOptions) error {
	file := o.f.expandHome(o.File)
	set, err := config.ReadFile(file, o.f.configOptions(true))
	if err != nil {
		return configError(err)
	}
	o.f.config(o.Globals).warn(set.Warnings)
	names := o.Names
	switch {
	case o.All && len(names) > 0:
		return usagef("pass --all or names, not both")
	case o.All:
		names = set.Names()
	case len(names) == 0:
		return usagef("say what to import from %s: --all, or names (%s)", file, strings.Join(set.Names(), ", "))
	}
	if len(names) == 0 {
		return usagef("%s defines no server", file)
	}
	var servers []*config.Server
	for _, n := range names {
		s, err := set.Lookup(n)
		if err != nil {
			var nf *config.NotFoundError
			if errors.As(err, &nf) {
				nf.File = file
			}
			return configError(err)
		}
		servers = append(servers, s.Portable())
	}
	return saveServers(o.invocation, servers, o.Force, "imported %s into %s")
}

func newCmdConfigEdit(f *Factory, runF func(*noOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "edit",
		Usage:     "open mcpctl's config file in $VISUAL or $EDITOR, then check it",
		ArgsUsage: " ",
		Action: actionOf(func(c *cli.Context) (*noOptions, error) {
			if err := needArgs(c, 0, 0, ""); err != nil {
				return nil, err
			}
			return &noOptions{invoked(f, c)}, nil
		}, runF, runConfigEdit),
	}
}

func runConfigEdit(o *noOptions) error {
	ios := o.IO
	file := o.f.configFile()
	if _, err := os.Stat(file); errors.Is(err, fs.ErrNotExist) {
		if err := atomicfile.Write(file, []byte(config.NewFileText)); err != nil {
			return fmt.Errorf("creating %s: %w", file, err)
		}
	}
	editor := o.f.Getenv("VISUAL")
	if editor == "" {
		editor = o.f.Getenv("EDITOR")
	}
	if editor == "" {
		editor = "vi"
	}
	argv, err := shellquote.Split(editor)
	if err != nil || len(argv) == 0 {
		return usagef("cannot split the editor command %q; set VISUAL or EDITOR to a command", editor)
	}
	cmd := exec.CommandContext(o.ctx(), argv[0], append(argv[1:], file)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = ios.In, ios.Out, ios.ErrOut
	if err := cmd.Run(); err != nil {
		return usagef("the editor %q failed (%v); set VISUAL or EDITOR to one that works", editor, err)
	}
	set, err := config.Load(config.Options{File: file})
	if err != nil {
		var se *config.SyntaxError
		if errors.As(err, &se) {
			return usagef("%v; the file is saved as you left it: run 'mcpctl config edit' again to fix it", se)
		}
		return configError(err)
	}
	o.f.config(o.Globals).warn(set.Warnings)
	notef(ios, "%s: %d servers", file, len(set.Servers))
	return nil
}

type configTrustOptions struct {
	invocation
	Files []string // none: the project's files found from the working directory
}

func newCmdConfigTrust(f *Factory, runF func(*configTrustOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "trust",
		Usage:     "use a project's config files: record them, as they are now, as trusted",
		ArgsUsage: "[FILE…]",
		Description: "A project's files (.mcp.json, .vscode/mcp.json, .cursor/mcp.json, the nearest of each from\n" +
			"the working directory up to your home folder) come with the folder you are in: mcpctl uses\n" +
			"their servers only once you trust them. Review them first ('mcpctl config list' shows what\n" +
			"each would define). Without FILE, every project file found is trusted; a FILE is trusted\n" +
			"wherever it is. The path and a SHA-256 of the content go into trusted-projects.json in\n" +
			"mcpctl's state folder: a file that changes afterwards is not used until trusted again.\n" +
			"Only a file that is yours alone (and in a folder that is) can be trusted. In CI, where the\n" +
			"checkout is the job's own, --trust-project (MCPCTL_TRUST_PROJECT=1) does without.",
		Action: actionOf(func(c *cli.Context) (*configTrustOptions, error) {
			return &configTrustOptions{invocation: invoked(f, c), Files: c.Args().Slice()}, nil
		}, runF, runConfigTrust),
	}
}

func runConfigTrust(o *configTrustOptions) error {
	opts := o.f.configOptions(true)
	loader := o.f.config(o.Globals)
	var files []*config.ProjectFile
	if len(o.Files) == 0 {
		found, warnings := config.ProjectFiles(opts)
		loader.warn(warnings)
		if len(found) == 0 {
			return usagef("no project file to trust from %s upwards (.mcp.json, .vscode/mcp.json, .cursor/mcp.json); name one: mcpctl config trust FILE", opts.Cwd)
		}
		files = found
	}
	for _, name := range o.Files {
		pf, err := config.ReadProjectFile(o.f.expandHome(name), opts)
		if err != nil {
			return configError(err)
		}
		files = append(files, pf)
	}
	warnings, err := config.TrustFiles(o.ctx(), opts.TrustFile, files)
	loader.warn(warnings)
	if err != nil {
		return fmt.Errorf("recording trusted files in %s: %w", opts.TrustFile, err)
	}
	for _, pf := range files {
		var defs []string
		for _, s := range pf.Servers {
			defs = append(defs, fmt.Sprintf("%q (%s)", s.Name, serverTarget(s)))
		}
		what := "no server"
		if len(defs) > 0 {
			what = strings.Join(defs, ", ")
		}
		notef(o.IO, "trusted %s: %s", output.SanitizeLine(pf.Source.File), output.SanitizeLine(what))
		loader.warn(pf.Warnings)
	}
	return nil
}
