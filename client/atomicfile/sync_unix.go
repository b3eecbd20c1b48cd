//go:build unix

package atomicfile

import "os"

// syncDir makes a rename or link in dir durable: on Unix a new directory
// entry reaches the disk only when the directory itself is synced. It is
// best effort: the file is in place already, and some file systems refuse
// to sync a directory (EINVAL), which must not turn a good write into an
// error.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// syncRoot is syncDir for a folder held open.
func syncRoot(r *os.Root) {
	if d, err := r.Open("."); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
