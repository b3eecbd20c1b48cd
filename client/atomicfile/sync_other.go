//go:build !unix

package atomicfile

// syncDir does nothing where a directory cannot be opened and synced
// (Windows): there the rename itself is as durable as the system makes it.
func syncDir(string) {}
