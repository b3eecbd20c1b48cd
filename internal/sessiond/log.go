package sessiond

import (
	"bytes"
	"os"
	"strconv"
	"sync"
)

// LogSize is the bound of a session's log.
const LogSize = 1 << 20

// Log is a session's log file, kept under a bound: when it would grow
// past it, the older half goes (whole lines). The server's stderr and the
// session's own notes are written to it; session logs prints it.
type Log struct {
	mu   sync.Mutex
	f    *os.File
	max  int64
	size int64
}

// OpenLog opens (or creates, 0600) the session's log, bounded to limit
// bytes (at least 1 KiB). A link in its place is refused, never followed
// (*UnsafeError).
func (p Paths) OpenLog(limit int64) (*Log, error) {
	f, err := p.Dir.regular(p.logName(), os.O_CREATE|os.O_RDWR|os.O_APPEND)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return &Log{f: f, max: max(limit, 1<<10), size: fi.Size()}, nil
}

// Write appends p; it is safe to call from several goroutines. Of a
// single write longer than half the bound, only its end is kept.
func (b *Log) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := len(p)
	half := b.max / 2
	if int64(len(p)) > half {
		p = p[int64(len(p))-half:]
	}
	if b.size+int64(len(p)) > b.max {
		note := []byte("[… older lines dropped: the log is kept under " + strconv.FormatInt(b.max>>10, 10) + " KiB]\n")
		keep := make([]byte, half-int64(len(note)))
		k, _ := b.f.ReadAt(keep, max(0, b.size-int64(len(keep))))
		keep = keep[:k]
		if i := bytes.IndexByte(keep, '\n'); i >= 0 && b.size > int64(len(keep)) {
			keep = keep[i+1:] // from the first whole line
		}
		if err := b.f.Truncate(0); err != nil {
			return 0, err
		}
		b.size = 0
		for _, part := range [][]byte{note, keep} {
			w, err := b.f.Write(part)
			b.size += int64(w)
			if err != nil {
				return 0, err
			}
		}
	}
	w, err := b.f.Write(p)
	b.size += int64(w)
	if err != nil {
		return w, err
	}
	return n, nil
}

// Close closes the file.
func (b *Log) Close() error { return b.f.Close() }
