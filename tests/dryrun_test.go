package tests

// Issue 15, item 1: a dry run shows what a real run sends. Each case
// calls a tool once for real with --trace and once with --dry-run, after
// a first run that remembered the server's era and cached its tool list,
// and compares the requests: the same bodies byte for byte apart from
// JSON-RPC ids, the same HTTP method, URL and headers (Mcp-Param-*,
// MCP-Protocol-Version, Mcp-Method included). A legacy server's session
// is the server's to give, so its Mcp-Session-Id, the GET of its event
// stream and the DELETE that ends it have no counterpart in a dry run,
// which never hears from the server: only POSTs are compared, without
// that header.

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpctl/mcpctl/tests/fakemcp"
)

// sentRequest is one request as a trace or a dry run shows it.
type sentRequest struct {
	head []string // HTTP: "POST URL" and the header lines, in order
	body string
}

func (r sentRequest) String() string { return strings.Join(append(r.head, r.body), "\n") }

var rpcID = regexp.MustCompile(`"id":\d+`)

// normalised is r with JSON-RPC ids blanked, and without what only a
// server hands out (Mcp-Session-Id).
func (r sentRequest) normalised() sentRequest {
	out := sentRequest{body: rpcID.ReplaceAllString(r.body, `"id":N`)}
	for _, h := range r.head {
		if !strings.HasPrefix(h, "Mcp-Session-Id:") {
			out.head = append(out.head, h)
		}
	}
	return out
}

// tracedRequests reads the requests mcpctl sent from --trace's "> " lines.
func tracedRequests(stderr string) []sentRequest {
	var reqs []sentRequest
	var cur *sentRequest
	for _, line := range strings.Split(stderr, "\n") {
		l, ok := strings.CutPrefix(line, "> ")
		switch {
		case !ok:
			continue
		case strings.HasPrefix(l, "{"):
			if cur == nil {
				reqs = append(reqs, sentRequest{})
				cur = &reqs[len(reqs)-1]
			}
			cur.body = l
			cur = nil
		case httpStart.MatchString(l):
			reqs = append(reqs, sentRequest{head: []string{l}})
			cur = &reqs[len(reqs)-1]
		case cur != nil:
			cur.head = append(cur.head, l)
		}
	}
	return reqs
}

var httpStart = regexp.MustCompile(`^(GET|POST|DELETE) `)

// dryRunRequests reads a dry run's stdout: HTTP requests as method and
// URL, headers, a blank line and the body; stdio lines after the
// "# stdio:" line naming the command.
func dryRunRequests(stdout string) []sentRequest {
	var reqs []sentRequest
	var head []string
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case l == "" || strings.HasPrefix(l, "# "):
		case strings.HasPrefix(l, "{"):
			reqs = append(reqs, sentRequest{head: head, body: l})
			head = nil
		default:
			head = append(head, l)
		}
	}
	return reqs
}

// posts keeps the POSTs (and stdio lines) of reqs.
func posts(reqs []sentRequest) []sentRequest {
	var out []sentRequest
	for _, r := range reqs {
		if len(r.head) == 0 || strings.HasPrefix(r.head[0], "POST ") {
			out = append(out, r.normalised())
		}
	}
	return out
}

type dryRunEnv struct {
	bin, cache, state string
}

func newDryRunEnv(t *testing.T) dryRunEnv {
	return dryRunEnv{bin: linkBinaries(t), cache: t.TempDir(), state: t.TempDir()}
}

// run runs mcpctl and returns its stdout and stderr; a failure to run at
// all fails the test, an exit status does not (a real call's result is
// not what is compared).
func (e dryRunEnv) run(t *testing.T, args ...string) (string, string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(e.bin, "mcpctl"), args...)
	cmd.Env = append(os.Environ(), "MCPCTL_CACHE_DIR="+e.cache, "MCPCTL_STATE_DIR="+e.state, "NO_COLOR=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("mcpctl %s: %v", strings.Join(args, " "), err)
		}
	}
	return stdout.String(), stderr.String()
}

// typedItems give typedTool (fakemcp) one argument of each kind.
var typedItems = []string{"typed", "count=3", "ratio=1.5", "flag=true", "tags[]=1", "tags[]=2", "level=2", "code=007", "limits[max]=4"}

const typedArgs = `"arguments":{"count":3,"ratio":1.5,"flag":true,"tags":[1,2],"level":2,"code":"007","limits":{"max":4}}`

func TestDryRunMatchesTrace(t *testing.T) {
	demo := filepath.Join(buildDemo(t), "demo")
	demoURL := startDemoHTTP(t)
	fakeHTTP := func(mode string) string {
		srv := httptest.NewServer(fakemcp.Handler(mode))
		t.Cleanup(srv.Close)
		return srv.URL + "/mcp"
	}
	toolsURL, legacyURL := fakeHTTP("tools"), fakeHTTP("legacytyped")
	fake := func(mode string) string { return "fakemcp " + mode }
	for _, tc := range []struct {
		name   string
		server []string
		call   []string
		want   []string // in the tools/call body (or headers): proof that the case types
		first  string   // the first request's method: initialize for a legacy server
	}{
		{"modern http demo", []string{"--url", demoURL}, []string{"long_job", "steps=2", "delay_ms=0"}, []string{`"arguments":{"steps":2,"delay_ms":0}`}, "tools/call"},
		{"modern stdio demo", []string{"--stdio", demo}, []string{"long_job", "steps=2", "delay_ms=0"}, []string{`"arguments":{"steps":2,"delay_ms":0}`}, "tools/call"},
		{"modern http headers", []string{"--url", toolsURL}, []string{"echo", "text=hi", "region=eu", "count=3"},
			[]string{"Mcp-Param-Count: 3", "Mcp-Param-Region: eu", "Mcp-Name: echo", `"count":3`}, "tools/call"},
		{"modern http typed", []string{"--url", toolsURL}, typedItems, []string{typedArgs}, "tools/call"},
		{"modern stdio typed", []string{"--stdio", fake("tools")}, typedItems, []string{typedArgs}, "tools/call"},
		{"legacy stdio", []string{"--stdio", fake("legacytyped")}, typedItems, []string{typedArgs}, "initialize"},
		{"legacy http", []string{"--url", legacyURL}, typedItems, []string{typedArgs, "Mcp-Protocol-Version: 2025-11-25"}, "initialize"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newDryRunEnv(t)
			if tc.server[0] == "--stdio" && strings.HasPrefix(tc.server[1], "fakemcp ") {
				tc.server[1] = filepath.Join(e.bin, tc.server[1])
			}
			common := append([]string{"--server-stderr", "discard"}, tc.server...)
			// Remember the era and cache the tool list (--cache-ttl: fakemcp's
			// and legacy lists carry no ttlMs of their own).
			if _, stderr := e.run(t, append(common, "--cache-ttl", "1m", "tools", "list")...); stderr != "" && !strings.Contains(stderr, "warning") {
				t.Fatalf("tools list: %s", stderr)
			}
			_, traced := e.run(t, append(common, append([]string{"--trace", "tools", "call"}, tc.call...)...)...)
			dryOut, dryErr := e.run(t, append(common, append([]string{"--dry-run", "tools", "call"}, tc.call...)...)...)
			if dryErr != "" {
				t.Errorf("the dry run wrote to stderr: %s", dryErr)
			}
			real, dry := posts(tracedRequests(traced)), posts(dryRunRequests(dryOut))
			if len(real) == 0 {
				t.Fatalf("no request in the trace:\n%s", traced)
			}
			if !strings.Contains(real[0].body, `"method":"`+tc.first+`"`) {
				t.Errorf("the real run's first request is not %s: %s", tc.first, real[0].body)
			}
			last := real[len(real)-1].String()
			for _, w := range tc.want {
				if !strings.Contains(last, w) {
					t.Errorf("the real tools/call lacks %s:\n%s", w, last)
				}
			}
			if fmt.Sprint(real) != fmt.Sprint(dry) {
				t.Errorf("the dry run differs from the real run\nreal:\n%s\ndry run:\n%s", joinRequests(real), joinRequests(dry))
			}
		})
	}
}

func joinRequests(reqs []sentRequest) string {
	var b strings.Builder
	for _, r := range reqs {
		b.WriteString(r.String() + "\n\n")
	}
	return b.String()
}

// TestDryRunWritesNothing: a dry run reads the remembered era and the
// cached tool list (it shows the handshake and typed arguments) and
// writes neither: the cache and state folders are as they were, file for
// file and byte for byte, after dry runs of every kind.
func TestDryRunWritesNothing(t *testing.T) {
	e := newDryRunEnv(t)
	server := []string{"--server-stderr", "discard", "--stdio", filepath.Join(e.bin, "fakemcp") + " legacytyped"}
	e.run(t, append(server, "--cache-ttl", "1m", "tools", "list")...)
	before := snapshot(t, e.cache, e.state)
	if len(before) == 0 {
		t.Fatal("the first run wrote nothing: no era, no cache to read")
	}
	out, _ := e.run(t, append(append(server, "--dry-run", "tools", "call"), typedItems...)...)
	if !strings.Contains(out, `"method":"initialize"`) || !strings.Contains(out, typedArgs) {
		t.Errorf("the dry run did not use the remembered era and the cached tool list:\n%s", out)
	}
	for _, args := range [][]string{
		{"--cache-ttl", "1m", "tools", "list"},
		{"--refresh", "tools", "list"},
		{"discover"},
		{"call", "ping"},
		{"resources", "read", "fake://note"},
		{"tools", "call", "nosuch", "x=1"},
	} {
		e.run(t, append(append(server, "--dry-run"), args...)...)
	}
	after := snapshot(t, e.cache, e.state)
	if fmt.Sprint(before) != fmt.Sprint(after) {
		t.Errorf("dry runs changed the cache or state folders\nbefore: %v\nafter:  %v", before, after)
	}
}

// snapshot lists every file under dirs with its size, mode, modification
// time and a hash of its content.
func snapshot(t *testing.T, dirs ...string) map[string]string {
	t.Helper()
	files := map[string]string{}
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			entry := fmt.Sprintf("%v %d %s", info.Mode(), info.Size(), info.ModTime())
			if !d.IsDir() {
				data, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				entry += fmt.Sprintf(" %x", sha256.Sum256(data))
			}
			if path != dir {
				files[path] = entry
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return files
}
