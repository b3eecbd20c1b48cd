//go:build linux

package client

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
		return cmd, nil, cmd.Start()
	}
	cmd := build()
	if cgroups && cmd.SysProcAttr != nil {
		if dir, fd, err := newCgroup(); err == nil {
			cmd.SysProcAttr.UseCgroupFD, cmd.SysProcAttr.CgroupFD = true, fd
			err := cmd.Start()
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
	if err := cmd.Start(); err != nil {
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

var cgroupSeq atomic.Int64

// cgroupPrefix names the cgroups made for servers: cgroupPrefix PID-N.
const cgroupPrefix = "mcp-server-"

// newCgroup makes an empty cgroup for one server below the caller's own,
// and opens it for CLONE_INTO_CGROUP.
func newCgroup() (dir string, fd int, err error) {
	parent, err := ownCgroupDir()
	if err != nil {
		return "", -1, err
	}
	if !delegated(parent) {
		return "", -1, errors.New("the cgroup is systemd's and not delegated")
	}
	removeStaleCgroups(parent)
	dir = filepath.Join(parent, fmt.Sprintf("%s%d-%d", cgroupPrefix, os.Getpid(), cgroupSeq.Add(1)))
	if err := syscall.Mkdir(dir, 0o755); err != nil {
		return "", -1, err
	}
	fd, err = syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		_ = syscall.Rmdir(dir)
		return "", -1, err
	}
	return dir, fd, nil
}

// ownCgroupDir is the directory of the caller's cgroup v2.
func ownCgroupDir() (string, error) {
	cg, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", err
	}
	mi, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return "", err
	}
	path, ok := cgroup2Path(cg)
	if !ok {
		return "", errors.New("not in a cgroup v2")
	}
	mountpoint, root, ok := cgroup2Mount(mi)
	if !ok {
		return "", errors.New("no cgroup2 file system mounted")
	}
	dir, ok := cgroupDir(path, mountpoint, root)
	if !ok {
		return "", errors.New("the cgroup is outside the mounted cgroup2 tree")
	}
	return dir, nil
}

// cgroup2Path is the cgroup v2 path in /proc/self/cgroup ("0::/PATH").
func cgroup2Path(b []byte) (string, bool) {
	for _, l := range strings.Split(string(b), "\n") {
		if p, ok := strings.CutPrefix(l, "0::"); ok && strings.HasPrefix(p, "/") {
			return p, true
		}
	}
	return "", false
}

// cgroup2Mount finds the first cgroup2 mount in /proc/self/mountinfo:
// where it is mounted and which cgroup is its root.
func cgroup2Mount(b []byte) (mountpoint, root string, ok bool) {
	for _, l := range strings.Split(string(b), "\n") {
		pre, post, found := strings.Cut(l, " - ")
		f, fs := strings.Fields(pre), strings.Fields(post)
		if !found || len(f) < 5 || len(fs) < 1 || fs[0] != "cgroup2" {
			continue
		}
		return unescapeMount(f[4]), unescapeMount(f[3]), true
	}
	return "", "", false
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// cgroupDir places cgroup path in the tree mounted at mountpoint, whose
// root is the cgroup root (not "/" in a cgroup namespace seen from
// outside it, or a bind mount of part of the tree).
func cgroupDir(path, mountpoint, root string) (string, bool) {
	rel := path
	if root != "/" {
		var ok bool
		if rel, ok = strings.CutPrefix(path, root); !ok || (rel != "" && !strings.HasPrefix(rel, "/")) {
			return "", false
		}
	}
	return filepath.Join(mountpoint, rel), true
}

// delegated: under systemd a cgroup is ours to divide only if it was
// delegated (systemd marks those with a delegate xattr); elsewhere being
// allowed to write to it is enough.
func delegated(dir string) bool {
	if _, err := os.Stat("/run/systemd/system"); err != nil {
		return true
	}
	for _, attr := range []string{"user.delegate", "trusted.delegate"} {
		v := make([]byte, 8)
		if n, err := syscall.Getxattr(dir, attr, v); err == nil && string(v[:n]) == "1" {
			return true
		}
	}
	return false
}

// removeStaleCgroups removes the empty cgroups left by servers of
// processes that were killed before they could clean up. A cgroup that
// still holds a process is not removed (rmdir refuses).
func removeStaleCgroups(parent string) {
	entries, _ := os.ReadDir(parent)
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), cgroupPrefix)
		owner, _, ok2 := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(owner)
		if !ok || !ok2 || err != nil || !e.IsDir() || pid == os.Getpid() || syscall.Kill(pid, 0) != syscall.ESRCH {
			continue
		}
		_ = syscall.Rmdir(filepath.Join(parent, e.Name()))
	}
}

// writeCgroupFile writes to an existing cgroup interface file.
func writeCgroupFile(path, s string) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(s)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
