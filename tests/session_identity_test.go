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
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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
