//go:build linux

package client

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// deafScript is a server that ignores SIGTERM and never reads its input,
// so that the end of its input does not end it either; it writes its pid
// to $PIDFILE.
const deafScript = `trap "" TERM; echo $$ > "$PIDFILE"; echo ready >&2; exec sleep 60`

// running: pid is a live process (not a zombie).
func running(pid int) bool {
	p, ok := readProc(pid)
	return ok && !p.zombie
}

// A server outlives the thread that started it: the parent-death signal
// comes when the process that started it dies, not when a goroutine
// locked to a thread ends and takes the thread with it. (Two servers,
// each started so: Go keeps the main thread when its goroutine ends
// locked to it, and at most one of them can have been started there.)
func TestServerOutlivesStartingThread(t *testing.T) {
	for i := range 2 {
		pidfile := filepath.Join(t.TempDir(), "pid")
		tr := shServer(t, deafScript, StdioOptions{Env: append(os.Environ(), "PIDFILE="+pidfile)})
		started := make(chan error, 1)
		go func() {
			runtime.LockOSThread() // and never unlocked: the thread ends with this goroutine
			started <- tr.start()
		}()
		if err := <-started; err != nil {
			t.Fatal(err)
		}
		pid := tr.cmd.Process.Pid
		if !waitUntil(5*time.Second, func() bool { return len(tr.StderrTail()) > 0 }) {
			t.Fatalf("server %d (%d) never said it was ready: killed with the thread that started it?", i, pid)
		}
		time.Sleep(300 * time.Millisecond)
		if !running(pid) {
			t.Fatalf("server %d (%d) died with the thread that started it", i, pid)
		}
	}
}

// A server that ignores the end of its input and SIGTERM dies with the
// process that started it, killed with no chance to Close it (kill -9).
func TestServerDiesWithItsClient(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pid")
	helper := exec.Command(os.Args[0], "-test.run=^TestHelperHoldsDeafServer$")
	helper.Env = append(os.Environ(), "CLIENT_HELPER_PIDFILE="+pidfile)
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	var pid int
	ok := waitUntil(10*time.Second, func() bool {
		b, _ := os.ReadFile(pidfile)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		return pid > 0
	})
	if !ok {
		_ = helper.Process.Kill()
		_ = helper.Wait()
		t.Fatal("the helper's server did not start")
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	_ = helper.Process.Kill()
	_ = helper.Wait()
	if !waitUntil(2*time.Second, func() bool { return !running(pid) }) {
		t.Errorf("the server %d still runs after its client was killed", pid)
	}
}

// TestHelperHoldsDeafServer is the client TestServerDiesWithItsClient
// kills: it starts a deaf server and waits.
func TestHelperHoldsDeafServer(t *testing.T) {
	pidfile := os.Getenv("CLIENT_HELPER_PIDFILE")
	if pidfile == "" {
		t.Skip("run by TestServerDiesWithItsClient")
	}
	tr := NewStdio(StdioOptions{Command: []string{"sh", "-c", deafScript}, Env: append(os.Environ(), "PIDFILE="+pidfile)})
	if err := tr.start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(60 * time.Second)
}

// A cgroup left by a process that died with its server's descendants
// still in it (deaf to SIGTERM) is emptied and removed by the next server
// that gets a cgroup beside it, even while the dead one is a zombie.
func TestStaleCgroupWithProcessesCleaned(t *testing.T) {
	dir, fd, err := newCgroup()
	if err != nil {
		t.Skipf("no cgroup of our own here: %v", err)
	}
	syscall.Close(fd)
	_ = syscall.Rmdir(dir)
	// Its owner died and was not reaped (init in a container may never
	// reap): a zombie runs no more.
	dead := exec.Command("true")
	if err := dead.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = dead.Wait() })
	if !waitUntil(5*time.Second, func() bool { p, ok := readProc(dead.Process.Pid); return ok && p.zombie }) {
		t.Fatal("the owner did not become a zombie")
	}
	stale := filepath.Join(filepath.Dir(dir), cgroupPrefix+strconv.Itoa(dead.Process.Pid)+"-1")
	if err := syscall.Mkdir(stale, 0o755); err != nil {
		t.Fatal(err)
	}
	left := exec.Command("sh", "-c", `trap "" TERM; exec sleep 60`)
	if err := left.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = left.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = left.Process.Kill()
		<-exited
		_ = syscall.Rmdir(stale)
	})
	if err := writeCgroupFile(filepath.Join(stale, "cgroup.procs"), strconv.Itoa(left.Process.Pid)); err != nil {
		t.Skipf("cannot move a process into a cgroup here: %v", err)
	}
	tr, _ := trackedServer(t, daemonScript, true)
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		t.Errorf("the process left in the stale cgroup still runs")
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale cgroup %s is still there (%v)", stale, err)
	}
	_ = tr.Close()
}
