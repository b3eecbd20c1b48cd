package tests

// Sessions keyed by who is calling, with nothing secret on a command line
// and nothing done on their own (issue 24, items 3, 4, 7 and the control
// part of 8), against the real binary: a session serves only the
// invocations that would reach the server as it does (the same
// credentials and headers; for stdio the same working directory and
// environment); it is started with its settings on an inherited pipe,
// never in its arguments; with no invocation in flight it answers no
// sampling or elicitation; and its control methods cannot be sent
// through it.

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpctl/mcpctl/tests/fakemcp"
)

// TestSessionIdleAsksNobody: a legacy server that asks for model
// completions, a form and roots while no invocation has a request in
// flight gets refusals: the session's --sampling-cmd never runs; only
// roots are answered, from the session's own --root.
func TestSessionIdleAsksNobody(t *testing.T) {
	e := newKsEnv(t)
	flag := filepath.Join(t.TempDir(), "sampled")
	sampling := `sh -c 'touch ` + flag + `; cat >/dev/null; echo "{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"ok\"},\"model\":\"m\"}"'`
	e.must("--stdio", "fakemcp legacyunasked", "--sampling-cmd", sampling, "--answer", "elicitation.name=Ann", "--root", "/session-root", "session", "start", "--name", "idle")
	var logs string
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(logs, "fakemcp: unasked done") {
		if time.Now().After(deadline) {
			t.Fatalf("the server never finished asking; log:\n%s", logs)
		}
		time.Sleep(50 * time.Millisecond)
		logs, _ = e.must("session", "logs", "idle")
	}
	if _, err := os.Stat(flag); err == nil {
		t.Errorf("the session ran its --sampling-cmd with no invocation in flight; log:\n%s", logs)
	}
	for _, l := range strings.Split(logs, "\n") {
		if !strings.HasPrefix(l, "fakemcp: unasked ") || strings.HasSuffix(l, " done") {
			continue
		}
		switch {
		case strings.HasPrefix(l, "fakemcp: unasked roots/list: "):
			if !strings.Contains(l, "file:///session-root") {
				t.Errorf("roots were not answered from the session's --root: %s", l)
			}
		case !strings.Contains(l, `"error"`) || strings.Contains(l, "Ann"):
			t.Errorf("answered with no invocation in flight: %s", l)
		}
	}
	// An invocation's own request still gets its questions answered.
	out, _ := e.must("--stdio", "fakemcp legacyunasked", "--sampling-cmd", sampling, "tools", "call", "sample")
	if _, err := os.Stat(flag); err != nil || !strings.Contains(out, "ok") {
		t.Errorf("a call's own sampling request was not answered by its --sampling-cmd: %s", out)
	}
}

// TestSessionControlNotRelayed: the session's control methods are
// mcpctl's own session client's: a batch line or mcpctl call naming one
// is refused with a clear error, and the session keeps running.
func TestSessionControlNotRelayed(t *testing.T) {
	e := newKsEnv(t).with("MCPCTL_STDIO=demo")
	e.must("session", "start", "--name", "kept")
	pid := e.sessionPID()
	for _, method := range []string{"mcpctl/session/stop", "mcpctl/session/status"} {
		out, errs, code := e.run("call", method)
		if code != 2 || !strings.Contains(errs, "mcpctl: "+method+": reserved for the session itself") {
			t.Errorf("call %s: exit %d, want 2 and a clear error\nstdout: %s\nstderr: %s", method, code, out, errs)
		}
	}
	cmd, out, errb := e.cmd("batch")
	cmd.Stdin = strings.NewReader(`{"method":"mcpctl/session/stop"}` + "\n" + `{"method":"tools/list"}` + "\n")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	code := waitExit(t, cmd, 60*time.Second, errb)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if code == 0 || len(lines) != 2 || !strings.Contains(lines[0], `"exit":2`) || !strings.Contains(lines[0], "reserved for the session itself") || !strings.Contains(lines[1], `"tools":[`) {
		t.Errorf("batch: exit %d\nstdout: %s\nstderr: %s", code, out.String(), errb.String())
	}
	if syscall.Kill(pid, 0) != nil {
		t.Fatal("the session was stopped by a relayed request")
	}
	if out, _ := e.must("session", "list", "--jq", "[.sessions[].name]"); strings.TrimSpace(out) != `["kept"]` {
		t.Errorf("sessions: %s", out)
	}
	// mcpctl's own session client still stops it.
	if _, errs := e.must("session", "stop", "kept"); !strings.Contains(errs, "stopped session kept") {
		t.Errorf("session stop: %s", errs)
	}
}

// sessionPIDs are the pids of the running sessions.
func (e *ksEnv) sessionPIDs() []int {
	e.t.Helper()
	out, _ := e.must("session", "list", "--jq", ".sessions[].pid")
	var pids []int
	for _, f := range strings.Fields(out) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			e.t.Fatalf("session list: %s", out)
		}
		pids = append(pids, pid)
	}
	return pids
}

// secretsOnCommandLines fails the test if the command line of a session,
// or of any process this test's mcpctl started, holds one of secrets.
func (e *ksEnv) secretsOnCommandLines(secrets []string) {
	e.t.Helper()
	pids := e.sessionPIDs()
	if len(pids) == 0 {
		e.t.Fatal("no session is running")
	}
	seen := map[int]bool{}
	for _, p := range markedProcs(e.marker) {
		pid, _ := strconv.Atoi(p)
		pids = append(pids, pid)
	}
	for _, pid := range pids {
		if seen[pid] {
			continue
		}
		seen[pid] = true
		cmdline, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
		if err != nil {
			continue // gone meanwhile
		}
		for _, s := range secrets {
			if strings.Contains(string(cmdline), s) {
				e.t.Errorf("process %d's command line holds %q: %q", pid, s, cmdline)
			}
		}
	}
}

// writeConfig writes the test's config file.
func (e *ksEnv) writeConfig(text string) {
	e.t.Helper()
	for _, kv := range e.env {
		if v, ok := strings.CutPrefix(kv, "MCPCTL_CONFIG="); ok {
			if err := os.WriteFile(v, []byte(text), 0o600); err != nil {
				e.t.Fatal(err)
			}
			return
		}
	}
	e.t.Fatal("no MCPCTL_CONFIG")
}

// TestSessionNoSecretOnCommandLine: the session process gets its settings
// through an inherited pipe, so no other user reads a credential in ps:
// neither one from MCPCTL_* variables, -H or --env at session start, nor
// one of a session a keepAlive entry starts.
func TestSessionNoSecretOnCommandLine(t *testing.T) {
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("needs /proc")
	}
	secretVars := []string{"MCPCTL_BEARER=s3cret-bearer", "MCPCTL_CLIENT_SECRET=s3cret-client", "MCPCTL_ASSERTION=s3cret-assertion",
		"MCPCTL_ID_TOKEN=s3cret-idtoken", "MCPCTL_IDP_CLIENT_SECRET=s3cret-idp"}
	secrets := []string{"s3cret-bearer", "s3cret-client", "s3cret-assertion", "s3cret-idtoken", "s3cret-idp", "s3cret-header", "s3cret-env"}
	t.Run("session start", func(t *testing.T) {
		srv := httptest.NewServer(fakemcp.Handler("headers"))
		t.Cleanup(srv.Close)
		e := newKsEnv(t).with(append(secretVars, "MCPCTL_URL="+srv.URL+"/mcp")...)
		e.must("-H", "X-Api-Key: s3cret-header", "session", "start")
		e.secretsOnCommandLines(secrets)
		// The session still sends what it was given.
		out, errs := e.must("-H", "X-Api-Key: s3cret-header", "--trace", "call", "test/headers")
		if !strings.Contains(errs, "# session: ") || !strings.Contains(out, `"authorization":"Bearer s3cret-bearer"`) || !strings.Contains(out, `"x-api-key":"s3cret-header"`) {
			t.Errorf("through the session: %s\n%s", out, errs)
		}
	})
	t.Run("keepAlive", func(t *testing.T) {
		e := newKsEnv(t).with(secretVars...)
		e.writeConfig("servers:\n  demo:\n    command: demo\n    keepAlive: 1m\n")
		out, errs := e.must("-s", "demo", "--env", "DEMO_KEY=s3cret-env", "--trace", "tools", "call", "touch_resource")
		if !strings.Contains(errs, "# session: starting one") || !strings.Contains(out, "count: 1") {
			t.Fatalf("no session started: %s\n%s", out, errs)
		}
		e.secretsOnCommandLines(secrets)
	})
}

// runIn runs mcpctl in dir to the end and returns its output and exit
// code.
func (e *ksEnv) runIn(dir string, args ...string) (string, string, int) {
	e.t.Helper()
	cmd, out, errb := e.cmd(args...)
	cmd.Dir = dir
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	code := waitExit(e.t, cmd, 60*time.Second, errb)
	return out.String(), errb.String(), code
}

// mustIn is runIn requiring exit 0.
func (e *ksEnv) mustIn(dir string, args ...string) (string, string) {
	e.t.Helper()
	out, errs, code := e.runIn(dir, args...)
	if code != 0 {
		e.t.Fatalf("mcpctl %v in %s: exit %d\nstdout: %s\nstderr: %s", args, dir, code, out, errs)
	}
	return out, errs
}

// whoAmI asks the headers-echoing server what it got: the Authorization
// and X-Tenant headers, and whether the call went through a session.
func whoAmI(t *testing.T, e *ksEnv, args ...string) (auth, tenant, session string) {
	t.Helper()
	out, errs := e.must(append(args, "--trace", "call", "test/headers")...)
	var res struct {
		Headers map[string]string `json:"headers"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s\n%s", args, out, errs)
	}
	for _, l := range strings.Split(errs, "\n") {
		if s, ok := strings.CutPrefix(l, "# session: "); ok {
			session, _, _ = strings.Cut(s, " ")
		}
	}
	return res.Headers["authorization"], res.Headers["x-tenant"], session
}

// TestSessionKeyedByCredentials: a session started with one credential
// serves only invocations with that credential and the same headers;
// another bearer, another Authorization header, another header, or no
// credential at all reach the server themselves (or their own session),
// never as the session's user.
func TestSessionKeyedByCredentials(t *testing.T) {
	srv := httptest.NewServer(fakemcp.Handler("headers"))
	t.Cleanup(srv.Close)
	e := newKsEnv(t).with("MCPCTL_URL=" + srv.URL + "/mcp")
	alice := e.with("MCPCTL_BEARER=TOKEN_ALICE")
	alice.must("session", "start", "--name", "alice")

	for _, tc := range []struct {
		name       string
		e          *ksEnv
		args       []string
		auth, tena string
		session    string
	}{
		{"the same bearer", alice, nil, "Bearer TOKEN_ALICE", "", "alice"},
		{"another --bearer", e, []string{"--bearer", "TOKEN_BOB"}, "Bearer TOKEN_BOB", "", ""},
		{"another bearer over the variable's", alice, []string{"--bearer", "TOKEN_BOB"}, "Bearer TOKEN_BOB", "", ""},
		{"-H Authorization", e, []string{"-H", "Authorization: Bearer TOKEN_CAROL"}, "Bearer TOKEN_CAROL", "", ""},
		{"no credential", e, nil, "", "", ""},
		{"another header", alice, []string{"-H", "X-Tenant: other"}, "Bearer TOKEN_ALICE", "other", ""},
	} {
		auth, tenant, session := whoAmI(t, tc.e, tc.args...)
		if auth != tc.auth || tenant != tc.tena || session != tc.session {
			t.Errorf("%s: the server saw Authorization %q, X-Tenant %q, through session %q; want %q, %q, %q",
				tc.name, auth, tenant, session, tc.auth, tc.tena, tc.session)
		}
	}
	// Bob may have a session of his own beside Alice's; each is used by
	// its own caller.
	bob := e.with("MCPCTL_BEARER=TOKEN_BOB")
	bob.must("session", "start", "--name", "bob")
	for who, want := range map[string]struct{ env *ksEnv }{"alice": {alice}, "bob": {bob}} {
		auth, _, session := whoAmI(t, want.env)
		if session != who || auth != "Bearer TOKEN_"+strings.ToUpper(who) {
			t.Errorf("%s's call: Authorization %q through session %q", who, auth, session)
		}
	}
	if out, _ := e.must("session", "list", "--jq", "[.sessions[].name]"); strings.TrimSpace(out) != `["alice","bob"]` {
		t.Errorf("sessions: %s", out)
	}
}

// TestSessionKeyedByWorkingDirectory: a stdio session serves only
// invocations whose server would start in the same folder, with the same
// environment: the same command in another project reaches a server of
// its own.
func TestSessionKeyedByWorkingDirectory(t *testing.T) {
	e := newKsEnv(t).with("MCPCTL_STDIO=fakemcp env")
	root := t.TempDir()
	a, b := filepath.Join(root, "project-a"), filepath.Join(root, "project-b")
	for _, d := range []string{a, b} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	e.mustIn(a, "session", "start", "--name", "a")
	where := func(dir string, args ...string) (cwd, fakeVar string, viaSession bool) {
		t.Helper()
		out, errs := e.mustIn(dir, append(args, "--trace", "call", "test/env")...)
		var res struct {
			Cwd     string `json:"cwd"`
			FakeVar string `json:"FAKE_VAR"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%s: %s\n%s", dir, out, errs)
		}
		return res.Cwd, res.FakeVar, strings.Contains(errs, "# session: a ")
	}
	if cwd, _, via := where(a); cwd != "project-a" || !via {
		t.Errorf("in project A: the server ran in %q, through the session: %v", cwd, via)
	}
	if cwd, _, via := where(b); cwd != "project-b" || via {
		t.Errorf("in project B: the server ran in %q, through project A's session: %v", cwd, via)
	}
	if cwd, _, via := where(b, "--cwd", a); cwd != "project-a" || !via {
		t.Errorf("in project B with --cwd A: the server ran in %q, through the session: %v", cwd, via)
	}
	if _, v, via := where(a, "--env", "FAKE_VAR=other"); v != "other" || via {
		t.Errorf("with another --env: FAKE_VAR %q, through the session: %v", v, via)
	}
}
