package config

import (
	"fmt"
	"reflect"
	"time"
)

// Formats of the files servers are read from. The format decides the
// file's layout and which ${…} forms its strings may use.
const (
	FormatMcpctl        = "mcpctl"         // config.yaml
	FormatClaudeDesktop = "claude-desktop" // claude_desktop_config.json
	FormatClaudeCode    = "claude-code"    // ~/.claude.json (user and local scope)
	FormatProject       = "project"        // .mcp.json (Claude Code project scope)
	FormatVSCode        = "vscode"         // .vscode/mcp.json
	FormatCursor        = "cursor"         // ~/.cursor/mcp.json, and a project's .cursor/mcp.json
)

// Source says where a server was defined.
type Source struct {
	Format string
	File   string // absolute path
	// Project is set for the local-scope servers of ~/.claude.json: the
	// project directory they belong to.
	Project string
	// Trust is set for a project file (found from the working directory
	// upwards, project.go): whether the user trusts it. NotProject for
	// the user's own files.
	Trust Trust
}

// InProject reports whether the source is a project file rather than one
// of the user's own.
func (src Source) InProject() bool { return src.Trust != NotProject }

// KV is one name and value, in the order the file gives them.
type KV struct{ Key, Value string }

// Input is one VS Code input (`inputs` in .vscode/mcp.json).
type Input struct {
	ID, Description string
	Password        bool
}

// Server is one named server as written in its source: strings are not
// expanded yet (Resolve does that).
type Server struct {
	Name   string
	Source Source
	// Line and Column locate the entry in a YAML file (0 when unknown).
	Line, Column int

	Type        string // stdio, http or sse: as declared, else inferred
	Description string

	// Streamable HTTP (or HTTP+SSE).
	URL     string
	Headers []KV
	// Auth holds auth settings (bearer, clientId, clientSecret,
	// clientMetadataUrl, scopes, and the grant's: grant, assertion,
	// idpTokenEndpoint, idpClientId, idpClientSecret, idToken; dpop stands
	// for --dpop or --no-dpop). bearer
	// becomes an Authorization header; the others stand in for the flags
	// of the same names when those are not given; scopes is kept as data
	// (the server's challenge decides the scopes).
	Auth []KV

	// stdio.
	Command string
	Args    []string
	Env     []KV
	EnvFile string // VS Code: a dotenv file read at use time
	Cwd     string

	ProtocolVersion string
	Timeout         time.Duration // 0: not set
	Roots           []string
	// Settings are the entry's other global options (output, cacheTTL,
	// serverStderr…: settingKeys), in file order, as written.
	Settings []Setting
	// KeepAlive: the first use starts a session, which ends after this
	// long unused (0: none; docs/sessions.md).
	KeepAlive time.Duration

	// Problem, when set, makes the entry unusable: resolving it fails with
	// this message (mcpctl's own file keeps such entries so that the error
	// names them; foreign files skip them with a warning instead).
	Problem string

	inputs map[string]Input // VS Code inputs the file declares
	// workspace is the folder ${workspaceFolder} names, if any.
	workspace string
	// allowEnv names the variables the ${…} of a project file's entry may
	// read (projectEnv); the user's own files read any.
	allowEnv []string
}

// Argv is the command and its arguments, unexpanded.
func (s *Server) Argv() []string { return append([]string{s.Command}, s.Args...) }

// Pick is how a user names this entry exactly, whatever other sources
// define: FILE:NAME.
func (s *Server) Pick() string { return s.Source.File + ":" + s.Name }

// sameAs reports whether two entries reach the same server the same way
// (whatever file and line they are written at): a round trip through a
// file keeps an entry so.
func (s *Server) sameAs(o *Server) bool {
	a, b := *s, *o
	a.Source, b.Source = Source{}, Source{}
	a.Line, a.Column, b.Line, b.Column = 0, 0, 0, 0
	a.Description, b.Description = "", ""
	a.inputs, b.inputs = nil, nil
	a.workspace, b.workspace = "", ""
	a.allowEnv, b.allowEnv = nil, nil
	a.Settings, b.Settings = valuesOnly(a.Settings), valuesOnly(b.Settings)
	return reflect.DeepEqual(a, b)
}

func (s *Server) where() string {
	if s.Line > 0 {
		return fmt.Sprintf("%s:%d:%d", s.Source.File, s.Line, s.Column)
	}
	return s.Source.File
}

// valuesOnly drops where settings were written, which sameAs ignores.
func valuesOnly(in []Setting) []Setting {
	var out []Setting
	for _, st := range in {
		st.Line, st.Column = 0, 0
		out = append(out, st)
	}
	return out
}

// rank is the precedence of the sources that define servers, the one
// place it is decided: when two sources define the same name, the lower
// rank wins, and the other entry is shadowed (config list shows it,
// FILE:NAME still picks it). mcpctl's own file first; then the project's
// servers: those ~/.claude.json keeps for the project of the working
// directory (Claude Code's local scope, which Claude Code too puts
// before .mcp.json), .mcp.json, .vscode/mcp.json, .cursor/mcp.json; then
// the user's: Claude Desktop, ~/.claude.json, Cursor.
func rank(src Source) int {
	switch src.Format {
	case FormatMcpctl:
		return 0
	case FormatClaudeCode:
		if src.Project != "" {
			return 1
		}
		return 6
	case FormatProject:
		return 2
	case FormatVSCode:
		return 3
	case FormatCursor:
		if src.InProject() {
			return 4
		}
		return 7
	case FormatClaudeDesktop:
		return 5
	}
	return 8
}
