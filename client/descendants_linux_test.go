//go:build linux

package client

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestParseStat(t *testing.T) {
	// A command name may hold spaces and parentheses.
	line := "4242 (my (odd) name) S 1 4240 4239 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 987654 1000 10 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n"
	p, ok := parseStat(4242, []byte(line))
	want := proc{pid: 4242, ppid: 1, pgid: 4240, sid: 4239, start: 987654}
	if !ok || p != want {
		t.Errorf("parseStat = %+v, %v; want %+v", p, ok, want)
	}
	if p, ok := parseStat(7, []byte("7 (z) Z 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 55 0 0\n")); !ok || !p.zombie || p.start != 55 {
		t.Errorf("zombie: %+v, %v", p, ok)
	}
	for _, bad := range []string{"", "1 (x", "1 (x) S 1 2 3", "1 (x) S a 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5 0 0"} {
		if p, ok := parseStat(1, []byte(bad)); ok {
			t.Errorf("parseStat(%q) = %+v, want failure", bad, p)
		}
	}
	self, ok := readProc(os.Getpid())
	if !ok || self.pid != os.Getpid() || self.ppid != os.Getppid() || self.pgid != syscall.Getpgrp() || self.start == 0 {
		t.Errorf("readProc(self) = %+v, %v", self, ok)
	}
}

func TestCgroupPaths(t *testing.T) {
	if p, ok := cgroup2Path([]byte("9:name=systemd:/\n4:memory:/x\n0::/user.slice/app.scope\n")); !ok || p != "/user.slice/app.scope" {
		t.Errorf("cgroup2Path = %q, %v", p, ok)
	}
	if _, ok := cgroup2Path([]byte("4:memory:/x\n1:cpu:/\n")); ok {
		t.Error("cgroup2Path found a v2 path in a v1-only file")
	}
	// A hybrid system, as this one may be: cgroup2 at .../unified.
	mi := "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n" +
		"35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n" +
		"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime shared:9 - cgroup2 cgroup2 rw\n"
	if mp, root, ok := cgroup2Mount([]byte(mi)); !ok || mp != "/sys/fs/cgroup/unified" || root != "/" {
		t.Errorf("cgroup2Mount = %q, %q, %v", mp, root, ok)
	}
	if mp, root, ok := cgroup2Mount([]byte("50 1 0:40 /a\\040b /mnt/cg\\040two rw - cgroup2 none rw\n")); !ok || mp != "/mnt/cg two" || root != "/a b" {
		t.Errorf("escaped cgroup2Mount = %q, %q, %v", mp, root, ok)
	}
	if _, _, ok := cgroup2Mount([]byte(mi[:len(mi)-len("41 31 0:38 / /sys/fs/cgroup/unified rw,relatime shared:9 - cgroup2 cgroup2 rw\n")])); ok {
		t.Error("cgroup2Mount found a mount that is not there")
	}
	for _, c := range []struct{ path, mp, root, want string }{
		{"/user.slice/app.scope", "/sys/fs/cgroup", "/", "/sys/fs/cgroup/user.slice/app.scope"},
		{"/", "/sys/fs/cgroup/unified", "/", "/sys/fs/cgroup/unified"},
		{"/ns/inner", "/sys/fs/cgroup", "/ns", "/sys/fs/cgroup/inner"},
		{"/ns", "/sys/fs/cgroup", "/ns", "/sys/fs/cgroup"},
		{"/nsx/inner", "/sys/fs/cgroup", "/ns", ""},
		{"/other", "/sys/fs/cgroup", "/ns", ""},
	} {
		got, ok := cgroupDir(c.path, c.mp, c.root)
		if (c.want == "") == ok || got != c.want {
			t.Errorf("cgroupDir(%q, %q, %q) = %q, %v; want %q", c.path, c.mp, c.root, got, ok, c.want)
		}
	}
}

// daemonScript is a server that forks twice, as daemons do: the grandchild
// is in a session of its own, ignores SIGTERM and SIGHUP and is orphaned at
// once. Its pid goes to $PIDFILE; the server then waits for the end of its
// input and exits, leaving it behind.
const daemonScript = `( setsid sh -c 'trap "" TERM HUP; echo $$ > "$PIDFILE"; exec sleep 30' & )
while [ ! -s "$PIDFILE" ]; do sleep 0.01; done
echo ready >&2
cat >/dev/null`

// setsidScript starts a child in a session of its own that stays the
// server's child (not orphaned) until the server exits.
const setsidScript = `setsid sh -c 'trap "" TERM HUP; echo $$ > "$PIDFILE"; exec sleep 30' &
while [ ! -s "$PIDFILE" ]; do sleep 0.01; done
echo ready >&2
cat >/dev/null`

// trackedServer starts script as a server whose descendants are tracked,
// in /proc (cgroup false) or in a cgroup of its own, and returns it with
// the pid the script wrote to $PIDFILE.
func trackedServer(t *testing.T, script string, cgroup bool) (*StdioTransport, int) {
	t.Helper()
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid(1)")
	}
	pidfile := filepath.Join(t.TempDir(), "pid")
	tr := shServer(t, script, StdioOptions{TrackDescendants: true, Env: append(os.Environ(), "PIDFILE="+pidfile)})
	tr.noCgroup = !cgroup
	if err := tr.start(); err != nil {
		t.Fatal(err)
	}
	if !waitUntil(5*time.Second, func() bool { return len(tr.StderrTail()) > 0 }) {
		t.Fatal("the server did not start")
	}
	b, err := os.ReadFile(pidfile)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		t.Fatalf("no daemon pid: %q, %v", b, err)
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	k, ok := tr.tracker.(*procTracker)
	if !ok {
		t.Fatal("the transport tracks nothing")
	}
	if cgroup != (k.cgroup != "") {
		t.Fatalf("cgroup %q; want one: %v", k.cgroup, cgroup)
	}
	return tr, pid
}

// gone: the process no longer runs (an adopted one must also have been
// reaped: kill(pid, 0) still succeeds on a zombie).
func gone(t *testing.T, pid int, reaped bool) {
	t.Helper()
	if reaped {
		if err := syscall.Kill(pid, 0); err != syscall.ESRCH {
			p, _ := readProc(pid)
			t.Errorf("kill(%d, 0) = %v after Close, want ESRCH (ended and reaped); %+v", pid, err, p)
		}
		return
	}
	if p, ok := readProc(pid); ok && !p.zombie {
		t.Errorf("process %d still runs after Close: %+v", pid, p)
	}
}

// With a subreaper and no cgroup: the double-forked daemon comes to us as
// an orphan, is told apart from our own children by its session, gets
// SIGTERM (ignored), then SIGKILL, and is reaped.
func TestTrackOrphanInProc(t *testing.T) {
	becomeSubreaper(t)
	tr, pid := trackedServer(t, daemonScript, false)
	if p, ok := readProc(pid); !ok || p.ppid != os.Getpid() || p.sid == tr.tracker.(*procTracker).self.sid {
		t.Fatalf("the daemon is not an orphan of ours in a session of its own: %+v", p)
	}
	start := time.Now()
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	gone(t, pid, true)
	// stdin closed: the server exits at once; the daemon gets TermGrace.
	if d := time.Since(start); d < tr.opts.TermGrace {
		t.Errorf("Close took %v: the daemon cannot have had its TermGrace (%v) after SIGTERM", d, tr.opts.TermGrace)
	}
}

// Without a subreaper an orphan goes to init; one still below the server
// when Close begins is noted then and ended all the same.
func TestTrackSetsidChildWithoutSubreaper(t *testing.T) {
	if isSubreaper() {
		t.Skip("the test process is a subreaper")
	}
	tr, pid := trackedServer(t, setsidScript, false)
	if p, ok := readProc(pid); !ok || p.ppid != tr.cmd.Process.Pid {
		t.Fatalf("the setsid child is not the server's: %+v", p)
	}
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	gone(t, pid, false)
}

// In a cgroup of the server's own, where this machine allows one: the
// daemon is in it, is ended by cgroup.kill, reaped (we are its subreaper),
// and the cgroup is removed. A cgroup left by a process that died before
// it could remove its own is removed on the way.
func TestTrackInCgroup(t *testing.T) {
	dir, fd, err := newCgroup()
	if err != nil {
		t.Skipf("no cgroup of our own here: %v", err)
	}
	syscall.Close(fd)
	_ = syscall.Rmdir(dir)
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(filepath.Dir(dir), cgroupPrefix+strconv.Itoa(dead.Process.Pid)+"-1")
	if err := syscall.Mkdir(stale, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Rmdir(stale) })

	becomeSubreaper(t)
	tr, pid := trackedServer(t, daemonScript, true)
	cg := tr.tracker.(*procTracker).cgroup
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale cgroup %s is still there (%v)", stale, err)
	}
	procs, _ := os.ReadFile(filepath.Join(cg, "cgroup.procs"))
	if !strings.Contains(" "+strings.Join(strings.Fields(string(procs)), " ")+" ", " "+strconv.Itoa(pid)+" ") {
		t.Fatalf("the daemon %d is not in the server's cgroup: %q", pid, procs)
	}
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	gone(t, pid, true)
	if _, err := os.Stat(cg); !os.IsNotExist(err) {
		t.Errorf("the server's cgroup %s is still there after Close (%v)", cg, err)
	}
}

// What the caller started itself is left alone, and its exit status left
// for its own Wait: an ordinary child, and the orphan of one (both in the
// caller's session and process group).
func TestTrackLeavesCallersChildren(t *testing.T) {
	becomeSubreaper(t)
	own := exec.Command("sleep", "30")
	if err := own.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = own.Process.Kill(); _ = own.Wait() }()
	pidfile := filepath.Join(t.TempDir(), "orphan")
	if err := exec.Command("sh", "-c", `sleep 30 & echo $! > "$0"`, pidfile).Run(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(pidfile)
	orphan, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if p, ok := readProc(orphan); !ok || p.ppid != os.Getpid() {
		t.Fatalf("the orphan %d did not come to us: %+v", orphan, p)
	}
	defer func() {
		_ = syscall.Kill(orphan, syscall.SIGKILL)
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(orphan, &ws, 0, nil)
	}()

	tr, pid := trackedServer(t, daemonScript, false)
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	gone(t, pid, true)
	for _, p := range []int{own.Process.Pid, orphan} {
		if st, ok := readProc(p); !ok || st.zombie {
			t.Errorf("the caller's process %d was ended: %+v", p, st)
		}
	}
	_ = own.Process.Kill()
	if err := own.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("the caller's own Wait got %v, want its child's end (signal: killed)", err)
	}
}
