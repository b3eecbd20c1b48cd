//go:build linux

package client

// The server's own cgroup (cgroup v2), for procTracker: made below the
// caller's cgroup where that is allowed, removed at Close.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

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

// removeStaleCgroups removes the cgroups left by the servers of
// processes that died before they could clean up (kill -9, a crash). The
// server itself died with its parent (dieWithParent), but what it started
// may still run there, deaf to the end of its input and to SIGTERM: it is
// killed (cgroup.kill, or each process), and the cgroup removed once
// empty. A cgroup whose owner still runs, or that is another user's, is
// left be.
func removeStaleCgroups(parent string) {
	entries, _ := os.ReadDir(parent)
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), cgroupPrefix)
		owner, _, ok2 := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(owner)
		if !ok || !ok2 || err != nil || !e.IsDir() || pid == os.Getpid() || ownerRuns(pid) {
			continue
		}
		dir := filepath.Join(parent, e.Name())
		if syscall.Rmdir(dir) != syscall.EBUSY {
			continue
		}
		killCgroup(dir)
		deadline := time.Now().Add(time.Second)
		for syscall.Rmdir(dir) == syscall.EBUSY && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// ownerRuns: the process that made a cgroup still runs (a zombie, which
// its parent has not reaped, does not: init in a container may never).
// One of another user's still runs for all we know.
func ownerRuns(pid int) bool {
	if p, ok := readProc(pid); ok {
		return !p.zombie
	}
	return syscall.Kill(pid, 0) != syscall.ESRCH
}

// killCgroup kills everything in the cgroup dir at once (cgroup.kill,
// Linux 5.14), or each process in it where the kernel has no cgroup.kill.
func killCgroup(dir string) {
	if writeCgroupFile(filepath.Join(dir, "cgroup.kill"), "1") == nil {
		return
	}
	b, _ := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	for _, f := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(f); err == nil {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
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
