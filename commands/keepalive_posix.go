//go:build linux || darwin

package commands

import (
	"errors"
	"net"
	"os"
	"syscall"

	"github.com/mcpctl/mcpctl/client/atomicfile"
)

// Sessions need a local socket whose peer's user can be checked, a lock
// that dies with its process, and a way to detach the session process
// from the terminal: Linux and macOS have all three.
const keepaliveSupported = true

// ownerOf is the user id owning a file.
func ownerOf(fi os.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid)
	}
	return -1
}

// lockSession takes the lock a session process holds for its whole life;
// errSessionLocked means another process holds it. The kernel lets it go
// when the process dies, however it dies, so a lock never goes stale.
func lockSession(path string) (*os.File, error) {
	f, err := atomicfile.TryLock(path)
	if errors.Is(err, atomicfile.ErrLocked) {
		return nil, errSessionLocked
	}
	return f, err
}

// detached is how the session process is started: a session of its own,
// so that the terminal's Ctrl-C and hangup never reach it.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// closeOnExec keeps fd from the processes this one starts.
func closeOnExec(fd int) { syscall.CloseOnExec(fd) }

// restrictUmask makes files the session process creates (the socket)
// its user's only.
func restrictUmask() { syscall.Umask(0o077) }

// peerOf is the user id of the process at the other end of c.
func peerOf(c net.Conn) (int, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return -1, errors.New("not a local socket")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return -1, err
	}
	uid := -1
	var gerr error
	if err := raw.Control(func(fd uintptr) { uid, gerr = peerUID(int(fd)) }); err != nil {
		return -1, err
	}
	return uid, gerr
}
