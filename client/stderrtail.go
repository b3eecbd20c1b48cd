package client

import (
	"bytes"
	"io"
	"regexp"
	"strings"
	"sync"
)

// tailWriter forwards a server's stderr and remembers its last lines, so
// that a crash can be reported with what the server said before dying.
// When the server died of an uncaught error, its last lines are a stack
// trace (node's "    at Module._compile …", a goroutine dump) and say
// nothing: the line that names the error ("Error: Cannot find module
// 'x'", "panic: …", Python's last exception line) is what is shown then.
type tailWriter struct {
	mu      sync.Mutex
	forward io.Writer
	partial []byte
	lines   []string
	max     int
	crash   crashLines
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
	if strings.TrimSpace(line) == "" {
		return
	}
	if len(line) > 300 {
		line = truncate(line, 300)
	}
	t.lines = append(t.lines, line)
	if len(t.lines) > t.max {
		t.lines = t.lines[len(t.lines)-t.max:]
	}
	t.crash.see(line, t.max)
}

// Tail returns the lines to show: the error a trace is about and what
// follows it up to the trace, or else the last lines, an unterminated
// last one included.
func (t *tailWriter) Tail() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	crash := t.crash
	out := append([]string(nil), t.lines...)
	if last := string(t.partial); strings.TrimSpace(last) != "" {
		crash.rest = append([]string(nil), crash.rest...)
		crash.see(last, t.max)
		out = append(out, last)
		if len(out) > t.max {
			out = out[len(out)-t.max:]
		}
	}
	if crash.traced() {
		return append([]string{crash.head}, crash.rest...)
	}
	return out
}

// crashLines follows the stderr of a program for the line that names an
// uncaught error, kept only when a stack trace goes with it (before it,
// as in Python, or after it, as in node, Go, Java): an "Error:" that a
// server merely logs stays one line among the last.
type crashLines struct {
	head        string   // the line naming the error, "" before one
	rest        []string // the lines after it, up to the trace
	frameBefore bool     // the line before head was a frame
	frameAfter  bool     // a frame came after head
	messages    int      // lines in a row since head or the last frame
	lastFrame   bool     // the line last seen was a frame
}

// maxMessages is how many lines in a row that are not frames may follow
// the error or its trace before they, not it, are what matters: node
// adds "}" and its version; a server that logged a trace and went on
// adds more.
const maxMessages = 8

func (c *crashLines) see(line string, max int) {
	frame := isFrame(line)
	defer func() { c.lastFrame = frame }()
	switch {
	case isErrorHead(line):
		*c = crashLines{head: line, frameBefore: c.lastFrame}
		return
	case c.head == "":
		return
	case frame:
		c.frameAfter, c.messages = true, 0
		return
	}
	if c.messages++; c.messages > maxMessages {
		*c = crashLines{}
		return
	}
	if !c.frameAfter && len(c.rest) < max-1 {
		c.rest = append(c.rest, line)
	}
}

// traced reports whether the error line goes with a stack trace.
func (c *crashLines) traced() bool {
	return c.head != "" && (c.frameBefore || c.frameAfter)
}

// errorHead matches the line that names an uncaught error: node's and
// JavaScript's "Error: …", "TypeError: …", "Error [ERR_MODULE_NOT_FOUND]:
// …"; Python's last line ("ModuleNotFoundError: …", "KeyboardInterrupt");
// Go's "panic: …" and "fatal error: …"; Java's "Exception in thread …".
var errorHead = sync.OnceValue(func() *regexp.Regexp { // compiled on first use, not in every process's init
	return regexp.MustCompile(`^(?:Uncaught )?(?:[\w.]*(?:Error|Exception|Exit|Interrupt)(?: \[[A-Z0-9_]+\])?(?::|$)|panic: |fatal error: |Exception in thread )`)
})

func isErrorHead(line string) bool { return errorHead().MatchString(line) }

// isFrame reports whether a line is part of a stack trace rather than a
// message: indented (node's and Java's "    at …", Python's '  File …',
// Go's file lines), a goroutine header, or only brackets and carets.
func isFrame(line string) bool {
	if line[0] == ' ' || line[0] == '\t' {
		return true
	}
	if strings.HasPrefix(line, "goroutine ") && strings.HasSuffix(line, ":") {
		return true
	}
	return strings.Trim(line, "{}[]()^~ \t") == ""
}
