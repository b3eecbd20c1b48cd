//go:build linux

package client

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"
)

const (
	prSetChildSubreaper = 36 // PR_SET_CHILD_SUBREAPER, <linux/prctl.h>
	prGetChildSubreaper = 37 // PR_GET_CHILD_SUBREAPER
)

func setSubreaper() error {
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		return os.NewSyscallError("prctl(PR_SET_CHILD_SUBREAPER)", errno)
	}
	return nil
}

// isSubreaper asks the kernel rather than remembering ReapOrphans: the
// setting may have come from elsewhere, or been undone.
func isSubreaper() bool {
	var v int32
	_, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prGetChildSubreaper, uintptr(unsafe.Pointer(&v)), 0)
	return errno == 0 && v != 0
}

// proc is one process as /proc/PID/stat describes it. A pid and a start
// time together name one process for good: a pid alone may be reused.
type proc struct {
	pid, ppid, pgid, sid int
	zombie               bool
	start                uint64 // clock ticks after boot
}

func readProc(pid int) (proc, bool) {
	var buf [statSize]byte
	return readProcBuf(pid, buf[:])
}

// statSize holds any stat line: the fields after the name are numbers, and
// the name is at most 16 bytes (64 for a kernel thread's).
const statSize = 1024

// readProcBuf reads with bare system calls: a scan of /proc does this for
// every process, and os.ReadFile makes twice as many calls.
func readProcBuf(pid int, buf []byte) (proc, bool) {
	fd, err := syscall.Open("/proc/"+strconv.Itoa(pid)+"/stat", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	for err == syscall.EINTR {
		fd, err = syscall.Open("/proc/"+strconv.Itoa(pid)+"/stat", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	}
	if err != nil {
		return proc{}, false
	}
	defer syscall.Close(fd)
	n, err := syscall.Read(fd, buf)
	for err == syscall.EINTR {
		n, err = syscall.Read(fd, buf)
	}
	if err != nil || n <= 0 {
		return proc{}, false
	}
	return parseStat(pid, buf[:n])
}

// parseStat reads "PID (COMM) STATE PPID PGRP SESSION … STARTTIME …";
// COMM may hold spaces and parentheses, so fields count from the last ')'.
func parseStat(pid int, b []byte) (proc, bool) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return proc{}, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return proc{}, false
	}
	p := proc{pid: pid, zombie: f[0] == "Z" || f[0] == "X"}
	var err [4]error
	p.ppid, err[0] = strconv.Atoi(f[1])
	p.pgid, err[1] = strconv.Atoi(f[2])
	p.sid, err[2] = strconv.Atoi(f[3])
	p.start, err[3] = strconv.ParseUint(f[19], 10, 64)
	return p, errors.Join(err[:]...) == nil
}

// scanProcs reads every process in /proc. (The cheaper
// /proc/PID/task/TID/children needs a kernel option many lack.)
func scanProcs() []proc {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	procs := make([]proc, 0, len(names))
	buf := make([]byte, statSize)
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		if p, ok := readProcBuf(pid, buf); ok {
			procs = append(procs, p)
		}
	}
	return procs
}

// procTracker tracks one server's descendants, in a cgroup of the
// server's own or in /proc (see descendants.go).
type procTracker struct {
	self   proc   // the calling process
	server proc   // the server as it started
	cgroup string // the server's own cgroup directory; "" for none

	mu   sync.Mutex
	seen map[int]uint64 // pid → start time of each process found to be the server's
}

func startTracked(build func() *exec.Cmd, cgroups bool) (*exec.Cmd, descendantTracker, error) {
	k := &procTracker{seen: map[int]uint64{}}
	var ok bool
	if k.self, ok = readProc(os.Getpid()); !ok {
		cmd := build() // no /proc: the process group will have to do
		return cmd, nil, startCmd(cmd)
	}
	cmd := build()
	if cgroups && cmd.SysProcAttr != nil {
		if dir, fd, err := newCgroup(); err == nil {
			cmd.SysProcAttr.UseCgroupFD, cmd.SysProcAttr.CgroupFD = true, fd
			err := startCmd(cmd)
			syscall.Close(fd)
			if err == nil {
				k.cgroup = dir
				k.started(cmd.Process.Pid)
				return cmd, k, nil
			}
			// The kernel would not start it there (no clone3 or
			// CLONE_INTO_CGROUP before Linux 5.7, a cgroup that takes no
			// processes): without the cgroup, then; a command that cannot
			// start at all fails again below.
			_ = syscall.Rmdir(dir)
			cmd = build()
		}
	}
	if err := startCmd(cmd); err != nil {
		return cmd, nil, err
	}
	k.started(cmd.Process.Pid)
	return cmd, k, nil
}

// started records the server: it cannot have been reaped yet (os/exec
// waits for it only later), so /proc still has it.
func (k *procTracker) started(pid int) {
	var ok bool
	if k.server, ok = readProc(pid); !ok {
		k.server = proc{pid: pid, pgid: pid}
	}
}

func (k *procTracker) signal(sig os.Signal) {
	s, ok := sig.(syscall.Signal)
	if !ok {
		return
	}
	if k.cgroup != "" && s == syscall.SIGKILL && writeCgroupFile(filepath.Join(k.cgroup, "cgroup.kill"), "1") == nil {
		return // everything in the cgroup at once, even what forks meanwhile
	}
	for _, p := range k.members() {
		_ = syscall.Kill(p.pid, s)
	}
}

func (k *procTracker) alive() bool {
	live := len(k.members()) > 0
	if k.cgroup != "" && !k.serverRunning() && syscall.Kill(-k.server.pid, 0) == nil {
		// The group outlives the server only in its zombies (the kernel
		// counts them as members) once all its live members are gone,
		// and those orphaned to us are ours to reap.
		for _, p := range k.treeMembers() {
			k.reap(p)
		}
	}
	return live
}

// serverRunning: the server has not been waited for yet.
func (k *procTracker) serverRunning() bool {
	p, ok := readProc(k.server.pid)
	return ok && p.start == k.server.start
}

func (k *procTracker) release() {
	if k.cgroup != "" {
		// Killed processes leave the cgroup as they exit (their zombies do
		// not count), and then it can go.
		deadline := time.Now().Add(time.Second)
		for syscall.Rmdir(k.cgroup) == syscall.EBUSY && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
	}
	k.mu.Lock()
	pids := make([]int, 0, len(k.seen))
	for pid := range k.seen {
		pids = append(pids, pid)
	}
	k.mu.Unlock()
	for _, pid := range pids {
		if p, ok := readProc(pid); ok && k.isSeen(p) {
			k.reap(p)
		}
	}
}

// members lists the server's tracked descendants that still run, and
// reaps those that have exited as our children.
func (k *procTracker) members() []proc {
	var found []proc
	if k.cgroup != "" {
		found = k.cgroupMembers()
	} else {
		found = k.treeMembers()
	}
	live := found[:0]
	k.mu.Lock()
	for _, p := range found {
		k.seen[p.pid] = p.start
	}
	k.mu.Unlock()
	for _, p := range found {
		if p.zombie {
			k.reap(p)
		} else {
			live = append(live, p)
		}
	}
	return live
}

// cgroupMembers: everything in the server's cgroup but the server.
func (k *procTracker) cgroupMembers() []proc {
	b, _ := os.ReadFile(filepath.Join(k.cgroup, "cgroup.procs"))
	var out []proc
	for _, f := range strings.Fields(string(b)) {
		pid, err := strconv.Atoi(f)
		if err != nil || pid == k.server.pid {
			continue
		}
		if p, ok := readProc(pid); ok {
			out = append(out, p)
		}
	}
	return out
}

// treeMembers finds the server's descendants in /proc: those below it,
// those seen before (wherever they are now), and, when we are a
// subreaper, the orphans that came to us from it, with everything below
// them. An orphan of ours is taken for the server's when it started after
// the server and is in a session of its own or in the server's process
// group: the children the caller starts itself stay in its own session
// and group, their orphans too unless they call setsid().
func (k *procTracker) treeMembers() []proc {
	subreaper := isSubreaper()
	if !k.serverRunning() && !k.anySeen() && (!subreaper || !hasChildren()) {
		// Nothing below the server, nothing seen, no orphan: spare the
		// scan (the usual end of a server that exits when told).
		return nil
	}
	procs := scanProcs()
	kids := map[int][]proc{}
	for _, p := range procs {
		kids[p.ppid] = append(kids[p.ppid], p)
	}
	var queue []proc
	for _, p := range procs {
		switch {
		case p.pid == k.server.pid:
			if p.start == k.server.start {
				queue = append(queue, kids[p.pid]...)
			}
		case k.isSeen(p):
			queue = append(queue, p)
		case subreaper && p.ppid == k.self.pid && p.start >= k.server.start &&
			(p.sid != k.self.sid || p.pgid == k.server.pid):
			queue = append(queue, p)
		}
	}
	var out []proc
	done := map[int]bool{}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if done[p.pid] || p.pid == k.server.pid {
			continue
		}
		done[p.pid] = true
		out = append(out, p)
		queue = append(queue, kids[p.pid]...)
	}
	return out
}

func (k *procTracker) anySeen() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.seen) > 0
}

// hasChildren asks the kernel whether the calling process has any child
// at all, without waiting for or reaping one (waitid P_ALL, WNOWAIT).
func hasChildren() bool {
	var info [128]byte // siginfo_t, unread
	_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, 0 /* P_ALL */, 0, uintptr(unsafe.Pointer(&info[0])),
		syscall.WEXITED|syscall.WNOHANG|syscall.WNOWAIT, 0, 0)
	return errno != syscall.ECHILD
}

func (k *procTracker) isSeen(p proc) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	start, ok := k.seen[p.pid]
	return ok && start == p.start
}

// reap collects an exited descendant that was orphaned to us. Never the
// server: os/exec waits for that one.
func (k *procTracker) reap(p proc) {
	if !p.zombie || p.ppid != k.self.pid || p.pid == k.server.pid {
		return
	}
	var ws syscall.WaitStatus
	_, _ = syscall.Wait4(p.pid, &ws, syscall.WNOHANG, nil)
}
