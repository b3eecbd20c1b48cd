package tests

// Sessions (issue 16 item 1): kept-alive server connections, against the
// real binary and the demo server, with what scripts cannot do: several
// invocations at once, Ctrl-C of one, a server or session process killed
// mid-request, and the sessions folder tampered with. Every test ends
// every session it started and checks that nothing is left running.

import (
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sessionRuntimeDir is a fresh $XDG_RUNTIME_DIR, short enough for the
// sockets in it.
func sessionRuntimeDir() (string, error) {
	dir, err := os.MkdirTemp("", "ks")
	if err != nil {
		return "", err
	}
	return dir, os.Chmod(dir, 0o700)
}

// endSessions ends every session process recorded under the runtime
// directory rt (by its pid: SIGTERM, which stops it as session stop
// does, then SIGKILL) and removes rt.
func endSessions(rt string) {
	recs, _ := filepath.Glob(filepath.Join(rt, "mcpctl", "sessions", "*.json"))
	for _, r := range recs {
		var rec struct {
			PID int `json:"pid"`
		}
		data, _ := os.ReadFile(r)
		if json.Unmarshal(data, &rec) != nil || rec.PID <= 0 {
			continue
		}
		_ = syscall.Kill(rec.PID, syscall.SIGTERM)
		deadline := time.Now().Add(10 * time.Second)
		for syscall.Kill(rec.PID, 0) == nil && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		_ = syscall.Kill(rec.PID, syscall.SIGKILL)
	}
	_ = os.RemoveAll(rt)
}

// ksEnv is one test's machine: the binaries on PATH, its own runtime,
// state and cache folders, and a marker every process it starts
// inherits.
type ksEnv struct {
	t      *testing.T
	env    []string
	rt     string
	marker string
}

func newKsEnv(t *testing.T) *ksEnv {
	t.Helper()
	bin := linkBinaries(t)
	demo := buildDemo(t)
	rt, err := sessionRuntimeDir()
	if err != nil {
		t.Fatal(err)
	}
	e := &ksEnv{t: t, rt: rt, marker: "MCPCTL_TEST_MARK=ks-" + filepath.Base(rt)}
	e.env = append(os.Environ(), "PATH="+bin+":"+demo+":"+os.Getenv("PATH"), "XDG_RUNTIME_DIR="+rt,
		"MCPCTL_STATE_DIR="+t.TempDir(), "MCPCTL_CACHE_DIR="+t.TempDir(), "MCPCTL_CONFIG="+filepath.Join(t.TempDir(), "config.yaml"),
		"MCPCTL_PROTOCOL_VERSION=", "MCPCTL_STDIO=", "MCPCTL_URL=", "MCPCTL_SERVER=", e.marker)
	t.Cleanup(func() {
		endSessions(rt)
		noneLeft(t, e.marker)
	})
	return e
}

// with returns the environment plus vars.
func (e *ksEnv) with(vars ...string) *ksEnv {
	c := *e
	c.env = append(append([]string(nil), e.env...), vars...)
	return &c
}

// cmd is mcpctl with args, not started.
func (e *ksEnv) cmd(args ...string) (*exec.Cmd, *syncBuffer, *syncBuffer) {
	cmd := exec.Command("mcpctl", args...)
	cmd.Env = e.env
	for _, kv := range e.env {
		if p, ok := strings.CutPrefix(kv, "PATH="); ok {
			for _, dir := range strings.Split(p, ":") {
				if _, err := os.Stat(filepath.Join(dir, "mcpctl")); err == nil {
					cmd.Path = filepath.Join(dir, "mcpctl")
					break
				}
			}
		}
	}
	var out, errb syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	return cmd, &out, &errb
}

// run runs mcpctl to the end (within 60s) and returns its output and exit
// code.
func (e *ksEnv) run(args ...string) (string, string, int) {
	e.t.Helper()
	cmd, out, errb := e.cmd(args...)
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	code := waitExit(e.t, cmd, 60*time.Second, errb)
	return out.String(), errb.String(), code
}

func waitExit(t *testing.T, cmd *exec.Cmd, limit time.Duration, errb *syncBuffer) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(limit):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("mcpctl %v hung (killed after %s); stderr:\n%s", cmd.Args[1:], limit, errb.String())
		return -1
	}
}

// must runs mcpctl and requires exit 0.
func (e *ksEnv) must(args ...string) (string, string) {
	e.t.Helper()
	out, errs, code := e.run(args...)
	if code != 0 {
		e.t.Fatalf("mcpctl %v: exit %d\nstdout: %s\nstderr: %s", args, code, out, errs)
	}
	return out, errs
}

// waitFor waits until b holds s.
func waitFor(t *testing.T, b *syncBuffer, s string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(b.String(), s) {
		if time.Now().After(deadline) {
			t.Fatalf("never saw %q in:\n%s", s, b.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// sessionPID is the pid of the one running session.
func (e *ksEnv) sessionPID() int {
	e.t.Helper()
	out, _ := e.must("session", "list", "-o", "json")
	var l struct {
		Sessions []struct {
			PID int `json:"pid"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(out), &l); err != nil || len(l.Sessions) != 1 {
		e.t.Fatalf("session list: %s (%v)", out, err)
	}
	return l.Sessions[0].PID
}

func (e *ksEnv) sessionsDir() string { return filepath.Join(e.rt, "mcpctl", "sessions") }

// socketOf is where the session of `--stdio CMD`, run from this test's
// folder, has its socket. Its name is a hash of the caller's identity
// (docs/sessions.md), which mcpctl says: the socket of a session started
// for the purpose in a runtime folder of its own.
func (e *ksEnv) socketOf(cmd string) string {
	e.t.Helper()
	rt, err := sessionRuntimeDir()
	if err != nil {
		e.t.Fatal(err)
	}
	defer endSessions(rt)
	probe := e.with("XDG_RUNTIME_DIR=" + rt)
	probe.must("--stdio", cmd, "session", "start", "--name", "probe")
	socks, _ := filepath.Glob(filepath.Join(rt, "mcpctl", "sessions", "*.sock"))
	probe.must("session", "stop", "probe")
	if len(socks) != 1 {
		e.t.Fatalf("the probe's sockets: %v", socks)
	}
	return filepath.Join(e.sessionsDir(), filepath.Base(socks[0]))
}

var eras = map[string]string{"modern": "", "legacy": "2025-11-25"}

// TestSessionKeepsState: a call through a session reaches the same server
// process as the one before it; --no-session does not; the era comes from
// the session (no probe).
func TestSessionKeepsState(t *testing.T) {
	for era, v := range eras {
		t.Run(era, func(t *testing.T) {
			e := newKsEnv(t).with("MCPCTL_PROTOCOL_VERSION="+v, "MCPCTL_STDIO=demo")
			_, errs := e.must("session", "start")
			if !strings.Contains(errs, "started (pid ") || !strings.Contains(errs, era) {
				t.Errorf("session start said: %s", errs)
			}
			e.must("tools", "call", "touch_resource")
			_, errs = e.must("--trace", "tools", "call", "touch_resource")
			if !strings.Contains(errs, "# session: ") || strings.Contains(errs, "server/discover") {
				t.Errorf("trace: %s", errs)
			}
			out, _ := e.must("resources", "read", "demo://counter")
			if !strings.Contains(out, "count: 2") {
				t.Errorf("through the session the counter is not 2: %s", out)
			}
			out, _ = e.must("--no-session", "resources", "read", "demo://counter")
			if !strings.Contains(out, "count: 0") {
				t.Errorf("--no-session reached the session's server: %s", out)
			}
			_, errs = e.must("session", "stop", "--all")
			if !strings.Contains(errs, "stopped session") {
				t.Errorf("session stop: %s", errs)
			}
			if files, _ := os.ReadDir(e.sessionsDir()); len(files) != 0 {
				t.Errorf("left behind after stop: %v", files)
			}
		})
	}
}

// TestSessionConcurrentRouting: two invocations at once through one
// session; the server's requests (roots, elicitation) each reach the
// invocation whose call asked, answered with that invocation's flags.
func TestSessionConcurrentRouting(t *testing.T) {
	for era, v := range eras {
		t.Run(era, func(t *testing.T) {
			e := newKsEnv(t).with("MCPCTL_PROTOCOL_VERSION="+v, "MCPCTL_STDIO=demo")
			e.must("--root", "/s", "session", "start")
			type result struct {
				out, errs string
				code      int
			}
			calls := map[string][]string{
				"a":      {"tools", "call", "list_roots_tool", "--root", "/a"},
				"b":      {"tools", "call", "list_roots_tool", "--root", "/b"},
				"form":   {"tools", "call", "signup_form", "--answer", "signup.name=Ann", "--answer", "signup.email=ann@example.com", "--answer", "elicitation.name=Ann", "--answer", "elicitation.email=ann@example.com"},
				"refuse": {"tools", "call", "signup_form", "--elicit", "decline"},
			}
			results := map[string]chan result{}
			for name, args := range calls {
				ch := make(chan result, 1)
				results[name] = ch
				go func() {
					cmd, out, errb := e.cmd(args...)
					if err := cmd.Start(); err != nil {
						ch <- result{errs: err.Error(), code: -1}
						return
					}
					done := make(chan error, 1)
					go func() { done <- cmd.Wait() }()
					select {
					case err := <-done:
						code := 0
						if ee, ok := err.(*exec.ExitError); ok {
							code = ee.ExitCode()
						}
						ch <- result{out.String(), errb.String(), code}
					case <-time.After(60 * time.Second):
						_ = cmd.Process.Kill()
						ch <- result{out.String(), errb.String() + " (hung)", -1}
					}
				}()
			}
			want := map[string]string{"a": "file:///a", "b": "file:///b", "form": "Ann", "refuse": "declined"}
			for name, ch := range results {
				r := <-ch
				if r.code != 0 || !strings.Contains(r.out, want[name]) {
					t.Errorf("%s: exit %d, want %q in stdout\nstdout: %s\nstderr: %s", name, r.code, want[name], r.out, r.errs)
				}
				for other, w := range want {
					if other != name && strings.Contains(r.out, w) && !strings.Contains(want[name], w) {
						t.Errorf("%s got %s's answer: %s", name, other, r.out)
					}
				}
			}
		})
	}
}

// TestSessionConcurrentProgress: two calls at once; each invocation gets
// its own call's progress, under its own token, and nothing of the other.
func TestSessionConcurrentProgress(t *testing.T) {
	for era, v := range eras {
		t.Run(era, func(t *testing.T) {
			e := newKsEnv(t).with("MCPCTL_PROTOCOL_VERSION="+v, "MCPCTL_STDIO=demo")
			e.must("session", "start")
			a, _, aerr := e.cmd("tools", "call", "long_job", "steps=3", "delay_ms=150", "--progress", "json", "--log-level", "info")
			b, _, berr := e.cmd("tools", "call", "long_job", "steps=5", "delay_ms=100", "--progress", "json")
			if err := a.Start(); err != nil {
				t.Fatal(err)
			}
			if err := b.Start(); err != nil {
				t.Fatal(err)
			}
			if code := waitExit(t, a, 60*time.Second, aerr); code != 0 {
				t.Errorf("a: exit %d: %s", code, aerr.String())
			}
			if code := waitExit(t, b, 60*time.Second, berr); code != 0 {
				t.Errorf("b: exit %d: %s", code, berr.String())
			}
			if n := strings.Count(aerr.String(), `"total":3`); n != 3 || strings.Contains(aerr.String(), `"total":5`) {
				t.Errorf("a's progress (want 3 of 3, none of b's):\n%s", aerr.String())
			}
			if n := strings.Count(berr.String(), `"total":5`); n != 5 || strings.Contains(berr.String(), `"total":3`) {
				t.Errorf("b's progress (want 5 of 5, none of a's):\n%s", berr.String())
			}
			if !strings.Contains(aerr.String(), "[info] long_job: step 3 of 3 done") {
				t.Errorf("a asked for log messages and got none:\n%s", aerr.String())
			}
			// A modern server's log messages belong to the request that
			// asked for them (a legacy server's level is the connection's).
			if era == "modern" && strings.Contains(berr.String(), "[info]") {
				t.Errorf("b got a's log messages:\n%s", berr.String())
			}
		})
	}
}

// TestSessionInterruptOne: Ctrl-C of one invocation ends its own request
// only; the other's call, started meanwhile, completes, and the session
// goes on serving.
func TestSessionInterruptOne(t *testing.T) {
	for era, v := range eras {
		t.Run(era, func(t *testing.T) {
			e := newKsEnv(t).with("MCPCTL_PROTOCOL_VERSION="+v, "MCPCTL_STDIO=demo")
			e.must("session", "start")
			a, _, aerr := e.cmd("tools", "call", "long_job", "steps=50", "delay_ms=200", "--progress", "json")
			if err := a.Start(); err != nil {
				t.Fatal(err)
			}
			waitFor(t, aerr, `"progress":1`)
			b, bout, berr := e.cmd("tools", "call", "weather_current", "location=SF")
			if err := b.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(200 * time.Millisecond)
			_ = a.Process.Signal(syscall.SIGINT)
			if code := waitExit(t, a, 20*time.Second, aerr); code != 130 {
				t.Errorf("interrupted invocation: exit %d, want 130: %s", code, aerr.String())
			}
			if code := waitExit(t, b, 20*time.Second, berr); code != 0 || !strings.Contains(bout.String(), `"location":"SF"`) {
				t.Errorf("the other invocation: exit %d: %s %s", code, bout.String(), berr.String())
			}
			out, _ := e.must("tools", "call", "calculator_arithmetic", "expression=2*3")
			if !strings.Contains(out, `"text":"6"`) {
				t.Errorf("the session stopped serving: %s", out)
			}
		})
	}
}

// TestSessionServerCrash: the server killed inside a session: the call in
// flight ends with exit 3 saying the state is gone, the next call starts
// the server again (fresh state), and the request is never resent.
func TestSessionServerCrash(t *testing.T) {
	for era, v := range eras {
		t.Run(era, func(t *testing.T) {
			e := newKsEnv(t).with("MCPCTL_PROTOCOL_VERSION=" + v)
			pidFile := filepath.Join(t.TempDir(), "pid")
			server := "sh -c 'echo $$ > " + pidFile + "; exec demo'"
			e = e.with("MCPCTL_STDIO=" + server)
			e.must("session", "start")
			e.must("tools", "call", "touch_resource")
			a, _, aerr := e.cmd("tools", "call", "long_job", "steps=50", "delay_ms=200", "--progress", "json")
			if err := a.Start(); err != nil {
				t.Fatal(err)
			}
			waitFor(t, aerr, `"progress":1`)
			data, _ := os.ReadFile(pidFile)
			pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
			if err != nil {
				t.Fatalf("server pid: %q", data)
			}
			_ = syscall.Kill(pid, syscall.SIGKILL)
			code := waitExit(t, a, 20*time.Second, aerr)
			if code != 3 || !strings.Contains(aerr.String(), "its state with it") {
				t.Errorf("in-flight call: exit %d, want 3 and 'its state is gone':\n%s", code, aerr.String())
			}
			out, _ := e.must("resources", "read", "demo://counter")
			if !strings.Contains(out, "count: 0") {
				t.Errorf("after the crash the server should start afresh: %s", out)
			}
			logs, _ := e.must("session", "logs", strings.TrimSpace(sessionName(t, e)))
			if strings.Count(logs, "starting the server again") != 1 {
				t.Errorf("session log:\n%s", logs)
			}
		})
	}
}

func sessionName(t *testing.T, e *ksEnv) string {
	out, _ := e.must("session", "list", "--jq", ".sessions[0].name")
	return out
}

// TestSessionProcessKilled: the session process killed mid-request: the
// waiting invocation ends with exit 3 (no hang), the server goes with it,
// and the stale socket is cleaned up, never trusted: the next call
// reaches the server directly.
func TestSessionProcessKilled(t *testing.T) {
	e := newKsEnv(t).with("MCPCTL_STDIO=demo")
	e.must("session", "start")
	pid := e.sessionPID()
	a, _, aerr := e.cmd("tools", "call", "long_job", "steps=50", "delay_ms=200", "--progress", "json")
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, aerr, `"progress":1`)
	_ = syscall.Kill(pid, syscall.SIGKILL)
	if code := waitExit(t, a, 20*time.Second, aerr); code != 3 || !strings.Contains(aerr.String(), "ended") {
		t.Errorf("exit %d, want 3:\n%s", code, aerr.String())
	}
	if _, err := os.Lstat(e.socketOf("demo")); err != nil {
		t.Fatalf("the killed session's socket should still be there to be cleaned up: %v", err)
	}
	out, errs := e.must("--trace", "resources", "read", "demo://counter")
	if strings.Contains(errs, "# session:") || !strings.Contains(out, "count: 0") {
		t.Errorf("the stale socket was used: %s %s", out, errs)
	}
	if _, err := os.Lstat(e.socketOf("demo")); err == nil {
		t.Errorf("the stale socket was not removed")
	}
	if out, _ := e.must("session", "list", "-o", "json"); !strings.Contains(out, `"sessions":[]`) {
		t.Errorf("session list: %s", out)
	}
}

// TestSessionBadInput: a second start, a server that cannot start, a
// folder open to others, a symlinked socket, another user's socket.
func TestSessionBadInput(t *testing.T) {
	t.Run("second start", func(t *testing.T) {
		e := newKsEnv(t).with("MCPCTL_STDIO=demo")
		e.must("session", "start", "--name", "one")
		_, errs, code := e.run("session", "start")
		if code != 2 || !strings.Contains(errs, "already has a session (one, pid ") {
			t.Errorf("exit %d: %s", code, errs)
		}
		_, errs = e.must("session", "start", "--replace", "--name", "two")
		if !strings.Contains(errs, "session two started") {
			t.Errorf("--replace: %s", errs)
		}
		if out, _ := e.must("session", "list", "--jq", "[.sessions[].name]"); strings.TrimSpace(out) != `["two"]` {
			t.Errorf("after --replace: %s", out)
		}
	})
	t.Run("server cannot start", func(t *testing.T) {
		e := newKsEnv(t)
		_, direct, dcode := e.run("--stdio", "no-such-server-xyz", "tools", "list")
		_, errs, code := e.run("--stdio", "no-such-server-xyz", "session", "start")
		if code != dcode || code != 3 || !strings.Contains(errs, "no-such-server-xyz") {
			t.Errorf("session start: exit %d (one-shot %d): %s (one-shot: %s)", code, dcode, errs, direct)
		}
		if files, _ := os.ReadDir(e.sessionsDir()); len(files) != 0 {
			t.Errorf("left behind: %v", files)
		}
		_, errs, code = e.run("--stdio", "demo --no-such-flag", "session", "start")
		if code != 3 || strings.Contains(errs, "started") {
			t.Errorf("a server that exits at once: exit %d: %s", code, errs)
		}
	})
	t.Run("loose folder", func(t *testing.T) {
		e := newKsEnv(t).with("MCPCTL_STDIO=demo")
		e.must("session", "start")
		if err := os.Chmod(e.sessionsDir(), 0o755); err != nil {
			t.Fatal(err)
		}
		out, errs := e.must("--trace", "resources", "read", "demo://counter")
		if !strings.Contains(errs, "open to others (mode 0755)") || strings.Contains(errs, "# session:") || !strings.Contains(out, "count: 0") {
			t.Errorf("a loose folder was used: %s", errs)
		}
		_, errs, code := e.run("--stdio", "other", "session", "start")
		if code != 2 || !strings.Contains(errs, "chmod 700") {
			t.Errorf("session start in a loose folder: exit %d: %s", code, errs)
		}
		_ = os.Chmod(e.sessionsDir(), 0o700)
	})
	t.Run("symlinked socket", func(t *testing.T) {
		e := newKsEnv(t).with("MCPCTL_STDIO=demo")
		if err := os.MkdirAll(e.sessionsDir(), 0o700); err != nil {
			t.Fatal(err)
		}
		// A socket that is someone else's to answer, linked in.
		target := filepath.Join(t.TempDir(), "s")
		l, err := net.Listen("unix", target)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		if err := os.Symlink(target, e.socketOf("demo")); err != nil {
			t.Fatal(err)
		}
		_, errs := e.must("tools", "call", "touch_resource")
		if !strings.Contains(errs, "is a symbolic link") || !strings.Contains(errs, "not using the session") {
			t.Errorf("invocation: %s", errs)
		}
		_, errs, code := e.run("session", "start")
		if code != 2 || !strings.Contains(errs, "is a symbolic link") {
			t.Errorf("session start: exit %d: %s", code, errs)
		}
	})
	t.Run("socket path too long", func(t *testing.T) {
		long := filepath.Join(t.TempDir(), strings.Repeat("x", 100))
		if err := os.MkdirAll(long, 0o700); err != nil {
			t.Fatal(err)
		}
		e := newKsEnv(t).with("MCPCTL_STDIO=demo", "XDG_RUNTIME_DIR="+long)
		_, errs, code := e.run("session", "start")
		if code != 2 || !strings.Contains(errs, "set XDG_RUNTIME_DIR (or MCPCTL_STATE_DIR) to a shorter folder") {
			t.Errorf("exit %d: %s", code, errs)
		}
		if out, _ := e.must("tools", "call", "touch_resource"); !strings.Contains(out, "count: 1") {
			t.Errorf("a command without a session: %s", out)
		}
	})
	t.Run("another user's socket", func(t *testing.T) {
		if os.Getuid() != 0 {
			t.Skip("needs root to give a socket to another user")
		}
		e := newKsEnv(t).with("MCPCTL_STDIO=demo")
		if err := os.MkdirAll(e.sessionsDir(), 0o700); err != nil {
			t.Fatal(err)
		}
		l, err := net.Listen("unix", e.socketOf("demo"))
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		if err := os.Chown(e.socketOf("demo"), 65534, 65534); err != nil {
			t.Fatal(err)
		}
		_, errs := e.must("tools", "call", "touch_resource")
		if !strings.Contains(errs, "belongs to another user") {
			t.Errorf("invocation: %s", errs)
		}
		_, errs, code := e.run("session", "start")
		if code != 2 || !strings.Contains(errs, "belongs to another user") {
			t.Errorf("session start: exit %d: %s", code, errs)
		}
	})
}

// TestSessionPeerChecked: the session process checks the user of every
// connection itself, whatever the folder's mode: another user's is closed
// unanswered (no hello), and the session goes on serving its own.
func TestSessionPeerChecked(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to connect as another user")
	}
	py := "/usr/bin/python3" // the system's, which another user may run
	if _, err := os.Stat(py); err != nil {
		t.Skip("needs /usr/bin/python3 for a client of another user")
	}
	e := newKsEnv(t).with("MCPCTL_STDIO=demo")
	e.must("session", "start")
	sock := e.socketOf("demo")
	// Open the way, as a careless chmod would.
	for _, p := range []string{e.rt, filepath.Dir(e.sessionsDir()), e.sessionsDir()} {
		_ = os.Chmod(p, 0o711)
	}
	_ = os.Chmod(sock, 0o666)
	cmd := exec.Command(py, "-c", `import socket,sys
s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.settimeout(10)
print(repr(s.recv(4096)))`, sock)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "b''" {
		t.Errorf("another user's connection got %q (%v), want it closed unanswered", out, err)
	}
	for _, p := range []string{e.rt, filepath.Dir(e.sessionsDir()), e.sessionsDir()} {
		_ = os.Chmod(p, 0o700)
	}
	_ = os.Chmod(sock, 0o600)
	if out, _ := e.must("ping"); !strings.Contains(out, "{}") {
		t.Errorf("the session stopped serving: %s", out)
	}
	logs, _ := e.must("session", "logs", strings.TrimSpace(sessionName(t, e)))
	if !strings.Contains(logs, "refused a connection from user 65534") {
		t.Errorf("log:\n%s", logs)
	}
}

// TestSessionIdle: an unused session ends by itself after --idle, with
// its server, leaving nothing behind.
func TestSessionIdle(t *testing.T) {
	e := newKsEnv(t).with("MCPCTL_STDIO=demo")
	e.must("session", "start", "--idle", "1s")
	pid := e.sessionPID()
	e.must("ping")
	deadline := time.Now().Add(15 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatal("the idle session did not end")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if files, _ := os.ReadDir(e.sessionsDir()); len(files) != 0 {
		t.Errorf("left behind: %v", files)
	}
}

// TestSessionKeepAlive: a server entry with keepAlive starts its session
// on first use, and the next command goes through it.
func TestSessionKeepAlive(t *testing.T) {
	e := newKsEnv(t)
	var cfg string
	for _, kv := range e.env {
		if v, ok := strings.CutPrefix(kv, "MCPCTL_CONFIG="); ok {
			cfg = v
		}
	}
	if err := os.WriteFile(cfg, []byte("servers:\n  demo:\n    command: demo\n    keepAlive: 1m\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errs := e.must("-s", "demo", "--trace", "tools", "call", "touch_resource")
	if !strings.Contains(errs, "# session: starting one (keepAlive 1m0s)") || !strings.Contains(errs, "# session: demo (pid") || !strings.Contains(out, "count: 1") {
		t.Errorf("first use: %s\n%s", out, errs)
	}
	out, _ = e.must("-s", "demo", "tools", "call", "touch_resource")
	if !strings.Contains(out, "count: 2") {
		t.Errorf("second use did not go through the session: %s", out)
	}
	if out, _ := e.must("session", "list", "--jq", ".sessions[0].idleTimeout"); strings.TrimSpace(out) != "1m0s" {
		t.Errorf("idle timeout: %s", out)
	}
	e.must("session", "stop", "demo")

	// Two first uses at once: one session starts, both go through it.
	a, aout, aerr := e.cmd("-s", "demo", "tools", "call", "touch_resource")
	b, bout, berr := e.cmd("-s", "demo", "tools", "call", "touch_resource")
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	if ca, cb := waitExit(t, a, 60*time.Second, aerr), waitExit(t, b, 60*time.Second, berr); ca != 0 || cb != 0 {
		t.Fatalf("exit %d, %d:\n%s\n%s", ca, cb, aerr.String(), berr.String())
	}
	if got := aout.String() + bout.String(); !strings.Contains(got, "count: 1") || !strings.Contains(got, "count: 2") {
		t.Errorf("two first uses at once did not share one session:\n%s", got)
	}
	if out, _ := e.must("session", "list", "--jq", ".sessions | length"); strings.TrimSpace(out) != "1" {
		t.Errorf("sessions: %s", out)
	}
	e.must("session", "stop", "--all")

	// defaults.keepAlive does the same for an entry that sets none.
	if err := os.WriteFile(cfg, []byte("defaults:\n  keepAlive: 2m\nservers:\n  demo:\n    command: demo\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, errs := e.must("-s", "demo", "--trace", "tools", "call", "touch_resource"); !strings.Contains(errs, "# session: starting one (keepAlive 2m0s)") {
		t.Errorf("defaults.keepAlive started no session:\n%s", errs)
	}
	e.must("session", "stop", "--all")
}

// TestSessionListen: listen works through a session, and what the server
// says goes to every invocation listening (two here), while a third
// invocation's call makes it speak.
func TestSessionListen(t *testing.T) {
	for era, v := range eras {
		t.Run(era, func(t *testing.T) {
			e := newKsEnv(t).with("MCPCTL_PROTOCOL_VERSION="+v, "MCPCTL_STDIO=demo")
			e.must("session", "start")
			var outs []*syncBuffer
			var cmds []*exec.Cmd
			var errs []*syncBuffer
			for range 2 {
				cmd, out, errb := e.cmd("--trace", "listen", "--tools", "--resource", "demo://counter", "--count", "2", "--timeout", "30s")
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				cmds, outs, errs = append(cmds, cmd), append(outs, out), append(errs, errb)
			}
			for _, errb := range errs {
				// Subscribed (legacy) or acknowledged (modern): listening.
				deadline := time.Now().Add(20 * time.Second)
				for !strings.Contains(errb.String(), "resources/subscribe") && !strings.Contains(errb.String(), "subscriptions/acknowledged") {
					if time.Now().After(deadline) {
						t.Fatalf("the listener never subscribed:\n%s", errb.String())
					}
					time.Sleep(20 * time.Millisecond)
				}
				if !strings.Contains(errb.String(), "# session: ") {
					t.Errorf("listen did not go through the session:\n%s", errb.String())
				}
			}
			time.Sleep(300 * time.Millisecond)
			e.must("tools", "call", "toggle_tool")
			e.must("tools", "call", "touch_resource")
			for i, cmd := range cmds {
				if code := waitExit(t, cmd, 30*time.Second, errs[i]); code != 0 {
					t.Errorf("listener %d: exit %d:\n%s", i, code, errs[i].String())
				}
				if !strings.Contains(outs[i].String(), "notifications/tools/list_changed") || !strings.Contains(outs[i].String(), "notifications/resources/updated") {
					t.Errorf("listener %d heard:\n%s", i, outs[i].String())
				}
			}
		})
	}
}
