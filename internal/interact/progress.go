package interact

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/mcpctl/mcpctl/internal/exitcode"
	"github.com/mcpctl/mcpctl/output"
)

// redrawEvery is the least time between two redraws of the bar: at most
// 20 a second, whatever the server sends. A server may send progress as
// fast as it can write (hundreds of thousands of notifications); drawing
// each one filled the terminal with megabytes and slowed the call down.
const redrawEvery = 50 * time.Millisecond

// Progress shows notifications/progress on stderr: a bar redrawn in
// place at a terminal, one JSON line per notification with --progress
// json, nothing otherwise (a pipe wants no noise). The bar shows the
// latest state: an update that comes too soon after the last redraw is
// kept and drawn when the interval is up, and the final state is drawn
// when the call is done.
type Progress struct {
	mode  string // "bar", "json" or "none"
	ios   *output.IOStreams
	mu    sync.Mutex
	drawn bool
	start time.Time
	first float64

	last    time.Time   // when the bar was last drawn
	pending string      // a newer line than the one drawn, not drawn yet
	timer   *time.Timer // draws pending once the interval is up
	held    int         // prompts under way: nothing is drawn
}

// NewProgress is the view --progress mode asks for: auto (or ""), bar,
// json or none.
func NewProgress(mode string, ios *output.IOStreams) (*Progress, error) {
	v := &Progress{ios: ios}
	switch mode {
	case "", "auto":
		v.mode = "none"
		if ios.IsStderrTTY() {
			v.mode = "bar"
		}
	case "json", "none":
		v.mode = mode
	case "bar":
		v.mode = "bar"
	default:
		return nil, exitcode.Usagef("invalid --progress %q: use auto, bar, json or none", mode)
	}
	return v, nil
}

// Update shows a notifications/progress's params.
func (v *Progress) Update(params json.RawMessage) {
	v.mu.Lock()
	defer v.mu.Unlock()
	switch v.mode {
	case "json":
		_ = output.WriteJSONLine(v.ios.ErrOut, params, v.ios.StderrToTerminal())
	case "bar":
		var p struct {
			Progress float64  `json:"progress"`
			Total    *float64 `json:"total"`
			Message  string   `json:"message"`
		}
		if json.Unmarshal(params, &p) != nil {
			return
		}
		now := time.Now()
		if v.start.IsZero() {
			v.start, v.first = now, p.Progress
		}
		v.show(v.line(p.Progress, p.Total, p.Message, now), now)
	}
}

// show draws line now if the last redraw is long enough ago, else keeps
// it for the timer. v.mu is held.
func (v *Progress) show(line string, now time.Time) {
	if v.held == 0 && now.Sub(v.last) >= redrawEvery {
		v.draw(line, now)
		return
	}
	v.pending = line
	v.arm(now)
}

// arm starts the timer that draws the pending line. v.mu is held.
func (v *Progress) arm(now time.Time) {
	if v.timer != nil || v.held > 0 || v.pending == "" {
		return
	}
	v.timer = time.AfterFunc(max(v.last.Add(redrawEvery).Sub(now), 0), func() {
		v.mu.Lock()
		defer v.mu.Unlock()
		v.timer = nil
		if v.pending != "" && v.held == 0 {
			v.draw(v.pending, time.Now())
		}
	})
}

func (v *Progress) draw(line string, now time.Time) {
	fmt.Fprint(v.ios.ErrOut, "\r\x1b[K"+line)
	v.drawn, v.last, v.pending = true, now, ""
}

// line renders "[#####-----] 50% 5/10 message (2.0/s)", fitted to the
// terminal width.
func (v *Progress) line(done float64, total *float64, msg string, now time.Time) string {
	var b strings.Builder
	if total != nil && *total > 0 {
		frac := min(max(done / *total, 0), 1)
		const width = 20
		n := int(frac * width)
		b.WriteString("[" + strings.Repeat("#", n) + strings.Repeat("-", width-n) + "] ")
		fmt.Fprintf(&b, "%3.0f%% %s/%s", frac*100, num(done), num(*total))
	} else {
		fmt.Fprintf(&b, "%s", num(done))
	}
	if el := now.Sub(v.start).Seconds(); el > 0.2 && done > v.first {
		fmt.Fprintf(&b, " (%.1f/s)", (done-v.first)/el)
	}
	if msg != "" {
		b.WriteString(" " + output.SanitizeLine(msg))
	}
	line := b.String()
	// One cell short of the width: a line that fills the last column
	// leaves the cursor past it on some terminals, and the next \r would
	// not return to this line.
	if w := v.ios.TerminalWidth(); w > 10 && output.DisplayWidth(line) >= w {
		line = output.Truncate(line, w-1)
	}
	return line
}

func num(f float64) string {
	if f == float64(int64(f)) {
		return fmt.Sprintf("%d", int64(f))
	}
	return fmt.Sprintf("%.1f", f)
}

// Status draws a one-line status in place of the bar (task polling), no
// more often than the bar.
func (v *Progress) Status(line string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.show(output.SanitizeLine(line), time.Now())
}

// Above writes whole lines to stderr above the bar: the bar is cleared
// first, in the same write, so that a line never lands in its middle, and
// the next update draws it again below them.
func (v *Progress) Above() io.Writer { return aboveBar{v} }

type aboveBar struct{ v *Progress }

func (a aboveBar) Write(p []byte) (int, error) {
	v := a.v
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.drawn {
		v.drawn = false
		if _, err := v.ios.ErrOut.Write(append([]byte("\r\x1b[K"), p...)); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return v.ios.ErrOut.Write(p)
}

// Clear removes the bar, before other output. A state not drawn yet is
// still drawn when its time comes.
func (v *Progress) Clear() {
	if v == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	v.erase()
}

func (v *Progress) erase() {
	if v.drawn {
		fmt.Fprint(v.ios.ErrOut, "\r\x1b[K")
		v.drawn = false
	}
}

// Done ends the bar when the call is over: the final state is drawn (a
// terminal recording keeps it), then the line is cleared for the result.
func (v *Progress) Done() {
	if v == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.timer != nil {
		v.timer.Stop()
		v.timer = nil
	}
	if v.pending != "" && v.held == 0 {
		v.draw(v.pending, time.Now())
	}
	v.pending = ""
	v.erase()
}

// suspend clears the bar and draws nothing until resume is called: a
// prompt owns the terminal meanwhile.
func (v *Progress) suspend() (resume func()) {
	if v == nil {
		return func() {}
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	v.held++
	if v.timer != nil {
		v.timer.Stop()
		v.timer = nil
	}
	v.erase()
	var once sync.Once
	return func() {
		once.Do(func() {
			v.mu.Lock()
			defer v.mu.Unlock()
			v.held--
			v.arm(time.Now())
		})
	}
}
