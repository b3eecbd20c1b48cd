package config

// mcpctl's own file, config.yaml:
//
//	defaults:
//	  output: table
//	  timeout: 30s
//	servers:
//	  weather:
//	    url: https://weather.example.com/mcp
//	    headers: {Authorization: "Bearer ${WEATHER_TOKEN}"}
//	  files:
//	    command: npx
//	    args: [-y, "@modelcontextprotocol/server-filesystem", "${HOME}/src"]
//
// It is read as a yaml.Node tree rather than decoded into structs, so that
// every unknown key can be named with its line and column, and so that the
// same tree can be edited and written back with its comments (write.go).

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Setting is a global option's value given by the config file: in the
// defaults section, or in a server entry, which wins over defaults when
// that server is used (a flag or a variable wins over both).
type Setting struct {
	Key          string // as written: output, timeout, cacheTTL…
	Flag         string // the global flag it stands for
	Value        string
	Line, Column int
}

// SettingKey is one global option the config may set: its key in the
// file and its flag.
type SettingKey struct{ Key, Flag string }

// settingKeys are the global options that both the defaults section and a
// server entry may set. It is the one list: docs/config.md, `config add`
// (which stores these flags in an entry) and the unknown-key warnings
// follow it.
var settingKeys = []SettingKey{
	{"output", "output"}, {"timeout", "timeout"}, {"cacheTTL", "cache-ttl"},
	{"probeTimeout", "probe-timeout"}, {"progress", "progress"}, {"logLevel", "log-level"},
	{"serverStderr", "server-stderr"}, {"shutdownGrace", "shutdown-grace"},
	{"tokenStore", "token-store"},
}

// SettingKeys lists the global options the defaults section and a server
// entry may set.
func SettingKeys() []SettingKey { return append([]SettingKey(nil), settingKeys...) }

func settingFlag(key string) (string, bool) {
	for _, s := range settingKeys {
		if s.Key == key {
			return s.Flag, true
		}
	}
	return "", false
}

// defaultKeyNames lists the keys the defaults section accepts: the
// settings, and server, which is not a flag of its own but names the
// server to use when none is given.
func defaultKeyNames() []string {
	var out []string
	for _, s := range settingKeys {
		out = append(out, s.Key)
	}
	return append(out, "server", "keepAlive")
}

// serverKeyNames lists the keys a server entry accepts: how to reach it,
// then the settings that apply when it is used.
func serverKeyNames() []string {
	out := []string{"description", "type", "url", "headers", "auth", "command", "args", "env", "envFile", "cwd", "protocolVersion", "timeout", "roots", "keepAlive"}
	for _, s := range settingKeys {
		if !contains(out, s.Key) {
			out = append(out, s.Key)
		}
	}
	return out
}

var authKeys = []string{"bearer", "clientId", "clientSecret", "clientMetadataUrl", "scopes",
	"grant", "assertion", "idpTokenEndpoint", "idpClientId", "idpClientSecret", "idToken", "dpop"}

// yamlFile is what parseYAML found.
type yamlFile struct {
	servers    []*Server
	defaults   []Setting
	projectEnv []string
	warnings   []Warning
}

func parseYAML(file string, data []byte) (*yamlFile, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlSyntaxError(file, data, err)
	}
	out := &yamlFile{}
	if len(doc.Content) == 0 {
		return out, nil // an empty file
	}
	root := doc.Content[0]
	if isNull(root) {
		return out, nil
	}
	if root.Kind != yaml.MappingNode {
		return nil, nodeError(file, root, "the file must be a mapping with servers: and defaults:")
	}
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if prev, dup := seen[k.Value]; dup {
			return nil, nodeError(file, k, fmt.Sprintf("%s: defined twice (first at line %d)", k.Value, prev.Line))
		}
		seen[k.Value] = k
		switch k.Value {
		case "servers":
			if err := out.readServers(file, v); err != nil {
				return nil, err
			}
		case "defaults":
			if err := out.readDefaults(file, v); err != nil {
				return nil, err
			}
		case "projectEnv":
			if err := out.readProjectEnv(file, v); err != nil {
				return nil, err
			}
		default:
			out.unknown(file, k, "", []string{"servers", "defaults", "projectEnv"})
		}
	}
	return out, nil
}

func (y *yamlFile) unknown(file string, k *yaml.Node, in string, known []string) {
	msg := fmt.Sprintf("unknown key %q", k.Value)
	if in != "" {
		msg += " in " + in
	}
	y.warnings = append(y.warnings, Warning{File: file, Line: k.Line, Column: k.Column,
		Msg: msg + " (ignored; known keys: " + strings.Join(known, ", ") + ")"})
}

func (y *yamlFile) readDefaults(file string, m *yaml.Node) error {
	if isNull(m) {
		return nil
	}
	if m.Kind != yaml.MappingNode {
		return nodeError(file, m, "defaults must be a mapping of option: value")
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		flag, ok := settingFlag(k.Value)
		if k.Value == "server" || k.Value == "keepAlive" {
			flag, ok = k.Value, true // not flags: the server to use, and sessions
		}
		if !ok {
			y.unknown(file, k, "defaults", defaultKeyNames())
			continue
		}
		if v.Kind != yaml.ScalarNode {
			return nodeError(file, v, "defaults."+k.Value+" must be a single value")
		}
		y.defaults = append(y.defaults, Setting{Key: k.Value, Flag: flag, Value: v.Value, Line: v.Line, Column: v.Column})
	}
	return nil
}

// readProjectEnv reads projectEnv: the variables the ${…} of a project
// file (.mcp.json, .vscode/mcp.json, .cursor/mcp.json) may read. Only the
// user's own file can name them: a repository must not choose which of
// the user's secrets it is sent.
func (y *yamlFile) readProjectEnv(file string, n *yaml.Node) error {
	names, msg := scalars(n)
	if msg != "" {
		return nodeError(file, n, "projectEnv must be a list of variable names, e.g. [GITHUB_TOKEN]")
	}
	for i, name := range names {
		if !isIdent(name) {
			return nodeError(file, n.Content[i], fmt.Sprintf("projectEnv: %q is not a variable name (letters, digits and _)", name))
		}
	}
	y.projectEnv = names
	return nil
}

func (y *yamlFile) readServers(file string, m *yaml.Node) error {
	if isNull(m) {
		return nil
	}
	if m.Kind != yaml.MappingNode {
		return nodeError(file, m, "servers must be a mapping of NAME: {url: …} or NAME: {command: …}")
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if line, dup := seen[k.Value]; dup {
			return nodeError(file, k, fmt.Sprintf("server %q is defined twice (first at line %d)", k.Value, line))
		}
		seen[k.Value] = k.Line
		s := &Server{Name: k.Value, Source: Source{Format: FormatMcpctl, File: file}, Line: k.Line, Column: k.Column}
		y.readServer(s, v)
		y.servers = append(y.servers, s)
	}
	return nil
}

// readServer fills s from its mapping. A value of the wrong kind makes
// the entry unusable (Problem) without stopping other entries.
func (y *yamlFile) readServer(s *Server, m *yaml.Node) {
	problem := func(n *yaml.Node, format string, a ...any) {
		if s.Problem == "" {
			s.Problem = fmt.Sprintf("line %d: ", n.Line) + fmt.Sprintf(format, a...)
		}
	}
	if m.Kind != yaml.MappingNode {
		problem(m, "must be a mapping with url: or command:")
		return
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		var err string
		switch k.Value {
		case "description":
			s.Description, err = scalar(v)
		case "type":
			s.Type, err = scalar(v)
		case "url":
			s.URL, err = scalar(v)
		case "command":
			s.Command, err = scalar(v)
		case "envFile":
			s.EnvFile, err = scalar(v)
		case "cwd":
			s.Cwd, err = scalar(v)
		case "protocolVersion":
			s.ProtocolVersion, err = scalar(v)
		case "timeout":
			s.Timeout, err = duration(v)
		case "keepAlive":
			s.KeepAlive, err = duration(v)
		case "args":
			s.Args, err = scalars(v)
		case "roots":
			s.Roots, err = scalars(v)
		case "headers":
			s.Headers, err = pairs(v, false)
		case "env":
			s.Env, err = pairs(v, false)
		case "auth":
			s.Auth, err = pairs(v, true)
			for j := 0; err == "" && j+1 < len(v.Content); j += 2 {
				if !contains(authKeys, v.Content[j].Value) {
					y.unknown(s.Source.File, v.Content[j], "auth of server "+s.Name, authKeys)
				}
			}
		default:
			flag, ok := settingFlag(k.Value)
			if !ok {
				y.unknown(s.Source.File, k, "server "+s.Name, serverKeyNames())
				break
			}
			var val string
			if val, err = scalar(v); err == "" {
				s.Settings = append(s.Settings, Setting{Key: k.Value, Flag: flag, Value: val, Line: v.Line, Column: v.Column})
			}
		}
		if err != "" {
			problem(v, "%s %s", k.Value, err)
		}
	}
	if msg := checkTarget(s); msg != "" {
		problem(m, "%s", msg)
	}
}

// checkTarget checks that an entry names exactly one way to reach its
// server, and sets Type when the entry leaves it out.
func checkTarget(s *Server) string {
	switch {
	case s.URL != "" && s.Command != "":
		return "has both url and command; keep one"
	case s.URL == "" && s.Command == "":
		return "has neither url nor command"
	}
	switch s.Type {
	case "":
		s.Type = "stdio"
		if s.URL != "" {
			s.Type = "http"
		}
	case "stdio":
		if s.Command == "" {
			return "is of type stdio but has no command"
		}
	case "http", "sse", "streamable-http", "streamableHttp":
		if s.URL == "" {
			return "is of type " + s.Type + " but has no url"
		}
		if s.Type != "sse" {
			s.Type = "http"
		}
	default:
		return fmt.Sprintf("has type %q; use stdio, http or sse", s.Type)
	}
	return ""
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

func scalar(n *yaml.Node) (string, string) {
	if isNull(n) {
		return "", ""
	}
	if n.Kind != yaml.ScalarNode {
		return "", "must be a single value"
	}
	return n.Value, ""
}

func scalars(n *yaml.Node) ([]string, string) {
	if isNull(n) {
		return nil, ""
	}
	if n.Kind != yaml.SequenceNode {
		return nil, "must be a list, e.g. [a, b]"
	}
	var out []string
	for _, it := range n.Content {
		if it.Kind != yaml.ScalarNode {
			return nil, fmt.Sprintf("must be a list of single values (line %d)", it.Line)
		}
		out = append(out, it.Value)
	}
	return out, ""
}

// pairs reads a mapping of names to values; lists are allowed as values
// when lists is set (auth scopes) and are joined with spaces.
func pairs(n *yaml.Node, lists bool) ([]KV, string) {
	if isNull(n) {
		return nil, ""
	}
	if n.Kind != yaml.MappingNode {
		return nil, "must be a mapping of NAME: value"
	}
	var out []KV
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		val, err := scalar(v)
		if err != "" && lists {
			var vs []string
			vs, err = scalars(v)
			val = strings.Join(vs, " ")
		}
		if err != "" {
			return nil, k.Value + " " + err
		}
		out = append(out, KV{k.Value, val})
	}
	return out, ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func nodeError(file string, n *yaml.Node, msg string) *SyntaxError {
	return &SyntaxError{File: file, Line: n.Line, Column: n.Column, Msg: msg}
}

// yamlSyntaxError turns a yaml.v3 parse error into a SyntaxError with a
// line and a column. yaml.v3 reports only a line, and for some errors the
// line where the enclosing block began rather than the one at fault. The
// parser stops where it notices a problem, so the shortest prefix of the
// file that fails with the same message ends at that point: the search
// below finds it, first by whole lines, then by characters.
func yamlSyntaxError(file string, data []byte, err error) *SyntaxError {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	reported := 0
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if n, tail, ok := strings.Cut(rest, ": "); ok {
			fmt.Sscanf(n, "%d", &reported)
			msg = tail
		}
	}
	lines := strings.SplitAfter(string(data), "\n")
	fails := func(prefix string) bool {
		var n yaml.Node
		e := yaml.Unmarshal([]byte(prefix), &n)
		return e != nil && strings.HasSuffix(e.Error(), ": "+msg)
	}
	se := &SyntaxError{File: file, Line: reported, Column: 1, Msg: "invalid YAML: " + msg}
	var done strings.Builder
	for i, line := range lines {
		if !fails(done.String() + line) {
			done.WriteString(line)
			continue
		}
		col := 0
		for j := range line {
			if j > 0 && fails(done.String()+line[:j]) {
				break
			}
			col++
		}
		se.Line, se.Column = i+1, max(col, 1)
		se.Near = strings.TrimRight(line, "\r\n")
		if !utf8.ValidString(se.Near) {
			se.Near = ""
		}
		return se
	}
	if reported > 0 && reported <= len(lines) {
		se.Near = strings.TrimRight(lines[reported-1], "\r\n")
	}
	return se
}

// duration reads a duration like 30s or 2m.
func duration(v *yaml.Node) (time.Duration, string) {
	t, err := scalar(v)
	if err != "" {
		return 0, err
	}
	d, perr := time.ParseDuration(t)
	if perr != nil || d < 0 {
		return 0, fmt.Sprintf("is %q, not a duration like 30s or 2m", t)
	}
	return d, ""
}
