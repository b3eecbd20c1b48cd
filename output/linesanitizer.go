package output

import (
	"bytes"
	"fmt"
	"io"
	"sync"
	"time"
	"unicode/utf8"
)

// MaxPassedLine is the longest line a LineSanitizer passes on whole; the
// rest of a longer line is cut, with a note.
const MaxPassedLine = 4096

// partialIdle is how long a line without its newline waits for the rest
// before it is shown anyway.
const partialIdle = 200 * time.Millisecond

// batchMax bounds what one Write to the destination carries.
const batchMax = 64 << 10

// LineSanitizer passes another program's text (a stdio server's stderr)
// on to a terminal one line at a time, each line through Sanitize, so
// that the program cannot drive the terminal.
//
//   - Whole lines only: a line is written, in one Write with any others
//     complete at that moment, once its newline arrives, so it never lands
//     in the middle of a line of mcpctl's own.
//   - Bounded: a line longer than MaxPassedLine bytes is shown up to that
//     length (at a character boundary) followed by "… (line cut at 4096
//     bytes)", and the rest of it up to its newline is dropped as it
//     arrives. Nothing is ever held but the current line, so a flood of
//     any size costs no memory.
//   - Prompt: a line still without its newline after partialIdle (200ms)
//     with nothing more arriving is shown as a line of its own (what
//     follows starts a new one); so is any partial line at Close.
//
// Write never fails: a destination that does must not stop the program
// whose output this is.
type LineSanitizer struct {
	mu     sync.Mutex
	out    io.Writer
	idle   time.Duration
	line   []byte // the current line so far, at most MaxPassedLine bytes
	cut    bool   // the current line was cut: drop up to its newline
	batch  bytes.Buffer
	last   time.Time // when bytes last arrived
	timer  *time.Timer
	closed bool
}

// NewLineSanitizer returns a LineSanitizer writing to out.
func NewLineSanitizer(out io.Writer) *LineSanitizer {
	return &LineSanitizer{out: out, idle: partialIdle, line: make([]byte, 0, MaxPassedLine)}
}

func (l *LineSanitizer) Write(p []byte) (int, error) {
	n := len(p)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.last = time.Now()
	for len(p) > 0 {
		chunk, complete := p, false
		if i := bytes.IndexByte(p, '\n'); i >= 0 {
			chunk, p, complete = p[:i], p[i+1:], true
		} else {
			p = nil
		}
		if l.cut {
			l.cut = !complete
			continue
		}
		if room := MaxPassedLine - len(l.line); len(chunk) > room {
			l.line = append(l.line, chunk[:room]...)
			head, _ := splitRune(l.line)
			l.emit(head, fmt.Sprintf("… (line cut at %d bytes)", MaxPassedLine))
			l.line = l.line[:0]
			l.cut = !complete
			continue
		}
		l.line = append(l.line, chunk...)
		if complete {
			l.emit(l.line, "")
			l.line = l.line[:0]
		}
	}
	if len(l.line) > 0 && l.closed {
		l.emit(l.line, "")
		l.line = l.line[:0]
	}
	l.flush()
	if len(l.line) > 0 && !l.closed {
		if l.timer == nil {
			l.timer = time.AfterFunc(l.idle, l.idleFlush)
		} else {
			l.timer.Reset(l.idle)
		}
	}
	return n, nil
}

// idleFlush shows a partial line that has waited long enough; if bytes
// came since the timer was set, it waits for the rest of the quiet spell.
func (l *LineSanitizer) idleFlush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed || len(l.line) == 0 {
		return
	}
	if wait := l.idle - time.Since(l.last); wait > 0 {
		l.timer.Reset(wait)
		return
	}
	head, tail := splitRune(l.line)
	l.emit(head, "")
	l.line = append(l.line[:0], tail...) // half a character waits for its other half
	l.flush()
}

// Close shows a partial line; later writes are shown without waiting.
func (l *LineSanitizer) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.timer != nil {
		l.timer.Stop()
	}
	l.closed = true
	if len(l.line) > 0 {
		l.emit(l.line, "")
		l.line = l.line[:0]
	}
	l.flush()
	return nil
}

// emit adds one sanitised line to the batch.
func (l *LineSanitizer) emit(line []byte, note string) {
	sanitizeTo(&l.batch, string(line), freeText)
	l.batch.WriteString(note)
	l.batch.WriteByte('\n')
	if l.batch.Len() >= batchMax {
		l.flush()
	}
}

func (l *LineSanitizer) flush() {
	if l.batch.Len() > 0 {
		_, _ = l.out.Write(l.batch.Bytes())
		l.batch.Reset()
	}
}

// splitRune splits b before a last character that is not complete.
func splitRune(b []byte) (head, tail []byte) {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i], b[i:]
			}
			break
		}
	}
	return b, nil
}

// LinePasser passes text on exactly as it comes (to a pipe or a file,
// where the program's own bytes are wanted), remembering only whether the
// last line was finished: Close ends an unfinished one, so that whatever
// mcpctl writes next starts a line of its own.
type LinePasser struct {
	mu      sync.Mutex
	out     io.Writer
	pending bool // bytes were passed since the last newline
}

// NewLinePasser returns a LinePasser writing to out.
func NewLinePasser(out io.Writer) *LinePasser { return &LinePasser{out: out} }

func (l *LinePasser) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, err := l.out.Write(p)
	if n > 0 {
		l.pending = p[n-1] != '\n'
	}
	return n, err
}

// Close ends an unfinished last line with a newline.
func (l *LinePasser) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.pending {
		return nil
	}
	l.pending = false
	_, err := l.out.Write([]byte{'\n'})
	return err
}
