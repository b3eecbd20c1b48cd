package config

// Other clients' files, read as they are (never imported behind the user's
// back):
//
//	Claude Desktop   claude_desktop_config.json   {"mcpServers": {NAME: {command, args, env}}}
//	Claude Code      .mcp.json (project)           {"mcpServers": {NAME: {type, command, args, env, url, headers}}}
//	                 ~/.claude.json                the same at the top (user scope) and under
//	                                               "projects": {DIR: {"mcpServers": …}} (local scope)
//	VS Code          .vscode/mcp.json              {"inputs": […], "servers": {NAME: {type, command, args, env, envFile, cwd, url, headers}}}
//	Cursor           ~/.cursor/mcp.json            {"mcpServers": {NAME: {command, args, env, url, headers}}}
//
// VS Code and Cursor write JSON with comments and trailing commas; all
// files are read that way. Keys mcpctl has no use for (disabled,
// autoApprove, …) are ignored. An entry of an unexpected shape is skipped
// with a warning, and the others still load: these files belong to other
// programs, whose formats grow without asking us.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/mcpctl/mcpctl/client/ojson"
)

// foreignFile is what parseForeign found in one file.
type foreignFile struct {
	servers  []*Server
	warnings []Warning
}

// parseForeign reads a JSON file of the given format. cwd selects the
// local-scope servers of ~/.claude.json.
func parseForeign(src Source, data []byte, cwd string) (*foreignFile, error) {
	top, ok := topLevel(data, "mcpServers", "servers", "inputs", "projects")
	if !ok {
		// The quick scan gave up: parse it all, which locates the error.
		clean := stripJSONC(data)
		var err error
		if top, err = orderedObject(clean); err != nil {
			return nil, jsonSyntaxError(src.File, clean, err)
		}
	}
	out := &foreignFile{}
	workspace := ""
	switch src.Format {
	case FormatProject:
		workspace = filepath.Dir(src.File)
	case FormatVSCode:
		workspace = filepath.Dir(filepath.Dir(src.File))
	}
	key := "mcpServers"
	if src.Format == FormatVSCode {
		key = "servers"
	}
	var inputs map[string]Input
	if src.Format == FormatVSCode {
		inputs = out.readInputs(src.File, top.Get("inputs"))
	}
	if src.Format == FormatClaudeCode {
		// Local scope (the project of the working directory) comes first:
		// Claude Code lets it shadow the user scope (rank).
		if dir, raw := claudeProject(top.Get("projects"), cwd); raw != nil {
			local := src
			local.Project = dir
			if proj, err := orderedObject(raw); err == nil {
				out.readServers(local, proj.Get(key), dir, nil)
			}
		}
	}
	out.readServers(src, top.Get(key), workspace, inputs)
	return out, nil
}

func (f *foreignFile) warn(file, format string, a ...any) {
	f.warnings = append(f.warnings, Warning{File: file, Msg: fmt.Sprintf(format, a...)})
}

func (f *foreignFile) readServers(src Source, raw json.RawMessage, workspace string, inputs map[string]Input) {
	if raw == nil {
		return
	}
	servers, err := orderedObject(raw)
	if err != nil {
		f.warn(src.File, "the server list is not a JSON object; no server read from this file")
		return
	}
	for _, entry := range servers {
		name := entry.Key
		s := &Server{Name: name, Source: src, inputs: inputs, workspace: workspace}
		if msg := readEntry(s, entry.Value); msg != "" {
			f.warn(src.File, "server %q skipped: %s", name, msg)
			continue
		}
		f.servers = append(f.servers, s)
	}
}

// readEntry fills s from one entry; a non-empty result says why the entry
// cannot be used.
func readEntry(s *Server, raw json.RawMessage) string {
	obj, err := orderedObject(raw)
	if err != nil {
		return "not a JSON object"
	}
	for _, f := range []struct {
		key string
		dst *string
	}{{"type", &s.Type}, {"url", &s.URL}, {"command", &s.Command}, {"cwd", &s.Cwd}, {"envFile", &s.EnvFile}, {"description", &s.Description}} {
		if v := obj.Get(f.key); v != nil && json.Unmarshal(v, f.dst) != nil {
			return f.key + " is not a string"
		}
	}
	if v := obj.Get("args"); v != nil && json.Unmarshal(v, &s.Args) != nil {
		return "args is not a list of strings"
	}
	var msg string
	if s.Env, msg = stringMap(obj.Get("env"), "env"); msg != "" {
		return msg
	}
	if s.Headers, msg = stringMap(obj.Get("headers"), "headers"); msg != "" {
		return msg
	}
	if len(s.Args) == 0 {
		s.Args = nil
	}
	return checkTarget(s)
}

func stringMap(raw json.RawMessage, what string) ([]KV, string) {
	if raw == nil || string(raw) == "null" {
		return nil, ""
	}
	obj, err := orderedObject(raw)
	if err != nil {
		return nil, what + " is not an object"
	}
	var out []KV
	for _, m := range obj {
		k := m.Key
		var v string
		if json.Unmarshal(m.Value, &v) != nil {
			return nil, fmt.Sprintf("%s.%s is not a string", what, k)
		}
		out = append(out, KV{k, v})
	}
	return out, ""
}

func (f *foreignFile) readInputs(file string, raw json.RawMessage) map[string]Input {
	inputs := map[string]Input{}
	if raw == nil {
		return inputs
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		f.warn(file, "inputs is not a list; ${input:…} references will name no description")
		return inputs
	}
	for i, it := range list {
		var in struct {
			ID          string `json:"id"`
			Description string `json:"description"`
			Password    bool   `json:"password"`
		}
		if json.Unmarshal(it, &in) != nil || in.ID == "" {
			f.warn(file, "inputs[%d] skipped: not an object with a string id", i)
			continue
		}
		inputs[in.ID] = Input{ID: in.ID, Description: in.Description, Password: in.Password}
	}
	return inputs
}

// claudeProject finds the entry of ~/.claude.json's projects for cwd or
// its nearest ancestor.
func claudeProject(raw json.RawMessage, cwd string) (string, json.RawMessage) {
	if raw == nil || cwd == "" {
		return "", nil
	}
	projects, err := orderedObject(raw)
	if err != nil {
		return "", nil
	}
	for dir := filepath.Clean(cwd); ; dir = filepath.Dir(dir) {
		if v := projects.Get(dir); v != nil {
			return dir, v
		}
		if filepath.Dir(dir) == dir {
			return "", nil
		}
	}
}

// orderedObject reads a JSON object as the files' owners read it: keys in
// file order, a key given twice counting once, with its last value.
func orderedObject(data []byte) (ojson.Members, error) {
	m, err := ojson.SplitObject(data)
	return m.Unique(), err
}

// topLevel splits a JSON (or JSONC) object into its top-level members and
// keeps the wanted ones, comments blanked out. It only counts brackets and
// skips strings, so a large file (~/.claude.json keeps Claude Code's
// history, megabytes of it) costs a scan, not a parse: completion reads
// these files at every TAB. It reports false for anything it is not sure
// of; the caller then parses the file properly.
func topLevel(data []byte, wanted ...string) (ojson.Members, bool) {
	o := ojson.Members{}
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil, false
	}
	i++
	for {
		i = skipSpace(data, i)
		if i < len(data) && data[i] == '}' {
			return o, skipSpace(data, i+1) == len(data)
		}
		if i >= len(data) || data[i] != '"' {
			return nil, false
		}
		end := skipString(data, i)
		var key string
		if end < 0 || json.Unmarshal(data[i:end], &key) != nil {
			return nil, false
		}
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return nil, false
		}
		start := skipSpace(data, i+1)
		i = skipValue(data, start)
		if i < 0 {
			return nil, false
		}
		if contains(wanted, key) {
			o.Set(key, stripJSONC(data[start:i]))
		}
		i = skipSpace(data, i)
		if i < len(data) && data[i] == ',' {
			i++
		}
	}
}

// skipSpace skips white space and comments.
func skipSpace(data []byte, i int) int {
	for i < len(data) {
		switch {
		case data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r':
			i++
		case data[i] == '/' && i+1 < len(data) && data[i+1] == '/':
			for i < len(data) && data[i] != '\n' {
				i++
			}
		case data[i] == '/' && i+1 < len(data) && data[i+1] == '*':
			end := bytes.Index(data[i+2:], []byte("*/"))
			if end < 0 {
				return len(data)
			}
			i += 2 + end + 2
		default:
			return i
		}
	}
	return i
}

// skipString returns the index after the string that starts at i, or -1.
func skipString(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// skipValue returns the index after the value that starts at i, or -1.
func skipValue(data []byte, i int) int {
	depth := 0
	for i < len(data) {
		switch c := data[i]; {
		case c == '"':
			if i = skipString(data, i); i < 0 {
				return -1
			}
			if depth == 0 {
				return i
			}
			continue
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			if depth == 0 {
				return i
			}
			depth--
			if depth == 0 {
				return i + 1
			}
		case c == '/' && i+1 < len(data) && (data[i+1] == '/' || data[i+1] == '*'):
			i = skipSpace(data, i)
			continue
		case depth == 0 && (c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			return i
		}
		i++
	}
	if depth == 0 {
		return i
	}
	return -1
}

// stripJSONC blanks out // and /* */ comments and trailing commas, keeping
// every other byte where it was so that error offsets still point into the
// file as written.
func stripJSONC(data []byte) []byte {
	out := bytes.Clone(data)
	inString := false
	lastComma := -1 // a comma that may turn out to be trailing
	for i := 0; i < len(out); i++ {
		c := out[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch {
		case c == '"':
			inString, lastComma = true, -1
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			end := bytes.Index(out[i+2:], []byte("*/"))
			stop := len(out)
			if end >= 0 {
				stop = i + 2 + end + 2
			}
			for ; i < stop; i++ {
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
			i--
		case c == ',':
			lastComma = i
		case c == '}' || c == ']':
			if lastComma >= 0 {
				out[lastComma] = ' '
			}
			lastComma = -1
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			lastComma = -1
		}
	}
	return out
}

// jsonSyntaxError locates a JSON error by line and column: the offset of
// the offending byte, as ojson finds it (in words that do not change with
// Go's encoding/json).
func jsonSyntaxError(file string, data []byte, err error) *SyntaxError {
	se := &SyntaxError{File: file, Msg: "invalid JSON: " + err.Error()}
	var off int64 = -1
	var oe *ojson.SyntaxError
	if errors.As(err, &oe) {
		off = oe.Offset
	}
	if off >= 0 && off <= int64(len(data)) {
		before := data[:off]
		se.Line = bytes.Count(before, []byte("\n")) + 1
		start := bytes.LastIndexByte(before, '\n') + 1
		se.Column = len([]rune(string(before[start:]))) + 1
		end := bytes.IndexByte(data[start:], '\n')
		if end < 0 {
			end = len(data) - start
		}
		se.Near = string(data[start : start+end])
	}
	return se
}
