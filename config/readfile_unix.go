//go:build unix

package config

import (
	"os"
	"syscall"
)

// mapThreshold is the size from which a file is mapped rather than read.
const mapThreshold = 256 << 10

// readLarge returns a file's bytes and a function to release them. A large
// file (~/.claude.json can hold megabytes of Claude Code's history) is
// mapped: reading it into fresh memory costs a page fault per 4 kB, which
// made up most of the time a TAB took; the mapping shares the page cache.
func readLarge(path string) ([]byte, func(), error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if st.Size() < mapThreshold || st.Size() != int64(int(st.Size())) {
		data, err := os.ReadFile(path)
		return data, func() {}, err
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		data, err := os.ReadFile(path)
		return data, func() {}, err
	}
	return data, func() { _ = syscall.Munmap(data) }, nil
}
