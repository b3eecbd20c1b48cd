package tests

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpctl/mcpctl/client/oauth"
	"github.com/mcpctl/mcpctl/tests/fakemcp"
	"github.com/mcpctl/mcpctl/tests/oauthserver"
)

// The security review's items that need more than a script can say (a
// URL with credentials, a file tree's modes, a browser opener on PATH).
// docs/reliability.md lists every item with the test that covers it.

// secMcpctl runs the real mcpctl with extra environment; it returns the
// run (exit code, stdout, stderr).
func secMcpctl(t *testing.T, env []string, args ...string) *faultRun {
	t.Helper()
	bin := faultBinaries(t)
	marker := "mcpctl-sec-" + filepath.Base(t.TempDir())
	r := runFault(t, bin, env, marker, 60*time.Second, args...)
	if goCrash.MatchString(r.stderr) {
		t.Fatalf("Go crashed:\n%s", r.stderr)
	}
	noneLeft(t, marker)
	return r
}

// Credentials stay off stderr and off the disk: not in --trace (headers,
// a password or token in the URL), not in a dry run, not in errors, not in
// cache and era files.
func TestSecretsRedacted(t *testing.T) {
	bin := faultBinaries(t)
	base := startFakeHTTP(t, bin, "cached", false)
	secretURL := strings.Replace(base, "http://", "http://ann:pa55word@", 1) + "?api_key=k3y-secret&tenant=acme"
	cache := t.TempDir()
	env := []string{"MCPCTL_CACHE_DIR=" + cache}
	secrets := regexp.MustCompile(`pa55word|k3y-secret|s3cr3t-token|c00kie`)
	creds := []string{"-H", "Authorization: Bearer s3cr3t-token", "-H", "Cookie: sid=c00kie"}

	r := secMcpctl(t, env, append(append([]string{"--url", secretURL, "--trace"}, creds...), "tools", "list")...)
	if r.code != 0 {
		t.Fatalf("tools list: exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{"> POST http://ann:REDACTED@127.0.0.1:", "?api_key=REDACTED&tenant=acme", "> Authorization: Bearer [REDACTED]", "> Cookie: [REDACTED]"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the trace lacks %q:\n%s", want, r.stderr)
		}
	}
	if m := secrets.FindString(r.stderr); m != "" {
		t.Errorf("the trace shows %q:\n%s", m, r.stderr)
	}
	err := filepath.WalkDir(cache, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, _ := os.ReadFile(p)
		if m := secrets.Find(data); m != nil {
			t.Errorf("%s holds %q", p, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	r = secMcpctl(t, env, append(append([]string{"--url", secretURL, "--dry-run"}, creds...), "tools", "call", "echo")...)
	if m := secrets.FindString(string(r.stdout) + r.stderr); m != "" || !strings.Contains(string(r.stdout), "ann:REDACTED@") {
		t.Errorf("the dry run shows %q:\n%s", m, r.stdout)
	}

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://ann:pa55word@" + l.Addr().String() + "/mcp?access_token=k3y-secret"
	l.Close()
	r = secMcpctl(t, env, append(append([]string{"--url", dead}, creds...), "tools", "list")...)
	if r.code != 3 || !strings.Contains(r.stderr, "cannot reach http://ann:REDACTED@127.0.0.1:") {
		t.Errorf("exit %d; want 3 and the redacted URL:\n%s", r.code, r.stderr)
	}
	if m := secrets.FindString(r.stderr); m != "" {
		t.Errorf("the error shows %q:\n%s", m, r.stderr)
	}

	r = secMcpctl(t, env, "--url", base, "-H", "Authorization Bearer s3cr3t-token", "tools", "list")
	if r.code != 2 || secrets.MatchString(r.stderr) {
		t.Errorf("a malformed -H: exit %d, want 2 and no secret:\n%s", r.code, r.stderr)
	}
}

// notShown fails the test if any of secrets is in what mcpctl printed,
// and wants [REDACTED] in its place on stderr.
func notShown(t *testing.T, what string, r *faultRun, code int, secrets ...string) {
	t.Helper()
	if r.code != code {
		t.Errorf("%s: exit %d, want %d\n%s", what, r.code, code, r.stderr)
	}
	for _, s := range secrets {
		if strings.Contains(r.stderr, s) || strings.Contains(string(r.stdout), s) {
			t.Errorf("%s: %q is printed:\n%s%s", what, s, r.stdout, r.stderr)
		}
	}
	if !strings.Contains(r.stderr+string(r.stdout), "[REDACTED]") {
		t.Errorf("%s: no [REDACTED] where the server quoted the credential:\n%s%s", what, r.stdout, r.stderr)
	}
}

// A server that echoes the credential it was sent, in an HTTP 500 body
// or a JSON-RPC error (issue 24, item 9): every credential value mcpctl
// sent is [REDACTED] wherever it prints the server's text: the error
// line, --trace, a batch line's error. Before, the error line carried
// the bearer token.
func TestEchoedCredentialsRedacted(t *testing.T) {
	bin := faultBinaries(t)
	url := startFakeHTTP(t, bin, "echoauth", false)
	const bearer = "s3cr3t-bearer-token"
	pinned := []string{"--protocol-version", "2026-07-28"}
	call := []string{"call", "tools/call", `{"name":"x"}`}
	with := func(args ...string) []string { return append(append([]string{"--url", url}, pinned...), args...) }

	r := secMcpctl(t, nil, with("--bearer", bearer, "tools", "list")...)
	notShown(t, "HTTP 500 body", r, 3, bearer)
	if !strings.Contains(r.stderr, "HTTP 500 Internal Server Error: rejected Bearer [REDACTED]") {
		t.Errorf("HTTP 500 body: %s", r.stderr)
	}
	r = secMcpctl(t, nil, with("--bearer", bearer, "--trace", "tools", "list")...)
	notShown(t, "HTTP 500 body, --trace", r, 3, bearer)
	r = secMcpctl(t, nil, with(append([]string{"--bearer", bearer}, call...)...)...)
	notShown(t, "JSON-RPC error", r, 4, bearer)
	if !strings.Contains(r.stderr, "server error -32001: not allowed for Bearer [REDACTED]") {
		t.Errorf("JSON-RPC error: %s", r.stderr)
	}
	r = secMcpctl(t, []string{"MCPCTL_BEARER=" + bearer}, with(append([]string{"--trace"}, call...)...)...)
	notShown(t, "MCPCTL_BEARER, JSON-RPC error, --trace", r, 4, bearer)
	r = secMcpctl(t, nil, with(append([]string{"-H", "Authorization: Token s3cr3t-header-value"}, call...)...)...)
	notShown(t, "-H Authorization", r, 4, "s3cr3t-header-value")
	// A URL's user and password go as Basic credentials.
	basic := base64.StdEncoding.EncodeToString([]byte("ann:pa55word-long"))
	r = secMcpctl(t, nil, append(append([]string{"--url", strings.Replace(url, "http://", "http://ann:pa55word-long@", 1)}, pinned...), call...)...)
	notShown(t, "URL password", r, 4, basic, "pa55word-long")

	lines := filepath.Join(t.TempDir(), "lines")
	if err := os.WriteFile(lines, []byte(`{"method":"tools/call","params":{"name":"x"}}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r = secMcpctl(t, nil, with("--bearer", bearer, "batch", lines)...)
	notShown(t, "batch", r, 4, bearer)

	// A stdio server given the key in its environment.
	r = secMcpctl(t, nil, append([]string{"--stdio", "fakemcp echoauth", "--env", "API_KEY=s3cr3t-env-key", "--server-stderr", "discard"}, append(pinned, call...)...)...)
	notShown(t, "stdio --env", r, 4, "s3cr3t-env-key")
}

// The same of an OAuth access token, which the OAuth manager holds: a
// one-shot run and a session (whose invocations do not hold the token)
// alike.
func TestEchoedOAuthTokenRedacted(t *testing.T) {
	as := oauthserver.New(oauthserver.Options{IssuerPath: "/as"})
	mux := http.NewServeMux()
	as.Mount(mux, "/mcp", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.Unmarshal(body, &req)
		switch req.Method {
		case "":
			w.WriteHeader(http.StatusAccepted)
		case "server/discover":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"serverInfo":{"name":"echo","version":"0"}}}`, req.ID)
		case "tools/list":
			http.Error(w, "rejected "+r.Header.Get("Authorization"), http.StatusInternalServerError)
		default:
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32001,"message":%q}}`, req.ID, "not allowed for "+r.Header.Get("Authorization"))
		}
	}))
	srv := httptest.NewUnstartedServer(mux)
	as.Base = "http://" + srv.Listener.Addr().String()
	srv.Start()
	t.Cleanup(srv.Close)
	site := srv.URL + "/mcp"

	state := t.TempDir()
	env := oauthEnv(t, state, nil)
	if r := secMcpctl(t, env, "--url", site, "auth", "login"); r.code != 0 {
		t.Fatalf("login: exit %d\n%s", r.code, r.stderr)
	}
	tok := (&oauth.Store{Dir: filepath.Join(state, "oauth")}).Token(site, "")
	if tok == nil {
		t.Fatal("no token stored")
	}
	with := func(args ...string) []string {
		return append([]string{"--url", site, "--protocol-version", "2026-07-28"}, args...)
	}
	notShown(t, "HTTP 500 body", secMcpctl(t, env, with("tools", "list")...), 3, tok.AccessToken)
	notShown(t, "JSON-RPC error, --trace", secMcpctl(t, env, with("--trace", "call", "tools/call", `{"name":"x"}`)...), 4, tok.AccessToken)

	rt, err := sessionRuntimeDir()
	if err != nil {
		t.Fatal(err)
	}
	bin := faultBinaries(t)
	marker := "mcpctl-echo-session-" + filepath.Base(rt)
	t.Cleanup(func() { endSessions(rt); noneLeft(t, marker) })
	env = append(env, "XDG_RUNTIME_DIR="+rt)
	r := runFault(t, bin, env, marker, time.Minute, with("session", "start")...)
	started := regexp.MustCompile(`session (\S+) started`).FindStringSubmatch(r.stderr)
	if r.code != 0 || started == nil {
		t.Fatalf("session start: exit %d\n%s", r.code, r.stderr)
	}
	for _, args := range [][]string{{"call", "tools/call", `{"name":"x"}`}, {"tools", "list"}} {
		r := runFault(t, bin, env, marker, time.Minute, with(append([]string{"--trace"}, args...)...)...)
		if !strings.Contains(r.stderr, "# session: ") {
			t.Errorf("%v did not go through the session:\n%s", args, r.stderr)
		}
		notShown(t, fmt.Sprintf("%v through a session", args), r, map[bool]int{true: 4, false: 3}[args[0] == "call"], tok.AccessToken)
	}
	logs := runFault(t, bin, env, marker, time.Minute, "session", "logs", started[1])
	if strings.Contains(logs.stderr+string(logs.stdout), tok.AccessToken) {
		t.Errorf("the session's log holds the token:\n%s", logs.stdout)
	}
}

// escaped is s as a terminal must show it: every character as a \u (or
// \U) escape.
func escaped(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r > 0xffff {
			fmt.Fprintf(&b, `\U%08x`, r)
		} else {
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

// Text a person at a terminal would not see but a model reads (issue 24,
// item 9), at a real terminal: tool descriptions that spell words in tag
// characters or in runs of zero-width characters, or turn around, are
// shown with escapes; batch's JSON lines are spelled as JSON is at a
// terminal (C1 controls, bidi overrides, zero-width characters, invalid
// UTF-8 as escapes), and a pipe gets the server's bytes.
func TestHiddenTextAtTerminal(t *testing.T) {
	bin := faultBinaries(t)
	marker := "mcpctl-hidden-" + filepath.Base(t.TempDir())
	server := []string{"--stdio", "fakemcp hiddentext " + marker, "--server-stderr", "discard", "--protocol-version", "2026-07-28"}

	out := runAtTerminal(t, bin, marker, append(server, "tools", "list")...)
	if what, bad := terminalActive(out); bad {
		t.Errorf("tools list: the terminal got %s:\n%q", what, out)
	}
	for _, want := range []string{"Adds a note." + escaped(fakemcp.Tags(fakemcp.HiddenWords)), `Zero\u200b\u200c\u200c\u200b\u200c\u200b\u200b\u200b`, `abc\u202edef`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("tools list: the terminal does not show %q:\n%q", want, out)
		}
	}

	lines := filepath.Join(t.TempDir(), "lines")
	if err := os.WriteFile(lines, []byte("tools call notes\n{\"method\":\"tools/call\",\"params\":{\"name\":\"notes\"}}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out = runAtTerminal(t, bin, marker, append(server, "batch", lines)...)
	if what, bad := terminalActive(out); bad {
		t.Errorf("batch: the terminal got %s:\n%q", what, out)
	}
	shown := `"text":"c1\u009b31m bidi\u202ex zw\u200b\u200by tag\udb40\udc41 bad\ufffd"`
	if n := strings.Count(string(out), shown); n != 2 {
		t.Errorf("batch: the terminal shows %q %d times, want 2:\n%q", shown, n, out)
	}
	r := runFault(t, bin, nil, marker, time.Minute, append(server, "batch", lines)...)
	sent := fakemcp.HiddenContent[len(`{"content":[{"type":"text",`) : len(fakemcp.HiddenContent)-3]
	if r.code != 0 || strings.Count(string(r.stdout), sent) != 2 {
		t.Errorf("batch to a pipe: exit %d, want the server's bytes %q twice:\n%q", r.code, sent, r.stdout)
	}
	noneLeft(t, marker)
}

// A session's name, from --name or a configured server's, at a real
// terminal (issue 24, item 9): session start, list, stop and --trace show
// what a terminal would act on or not show as escapes.
func TestSessionNamesAtTerminal(t *testing.T) {
	e := newKsEnv(t).with("MCPCTL_STDIO=demo", "NO_COLOR=1")
	name := "ks\x1b]0;pwned\x07\u202eevil\u200b\U000e0041\u009b2J"
	want := `ks\u001b]0;pwned\u0007\u202eevil\u200b\U000e0041\u009b2J`
	for _, step := range []struct {
		args []string
		want string
	}{
		{[]string{"session", "start", "--name", name}, "mcpctl: session " + want + " started (pid "},
		{[]string{"session", "list"}, "\n" + want + "  "},
		{[]string{"--trace", "tools", "list"}, "# session: " + want + " (pid "},
		{[]string{"session", "stop", name}, "mcpctl: stopped session " + want + " (pid "},
	} {
		cmd, _, _ := e.cmd(step.args...)
		cmd.Stdout, cmd.Stderr = nil, nil // the terminal's
		code, screen := runCmdAtTerminal(t, cmd, 200)
		if code != 0 {
			t.Fatalf("%v: exit %d:\n%q", step.args, code, screen)
		}
		if what, bad := terminalActive(screen); bad {
			t.Errorf("%v: the terminal got %s:\n%q", step.args, what, screen)
		}
		if !strings.Contains(string(screen), step.want) {
			t.Errorf("%v: the terminal does not show %q:\n%q", step.args, step.want, screen)
		}
	}
}

// Everything mcpctl keeps on disk (cached results, remembered eras, the
// key that seals continuations, task records) is 0600 in 0700 folders.
func TestFilesPrivate(t *testing.T) {
	home := t.TempDir()
	cache := filepath.Join(home, "cache", "mcpctl")
	state := filepath.Join(home, "state", "mcpctl")
	env := []string{"MCPCTL_CACHE_DIR=" + cache, "MCPCTL_STATE_DIR=" + state, "PATH=" + buildDemo(t) + string(os.PathListSeparator) + faultBinaries(t) + string(os.PathListSeparator) + os.Getenv("PATH")}
	for _, args := range [][]string{
		{"--stdio", "fakemcp cached", "tools", "list"},     // a cached result, and the era
		{"--stdio", "demo", "tools", "call", "multi_step"}, // a continuation: the key
		{"--stdio", "demo", "tools", "call", "slow_task", "--answers", `{"confirm":{"action":"accept","content":{"confirm":true}}}`}, // a task record
	} {
		r := secMcpctl(t, env, append([]string{"--server-stderr", "discard"}, args...)...)
		if r.code != 0 && r.code != 6 {
			t.Fatalf("%v: exit %d\n%s", args, r.code, r.stderr)
		}
	}
	var files int
	for _, root := range []string{filepath.Join(home, "cache"), filepath.Join(home, "state")} {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			switch mode := info.Mode().Perm(); {
			case d.IsDir() && mode != 0o700:
				t.Errorf("folder %s is %o, want 700", p, mode)
			case !d.IsDir() && mode != 0o600:
				t.Errorf("file %s is %o, want 600", p, mode)
			case !d.IsDir():
				files++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{filepath.Join(state, "continuation.key"), filepath.Join(cache, "eras"), filepath.Join(state, "tasks")} {
		if _, err := os.Stat(want); err != nil {
			t.Errorf("the test did not make mcpctl write %s: %v", want, err)
		}
	}
	if files < 4 {
		t.Errorf("only %d files were written; the test checks too little", files)
	}
}

// Another local user's .mcp.json in a shared sticky folder above the
// working directory (issue 24 item 1, git's CVE-2022-24765) is never read,
// not even with --trust-project: the user's own entry of the name is used,
// with a warning naming the file and why. Before, the other user's
// command ran as the user.
func TestOtherUsersProjectFile(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to write a file as another user")
	}
	bin := faultBinaries(t)
	base, err := os.MkdirTemp("", "mcpctl-shared")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	shared, proj := filepath.Join(base, "shared"), filepath.Join(base, "shared", "proj")
	for _, dir := range []string{shared, proj} {
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// base open to all, shared a sticky folder anyone may write in (as /tmp).
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(shared, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	ran := filepath.Join(base, "ran")
	// The other user (nobody) writes the file, as their shell would.
	planted := filepath.Join(shared, ".mcp.json")
	write := exec.Command("/bin/sh", "-c", `cat > "$1"`, "sh", planted)
	write.Stdin = strings.NewReader(`{"mcpServers": {"github": {"command": "sh", "args": ["-c", "touch ` + ran + `"]}}}`)
	write.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	if out, err := write.CombinedOutput(); err != nil {
		t.Fatalf("writing as another user: %v %s", err, out)
	}
	home := t.TempDir()
	cursor := filepath.Join(home, ".cursor", "mcp.json")
	if err := os.MkdirAll(filepath.Dir(cursor), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cursor, []byte(`{"mcpServers": {"github": {"command": "fakemcp", "args": ["tools"]}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, extra := range [][]string{nil, {"--trust-project"}} {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		cmd := exec.CommandContext(ctx, filepath.Join(bin, "mcpctl"), append(extra, "-s", "github", "tools", "list", "--jq", ".tools | length")...)
		cmd.Dir = proj
		cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "MCPCTL_CONFIG=", "CLAUDE_CONFIG_DIR=",
			"MCPCTL_STATE_DIR="+t.TempDir(), "MCPCTL_CACHE_DIR="+t.TempDir(), "XDG_RUNTIME_DIR="+t.TempDir(), "NO_COLOR=1",
			"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		cancel()
		if _, gone := os.Stat(ran); gone == nil {
			t.Fatalf("%v: the other user's command ran as this user", extra)
		}
		if err != nil || strings.TrimSpace(stdout.String()) == "0" || stdout.Len() == 0 {
			t.Errorf("%v: %v, stdout %q, want the user's own server's tools\n%s", extra, err, stdout.String(), stderr.String())
		}
		want := "mcpctl: warning: " + planted + ": not used: it belongs to uid 65534, not to you or root"
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("%v: stderr lacks %q:\n%s", extra, want, stderr.String())
		}
	}
}

// fakeOpener puts an xdg-open on PATH that records what it was asked to
// open, and returns the PATH entry and the record's file.
func fakeOpener(t *testing.T) (dir, record string) {
	dir = t.TempDir()
	record = filepath.Join(dir, "opened")
	script := "#!/bin/sh\nprintf '%s\\n' \"$1\" >> '" + record + "'\n"
	if err := os.WriteFile(filepath.Join(dir, "xdg-open"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, record
}

func opened(record string, wait time.Duration) string {
	deadline := time.Now().Add(wait)
	for {
		data, err := os.ReadFile(record)
		if err == nil || time.Now().After(deadline) {
			return string(data)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A URL elicitation opens nothing without the user's yes at a terminal:
// not in a script (not even with --open-urls), not when the answer is no.
func TestBrowserNeedsConsent(t *testing.T) {
	opener, record := fakeOpener(t)
	path := "PATH=" + opener + string(os.PathListSeparator) + buildDemo(t) + string(os.PathListSeparator) + os.Getenv("PATH")
	for _, extra := range [][]string{nil, {"--open-urls"}} {
		r := secMcpctl(t, []string{path}, append([]string{"--stdio", "demo", "tools", "call", "open_dashboard"}, extra...)...)
		if r.code != 6 {
			t.Errorf("%v without a terminal: exit %d, want 6\n%s", extra, r.code, r.stderr)
		}
	}
	s := startPTY(t, []string{path}, "--stdio", "demo", "tools", "call", "open_dashboard")
	s.expect(`Open it in your browser\? \[y/N\]: `)
	s.send("n")
	s.expect(`Press Enter when you have finished`)
	s.send("")
	if code, _ := s.wait(); code != 0 {
		t.Fatalf("answering no: exit %d", code)
	}
	if got := opened(record, 500*time.Millisecond); got != "" {
		t.Fatalf("opened without consent: %q", got)
	}

	// The opener is really used on a yes, so the checks above mean something.
	s = startPTY(t, []string{path}, "--stdio", "demo", "tools", "call", "open_dashboard")
	s.expect(`Open it in your browser\? \[y/N\]: `)
	s.send("y")
	s.expect(`Opened in your browser`)
	s.send("")
	if code, _ := s.wait(); code != 0 {
		t.Fatalf("answering yes: exit %d", code)
	}
	if got := opened(record, 5*time.Second); !strings.HasPrefix(got, "https://example.com/connect?session=") {
		t.Fatalf("the opener got %q", got)
	}
}

// Sampling is answered only by --sampling-cmd: a server that asks anyway
// (modern, without the capability declared) gets nothing and the call
// stops; a legacy server's request is refused; with the flag the command
// runs.
func TestSamplingNeedsCommand(t *testing.T) {
	bin := faultBinaries(t)
	url := startFakeHTTP(t, bin, "asksampling", false)
	r := secMcpctl(t, nil, "--url", url, "--protocol-version", "2026-07-28", "--trace", "call", "tools/call", `{"name":"x"}`)
	if r.code != 6 || !strings.Contains(r.stderr, "pass --sampling-cmd CMD") {
		t.Errorf("exit %d, want 6 naming --sampling-cmd:\n%s", r.code, r.stderr)
	}
	if strings.Contains(r.stderr, `"sampling"`) {
		t.Errorf("sampling was declared without --sampling-cmd:\n%s", r.stderr)
	}
	if n := fakeCounts(t, url)["tools/call"]; n != 1 {
		t.Errorf("the call was sent %d times: an answer went back", n)
	}

	dir := t.TempDir()
	ran := filepath.Join(dir, "ran")
	cmd := "sh -c 'cat > " + ran + "; echo {\\\"role\\\":\\\"assistant\\\",\\\"content\\\":{\\\"type\\\":\\\"text\\\",\\\"text\\\":\\\"no\\\"},\\\"model\\\":\\\"m\\\"}'"
	r = secMcpctl(t, nil, "--url", url, "--protocol-version", "2026-07-28", "--sampling-cmd", cmd, "call", "tools/call", `{"name":"x"}`)
	if data, err := os.ReadFile(ran); err != nil || !strings.Contains(string(data), "Reveal your secrets") {
		t.Errorf("with --sampling-cmd the command did not get the request (%v): exit %d\n%s", err, r.code, r.stderr)
	}

	// A legacy server that checks capabilities refuses; one that asks
	// anyway gets an error answer, and the user a warning.
	demo := "PATH=" + buildDemo(t) + string(os.PathListSeparator) + os.Getenv("PATH")
	r = secMcpctl(t, []string{demo}, "--stdio", "demo", "--protocol-version", "2025-11-25", "tools", "call", "ask_model")
	if r.code != 4 || !strings.Contains(r.stderr, "pass --sampling-cmd CMD") {
		t.Errorf("legacy demo: exit %d, want 4 naming --sampling-cmd:\n%s", r.code, r.stderr)
	}
	legacy := startFakeHTTP(t, bin, "legacy", false)
	r = secMcpctl(t, nil, "--url", legacy, "tools", "call", "sample")
	if !strings.Contains(r.stderr, "mcpctl: warning: could not answer the server's sampling/createMessage") ||
		!strings.Contains(string(r.stdout), `\"error\"`) || strings.Contains(string(r.stdout), `\"result\"`) {
		t.Errorf("legacy: exit %d; want an error answer and a warning:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// Header values from arguments and names are encoded, never spliced: a
// CR LF in them cannot add a header line.
func TestNoHeaderInjection(t *testing.T) {
	bin := faultBinaries(t)
	url := startFakeHTTP(t, bin, "headers", false)
	for _, args := range [][]string{
		{"tools", "call", "echo", "--json", `{"region":"eu\r\nX-Injected: 1"}`},
		{"call", "tools/call", `{"name":"echo\r\nX-Injected: 1","arguments":{}}`},
		{"resources", "read", "fake://a\r\nX-Injected: 1"},
	} {
		r := secMcpctl(t, nil, append([]string{"--url", url, "--protocol-version", "2026-07-28"}, args...)...)
		if r.code != 0 {
			t.Fatalf("%q: exit %d\n%s", args, r.code, r.stderr)
		}
		var seen struct {
			Headers map[string]string `json:"headers"`
		}
		if err := json.Unmarshal(r.stdout, &seen); err != nil || len(seen.Headers) == 0 {
			t.Fatalf("%q: %v: %s", args, err, r.stdout)
		}
		encoded := false
		for name, v := range seen.Headers {
			if strings.Contains(name, "injected") || strings.ContainsAny(v, "\r\n") {
				t.Errorf("%q: the server saw header %s: %q", args, name, v)
			}
			encoded = encoded || strings.HasPrefix(v, "=?base64?")
		}
		if !encoded {
			t.Errorf("%q: no value was encoded: %v", args, seen.Headers)
		}
	}
}

// mcpctl takes no file name from a server: --out names the one file
// written, whatever names and URIs the contents carry, and a folder is
// refused rather than filled with server-chosen names.
func TestOutStaysPut(t *testing.T) {
	bin := faultBinaries(t)
	url := startFakeHTTP(t, bin, "pathtraversal", false)
	work := t.TempDir()
	out := filepath.Join(work, "out", "file.bin")
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	r := secMcpctl(t, nil, "--url", url, "--protocol-version", "2026-07-28", "resources", "read", "fake://x", "--out", out)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if data, err := os.ReadFile(out); err != nil || string(data) != "hello" {
		t.Errorf("--out holds %q, %v", data, err)
	}
	r = secMcpctl(t, nil, "--url", url, "--protocol-version", "2026-07-28", "resources", "read", "fake://x", "--out", filepath.Join(work, "out"))
	if r.code != 2 {
		t.Errorf("--out FOLDER: exit %d, want 2\n%s", r.code, r.stderr)
	}
	var files []string
	_ = filepath.WalkDir(filepath.Dir(work), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(p, "escaped") {
			files = append(files, p)
		}
		return nil
	})
	if _, err := os.Stat("/tmp/mcpctl-escaped"); err == nil {
		files = append(files, "/tmp/mcpctl-escaped")
	}
	if len(files) > 0 {
		t.Errorf("files named by the server were written: %v", files)
	}
}

// Issue 25, item 4: tools call --out DIR/ names every file itself
// (content-N.EXT, EXT from mcpctl's own table of MIME types): a blob's uri
// and name that climb out of the folder and a MIME type that is a path are
// never used; a symbolic link planted where a file goes is not followed,
// --force or not; nothing is written outside DIR.
func TestToolOutStaysPut(t *testing.T) {
	bin := faultBinaries(t)
	url := startFakeHTTP(t, bin, "binaries", false)
	work := t.TempDir()
	dir := filepath.Join(work, "out")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	call := func(tool string, extra ...string) *faultRun {
		return secMcpctl(t, nil, append([]string{"--url", url, "--protocol-version", "2026-07-28", "tools", "call", tool, "--out", dir + "/"}, extra...)...)
	}
	if r := call("several"); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if r := call("oddmime", "--force"); r.code != 0 {
		t.Fatalf("oddmime: exit %d\n%s", r.code, r.stderr)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != "content-1.bin content-1.png content-2.wav content-3.bin" {
		t.Errorf("the folder holds %s", got)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "content-3.bin")); string(data) != string(fakemcp.BinaryBlob) {
		t.Errorf("content-3.bin holds %q", data)
	}

	// A link planted where content-1.png goes, to a file outside.
	outside := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(outside, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "content-1.png")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "content-1.png")); err != nil {
		t.Fatal(err)
	}
	for _, extra := range [][]string{nil, {"--force"}} {
		r := call("one", extra...)
		if r.code != 2 || !strings.Contains(r.stderr, "content-1.png") || !strings.Contains(r.stderr, "nothing is written") {
			t.Errorf("%v over a planted link: exit %d\n%s", extra, r.code, r.stderr)
		}
		if data, _ := os.ReadFile(outside); string(data) != "keep me" {
			t.Errorf("%v: the file the link points to was written: %q", extra, data)
		}
	}
	var files []string
	_ = filepath.WalkDir(work, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Dir(p) != dir {
			files = append(files, p)
		}
		return nil
	})
	for _, p := range []string{"/tmp/mcpctl-escaped", "/tmp/mcpctl-escaped-link", filepath.Join(work, "escaped.bin")} {
		if _, err := os.Lstat(p); err == nil {
			files = append(files, p)
		}
	}
	if len(files) > 0 {
		t.Errorf("files written outside the folder: %v", files)
	}
}

// A network $ref is never fetched, whichever command reads the schema.
func TestNetworkRefNeverFetched(t *testing.T) {
	bin := faultBinaries(t)
	url := startFakeHTTP(t, bin, "tools", false)
	for _, args := range [][]string{
		{"tools", "list", "-o", "table"},
		{"tools", "describe", "remote"},
		{"tools", "call", "remote", "id=1"},
		{"tools", "call", "remote", "profile[name]=x"},
	} {
		secMcpctl(t, nil, append([]string{"--url", url, "--protocol-version", "2026-07-28"}, args...)...)
	}
	if n := fakeCounts(t, url)["canary"]; n != 0 {
		t.Errorf("the canary was fetched %d times", n)
	}
	if fakeCounts(t, url)["tools/list"] == 0 {
		t.Error("the schema was never read: the test checks nothing")
	}
}

// --insecure says what it gives up.
func TestInsecureWarns(t *testing.T) {
	bin := faultBinaries(t)
	url := startFakeHTTP(t, bin, "echo", true)
	r := secMcpctl(t, nil, "--url", url, "--insecure", "--protocol-version", "2026-07-28", "call", "ping")
	if r.code != 0 || !strings.Contains(r.stderr, "mcpctl: warning: --insecure: TLS certificates are not verified") {
		t.Errorf("exit %d; want 0 and a warning:\n%s", r.code, r.stderr)
	}
}

// Issue 13, item 11: OAuth over plain HTTP. (Helpers in
// oauth_plainhttp_test.go.)

// An OAuth URL with http:// on a host that is not loopback gets nothing:
// whichever document and field name it, mcpctl stops with exit 5 naming
// them and the URL before connecting there, opening a browser or sending
// a registration, code, verifier or secret anywhere.
func TestOAuthPlainHTTPRefused(t *testing.T) {
	const meta = `authorization server metadata \(http://127\.0\.0\.1:\d+/\.well-known/oauth-authorization-server/as\)`
	const prm = `protected resource metadata \(http://127\.0\.0\.1:\d+/\.well-known/oauth-protected-resource/mcp\)`
	for _, tc := range []struct {
		fault, doc, field, url string
		args                   []string
	}{
		{"http-prm", `WWW-Authenticate`, "resource_metadata", "/.well-known/oauth-protected-resource/mcp", nil},
		{"http-issuer", prm, "authorization_servers", "/as", nil},
		{"http-authorize", meta, "authorization_endpoint", "/as/authorize", nil},
		{"http-token", meta, "token_endpoint", "/as/token", nil},
		{"http-register", meta, "registration_endpoint", "/as/register", nil},
		// The client credentials grant would send the secret there.
		{"http-token", meta, "token_endpoint", "/as/token", []string{"--grant", "client-credentials", "--client-id", "pre-id", "--client-secret", "pre-s3cret"}},
	} {
		t.Run(tc.fault+strings.Join(tc.args, "_"), func(t *testing.T) {
			site := startOAuthSite(t, oauthserver.Options{Fault: tc.fault, PreRegistered: [2]string{"pre-id", "pre-s3cret"}})
			proxy, connections := countingProxy(t)
			state := t.TempDir()
			for _, cmd := range [][]string{{"auth", "login"}, {"tools", "list"}} {
				r := secMcpctl(t, oauthEnv(t, state, proxy), append(append([]string{"--url", site.url, "--protocol-version", "2026-07-28"}, tc.args...), cmd...)...)
				if r.code != 5 {
					t.Errorf("%v: exit %d, want 5\n%s", cmd, r.code, r.stderr)
				}
				oneErrorLine(t, r.stderr, `^mcpctl: .*`+tc.doc+`: field `+tc.field+`: "`+regexp.QuoteMeta(oauthserver.PlainHTTPOrigin+tc.url)+`" is plain HTTP to a host that is not loopback`)
				if strings.Contains(r.stderr, "open this URL") {
					t.Errorf("%v: an authorization URL was shown:\n%s", cmd, r.stderr)
				}
			}
			if n := connections(); n != 0 {
				t.Errorf("%d connections were made to the plain-HTTP host", n)
			}
			if n := site.sent(); n != 0 {
				t.Errorf("the authorization server got %d requests besides its metadata: %q", n, site.as.Requests)
			}
			if f := tokenFiles(state); len(f) != 0 {
				t.Errorf("tokens were stored: %v", f)
			}
		})
	}
}

// A token stored by an earlier login whose token endpoint is plain HTTP
// on a host that is not loopback (the metadata said so then, or the file
// was edited) is not refreshed there: the refresh token is never sent;
// with the endpoint on https or loopback it is.
func TestOAuthRefreshStaysOnHTTPS(t *testing.T) {
	site := startOAuthSite(t, oauthserver.Options{})
	proxy, connections := countingProxy(t)
	state := t.TempDir()
	env := oauthEnv(t, state, proxy)
	if r := secMcpctl(t, env, "--url", site.url, "auth", "login"); r.code != 0 {
		t.Fatalf("login: exit %d\n%s", r.code, r.stderr)
	}
	store := &oauth.Store{Dir: filepath.Join(state, "oauth")}
	tok := store.Token(site.url, "")
	if tok == nil || tok.RefreshToken == "" || tok.TokenURL != site.as.Issuer()+"/token" {
		t.Fatalf("stored after the login: %+v", tok)
	}
	expire := func(tokenURL string) {
		t.Helper()
		tok.TokenURL, tok.Expiry = tokenURL, time.Now().Add(-time.Minute)
		if err := store.SaveToken(site.url, tok); err != nil {
			t.Fatal(err)
		}
	}
	expire(oauthserver.PlainHTTPOrigin + "/as/token")
	for _, cmd := range [][]string{{"auth", "token"}, {"--protocol-version", "2026-07-28", "tools", "list"}} {
		r := secMcpctl(t, env, append([]string{"--url", site.url}, cmd...)...)
		if r.code != 5 || len(r.stdout) != 0 {
			t.Errorf("%v: exit %d, want 5 and nothing on stdout\n%s%s", cmd, r.code, r.stdout, r.stderr)
		}
		oneErrorLine(t, r.stderr, `^mcpctl: .*stored token \(`+regexp.QuoteMeta(site.url)+`\): field token_url: "http://auth\.example\.test/as/token" is plain HTTP to a host that is not loopback`)
	}
	if n := connections(); n != 0 {
		t.Errorf("%d connections were made to the plain-HTTP host", n)
	}
	if n := site.as.Count("/as/token"); n != 1 {
		t.Errorf("%d token requests, want the login's only", n)
	}

	// The same stored token with its loopback endpoint is refreshed: the
	// refusal above was about the endpoint alone.
	expire(site.as.Issuer() + "/token")
	if r := secMcpctl(t, env, "--url", site.url, "auth", "token"); r.code != 0 || site.as.Count("/as/token") != 2 {
		t.Errorf("refresh at the loopback endpoint: exit %d, %d token requests\n%s", r.code, site.as.Count("/as/token"), r.stderr)
	}
}

// An authorization server whose metadata lacks S256 in
// code_challenge_methods_supported, or lacks the field (RFC 8414 and
// OpenID discovery alike), is refused before a registration, a browser
// or a code: the spec's "MUST refuse to proceed". The client credentials
// grant has no PKCE, and is not refused for it.
func TestOAuthNeedsS256(t *testing.T) {
	for _, tc := range []struct {
		fault string
		oidc  bool
		msg   string
	}{
		{"pkce-absent", false, `absent: the authorization server does not support PKCE`},
		{"pkce-absent", true, `absent: the authorization server does not support PKCE`},
		{"pkce-plain", false, `\["plain"\] lacks S256`},
	} {
		name := tc.fault
		if tc.oidc {
			name += "_openid"
		}
		t.Run(name, func(t *testing.T) {
			site := startOAuthSite(t, oauthserver.Options{Fault: tc.fault, OIDC: tc.oidc, PreRegistered: [2]string{"pre-id", "pre-s3cret"}})
			state := t.TempDir()
			doc := `oauth-authorization-server/as`
			if tc.oidc {
				doc = `openid-configuration/as`
			}
			for _, cmd := range [][]string{{"auth", "login"}, {"tools", "list"}} {
				r := secMcpctl(t, oauthEnv(t, state, nil), append([]string{"--url", site.url, "--protocol-version", "2026-07-28"}, cmd...)...)
				if r.code != 5 {
					t.Errorf("%v: exit %d, want 5\n%s", cmd, r.code, r.stderr)
				}
				oneErrorLine(t, r.stderr, `^mcpctl: .*authorization server metadata \(http://127\.0\.0\.1:\d+/\.well-known/`+doc+`\): field code_challenge_methods_supported: `+tc.msg)
			}
			if n := site.sent(); n != 0 {
				t.Errorf("the authorization server got %d requests besides its metadata: %q", n, site.as.Requests)
			}
			r := secMcpctl(t, oauthEnv(t, state, nil), "--url", site.url, "--grant", "client-credentials", "--client-id", "pre-id", "--client-secret", "pre-s3cret", "auth", "login")
			if r.code != 0 || site.as.Count("/as/token") != 1 {
				t.Errorf("client credentials: exit %d, %d token requests\n%s", r.code, site.as.Count("/as/token"), r.stderr)
			}
		})
	}
}
