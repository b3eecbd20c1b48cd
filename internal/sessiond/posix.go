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

// lock takes the lock a session process holds for its whole life;
// ErrLocked means another process holds it. The kernel lets it go when
// the process dies, however it dies, so a lock never goes stale.
func lock(path string) (*os.File, error) {
	f, err := atomicfile.TryLock(path)
	if errors.Is(err, atomicfile.ErrLocked) {
		return nil, ErrLocked
	}
	return f, err
}

// Detached is how the session process is started: a session of its own,
// so that the terminal's Ctrl-C and hangup never reach it.
func Detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// CloseOnExec keeps fd from the processes this one starts (the session
// process's ready pipe, which the starter waits on, from its server).
func CloseOnExec(fd int) { syscall.CloseOnExec(fd) }

// RestrictUmask makes the files this process creates (the session's
// socket among them) its user's only.
func RestrictUmask() { syscall.Umask(0o077) }

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
