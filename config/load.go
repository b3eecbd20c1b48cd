package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Options says where to look. The CLI fills it in from the environment;
// tests point it at fixtures.
type Options struct {
	// File is mcpctl's own config file.
	File string
	// Foreign also reads the other clients' files. Without it only File is
	// read (enough for its defaults section).
	Foreign bool
	// Home holds ~/.claude.json and ~/.cursor/mcp.json.
	Home string
	// UserConfigDir is the platform's per-user configuration folder
	// (os.UserConfigDir), where Claude Desktop keeps Claude/.
	UserConfigDir string
	// ClaudeConfigDir, when set (Claude Code's CLAUDE_CONFIG_DIR), holds
	// .claude.json instead of Home.
	ClaudeConfigDir string
	// Cwd is where the search for the project's files (.mcp.json,
	// .vscode/mcp.json, .cursor/mcp.json: project.go) starts; it also
	// picks the local-scope servers of ~/.claude.json.
	Cwd string
	// TrustFile records the project files the user trusts (Dirs.TrustFile);
	// TrustAll uses them all the same, trusted or not (--trust-project).
	TrustFile string
	TrustAll  bool
}

// Set is every server and default that was found.
type Set struct {
	// File is mcpctl's own config file (which may not exist).
	File    string
	Servers []*Server // in precedence order (see rank): the first of a name wins
	// Untrusted are the entries of project files the user has not trusted
	// (or that changed since): shown by config list, never used.
	Untrusted []*Server
	Defaults  []Setting
	// ProjectEnv names the variables a project file's ${…} may read
	// (projectEnv in mcpctl's own file).
	ProjectEnv []string
	Warnings   []Warning
	// Read lists the files that were read, in search order.
	Read []Source
}

// Load reads mcpctl's own file and, with o.Foreign, every other client's
// file that exists. Only a broken own file is an error (*SyntaxError);
// other clients' files that cannot be read or parsed become warnings.
func Load(o Options) (*Set, error) {
	set := &Set{File: o.File}
	if o.File != "" {
		data, err := os.ReadFile(o.File)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, err
		default:
			y, err := parseYAML(o.File, data)
			if err != nil {
				return nil, err
			}
			set.Servers, set.Defaults, set.Warnings = y.servers, y.defaults, y.warnings
			set.ProjectEnv = y.projectEnv
			set.Read = append(set.Read, Source{Format: FormatMcpctl, File: o.File})
		}
	}
	if !o.Foreign {
		return set, nil
	}
	files, warnings := ProjectFiles(o)
	set.Warnings = append(set.Warnings, warnings...)
	for _, pf := range files {
		for _, s := range pf.Servers {
			s.allowEnv = set.ProjectEnv
		}
		set.Read = append(set.Read, pf.Source)
		if !pf.Source.Trust.Usable() {
			// What a file nobody agreed to says is not worth a warning
			// at every command; config trust shows it.
			set.Untrusted = append(set.Untrusted, pf.Servers...)
			continue
		}
		set.Servers = append(set.Servers, pf.Servers...)
		set.Warnings = append(set.Warnings, pf.Warnings...)
	}
	for _, src := range o.userFiles() {
		data, release, err := readLarge(src.File)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			set.Warnings = append(set.Warnings, Warning{File: src.File, Msg: "not read: " + err.Error()})
			continue
		}
		// Nothing parseForeign returns points into data: the values it
		// keeps are copies (stripJSONC), strings are decoded.
		f, err := parseForeign(src, data, o.Cwd)
		release()
		if err != nil {
			set.Warnings = append(set.Warnings, Warning{File: src.File, Msg: "not read: " + err.Error()})
			continue
		}
		set.Servers = append(set.Servers, f.servers...)
		set.Warnings = append(set.Warnings, f.warnings...)
		set.Read = append(set.Read, src)
	}
	byPrecedence(set.Servers)
	byPrecedence(set.Untrusted)
	return set, nil
}

// userFiles lists the other clients' files of the user's own (not the
// project's: project.go) in the order of their precedence (rank).
func (o Options) userFiles() []Source {
	var out []Source
	add := func(format, file string) {
		if file != "" {
			out = append(out, Source{Format: format, File: file})
		}
	}
	if o.UserConfigDir != "" {
		add(FormatClaudeDesktop, filepath.Join(o.UserConfigDir, "Claude", "claude_desktop_config.json"))
	}
	claudeDir := o.ClaudeConfigDir
	if claudeDir == "" {
		claudeDir = o.Home
	}
	if claudeDir != "" {
		add(FormatClaudeCode, filepath.Join(claudeDir, ".claude.json"))
	}
	if o.Home != "" {
		add(FormatCursor, filepath.Join(o.Home, ".cursor", "mcp.json"))
	}
	return out
}

// Names lists every server name once, in search order.
func (s *Set) Names() []string {
	var out []string
	seen := map[string]bool{}
	for _, srv := range s.Servers {
		if !seen[srv.Name] {
			seen[srv.Name] = true
			out = append(out, srv.Name)
		}
	}
	return out
}

// Lookup finds the server called name: the entry of the source that
// comes first in precedence (rank), which shadows any other. A name only
// untrusted project files define is an *UntrustedError; an unknown name
// a *NotFoundError listing the names that exist.
func (s *Set) Lookup(name string) (*Server, error) {
	for _, srv := range s.Servers {
		if srv.Name == name {
			return srv, nil
		}
	}
	for _, srv := range s.Untrusted {
		if srv.Name == name {
			return nil, &UntrustedError{Name: name, File: srv.Source.File, Changed: srv.Source.Trust == Changed}
		}
	}
	return nil, &NotFoundError{Name: name, Known: s.Names()}
}

// Ignored returns the entry of an untrusted project file that would take
// name if the file were trusted, or nil: the user is told that the entry
// in use is not the project's.
func (s *Set) Ignored(name string) *Server {
	for _, u := range s.Untrusted {
		if u.Name != name {
			continue
		}
		if used, err := s.Lookup(name); err == nil && rank(used.Source) <= rank(u.Source) {
			return nil // shadowed anyway
		}
		return u
	}
	return nil
}

// Shadows lists the entries srv's name would find if srv were not there,
// in precedence order.
func (s *Set) Shadows(srv *Server) []*Server {
	var out []*Server
	for _, o := range s.Servers {
		if o != srv && o.Name == srv.Name && s.ShadowedBy(o) == srv {
			out = append(out, o)
		}
	}
	return out
}

// Every is every entry found, used or not (Untrusted), in precedence
// order: what config list shows.
func (s *Set) Every() []*Server {
	all := append(append([]*Server(nil), s.Servers...), s.Untrusted...)
	byPrecedence(all)
	return all
}

// ShadowedBy returns the entry that takes srv's name, or nil when srv is
// the one its name finds.
func (s *Set) ShadowedBy(srv *Server) *Server {
	if first, err := s.Lookup(srv.Name); err == nil && first != srv {
		return first
	}
	return nil
}

// byPrecedence orders servers by their source's rank; entries of one
// source keep the order they were read in.
func byPrecedence(servers []*Server) {
	sort.SliceStable(servers, func(i, j int) bool { return rank(servers[i].Source) < rank(servers[j].Source) })
}

// SplitPick splits FILE:NAME, the form that picks an entry from one file.
// It reports false for a plain name: the part before the last colon must
// name a .json, .yaml or .yml file.
func SplitPick(spec string) (file, name string, ok bool) {
	i := strings.LastIndexByte(spec, ':')
	if i <= 0 || i == len(spec)-1 {
		return "", "", false
	}
	file, name = spec[:i], spec[i+1:]
	switch strings.ToLower(filepath.Ext(file)) {
	case ".json", ".yaml", ".yml":
		return file, name, true
	}
	return "", "", false
}

// ReadFile reads one file of any supported format, which it tells by the
// file's name and, for other JSON files, its content: a "servers" object
// is read as VS Code's format, "mcpServers" as Claude's.
func ReadFile(path string, o Options) (*Set, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, err
	}
	format := detectFormat(abs, data)
	set := &Set{Read: []Source{{Format: format, File: abs}}}
	if format == FormatMcpctl {
		y, err := parseYAML(abs, data)
		if err != nil {
			return nil, err
		}
		set.Servers, set.Defaults, set.Warnings = y.servers, y.defaults, y.warnings
		return set, nil
	}
	f, err := parseForeign(Source{Format: format, File: abs}, data, o.Cwd)
	if err != nil {
		return nil, err
	}
	set.Servers, set.Warnings = f.servers, f.warnings
	byPrecedence(set.Servers)
	return set, nil
}

// detectFormat tells a file's format from its path and content.
func detectFormat(path string, data []byte) string {
	base, parent := filepath.Base(path), filepath.Base(filepath.Dir(path))
	switch {
	case strings.HasSuffix(base, ".yaml") || strings.HasSuffix(base, ".yml"):
		return FormatMcpctl
	case base == "claude_desktop_config.json":
		return FormatClaudeDesktop
	case base == ".claude.json":
		return FormatClaudeCode
	case base == "mcp.json" && parent == ".vscode":
		return FormatVSCode
	case base == "mcp.json" && parent == ".cursor":
		return FormatCursor
	case base == ".mcp.json":
		return FormatProject
	}
	if top, err := orderedObject(stripJSONC(data)); err == nil && top.Get("servers") != nil && top.Get("mcpServers") == nil {
		return FormatVSCode
	}
	return FormatProject
}
