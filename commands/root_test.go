package commands

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// oneErrorLine checks that stderr is exactly one "mcpctl: " line.
func oneErrorLine(t *testing.T, r runResult, prefix string) {
	t.Helper()
	if !strings.HasPrefix(r.err, "mcpctl: "+prefix) || strings.Count(r.err, "\n") != 1 || !strings.HasSuffix(r.err, "\n") {
		t.Errorf("stderr %q; want one line starting %q", r.err, "mcpctl: "+prefix)
	}
}

func TestRunNoServer(t *testing.T) {
	t.Parallel()
	e := isolate(t)
	r := e.run("", "tools", "list")
	if r.code != ExitUsage {
		t.Errorf("exit %d, want %d", r.code, ExitUsage)
	}
	oneErrorLine(t, r, "no server given")
	if r.stdout != "" {
		t.Errorf("stdout %q", r.stdout)
	}
}

func TestRunEnvironmentServer(t *testing.T) {
	t.Parallel()
	e := isolate(t)
	e.Setenv("MCPCTL_URL", "ftp://from-the-environment")
	r := e.run("", "tools", "list")
	if r.code != ExitUsage || !strings.Contains(r.err, "ftp://from-the-environment") {
		t.Errorf("exit %d, stderr %q; want the URL from MCPCTL_URL to be used (and refused)", r.code, r.err)
	}
}

func TestRunUsageErrors(t *testing.T) {
	t.Parallel()
	const url = "http://127.0.0.1:1/mcp" // never contacted: every case fails before
	tests := []struct {
		name   string
		args   []string
		prefix string // of the single stderr line, after "mcpctl: "
	}{
		{"unknown command", []string{"bogus"}, `unknown command "bogus"`},
		{"unknown command with a suggestion", []string{"tols"}, `unknown command "tols" for 'mcpctl'; did you mean tools?`},
		{"unknown subcommand", []string{"tools", "lst"}, `unknown command "lst" for 'mcpctl tools'; did you mean list?`},
		{"unknown flag", []string{"--url", url, "tools", "list", "--bogus"}, "unknown flag --bogus"},
		{"unknown global flag", []string{"--bogus", "tools", "list"}, "unknown flag --bogus"},
		{"both --url and --stdio", []string{"--url", url, "--stdio", "srv", "tools", "list"}, "both --url and --stdio"},
		{"bad URL scheme", []string{"--url", "ftp://x/mcp", "tools", "list"}, `invalid URL "ftp://x/mcp"`},
		{"unsupported protocol version", []string{"--url", url, "--protocol-version", "1999-01-01", "tools", "list"}, "unsupported --protocol-version"},
		{"bad output format", []string{"--url", url, "-o", "xml", "tools", "list"}, ""},
		{"bad jq filter", []string{"--url", url, "--jq", ".[", "tools", "list"}, ""},
		{"jq with a table", []string{"--url", url, "-o", "table", "--jq", ".", "tools", "list"}, "--jq filters JSON"},
		{"missing tool name", []string{"--url", url, "tools", "call"}, "usage: mcpctl tools call"},
		{"bad request item", []string{"--url", url, "tools", "call", "echo", "novalue"}, `invalid argument "novalue"`},
		{"bad --json", []string{"--url", url, "tools", "call", "echo", "--json", "[1]"}, "--json must be a JSON object"},
		{"bad header", []string{"--url", url, "-H", "NoColon", "tools", "list"}, `invalid header "NoColon"`},
		{"bad --env", []string{"--stdio", "sh -c 'exit 0'", "--env", "NOEQ", "tools", "list"}, `invalid --env "NOEQ"`},
		{"unsplittable --stdio", []string{"--stdio", "'unterminated", "tools", "list"}, "cannot split --stdio"},
		{"empty --stdio", []string{"--stdio", "  ", "tools", "list"}, ""},
		{"too many arguments", []string{"--url", url, "tools", "list", "extra"}, "usage: mcpctl tools list"},
		{"bad call params", []string{"--url", url, "call", "ping", "[]"}, "params must be a JSON object"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := isolate(t)
			r := e.run("", tc.args...)
			if r.code != ExitUsage {
				t.Errorf("exit %d, want %d (stderr %q)", r.code, ExitUsage, r.err)
			}
			oneErrorLine(t, r, tc.prefix)
			if r.stdout != "" {
				t.Errorf("stdout %q", r.stdout)
			}
		})
	}
}

func TestRunNoArgumentsShowsHelp(t *testing.T) {
	t.Parallel()
	e := isolate(t)
	r := e.run("")
	if r.code != ExitOK || !strings.Contains(r.stdout, "EXIT CODES") || !strings.Contains(r.stdout, "tools") {
		t.Errorf("exit %d, stdout %q", r.code, r.stdout)
	}
}

// Regression (fixed): once wrong, now pinned:
//
//	normalizeArgs counts -h/--help among the global flags (flagArity
//	adds them to every flag set) and moves them before the command path,
//	so "mcpctl tools list --help" runs "mcpctl --help tools list", which
//	prints the help of "tools" instead of "tools list" (no --cursor
//	option shown).
func TestRunHelpAfterSubcommand(t *testing.T) {
	t.Parallel()
	for _, flag := range []string{"--help", "-h"} {
		e := isolate(t)
		r := e.run("", "tools", "list", flag)
		if r.code != ExitOK || !strings.Contains(r.stdout, "mcpctl tools list") || !strings.Contains(r.stdout, "--cursor") {
			t.Errorf("mcpctl tools list %s: exit %d, stdout:\n%s", flag, r.code, r.stdout)
		}
	}
}

func TestRunDryRun(t *testing.T) {
	t.Parallel()
	e := isolate(t)
	r := e.run("", "--url", "http://127.0.0.1:1/mcp", "tools", "call", "echo", "text=<hi>", "n:=1.50",
		"-H", "Authorization: Bearer s3cr3t", "--dry-run")
	// Nothing is cached, so the arguments go as given (issue 15, item 1),
	// and a note says so.
	note := "mcpctl: note: no cached tool list for this server: arguments shown as given, untyped and without Mcp-Param-* headers; run 'mcpctl tools list' first\n"
	if r.code != ExitOK || r.err != note {
		t.Fatalf("exit %d, stderr %q", r.code, r.err)
	}
	for _, want := range []string{
		"POST http://127.0.0.1:1/mcp\n",
		"Authorization: Bearer [REDACTED]\n",
		"Mcp-Method: tools/call\n",
		"Mcp-Name: echo\n",
		`"name":"echo","arguments":{"text":"<hi>","n":1.50}}`,
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("dry run output lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "s3cr3t") {
		t.Error("the credential is printed")
	}
}

// fakeServer is a Streamable HTTP server with a few tools.
type fakeServer struct {
	*httptest.Server
	mu      sync.Mutex
	headers []http.Header
}

func newFakeServer(t *testing.T) *fakeServer {
	f := &fakeServer{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "Bearer wrong" {
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
			w.WriteHeader(401)
			return
		}
		f.mu.Lock()
		f.headers = append(f.headers, r.Header.Clone())
		f.mu.Unlock()
		body, _ := io.ReadAll(r.Body)
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"params"`
		}
		_ = json.Unmarshal(body, &req)
		answer := func(status int, member string) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,`+member+`}`)
		}
		switch {
		case req.Method == "server/discover":
			answer(200, `"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}}}`)
		case req.Method == "tools/list":
			answer(200, `"result":{"tools":[
				{"name":"echo","inputSchema":{"type":"object","properties":{"text":{"type":"string","x-mcp-header":"Text"}}}},
				{"name":"fail","inputSchema":{"type":"object"}},
				{"name":"bad","inputSchema":{"type":"object","properties":{"n":{"type":"number","x-mcp-header":"N"}}}}]}`)
		case req.Method == "tools/call" && req.Params.Name == "echo":
			answer(200, `"result":{"content":[{"type":"text","text":`+strings.TrimSpace(jsonField(req.Params.Arguments, "text"))+`}]}`)
		case req.Method == "tools/call" && req.Params.Name == "fail":
			answer(200, `"result":{"content":[{"type":"text","text":"it broke"}],"isError":true}`)
		default:
			answer(404, `"error":{"code":-32601,"message":"Method not found"}`)
		}
	}))
	t.Cleanup(f.Close)
	return f
}

func jsonField(obj json.RawMessage, key string) string {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(obj, &m)
	if v, ok := m[key]; ok {
		return string(v)
	}
	return `""`
}

func TestRunHTTP(t *testing.T) {
	t.Parallel()
	srv := newFakeServer(t)
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string // substrings
		stderr string   // prefix of stderr ("" means empty)
	}{
		{"tools list drops invalid tools", []string{"tools", "list"}, ExitOK,
			[]string{`"name":"echo"`, `"name":"fail"`}, `mcpctl: warning: tool "bad" left out`},
		{"tools call", []string{"tools", "call", "echo", "text=hello"}, ExitOK, []string{`"text":"hello"`}, ""},
		{"tools call with flags after", []string{"tools", "call", "echo", "--json", `{"text":"from json"}`, "-o", "json"}, ExitOK, []string{`"text":"from json"`}, ""},
		{"tool error exits 1 quietly", []string{"tools", "call", "fail"}, ExitToolError, []string{"it broke"}, ""},
		{"invalid tool", []string{"tools", "call", "bad", "n:=1"}, ExitServerError, nil, `mcpctl: tools/call bad: tool "bad" has an invalid definition`},
		{"unknown tool", []string{"tools", "call", "ecko"}, ExitUsage, nil, `mcpctl: tools/call ecko: the server has no tool "ecko"; did you mean echo?`},
		{"JSON-RPC error", []string{"call", "nope/nope"}, ExitServerError, nil, "mcpctl: nope/nope: server error -32601: Method not found"},
		{"auth failure", []string{"-H", "Authorization: Bearer wrong", "tools", "list"}, ExitAuth, nil, "mcpctl: tools/list: HTTP 401"},
		{"jq", []string{"tools", "list", "--jq", ".tools[].name"}, ExitOK, []string{"echo\nfail\n"}, `mcpctl: warning:`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := isolate(t)
			r := e.run("", append([]string{"--url", srv.URL + "/mcp"}, tc.args...)...)
			if r.code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", r.code, tc.code, r.err)
			}
			for _, s := range tc.stdout {
				if !strings.Contains(r.stdout, s) {
					t.Errorf("stdout lacks %q:\n%s", s, r.stdout)
				}
			}
			if tc.stderr == "" && r.err != "" || !strings.HasPrefix(r.err, tc.stderr) {
				t.Errorf("stderr %q, want it to start with %q", r.err, tc.stderr)
			}
			if strings.Contains(r.stdout, `"name":"bad"`) {
				t.Error("the invalid tool is listed")
			}
		})
	}

	// The tools/call request carried the mirrored parameter header.
	srv.mu.Lock()
	defer srv.mu.Unlock()
	found := false
	for _, h := range srv.headers {
		if h.Get("Mcp-Method") == "tools/call" && h.Get("Mcp-Name") == "echo" && h.Get("Mcp-Param-Text") == "hello" {
			found = true
		}
	}
	if !found {
		t.Error("no tools/call echo request with Mcp-Param-Text: hello")
	}
}

func TestRunStdio(t *testing.T) {
	t.Parallel()
	e := isolate(t)
	server := `read l; printf '%s\n' '{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo"}]}}'`
	r := e.run("", "--protocol-version", "2026-07-28", "--stdio", "sh -c '"+strings.ReplaceAll(server, "'", `'\''`)+"'", "tools", "list")
	if r.code != ExitOK || !strings.Contains(r.stdout, `"name":"echo"`) {
		t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.err)
	}

	e = isolate(t)
	r = e.run("", "--stdio", "sh -c 'echo dying >&2; exit 9'", "tools", "list")
	if r.code != ExitConnection || !strings.Contains(r.err, "exit status 9") || !strings.Contains(r.err, "dying") {
		t.Errorf("exit %d, stderr %q; want %d with the exit status and the server's last words", r.code, r.err, ExitConnection)
	}
}
