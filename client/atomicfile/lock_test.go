//go:build unix

package atomicfile

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

func TestLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "x.lock")
	a, err := TryLock(path)
	if err != nil {
		t.Fatal(err)
	}
	// A second open conflicts, even in this process.
	if _, err := TryLock(path); !errors.Is(err, ErrLocked) {
		t.Fatalf("second TryLock: %v, want ErrLocked", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := Lock(ctx, path); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Lock while held: %v, want the context's end", err)
	}
	// Lock waits, and has it once the holder lets go.
	go func() { time.Sleep(30 * time.Millisecond); a.Close() }()
	b, err := Lock(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	b.Close()
}
