package config

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func env(vars map[string]string) Env {
	return Env{Home: "/home/ada", Lookup: func(k string) (string, bool) {
		v, ok := vars[k]
		return v, ok
	}}
}

func mustLoad(t *testing.T, o Options) *Set {
	t.Helper()
	set, err := Load(o)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func TestOwnFile(t *testing.T) {
	set := mustLoad(t, Options{File: "testdata/config.yaml"})
	if got := set.Names(); !reflect.DeepEqual(got, []string{"weather", "files", "broken"}) {
		t.Fatalf("names = %v", got)
	}
	var warnings []string
	for _, w := range set.Warnings {
		warnings = append(warnings, w.String())
	}
	want := []string{
		`testdata/config.yaml:5:3: unknown key "colour" in defaults (ignored; known keys: output, timeout, cacheTTL, probeTimeout, progress, logLevel, serverStderr, shutdownGrace, tokenStore, server, keepAlive)`,
		`testdata/config.yaml:23:5: unknown key "colour" in server files (ignored; known keys: description, type, url, headers, auth, command, args, env, envFile, cwd, protocolVersion, timeout, roots, keepAlive, output, cacheTTL, probeTimeout, progress, logLevel, serverStderr, shutdownGrace, tokenStore)`,
	}
	if !reflect.DeepEqual(warnings, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(warnings, "\n"), strings.Join(want, "\n"))
	}
	if len(set.Defaults) != 2 || set.Defaults[0].Flag != "output" || set.Defaults[1].Value != "30s" {
		t.Errorf("defaults = %+v", set.Defaults)
	}

	w, _ := set.Lookup("weather")
	ep, err := w.Resolve(env(map[string]string{"WEATHER_KEY": "k1"}))
	if err != nil {
		t.Fatal(err)
	}
	wantHeaders := []KV{{"X-Api-Key", "k1"}, {"Authorization", "Bearer anonymous"}}
	if ep.URL != "https://weather.example.com/mcp" || ep.Type != "http" || ep.Timeout != 10*time.Second || !reflect.DeepEqual(ep.Headers, wantHeaders) {
		t.Errorf("weather = %+v", ep)
	}

	f, _ := set.Lookup("files")
	ep, err = f.Resolve(env(map[string]string{"HOME": "/home/ada"}))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ep.Argv, []string{"npx", "-y", "@modelcontextprotocol/server-filesystem", "/home/ada/src"}) ||
		!reflect.DeepEqual(ep.Env, []KV{{"PORT", "8080"}}) || ep.Cwd != "/tmp" || ep.ProtocolVersion != "2025-11-25" ||
		!reflect.DeepEqual(ep.Roots, []string{"/srv"}) || ep.Type != "stdio" {
		t.Errorf("files = %+v", ep)
	}
	// The entry's settings, in file order, with their flags and places,
	// expanded like its other strings.
	wantSettings := []Setting{
		{Key: "serverStderr", Flag: "server-stderr", Value: "/home/ada/files.log", Line: 24, Column: 19},
		{Key: "output", Flag: "output", Value: "yaml", Line: 25, Column: 13},
	}
	if !reflect.DeepEqual(ep.Settings, wantSettings) || f.Settings[0].Value != "${HOME}/files.log" {
		t.Errorf("files settings = %+v (as written %+v)", ep.Settings, f.Settings)
	}

	b, _ := set.Lookup("broken")
	_, err = b.Resolve(env(nil))
	if err == nil || !strings.Contains(err.Error(), `server "broken" (testdata/config.yaml:26:3): line 27: has both url and command; keep one`) {
		t.Errorf("broken: %v", err)
	}
}

func TestExpand(t *testing.T) {
	s := &Server{Name: "x", Source: Source{File: "f"}, Type: "stdio", Command: "run"}
	for _, tc := range []struct {
		in, want, err string
		vars          map[string]string
	}{
		{in: "a-${V}-b", vars: map[string]string{"V": "1"}, want: "a-1-b"},
		{in: "${V:-dflt}", want: "dflt"},
		{in: "${V:-dflt}", vars: map[string]string{"V": ""}, want: "dflt"},
		{in: "${V:-dflt}", vars: map[string]string{"V": "set"}, want: "set"},
		{in: "${V}", vars: map[string]string{"V": ""}, want: ""},
		{in: "$HOME ${V", err: `server "x" (f): "${" without a closing "}"`},
		{in: "${MISSING}", err: `server "x" (f): ${MISSING} is not set; export MISSING, or write ${MISSING:-default} in the file`},
		{in: "${env:E}", vars: map[string]string{"E": "e"}, want: "e"},
		{in: "${userHome}/x", want: "/home/ada/x"},
		{in: "${command:pick}", err: `${command:pick} cannot be expanded`},
		{in: "${workspaceFolder}", err: `${workspaceFolder} cannot be expanded`},
	} {
		c := *s
		c.Args = []string{tc.in}
		ep, err := c.Resolve(env(tc.vars))
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: err = %v, want %q", tc.in, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.in, err)
		case tc.err == "" && ep.Argv[1] != tc.want:
			t.Errorf("%q = %q, want %q", tc.in, ep.Argv[1], tc.want)
		}
	}
	var verr *VarError
	c := *s
	c.URL, c.Command, c.Type = "https://${HOST}/mcp", "", "http"
	if _, err := c.Resolve(env(nil)); !errors.As(err, &verr) || verr.Var != "HOST" || verr.Server != "x" {
		t.Errorf("err = %#v", err)
	}
}

// foreign writes the other clients' files into a fake home and project,
// whose files the user has trusted (config trust), as a user who uses
// them has.
func foreign(t *testing.T) Options {
	dir := t.TempDir()
	home, proj := filepath.Join(dir, "home"), filepath.Join(dir, "work", "proj")
	files := map[string]string{
		"home/.config/Claude/claude_desktop_config.json": `{"mcpServers": {
			"fs": {"command": "npx", "args": ["-y", "server-filesystem"]},
			"bad": {"command": 42},
			"shared": {"command": "same", "args": ["x"]}}}`,
		"home/.claude.json": `{"numStartups": 3, "mcpServers": {"user-srv": {"type": "http", "url": "https://u.example/mcp"}, "scoped": {"command": "user-scope"}},
			"projects": {"` + filepath.Join(dir, "work") + `": {"mcpServers": {"scoped": {"command": "local-scope"}}}}}`,
		"home/.cursor/mcp.json": `{
			// Cursor allows comments
			"mcpServers": {"cur": {"url": "https://c.example/sse", "headers": {"K": "${env:CUR_KEY}"},},
			"shared": {"command": "same", "args": ["x"]},
			"envnum": {"command": "x", "env": {"N": 1}}}}`,
		"work/.mcp.json": `{"mcpServers": {"proj": {"type": "stdio", "command": "./srv", "args": ["${API_DIR:-/api}"]}, "odd": "not an object",
			"shared": {"command": "other"}}}`,
		"work/proj/.vscode/mcp.json": `{
			"inputs": [{"type": "promptString", "id": "api-key", "description": "API key", "password": true}],
			/* VS Code's own format */
			"servers": {"code": {"type": "stdio", "command": "${workspaceFolder}/bin/srv", "env": {"KEY": "${input:api-key}"}},
			            "nourl": {"type": "http"}},
		}`,
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return trusting(t, Options{Foreign: true, Home: home, UserConfigDir: filepath.Join(home, ".config"), Cwd: proj})
}

func TestForeignFiles(t *testing.T) {
	o := foreign(t)
	set := mustLoad(t, o)
	var got []string
	for _, s := range set.Servers {
		got = append(got, s.Name+"="+s.Source.Format+":"+s.Type)
	}
	// In precedence order: ~/.claude.json's servers for this project, the
	// project's files, then the user's.
	want := []string{
		"scoped=claude-code:stdio",
		"proj=project:stdio", "shared=project:stdio",
		"code=vscode:stdio",
		"fs=claude-desktop:stdio", "shared=claude-desktop:stdio",
		"user-srv=claude-code:http", "scoped=claude-code:stdio",
		"cur=cursor:http", "shared=cursor:stdio",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("servers:\n%v\nwant:\n%v", got, want)
	}
	var warnings []string
	for _, w := range set.Warnings {
		warnings = append(warnings, filepath.Base(w.File)+": "+w.Msg)
	}
	wantW := []string{
		`.mcp.json: server "odd" skipped: not a JSON object`,
		`mcp.json: server "nourl" skipped: has neither url nor command`,
		`claude_desktop_config.json: server "bad" skipped: command is not a string`,
		`mcp.json: server "envnum" skipped: env.N is not a string`,
	}
	if !reflect.DeepEqual(warnings, wantW) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(warnings, "\n"), strings.Join(wantW, "\n"))
	}

	// Local scope shadows user scope in ~/.claude.json.
	s, err := set.Lookup("scoped")
	if err != nil || s.Command != "local-scope" || s.Source.Project == "" {
		t.Errorf("scoped = %+v, %v", s, err)
	}
	// VS Code: ${workspaceFolder} and ${input:…} (from MCPCTL_INPUT_…).
	s, _ = set.Lookup("code")
	if _, err := s.Resolve(env(nil)); err == nil || !strings.Contains(err.Error(), `input "api-key" (API key) is not set; export MCPCTL_INPUT_API_KEY`) {
		t.Errorf("code: %v", err)
	}
	ep, err := s.Resolve(env(map[string]string{"MCPCTL_INPUT_API_KEY": "sekrit"}))
	if err != nil || ep.Argv[0] != filepath.Join(filepath.Dir(o.Cwd), "proj", "bin", "srv") || ep.Env[0] != (KV{"KEY", "sekrit"}) {
		t.Errorf("code = %+v, %v", ep, err)
	}
	// A name in several sources, defined differently: the project's file
	// comes before the user's, which it shadows.
	shared, err := set.Lookup("shared")
	if err != nil || shared.Command != "other" || shared.Source.Format != FormatProject {
		t.Errorf("shared = %+v, %v", shared, err)
	}
	for _, s := range set.Servers {
		by := set.ShadowedBy(s)
		switch {
		case s.Name == "shared" && s == shared && by != nil:
			t.Errorf("the winner %s is shadowed by %s", s.Pick(), by.Pick())
		case s.Name == "shared" && s != shared && by != shared:
			t.Errorf("%s shadowed by %v, want the project's", s.Pick(), by)
		case s.Name == "scoped" && s.Source.Project == "" && (by == nil || by.Source.Project == ""):
			t.Errorf("the user-scope scoped is shadowed by %v, want the local one", by)
		}
	}
	var nf *NotFoundError
	if _, err := set.Lookup("nope"); !errors.As(err, &nf) || len(nf.Known) != 7 {
		t.Errorf("nope: %v", err)
	}

	// One file on its own, by FILE:NAME.
	file, name, ok := SplitPick(filepath.Join(o.Home, ".cursor", "mcp.json") + ":cur")
	if !ok || name != "cur" {
		t.Fatal(file, name, ok)
	}
	one, err := ReadFile(file, o)
	if err != nil || one.Read[0].Format != FormatCursor {
		t.Fatal(one, err)
	}
	if s, err := one.Lookup("shared"); err != nil || s.Command != "same" {
		t.Errorf("shared in cursor: %+v %v", s, err)
	}
}

func TestSplitPick(t *testing.T) {
	for in, want := range map[string]bool{
		"a.json:x": true, "/p/c.yaml:x": true, "C:\\u\\m.json:x": true,
		"name": false, "a:b": false, "a.json:": false, ":x": false,
	} {
		if _, _, ok := SplitPick(in); ok != want {
			t.Errorf("SplitPick(%q) = %v", in, ok)
		}
	}
}

func TestSyntaxErrors(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{"servers:\n  a:\n    url: x\n   bad: y\n", `f.yaml:4:4: invalid YAML: did not find expected key (near "bad: y")`},
		{"servers:\n\ta:\n", `f.yaml:2:1: invalid YAML: found character that cannot start any token`},
		{"servers:\n  a:\n    url: x: y\n", `f.yaml:3:11: invalid YAML: mapping values are not allowed in this context`},
		{"servers:\n  a: {url: x}\n  a: {url: y}\n", `f.yaml:3:3: server "a" is defined twice (first at line 2)`},
		{"- a\n- b\n", `f.yaml:1:1: the file must be a mapping with servers: and defaults:`},
		{"servers: [a]\n", `f.yaml:1:10: servers must be a mapping`},
	} {
		_, err := parseYAML("f.yaml", []byte(tc.doc))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: %v\nwant %s", tc.doc, err, tc.want)
		}
	}
	bad := []byte("{\"mcpServers\": {\n  \"a\": {\"command\": \"x\"\n}\n")
	_, err := parseForeign(Source{Format: FormatProject, File: "p.json"}, bad, "")
	if err == nil || !strings.HasPrefix(err.Error(), "p.json:") {
		t.Errorf("json: %v", err)
	}
	bad = []byte("{\"mcpServers\": {\"a\": {\"command\": \"x\"}} x}")
	_, err = parseForeign(Source{Format: FormatProject, File: "p.json"}, bad, "")
	if err == nil || !strings.HasPrefix(err.Error(), "p.json:1:40: invalid JSON: invalid character 'x'") {
		t.Errorf("json: %v", err)
	}
}

func TestEditKeepsComments(t *testing.T) {
	file := filepath.Join(t.TempDir(), "sub", "config.yaml")
	d, err := OpenDoc(file)
	if err != nil {
		t.Fatal(err)
	}
	d.Put(&Server{Name: "b", Type: "stdio", Command: "srv", Args: []string{"-v", "8080"}, Env: []KV{{"PORT", "8080"}}, Timeout: 2 * time.Minute})
	if err := d.Save(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{file, filepath.Dir(file)} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		want := os.FileMode(0o600)
		if st.IsDir() {
			want = 0o700
		}
		if st.Mode().Perm() != want {
			t.Errorf("%s: mode %v", p, st.Mode().Perm())
		}
	}
	// A hand-edited file: comments and order survive add, replace and remove.
	hand := "# top comment\ndefaults:\n  output: json # inline\nservers:\n  # about z\n  z:\n    url: https://z\n  a:\n    command: a\n"
	if err := os.WriteFile(file, []byte(hand), 0o600); err != nil {
		t.Fatal(err)
	}
	d, err = OpenDoc(file)
	if err != nil {
		t.Fatal(err)
	}
	d.Put(&Server{Name: "m", Type: "http", URL: "https://m/${P}", Headers: []KV{{"Authorization", "Bearer ${T}"}}})
	d.Put(&Server{Name: "z", Type: "http", URL: "https://z2"})
	if !d.Remove("a") || d.Remove("a") {
		t.Error("Remove")
	}
	if err := d.Save(); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(file)
	want := "# top comment\ndefaults:\n  output: json # inline\nservers:\n  # about z\n  z:\n    url: https://z2\n  m:\n    url: https://m/${P}\n    headers:\n      Authorization: Bearer ${T}\n"
	if string(got) != want {
		t.Errorf("file:\n%s\nwant:\n%s", got, want)
	}
	set := mustLoad(t, Options{File: file})
	if names := set.Names(); !reflect.DeepEqual(names, []string{"z", "m"}) {
		t.Errorf("names = %v", names)
	}

	// A broken file is never overwritten.
	if err := os.WriteFile(file, []byte("servers:\n\tx\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var se *SyntaxError
	if _, err := OpenDoc(file); !errors.As(err, &se) || se.Line != 2 {
		t.Errorf("OpenDoc(broken) = %v", err)
	}
}

func TestPortable(t *testing.T) {
	o := foreign(t)
	set := mustLoad(t, o)
	code, _ := set.Lookup("code")
	p := code.Portable()
	if p.Command != filepath.Join(filepath.Dir(o.Cwd), "proj")+"/bin/srv" || p.Env[0].Value != "${MCPCTL_INPUT_API_KEY}" || p.Source.Format != FormatMcpctl {
		t.Errorf("portable = %+v", p)
	}
	cur, _ := set.Lookup("cur")
	if p := cur.Portable(); p.Headers[0].Value != "${CUR_KEY}" || p.URL != "https://c.example/sse" {
		t.Errorf("portable = %+v", p)
	}
	// What was portable reads back the same from mcpctl's own file.
	file := filepath.Join(t.TempDir(), "config.yaml")
	d, _ := OpenDoc(file)
	d.Put(p)
	if err := d.Save(); err != nil {
		t.Fatal(err)
	}
	back, _ := mustLoad(t, Options{File: file}).Lookup("code")
	if back == nil || !back.sameAs(p) {
		t.Errorf("read back %+v, want %+v", back, p)
	}
}

func TestEnvFile(t *testing.T) {
	dir := t.TempDir()
	envFile := filepath.Join(dir, ".env")
	os.WriteFile(envFile, []byte("# comment\nexport A=1\nB=\"two words\"\n"), 0o600)
	s := &Server{Name: "e", Type: "stdio", Command: "x", EnvFile: "${D}/.env", Env: []KV{{"C", "3"}}}
	ep, err := s.Resolve(env(map[string]string{"D": dir}))
	if err != nil || !reflect.DeepEqual(ep.Env, []KV{{"A", "1"}, {"B", "two words"}, {"C", "3"}}) {
		t.Errorf("env = %+v, %v", ep, err)
	}
}

func TestTopLevel(t *testing.T) {
	doc := `// JSONC
	{"history": [{"display": "a } ] \" { [ // not a comment"}, 1, -2.5e3, true, null],
	 /* block */ "mcpServers": {"a": {"command": "x", /* c */ "args": ["y",]},},
	 "n": 12, "s": "x", "projects": {}, }`
	o, ok := topLevel([]byte(doc), "mcpServers", "projects", "missing")
	if !ok {
		t.Fatal("topLevel refused a valid JSONC document")
	}
	if !reflect.DeepEqual(o.Keys(), []string{"mcpServers", "projects"}) {
		t.Errorf("keys = %v", o.Keys())
	}
	var servers map[string]struct {
		Command string
		Args    []string
	}
	if err := json.Unmarshal(o.Get("mcpServers"), &servers); err != nil || servers["a"].Command != "x" || servers["a"].Args[0] != "y" {
		t.Errorf("mcpServers = %s (%v)", o.Get("mcpServers"), err)
	}
	for _, bad := range []string{`[1]`, `{"a": 1 x}`, `{"a": [1}`, `{"a": "open`, `{"a" 1}`, `{"a": 1} trailing`} {
		if _, ok := topLevel([]byte(bad), "a"); ok {
			t.Errorf("topLevel(%q) accepted it", bad)
		}
	}
}

// Load releases a mapped file right after parsing it: nothing parsed may
// point into the file's bytes.
func TestForeignOwnsItsData(t *testing.T) {
	for _, doc := range []string{
		`{"mcpServers": {"a": {"command": "x", "args": ["y"], "env": {"K": "v"}}}}`,
		`// with comments and a trailing comma
		{"mcpServers": {"a": {"command": "x", /* c */ "args": ["y"], "env": {"K": "v"},}}}`,
	} {
		data := []byte(doc)
		f, err := parseForeign(Source{Format: FormatProject, File: "p.json"}, data, "")
		if err != nil {
			t.Fatal(err)
		}
		for i := range data {
			data[i] = 'Z'
		}
		s := f.servers[0]
		if s.Name != "a" || s.Command != "x" || s.Args[0] != "y" || s.Env[0] != (KV{"K", "v"}) {
			t.Errorf("after the bytes changed: %+v", s)
		}
	}
}

func TestReadLarge(t *testing.T) {
	file := filepath.Join(t.TempDir(), ".claude.json")
	big := `{"history": "` + strings.Repeat("x", 300<<10) + `", "mcpServers": {"m": {"command": "srv"}}}`
	if err := os.WriteFile(file, []byte(big), 0o600); err != nil {
		t.Fatal(err)
	}
	set := mustLoad(t, Options{Foreign: true, Home: filepath.Dir(file)})
	if s, err := set.Lookup("m"); err != nil || s.Command != "srv" {
		t.Errorf("m = %+v, %v", s, err)
	}
}

// TestSettingsRoundTrip: an entry's settings are written after its other
// keys and read back the same (config add stores them so).
func TestSettingsRoundTrip(t *testing.T) {
	file := filepath.Join(t.TempDir(), "config.yaml")
	s := &Server{Name: "s", Type: "stdio", Command: "demo", Timeout: 5 * time.Second, ProtocolVersion: "2025-11-25", KeepAlive: 10 * time.Minute,
		Settings: []Setting{{Key: "serverStderr", Flag: "server-stderr", Value: "discard"}, {Key: "cacheTTL", Flag: "cache-ttl", Value: "1m"}, {Key: "shutdownGrace", Flag: "shutdown-grace", Value: "0"}}}
	d, _ := OpenDoc(file)
	d.Put(s)
	if err := d.Save(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(file)
	if !strings.Contains(string(data), "    timeout: 5s\n    keepAlive: 10m\n    serverStderr: discard\n    cacheTTL: 1m\n    shutdownGrace: \"0\"\n") {
		t.Errorf("written:\n%s", data)
	}
	back, err := mustLoad(t, Options{File: file}).Lookup("s")
	if err != nil || !back.sameAs(s) || back.Settings[1].Line == 0 {
		t.Errorf("read back %+v, want %+v", back, s)
	}
}
