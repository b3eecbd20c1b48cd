//go:build !unix

package atomicfile

import "os"

// syncDir does nothing where a directory cannot be opened and synced
// (Windows): there the rename itself is as durable as the system makes it.
func syncDir(string) {}

// syncRoot is syncDir for a folder held open.
func syncRoot(*os.Root) {}
