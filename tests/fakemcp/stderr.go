package fakemcp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The stderr modes (issue 13, item 4): a stdio server whose stderr is as
// hostile as its stdout could be, or simply enormous. mcpctl passes a
// server's stderr on to its own; at a terminal it must not be obeyed.

// StderrLast is the stderrescapes mode's last line, which has no newline.
const StderrLast = "partial tail without newline"

// serveStderrFault plays the stderr modes; ok is false for other modes.
func serveStderrFault(mode string, in io.Reader, out, errOut io.Writer) (code int, ok bool) {
	name, arg, _ := strings.Cut(mode, ":")
	switch name {
	case "stderrescapes":
		var raw string
		if err := json.Unmarshal([]byte(`"`+EscapeText+`"`), &raw); err != nil {
			panic(err)
		}
		fmt.Fprintf(errOut, "S %s\nsecond line\tafter a tab\n%s", raw, StderrLast)
		if arg == "exit" {
			sc := bufio.NewScanner(in)
			sc.Scan()
			return 1, true
		}
	case "stderrflood":
		total, line, err := floodSize(arg)
		if err != nil {
			fmt.Fprintln(errOut, "fakemcp:", err)
			return 2, true
		}
		// Written through a small buffer: the server stays small however
		// much it writes.
		w := bufio.NewWriterSize(errOut, 64<<10)
		text := "\x1b[2JF" + strings.Repeat("x", max(line-6, 0)) + "\n"
		for n := 0; n < total; n += len(text) {
			io.WriteString(w, text)
		}
		w.Flush()
	default:
		return 0, false
	}
	if c := serveLines(in, out, errOut, newServer("echo")); c >= 0 {
		return c, true
	}
	return 0, true
}

// floodSize reads "N:L" (bytes in all, bytes a line).
func floodSize(arg string) (total, line int, err error) {
	t, l, _ := strings.Cut(arg, ":")
	if total, err = strconv.Atoi(t); err == nil {
		line, err = strconv.Atoi(l)
	}
	if err != nil || total <= 0 || line < 7 {
		return 0, 0, fmt.Errorf("stderrflood:N:L wants N > 0 and L >= 7, not %q", arg)
	}
	return total, line, nil
}
