//go:build linux

package tests

// Issue 24, items 5, 6 and 8: the sessions folder and its parent, memory a
// server cannot inflate through a session, and sessions that end cleanly
// whatever happens. The real binary against the demo server and fakemcp;
// the tests that measure memory run the shipped build (as the fault suite
// does), not this test binary, and read the session process's peak
// resident set from /proc.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcpctl/mcpctl/client"
)

// shippedKsEnv is a ksEnv whose mcpctl and fakemcp are the shipped build.
func shippedKsEnv(t *testing.T) *ksEnv {
	return newKsEnv(t).with("PATH=" + faultBinaries(t) + ":" + os.Getenv("PATH"))
}

// peakRSS is process pid's peak resident set in MiB (VmHWM).
func peakRSS(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kib, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kib >> 10
		}
	}
	t.Fatalf("no VmHWM in /proc/%d/status", pid)
	return 0
}

// capped keeps the first MiB written to it, and counts the rest.
type capped struct {
	mu sync.Mutex
	b  []byte
	n  int64
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n += int64(len(p))
	if room := 1<<20 - len(c.b); room > 0 {
		c.b = append(c.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (c *capped) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return string(c.b)
}

// TestSessionFolderMustBePrivate: the folder that holds the sessions
// folder ($XDG_RUNTIME_DIR/mcpctl, else the state folder) is held to the
// XDG rule for a runtime folder, as the sessions folder is: yours, 0700.
// One open to others (an attacker could swap what is in it), or another
// user's (made first in a shared /tmp), is refused, saying what to fix;
// a shared sticky folder as the runtime folder is fine, mcpctl's own
// folder in it being private.
func TestSessionFolderMustBePrivate(t *testing.T) {
	t.Run("open to others", func(t *testing.T) {
		e := newKsEnv(t).with("MCPCTL_STDIO=demo")
		base := filepath.Join(e.rt, "mcpctl")
		if err := os.Mkdir(base, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(base, 0o777); err != nil {
			t.Fatal(err)
		}
		_, errs, code := e.run("session", "start")
		if code != 2 || !strings.Contains(errs, "the folder "+base+" (where the sessions folder is) is open to others (mode 0777); make it private: chmod 700 "+base) {
			t.Errorf("session start: exit %d: %s", code, errs)
		}
		// A command with no sessions folder to look in uses nothing of
		// the open folder, and makes nothing in it.
		out, errs := e.must("tools", "call", "touch_resource")
		if strings.Contains(errs, "session") || !strings.Contains(out, "count: 1") {
			t.Errorf("a command: %s\n%s", out, errs)
		}
		if _, err := os.Stat(filepath.Join(base, "sessions")); !os.IsNotExist(err) {
			t.Errorf("a sessions folder was made in the open folder: %v", err)
		}
		// A sessions folder in it (another user may have made one, with a
		// socket to answer as a session) is not used, with a word.
		if err := os.Mkdir(filepath.Join(base, "sessions"), 0o700); err != nil {
			t.Fatal(err)
		}
		out, errs = e.must("tools", "call", "touch_resource")
		if !strings.Contains(errs, "open to others (mode 0777)") || !strings.Contains(errs, "not using the session") || !strings.Contains(out, "count: 1") {
			t.Errorf("a command beside a sessions folder: %s\n%s", out, errs)
		}
		if err := os.Remove(filepath.Join(base, "sessions")); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(base, 0o700); err != nil {
			t.Fatal(err)
		}
		e.must("session", "start")
	})
	t.Run("another user's", func(t *testing.T) {
		if os.Getuid() != 0 {
			t.Skip("needs root to give a folder to another user")
		}
		e := newKsEnv(t).with("MCPCTL_STDIO=demo")
		base := filepath.Join(e.rt, "mcpctl")
		if err := os.Mkdir(base, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(base, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		_, errs, code := e.run("session", "start")
		if code != 2 || !strings.Contains(errs, "the folder "+base+" (where the sessions folder is) belongs to another user; mcpctl does not use it (set XDG_RUNTIME_DIR, or MCPCTL_STATE_DIR, to a private folder of yours)") {
			t.Errorf("session start: exit %d: %s", code, errs)
		}
		if entries, _ := os.ReadDir(base); len(entries) != 0 {
			t.Errorf("written into another user's folder: %v", entries)
		}
	})
	t.Run("shared sticky runtime folder", func(t *testing.T) {
		e := newKsEnv(t)
		shared := filepath.Join(e.rt, "tmp")
		if err := os.Mkdir(shared, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(shared, 0o1777); err != nil {
			t.Fatal(err)
		}
		e = e.with("MCPCTL_STDIO=demo", "XDG_RUNTIME_DIR="+shared)
		e.must("session", "start")
		if fi, err := os.Stat(filepath.Join(shared, "mcpctl")); err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("mcpctl's folder in the shared one: %v %v", fi, err)
		}
		e.must("session", "stop", "--all")
	})
}

// TestSessionLogNotFollowed: a link planted where a session's log goes
// is never followed: the file it points to is left as it was, and the
// session keeps its log in a file of its own.
func TestSessionLogNotFollowed(t *testing.T) {
	e := newKsEnv(t).with("MCPCTL_STDIO=demo")
	if err := os.MkdirAll(e.sessionsDir(), 0o700); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(t.TempDir(), "authorized_keys")
	if err := os.WriteFile(victim, []byte("ssh-ed25519 AAAA precious\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	log := strings.TrimSuffix(e.socketOf("demo"), ".sock") + ".log"
	if err := os.Symlink(victim, log); err != nil {
		t.Fatal(err)
	}
	e.must("session", "start", "--name", "d")
	if got, _ := os.ReadFile(victim); string(got) != "ssh-ed25519 AAAA precious\n" {
		t.Errorf("the file the planted link pointed to now holds %q", got)
	}
	if fi, err := os.Lstat(log); err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
		t.Errorf("the log: %v %v", fi, err)
	}
	if out, _ := e.must("session", "logs", "d"); !strings.Contains(out, "session d: serving") {
		t.Errorf("session logs: %s", out)
	}
}

// TestSessionPausedListenerBounded: a listen through a session, paused
// (SIGSTOP, as Ctrl-Z does), while the server floods it with 256 MiB of
// notifications: the session holds a few MiB for it at most (its peak
// resident set stays under 100 MiB), disconnects it once it falls
// behind, and goes on; resumed, the listener ends with exit 3, saying it
// fell behind.
func TestSessionPausedListenerBounded(t *testing.T) {
	e := shippedKsEnv(t).with("MCPCTL_STDIO=fakemcp legacyflood")
	e.must("session", "start")
	pid := e.sessionPID()
	listener, _, lerr := e.cmd("listen", "--resource", "fake://note", "--timeout", "120s")
	out := &capped{}
	listener.Stdout = out
	if err := listener.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = listener.Process.Kill() }()
	flood := func(count, size int) {
		t.Helper()
		e.must("call", "tools/call", fmt.Sprintf(`{"name":"flood","arguments":{"count":%d,"size":%d}}`, count, size))
	}
	// Listening once a flood of one reaches it.
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), `"pad":"x"`) {
		if time.Now().After(deadline) {
			t.Fatalf("the listener heard nothing:\n%s\n%s", out.String(), lerr.String())
		}
		flood(1, 1)
		time.Sleep(100 * time.Millisecond)
	}
	if err := listener.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	flood(1024, 256<<10)
	rss := peakRSS(t, pid)
	t.Logf("the session's peak resident set: %d MiB", rss)
	if rss >= 100 {
		t.Errorf("the session's peak resident set is %d MiB with a paused listener flooded, want under 100", rss)
	}
	if err := listener.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	if code := waitExit(t, listener, 30*time.Second, lerr); code != 3 || !strings.Contains(lerr.String(), "this command fell behind reading what the server sent") {
		t.Errorf("the listener: exit %d, %s", code, lerr.String())
	}
	if out, _ := e.must("call", "tools/call", `{"name":"flood","arguments":{"count":1,"size":1}}`); !strings.Contains(out, "flooded") {
		t.Errorf("the session after: %s", out)
	}
	if logs, _ := e.must("session", "logs", strings.TrimSpace(sessionName(t, e))); !strings.Contains(logs, "a client fell behind") {
		t.Errorf("the session's log:\n%s", logs)
	}
}

// TestSessionFailedListingsBounded: five listings through a session of a
// legacy server whose pages never end (1 MiB each, each listing given up
// at the 64 MiB limit): the session remembers none of them and holds
// little of them (its peak resident set stays under 100 MiB).
func TestSessionFailedListingsBounded(t *testing.T) {
	e := shippedKsEnv(t).with("MCPCTL_STDIO=fakemcp legacyendlesspages:1048576")
	e.must("session", "start")
	pid := e.sessionPID()
	for i := range 5 {
		if _, errs, code := e.run("tools", "list"); code != 3 {
			t.Fatalf("listing %d: exit %d, want 3: %s", i, code, errs)
		}
	}
	rss := peakRSS(t, pid)
	t.Logf("the session's peak resident set: %d MiB", rss)
	if rss >= 100 {
		t.Errorf("the session's peak resident set is %d MiB after five failed listings, want under 100", rss)
	}
}

// serverOf is the child of the session process pid (its server).
func serverOf(t *testing.T, e *ksEnv, pid int) int {
	t.Helper()
	for _, p := range markedProcs(e.marker) {
		stat, _ := os.ReadFile("/proc/" + p + "/stat")
		if i := strings.LastIndexByte(string(stat), ')'); i > 0 {
			if f := strings.Fields(string(stat[i+1:])); len(f) > 1 && f[1] == strconv.Itoa(pid) {
				n, _ := strconv.Atoi(p)
				return n
			}
		}
	}
	t.Fatalf("no server below the session process %d", pid)
	return 0
}

// TestSessionKilledServerEnds: kill -9 of a session process whose server
// ignores the end of its input and SIGTERM: the server is gone within the
// grace all the same (it dies with its parent). What that server started
// in turn (a child as deaf) is ended by the next run, which finds the
// server's cgroup left behind (where cgroups are to be had).
func TestSessionKilledServerEnds(t *testing.T) {
	for _, mode := range []string{"deaf", "ignoreterm"} {
		t.Run(mode, func(t *testing.T) {
			e := newKsEnv(t).with("MCPCTL_STDIO=fakemcp " + mode)
			e.must("session", "start")
			pid := e.sessionPID()
			server := serverOf(t, e, pid)
			cgroup, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", server))
			inCgroup := strings.Contains(string(cgroup), "/mcp-server-")
			_ = syscall.Kill(pid, syscall.SIGKILL)
			// The grace a session gives its server at a stop: 100ms after
			// its input ends, 2s after SIGTERM.
			const grace = client.DefaultCloseGrace + client.DefaultTermGrace
			deadline := time.Now().Add(grace)
			for procRunning(server) {
				if time.Now().After(deadline) {
					t.Fatalf("the server %d still runs %s after its session was killed", server, grace)
				}
				time.Sleep(20 * time.Millisecond)
			}
			if mode == "ignoreterm" {
				if !inCgroup {
					killMarked(e.marker)
					t.Skip("no cgroup of the server's own here: its child is out of reach once orphaned")
				}
				e.must("--no-session", "--stdio", "fakemcp echo", "tools", "list")
			}
			// (the cleanup checks that nothing of the test's is left)
		})
	}
}

// procRunning: pid is a live process (not a zombie).
func procRunning(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	i := strings.LastIndexByte(string(stat), ')')
	return i > 0 && !strings.HasPrefix(string(stat[i:]), ") Z") && !strings.HasPrefix(string(stat[i:]), ") X")
}

// TestSessionStoppedProcess: a session whose process is stopped (SIGSTOP)
// takes connections but never answers. It is listed all the same, marked
// unresponsive; a command naming its server does not wait for it but
// warns and reaches the server itself; session stop ends it by its pid
// (checked to be the session's by its start time): SIGTERM, SIGCONT, then
// SIGKILL; by name and with --all.
func TestSessionStoppedProcess(t *testing.T) {
	e := newKsEnv(t)
	demo, other := e.with("MCPCTL_STDIO=demo"), e.with("MCPCTL_STDIO=fakemcp echo")
	demo.must("session", "start", "--name", "d")
	other.must("session", "start", "--name", "o")
	pids := map[string]int{}
	out, _ := e.must("session", "list", "-o", "json")
	var l struct {
		Sessions []struct {
			Name string `json:"name"`
			PID  int    `json:"pid"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(out), &l); err != nil || len(l.Sessions) != 2 {
		t.Fatalf("session list: %s (%v)", out, err)
	}
	for _, s := range l.Sessions {
		pids[s.Name] = s.PID
		if err := syscall.Kill(s.PID, syscall.SIGSTOP); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	out, _ = e.must("session", "list", "-o", "json")
	for _, name := range []string{"d", "o"} {
		if !strings.Contains(out, fmt.Sprintf(`"name":%q`, name)) || strings.Count(out, `"unresponsive":true`) != 2 {
			t.Errorf("session list with %s stopped: %s", name, out)
		}
	}
	if table, _ := e.with("MCPCTL_FORCE_TTY=1").must("session", "list"); strings.Count(table, "unresponsive") != 2 {
		t.Errorf("the table:\n%s", table)
	}
	out, errs := demo.must("tools", "call", "touch_resource")
	if !strings.Contains(errs, fmt.Sprintf("the session d (pid %d) does not answer: its process is stopped (end it with 'mcpctl session stop d'); not using the session", pids["d"])) ||
		!strings.Contains(out, "count: 1") {
		t.Errorf("a command to the stopped session's server:\n%s\n%s", out, errs)
	}
	if d := time.Since(start); d > 8*time.Second {
		t.Errorf("listing and a command took %s with stopped sessions: they waited for them", d)
	}
	if _, errs, code := demo.run("session", "start"); code != 2 || !strings.Contains(errs, "its process is stopped: end it with 'mcpctl session stop d', or start again with --replace") {
		t.Errorf("session start over the stopped session: exit %d: %s", code, errs)
	}
	_, errs = e.must("session", "stop", "d")
	if !strings.Contains(errs, fmt.Sprintf("stopped session d (pid %d)", pids["d"])) || procRunning(pids["d"]) {
		t.Errorf("session stop d: %s", errs)
	}
	_, errs = e.must("session", "stop", "--all")
	if !strings.Contains(errs, fmt.Sprintf("stopped session o (pid %d)", pids["o"])) || procRunning(pids["o"]) {
		t.Errorf("session stop --all: %s", errs)
	}
	if files, _ := os.ReadDir(e.sessionsDir()); len(files) != 0 {
		t.Errorf("left behind: %v", files)
	}
}
