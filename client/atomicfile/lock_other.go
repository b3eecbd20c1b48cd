//go:build !unix

package atomicfile

import "os"

// TryLock is not implemented here (Windows would need LockFileEx):
// callers get ErrNoLocks and decide whether to go on without a lock.
func TryLock(string) (*os.File, error) { return nil, ErrNoLocks }

// TryLockIn: as TryLock.
func TryLockIn(*os.Root, string) (*os.File, error) { return nil, ErrNoLocks }
