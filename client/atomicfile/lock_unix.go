//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

// TryLock takes an exclusive lock on the file at path, created (0600, in a
// 0700 directory) if need be, or returns ErrLocked at once. The lock is
// flock(2)'s: it belongs to the open file, so two opens conflict even in
// one process, and the kernel lets it go when the file is closed or its
// process dies, however it dies, so a lock never goes stale. Close the
// file to release it.
func TryLock(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	return lockNow(os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600))
}

// TryLockIn is TryLock of the file name in root, an open folder, relative
// to it: a link planted there is never followed out of it.
func TryLockIn(root *os.Root, name string) (*os.File, error) {
	return lockNow(root.OpenFile(name, os.O_CREATE|os.O_RDWR, 0o600))
}

// lockNow takes the lock on the file just opened, or closes it.
func lockNow(f *os.File, err error) (*os.File, error) {
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrLocked
		}
		return nil, err
	}
	return f, nil
}
