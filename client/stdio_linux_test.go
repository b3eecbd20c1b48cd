//go:build linux

package client

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// becomeSubreaper makes orphans of our descendants our children until the
// test ends, so that the test can reap them at once instead of waiting for
// PID 1 (which may reap late, or never, in a container).
func becomeSubreaper(t *testing.T) {
	t.Helper()
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		t.Skipf("prctl(PR_SET_CHILD_SUBREAPER): %v", errno)
	}
	t.Cleanup(func() { _, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 0, 0) })
}

// reapGroup reaps every exited member of process group pgid that is our
// child and returns how each ended. Call it only once the group leader has
// been waited for by os/exec.
func reapGroup(pgid int) []syscall.WaitStatus {
	var out []syscall.WaitStatus
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-pgid, &ws, syscall.WNOHANG, nil)
		if err != nil || pid <= 0 {
			return out
		}
		out = append(out, ws)
	}
}

// A server that ignores both its stdin closing and SIGTERM, and whose child
// does too, is killed with SIGKILL after CloseGrace+TermGrace, and nothing
// of its process group survives.
func TestStdioCloseKillsStubbornGroup(t *testing.T) {
	becomeSubreaper(t)
	const closeGrace, termGrace = 100 * time.Millisecond, 100 * time.Millisecond
	tr := shServer(t, `trap "" TERM; echo ready >&2; sleep 30; echo unreachable`,
		StdioOptions{CloseGrace: closeGrace, TermGrace: termGrace})
	if err := tr.start(); err != nil {
		t.Fatal(err)
	}
	if !waitUntil(2*time.Second, func() bool { return len(tr.StderrTail()) > 0 }) {
		t.Fatal("server did not start")
	}
	pgid := tr.cmd.Process.Pid
	if syscall.Kill(-pgid, 0) != nil {
		t.Fatal("the server is not the leader of its own process group")
	}

	// Once the leader has been waited for, reap any orphaned descendant
	// (sleep, unless sh reaped it itself before dying) until the group is gone.
	var orphans []syscall.WaitStatus
	reaped := make(chan struct{})
	killedAfter := make(chan time.Duration, 1)
	start := time.Now()
	go func() {
		defer close(reaped)
		<-tr.exited
		killedAfter <- time.Since(start)
		deadline := time.Now().Add(time.Second)
		for time.Now().Before(deadline) {
			orphans = append(orphans, reapGroup(pgid)...)
			if syscall.Kill(-pgid, 0) == syscall.ESRCH {
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()

	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	closeTook := time.Since(start)
	<-reaped

	if d := <-killedAfter; d < closeGrace+termGrace-10*time.Millisecond || d > closeGrace+termGrace+500*time.Millisecond {
		t.Errorf("the server ended %v after Close began; want about CloseGrace+TermGrace = %v", d, closeGrace+termGrace)
	}
	if closeTook > closeGrace+2*termGrace+time.Second {
		t.Errorf("Close took %v", closeTook)
	}
	if sig := exitSignal(tr.waitErr); sig != syscall.SIGKILL {
		t.Errorf("the server ended with %v (%v), want SIGKILL", sig, tr.waitErr)
	}
	for _, ws := range orphans {
		if !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
			t.Errorf("the server's child ended with %v; want it killed by SIGKILL", ws)
		}
	}
	if err := syscall.Kill(-pgid, 0); err != syscall.ESRCH {
		t.Errorf("kill(-%d, 0) = %v after Close; want ESRCH (the whole group gone); members: %s", pgid, err, groupMembers(pgid))
	}
	for _, l := range tr.StderrTail() {
		if strings.Contains(l, "unreachable") {
			t.Error("the server ran on after Close")
		}
	}
}

// groupMembers describes the processes of group pgid, from /proc.
func groupMembers(pgid int) string {
	var out []string
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(s[i+1:]) // state ppid pgrp ...
		if len(fields) < 3 || fields[2] != strconv.Itoa(pgid) {
			continue
		}
		out = append(out, s[:i+1]+" state="+fields[0]+" ppid="+fields[1])
	}
	return "[" + strings.Join(out, "; ") + "]"
}

// Unread tells a server that has not read what it was sent (still
// starting) from one that has: what the era probe waits on.
func TestStdioUnread(t *testing.T) {
	note := &Request{Method: "notifications/hello"}
	asleep := shServer(t, `exec sleep 30`, StdioOptions{TermGrace: -1})
	if _, err := asleep.RoundTrip(context.Background(), note, nil); err != nil {
		t.Fatal(err)
	}
	if n, ok := asleep.Capabilities().Unread(); !ok || n == 0 {
		t.Errorf("a server that reads nothing: Unread = %d, %v", n, ok)
	}
	reader := shServer(t, `exec cat >/dev/null`, StdioOptions{})
	if _, err := reader.RoundTrip(context.Background(), note, nil); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		n, ok := reader.Capabilities().Unread()
		if !ok {
			t.Fatal("Unread cannot tell")
		}
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a server that reads its input: %d bytes unread after 10s", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
