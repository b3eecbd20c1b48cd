//go:build linux || darwin

package sessiond

import (
	"errors"
	"net"
	"os"
	"syscall"

	"github.com/mcpctl/mcpctl/client/atomicfile"
)

// Supported: sessions need a local socket whose peer's user can be
// checked, a lock that dies with its process, and a way to detach the
// session process from the terminal. Linux and macOS have all three.
const Supported = true

// ownerOf is the user id owning a file.
func ownerOf(fi os.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid)
	}
	return -1
}

// lockIn takes the lock on name in root (Paths.lock).
func lockIn(root *os.Root, name string) (*os.File, error) {
	f, err := atomicfile.TryLockIn(root, name)
	if errors.Is(err, atomicfile.ErrLocked) {
		return nil, ErrLocked
	}
	return f, err
}

// The signals a session process is stopped with when it does not answer.
const (
	sigTerm = syscall.SIGTERM
	sigCont = syscall.SIGCONT
	sigKill = syscall.SIGKILL
)

func signalTo(pid int, sig syscall.Signal) { _ = syscall.Kill(pid, sig) }

// Detached is how the session process is started: a session of its own,
// so that the terminal's Ctrl-C and hangup never reach it.
func Detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// CloseOnExec keeps fd from the processes this one starts (the session
// process's ready pipe, which the starter waits on, from its server).
func CloseOnExec(fd int) { syscall.CloseOnExec(fd) }

// RestrictUmask makes the files this process creates (the session's
// socket among them) its user's only.
func RestrictUmask() { syscall.Umask(0o077) }

// peerOf is the user id and the process id of the process at the other
// end of c (for a connection not yet accepted, the listener's).
func peerOf(c net.Conn) (uid, pid int, err error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return -1, 0, errors.New("not a local socket")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return -1, 0, err
	}
	uid = -1
	var gerr error
	if err := raw.Control(func(fd uintptr) { uid, pid, gerr = peerCred(int(fd)) }); err != nil {
		return -1, 0, err
	}
	return uid, pid, gerr
}
