package output

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// writes records each Write separately.
type writes struct {
	mu  sync.Mutex
	all [][]byte
}

func (w *writes) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.all = append(w.all, append([]byte(nil), p...))
	return len(p), nil
}

func (w *writes) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(bytes.Join(w.all, nil))
}

func TestLineSanitizer(t *testing.T) {
	var out writes
	l := NewLineSanitizer(&out)
	l.idle = time.Hour // a slow machine must not show a half line early
	l.Write([]byte("one \x1b[31mred\x1b[0m\ntwo \x1b]0;title\x07"))
	if got := out.String(); got != "one red\n" {
		t.Fatalf("after one line and a half: %q", got)
	}
	l.Write([]byte("halves\r\nthree\tt"))
	l.Write([]byte("ab\n"))
	if got, want := out.String(), "one red\ntwo halves\nthree\ttab\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	for _, w := range out.all {
		if !bytes.HasSuffix(w, []byte("\n")) {
			t.Errorf("a write %q does not end a line: it could land in the middle of one of mcpctl's", w)
		}
	}
	l.Write([]byte("no newline"))
	l.Close()
	if got := out.String(); !strings.HasSuffix(got, "\nno newline\n") {
		t.Errorf("Close did not show the partial line: %q", got)
	}
	l.Close()
	l.Write([]byte("after close"))
	if got := out.String(); !strings.HasSuffix(got, "\nafter close\n") {
		t.Errorf("a write after Close waits: %q", got)
	}
}

func TestLineSanitizerCutsLongLines(t *testing.T) {
	var out writes
	l := NewLineSanitizer(&out)
	l.idle = time.Hour
	// 4095 bytes of 'x', then a character of three bytes across the cut.
	long := strings.Repeat("x", MaxPassedLine-1) + "€" + strings.Repeat("y", 100000) + "\nnext\n"
	for i := 0; i < len(long); i += 1000 {
		l.Write([]byte(long[i:min(i+1000, len(long))]))
	}
	want := strings.Repeat("x", MaxPassedLine-1) + "… (line cut at 4096 bytes)\nnext\n"
	if got := out.String(); got != want {
		t.Errorf("got %.80q… (%d bytes), want %.80q… (%d bytes)", got, len(got), want, len(want))
	}
}

// However much arrives, only the current line is held.
func TestLineSanitizerMemoryFlat(t *testing.T) {
	var out writes
	l := NewLineSanitizer(&out)
	l.idle = time.Hour
	chunk := []byte(strings.Repeat("\x1b[2Jz", 32<<10/5))
	for i := 0; i < 50<<20/len(chunk); i++ {
		l.Write(chunk)
	}
	if cap(l.line) != MaxPassedLine {
		t.Errorf("the line buffer grew to %d bytes", cap(l.line))
	}
	if got := out.String(); got != strings.Repeat("z", MaxPassedLine/5)+"… (line cut at 4096 bytes)\n" {
		t.Errorf("50 MiB without a newline gave %.100q (%d bytes)", got, len(got))
	}
	short := []byte(strings.Repeat("\x1b[2Jline\n", 32<<10/9))
	out.all = nil
	for i := 0; i < 1000; i++ {
		l.Write(short)
	}
	for _, w := range out.all {
		if len(w) > batchMax+MaxPassedLine+64 {
			t.Fatalf("one write carried %d bytes", len(w))
		}
	}
	if l.batch.Cap() > 2*(batchMax+MaxPassedLine+64) {
		t.Errorf("the batch buffer grew to %d bytes", l.batch.Cap())
	}
}

// A line that stops without its newline is shown once nothing more comes
// for a while, and half a character waits for its other half.
func TestLineSanitizerShowsAWaitingLine(t *testing.T) {
	var out writes
	l := NewLineSanitizer(&out)
	l.idle = time.Millisecond
	l.Write([]byte("Loading model… \xe2\x82"))
	deadline := time.Now().Add(10 * time.Second)
	for out.String() == "" && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if got := out.String(); got != "Loading model… \n" {
		t.Fatalf("the waiting line shows as %q", got)
	}
	l.Write([]byte("\xacdone\n"))
	if got := out.String(); got != "Loading model… \n€done\n" {
		t.Errorf("got %q", got)
	}
	l.Close()
}

func TestLinePasser(t *testing.T) {
	var out bytes.Buffer
	p := NewLinePasser(&out)
	raw := "\x1b[31mexact\x1b[0m bytes\n\xff partial"
	p.Write([]byte(raw))
	if out.String() != raw {
		t.Fatalf("passed %q, not %q", out.String(), raw)
	}
	p.Close()
	p.Close()
	if out.String() != raw+"\n" {
		t.Errorf("Close gave %q", out.String())
	}
	out.Reset()
	p = NewLinePasser(&out)
	p.Write([]byte("whole\n"))
	p.Close()
	if out.String() != "whole\n" {
		t.Errorf("Close after a whole line gave %q", out.String())
	}
}
