package client

import (
	"bytes"
	"io"
	"sync"
)

// tailWriter forwards a server's stderr and remembers its last lines, so
// that a crash can be reported with what the server said before dying.
type tailWriter struct {
	mu      sync.Mutex
	forward io.Writer
	partial []byte
	lines   []string
	max     int
}

func newTailWriter(forward io.Writer, max int) *tailWriter {
	return &tailWriter{forward: forward, max: max}
}

func (t *tailWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.forward != nil {
		// A failing destination must not kill the server's stderr pipe.
		_, _ = t.forward.Write(p)
	}
	t.partial = append(t.partial, p...)
	for {
		i := bytes.IndexByte(t.partial, '\n')
		if i < 0 {
			break
		}
		t.push(string(bytes.TrimRight(t.partial[:i], "\r")))
		t.partial = t.partial[i+1:]
	}
	if len(t.partial) > 4096 {
		t.push(string(t.partial[:4096]))
		t.partial = t.partial[:0]
	}
	return len(p), nil
}

func (t *tailWriter) push(line string) {
	if line == "" {
		return
	}
	if len(line) > 300 {
		line = line[:300] + "…"
	}
	t.lines = append(t.lines, line)
	if len(t.lines) > t.max {
		t.lines = t.lines[len(t.lines)-t.max:]
	}
}

// Tail returns the remembered lines, including an unterminated last one.
func (t *tailWriter) Tail() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := append([]string(nil), t.lines...)
	if len(bytes.TrimSpace(t.partial)) > 0 {
		out = append(out, string(t.partial))
		if len(out) > t.max {
			out = out[len(out)-t.max:]
		}
	}
	return out
}
