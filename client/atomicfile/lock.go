package atomicfile

import (
	"context"
	"errors"
	"os"
	"time"
)

// ErrLocked means another process (or another open of the file in this
// one) holds the lock.
var ErrLocked = errors.New("the lock is held elsewhere")

// ErrNoLocks means this system has no lock TryLock can take.
var ErrNoLocks = errors.New("file locks are not supported on this system")

// Lock waits for the lock on path (TryLock), checking every 10ms, until it
// has it or ctx ends. Release it by closing the file.
func Lock(ctx context.Context, path string) (*os.File, error) {
	for {
		f, err := TryLock(path)
		if !errors.Is(err, ErrLocked) {
			return f, err
		}
		select {
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		case <-time.After(10 * time.Millisecond):
		}
	}
}
