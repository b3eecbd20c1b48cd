package client

import (
	"os"
	"syscall"
	"unsafe"
)

// unread is how many bytes written into the pipe f (the write end of a
// server's stdin) the server has not read yet. Linux answers for either
// end of a pipe (FIONREAD, named TIOCINQ in package syscall).
func unread(f *os.File) (int, bool) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, false
	}
	var n int32
	var errno syscall.Errno
	if err := rc.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&n)))
	}); err != nil || errno != 0 {
		return 0, false
	}
	return int(n), true
}
