package config

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"
	"time"
	"unicode"
)

// Endpoint is a server ready to be reached: every string expanded.
type Endpoint struct {
	Name   string
	Source Source
	Type   string // stdio, http or sse

	URL     string
	Headers []KV

	Argv []string
	Env  []KV // the server's own variables, added to the caller's environment
	Cwd  string

	ProtocolVersion string
	Timeout         time.Duration
	Roots           []string
	// Settings are the entry's other global options, expanded.
	Settings  []Setting
	KeepAlive time.Duration
	// Auth is the entry's auth settings, expanded (bearer is also in
	// Headers already).
	Auth []KV
}

// Env is what Resolve expands variables from.
type Env struct {
	// Lookup reads a variable, like os.LookupEnv.
	Lookup func(string) (string, bool)
	// Home is what ${userHome} stands for.
	Home string
}

// VarError is a ${…} reference that cannot be expanded.
type VarError struct {
	Server string
	File   string
	Var    string // the environment variable that is not set
	Input  *Input // a VS Code input, read from Var
	Ref    string // the reference as written, when it is not supported
	// NotAllowed: Var is set or not, but a project file may not read it
	// (the user's projectEnv does not name it).
	NotAllowed bool
}

func (e *VarError) Error() string {
	where := fmt.Sprintf("server %q (%s): ", e.Server, e.File)
	switch {
	case e.NotAllowed:
		return where + "a project file may not read ${" + e.Var + "}; to allow it, name it in projectEnv in mcpctl's config ('mcpctl config edit': projectEnv: [" + e.Var + "])"
	case e.Ref != "":
		return where + "${" + e.Ref + "} cannot be expanded outside the editor that defines it; write the value, or ${VAR} to read it from the environment"
	case e.Input != nil:
		what := fmt.Sprintf("input %q", e.Input.ID)
		if e.Input.Description != "" {
			what += " (" + e.Input.Description + ")"
		}
		return where + what + " is not set; export " + e.Var + " to give it (mcpctl never prompts for inputs)"
	}
	return where + "${" + e.Var + "} is not set; export " + e.Var + ", or write ${" + e.Var + ":-default} in the file"
}

// inputVar is the environment variable that gives VS Code input id.
func inputVar(id string) string {
	return "MCPCTL_INPUT_" + strings.Map(func(r rune) rune {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return unicode.ToUpper(r)
		}
		return '_'
	}, id)
}

// Resolve expands the entry's strings from env and returns the endpoint.
// It fails with *VarError for a variable that is not set (and has no
// default), or with an *EntryError: the entry's Problem, or a header or
// variable that cannot be sent or set (its Err a *HeaderError or
// *EnvError), which may come from the expansion.
func (s *Server) Resolve(env Env) (*Endpoint, error) {
	if s.Problem != "" {
		return nil, &EntryError{Server: s.Name, Where: s.where(), Msg: s.Problem}
	}
	x := &expander{srv: s, env: env}
	r := s.rewrite(x.str)
	ep := &Endpoint{
		Name: s.Name, Source: s.Source, Type: s.Type,
		URL: r.URL, Headers: r.Headers, Cwd: r.Cwd, Roots: r.Roots,
		ProtocolVersion: r.ProtocolVersion, Timeout: s.Timeout, Settings: r.Settings,
		KeepAlive: s.KeepAlive,
	}
	if r.Command != "" {
		ep.Argv = r.Argv()
	}
	if r.EnvFile != "" && x.err == nil {
		kvs, err := readEnvFile(r.EnvFile)
		if err != nil {
			return nil, &EntryError{Server: s.Name, Where: s.where(), Msg: "envFile: " + err.Error()}
		}
		ep.Env = kvs
	}
	ep.Env = append(ep.Env, r.Env...)
	ep.Auth = r.Auth
	for _, a := range r.Auth {
		if a.Key == "bearer" && !hasKey(ep.Headers, "Authorization") {
			ep.Headers = append(ep.Headers, KV{"Authorization", "Bearer " + a.Value})
		}
	}
	if x.err != nil {
		return nil, x.err
	}
	if err := checkEndpoint(ep); err != nil {
		return nil, &EntryError{Server: s.Name, Where: s.where(), Msg: err.Error(), Err: err}
	}
	return ep, nil
}

// rewrite returns a copy of s with fn applied to every string that may
// hold ${…} references.
func (s *Server) rewrite(fn func(string) string) *Server {
	c := *s
	kvs := func(in []KV) []KV {
		var out []KV
		for _, kv := range in {
			out = append(out, KV{kv.Key, fn(kv.Value)})
		}
		return out
	}
	strs := func(in []string) []string {
		var out []string
		for _, v := range in {
			out = append(out, fn(v))
		}
		return out
	}
	c.URL, c.Command, c.Cwd, c.EnvFile, c.ProtocolVersion = fn(s.URL), fn(s.Command), fn(s.Cwd), fn(s.EnvFile), fn(s.ProtocolVersion)
	c.Headers, c.Auth, c.Env = kvs(s.Headers), kvs(s.Auth), kvs(s.Env)
	c.Args, c.Roots = strs(s.Args), strs(s.Roots)
	c.Settings = nil
	for _, st := range s.Settings {
		st.Value = fn(st.Value)
		c.Settings = append(c.Settings, st)
	}
	return &c
}

// Portable returns a copy of s written the way mcpctl's own file reads
// it, for `config import`: ${env:X} becomes ${X}, ${userHome} ${HOME},
// ${workspaceFolder} the folder itself and ${input:ID} ${MCPCTL_INPUT_ID}.
// Nothing is expanded from the environment, so secrets stay references.
func (s *Server) Portable() *Server {
	c := s.rewrite(func(v string) string {
		if !strings.Contains(v, "${") {
			return v
		}
		var b strings.Builder
		for {
			i := strings.Index(v, "${")
			j := strings.IndexByte(v[max(i, 0):], '}')
			if i < 0 || j < 0 {
				b.WriteString(v)
				return b.String()
			}
			ref := v[i+2 : i+j]
			b.WriteString(v[:i])
			v = v[i+j+1:]
			kind, arg, _ := strings.Cut(ref, ":")
			switch {
			case kind == "env" && isIdent(arg):
				b.WriteString("${" + arg + "}")
			case kind == "input" && s.inputs != nil:
				b.WriteString("${" + inputVar(arg) + "}")
			case ref == "userHome":
				b.WriteString("${HOME}")
			case ref == "workspaceFolder" && s.workspace != "":
				b.WriteString(s.workspace)
			case ref == "pathSeparator" || ref == "/":
				b.WriteString(string(os.PathSeparator))
			default:
				b.WriteString("${" + ref + "}")
			}
		}
	})
	c.Source = Source{Format: FormatMcpctl}
	c.Line, c.Column, c.inputs, c.workspace = 0, 0, nil, ""
	return c
}

func hasKey(kvs []KV, key string) bool {
	for _, kv := range kvs {
		if strings.EqualFold(kv.Key, key) {
			return true
		}
	}
	return false
}

// EntryError is an entry that cannot be used as written.
type EntryError struct {
	Server, Where, Msg string
	Err                error // the cause, when it is a typed error (*HeaderError, *EnvError)
}

func (e *EntryError) Error() string {
	return fmt.Sprintf("server %q (%s): %s", e.Server, e.Where, e.Msg)
}

func (e *EntryError) Unwrap() error { return e.Err }

// expander expands ${…} references, remembering the first failure so that
// Resolve reads like a list of fields.
type expander struct {
	srv *Server
	env Env
	err error
}

func (x *expander) str(s string) string {
	if x.err != nil || !strings.Contains(s, "${") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		s = s[i+2:]
		j := strings.IndexByte(s, '}')
		if j < 0 {
			x.err = &EntryError{Server: x.srv.Name, Where: x.srv.where(), Msg: `"${" without a closing "}"`}
			return ""
		}
		v, err := x.variable(s[:j])
		if err != nil {
			x.err = err
			return ""
		}
		b.WriteString(v)
		s = s[j+1:]
	}
}

// lookup reads a variable for the entry: a project file's only when the
// user's projectEnv names it, or when it answers one of the file's own VS
// Code inputs (input: MCPCTL_INPUT_<ID>, a variable set for nothing else).
func (x *expander) lookup(name string, verr *VarError, input bool) (string, bool, error) {
	if x.srv.Source.InProject() && !input && !contains(x.srv.allowEnv, name) {
		verr.Var, verr.NotAllowed = name, true
		return "", false, verr
	}
	v, ok := x.env.Lookup(name)
	return v, ok, nil
}

// variable expands the body of one ${…}.
func (x *expander) variable(ref string) (string, error) {
	verr := &VarError{Server: x.srv.Name, File: x.srv.Source.File}
	kind, arg, scoped := strings.Cut(ref, ":")
	switch {
	case scoped && kind == "env" && isIdent(arg):
		v, ok, err := x.lookup(arg, verr, false)
		if err != nil {
			return "", err
		}
		if ok {
			return v, nil
		}
		verr.Var = arg
		return "", verr
	case scoped && kind == "input" && x.srv.inputs != nil:
		in, ok := x.srv.inputs[arg]
		if !ok {
			in = Input{ID: arg}
		}
		verr.Var, verr.Input = inputVar(arg), &in
		v, ok, err := x.lookup(verr.Var, verr, true)
		if err != nil {
			return "", err
		}
		if ok {
			return v, nil
		}
		return "", verr
	case ref == "userHome" && x.env.Home != "":
		return x.env.Home, nil
	case ref == "workspaceFolder" && x.srv.workspace != "":
		return x.srv.workspace, nil
	case ref == "userHome" || ref == "workspaceFolder":
		verr.Ref = ref // an editor's variable, with nothing to stand for here
		return "", verr
	case ref == "pathSeparator" || ref == "/":
		return string(os.PathSeparator), nil
	}
	name, def, hasDef := strings.Cut(ref, ":-")
	if !isIdent(name) {
		verr.Ref = ref
		return "", verr
	}
	v, ok, err := x.lookup(name, verr, false)
	if err != nil {
		return "", err
	}
	switch {
	case hasDef && v == "":
		return def, nil
	case ok:
		return v, nil
	}
	verr.Var = name
	return "", verr
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// readEnvFile reads a dotenv file: KEY=VALUE lines, # comments, optional
// "export " and quotes around the value.
func readEnvFile(path string) ([]KV, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []KV
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		k, v, ok := strings.Cut(strings.TrimPrefix(line, "export "), "=")
		k = strings.TrimSpace(k)
		if !ok || !isIdent(k) {
			return nil, fmt.Errorf("%s:%d: not KEY=VALUE", path, n)
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
		}
		out = append(out, KV{k, v})
	}
	return out, sc.Err()
}
