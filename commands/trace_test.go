package commands

import (
	"bytes"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/kballard/go-shellquote"

	"github.com/mcpctl/mcpctl/client"
)

func TestRedact(t *testing.T) {
	t.Parallel()
	const r = "[REDACTED]"
	tests := []struct{ name, value, want string }{
		{"Authorization", "Bearer abc.def.ghi", "Bearer " + r},
		{"authorization", "Basic dXNlcjpwYXNz", "Basic " + r},
		{"AUTHORIZATION", "DPoP eyJ x", "DPoP " + r},
		{"Authorization", "opaque-secret-without-scheme", r},
		{"Authorization", "", r},
		{"Proxy-Authorization", "Basic Zm9vOmJhcg==", "Basic " + r},
		{"Cookie", "session=abc; theme=dark", r},
		{"Set-Cookie", "id=a3fWa; Secure", r},
		{"X-Api-Key", "k-123", r},
		{"X-API-KEY", "k-123", r},
		{"Api_Key", "k", r},
		{"Apikey", "k", r},
		{"X-Auth-Token", "Bearer t", r}, // only Authorization headers keep their scheme
		{"X-Access-Token", "t", r},
		{"X-Client-Secret", "s", r},
		{"X-Password", "p", r},
		{"Mcp-Session-Id", "1868a90c", r},
		{"Mcp-Param-Token", "t", r},
		{"DPoP", "eyJ0eXAiOiJkcG9wK2p3dCJ9.e30.c2ln", r},
		// Normal headers are untouched, whatever their value looks like.
		{"Content-Type", "application/json", "application/json"},
		{"Accept", "application/json, text/event-stream", "application/json, text/event-stream"},
		{"Mcp-Method", "tools/call", "tools/call"},
		{"Mcp-Name", "get_token", "get_token"},
		{"Mcp-Param-Region", "Bearer us-west1", "Bearer us-west1"},
		{"Mcp-Protocol-Version", "2026-07-28", "2026-07-28"},
		{"User-Agent", "mcpctl/1.0 secret-edition", "mcpctl/1.0 secret-edition"},
		{"X-Cookie-Consent", "yes", "yes"},
		{"DPoP-Nonce", "n-1", "n-1"}, // the server's nonce is no secret
	}
	for _, tc := range tests {
		if got := redact(tc.name, tc.value); got != tc.want {
			t.Errorf("redact(%q, %q) = %q, want %q", tc.name, tc.value, got, tc.want)
		}
	}
}

func TestTracerRedacts(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	tr := newTracer(&buf)
	tr(client.TraceEvent{Dir: "send", HTTPMethod: "POST", URL: "http://x/mcp",
		Header: http.Header{"Authorization": {"Bearer s3cr3t"}, "Mcp-Method": {"ping"}},
		Body:   []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)})
	tr(client.TraceEvent{Dir: "recv", Status: "200 OK", Header: http.Header{"Set-Cookie": {"sid=s3cr3t"}}})
	tr(client.TraceEvent{Dir: "recv", Body: []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)})
	want := "> POST http://x/mcp\n" +
		"> Authorization: Bearer [REDACTED]\n" +
		"> Mcp-Method: ping\n" +
		`> {"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" +
		"< HTTP 200 OK\n" +
		"< Set-Cookie: [REDACTED]\n" +
		`< {"jsonrpc":"2.0","id":1,"result":{}}` + "\n"
	if buf.String() != want {
		t.Errorf("trace\n got %q\nwant %q", buf.String(), want)
	}
}

func TestPrintDryRun(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	printDryRun(&buf, client.DryRunRequest{HTTPMethod: "POST", URL: "https://x/mcp",
		Header: http.Header{"X-Api-Key": {"k"}, "Mcp-Method": {"ping"}}, Body: []byte(`{"a":1}`)})
	if want := "POST https://x/mcp\nMcp-Method: ping\nX-Api-Key: [REDACTED]\n\n{\"a\":1}\n"; buf.String() != want {
		t.Errorf("http dry run\n got %q\nwant %q", buf.String(), want)
	}
	buf.Reset()
	printDryRun(&buf, client.DryRunRequest{Command: []string{"npx", "-y", "my server"}, Dir: "/srv", Body: []byte(`{"a":1}`)})
	if want := "# stdio: npx -y 'my server'\n# cwd: /srv\n{\"a\":1}\n"; buf.String() != want {
		t.Errorf("stdio dry run\n got %q\nwant %q", buf.String(), want)
	}
}

func TestShellJoin(t *testing.T) {
	t.Parallel()
	tests := []struct {
		argv []string
		want string
	}{
		{nil, ""},
		{[]string{"npx", "-y", "@modelcontextprotocol/server-everything"}, "npx -y @modelcontextprotocol/server-everything"},
		{[]string{"python", "-m", "srv", "--port=8080", "a,b", "x:y", "k=v", "%s"}, "python -m srv --port=8080 a,b x:y k=v %s"},
		{[]string{"sh", "-c", "echo hi"}, "sh -c 'echo hi'"},
		{[]string{""}, "''"},
		{[]string{"it's"}, `'it'\''s'`},
		{[]string{"'"}, `''\'''`},
		{[]string{`a"b`}, `'a"b'`},
		{[]string{`back\slash`}, `'back\slash'`},
		{[]string{"$HOME", "`id`", "a|b", "a&b", "a;b", "<in", ">out", "(x)"},
			"'$HOME' '`id`' 'a|b' 'a&b' 'a;b' '<in' '>out' '(x)'"},
		{[]string{"*.go", "a?", "[ab]", "#c", "~"}, "'*.go' 'a?' '[ab]' '#c' '~'"},
		{[]string{"tab\there", "new\nline"}, "'tab\there' 'new\nline'"},
		{[]string{"世界"}, "世界"},
		// Regression (fixed): once wrong, now pinned:
		//   "{" is not quoted, so bash brace expansion turns the printed "echo
		//   {a,b}" into two arguments, a and b.
		{[]string{"echo", "{a,b}"}, "echo '{a,b}'"},
	}
	for _, tc := range tests {
		if got := shellJoin(tc.argv); got != tc.want {
			t.Errorf("shellJoin(%q) = %q, want %q", tc.argv, got, tc.want)
		}
	}
}

// What shellJoin prints splits back, the way --stdio splits, into the same argv.
func TestShellJoinRoundTrip(t *testing.T) {
	t.Parallel()
	for _, argv := range [][]string{
		{"npx", "-y", "@scope/pkg@1.2.3"},
		{"sh", "-c", `trap "" TERM; echo 'x' > /dev/null`},
		{"it's", `a"b`, `c\d`, "$X", "*", "a b  c"},
		{"uv", "run", "--with", "mcp[cli]", "server.py"},
	} {
		got, err := shellquote.Split(shellJoin(argv))
		if err != nil || !reflect.DeepEqual(got, argv) {
			t.Errorf("shellquote.Split(shellJoin(%q)) = %q, %v", argv, got, err)
		}
	}
}

func TestWriteHeadersSorted(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	writeHeaders(&buf, "> ", http.Header{"B": {"2", "3"}, "A": {"1"}, "C": {"line\x1b[31mred"}})
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 4 || lines[0] != "> A: 1" || lines[1] != "> B: 2" || lines[2] != "> B: 3" || strings.Contains(lines[3], "\x1b") {
		t.Errorf("headers %q", lines)
	}
}
