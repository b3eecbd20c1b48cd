package commands

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mcpctl/mcpctl/output"
)

// progressView shows notifications/progress on stderr: a bar redrawn in
// place at a terminal, one JSON line per notification with --progress
// json, nothing otherwise (a pipe wants no noise).
type progressView struct {
	mode  string // "bar", "json" or "none"
	ios   *output.IOStreams
	mu    sync.Mutex
	drawn bool
	start time.Time
	first float64
}

func newProgressView(mode string, ios *output.IOStreams) (*progressView, error) {
	v := &progressView{ios: ios}
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
		return nil, usagef("invalid --progress %q: use auto, bar, json or none", mode)
	}
	return v, nil
}

func (v *progressView) update(params json.RawMessage) {
	v.mu.Lock()
	defer v.mu.Unlock()
	switch v.mode {
	case "json":
		_ = output.WriteJSONLine(v.ios.ErrOut, params)
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
		fmt.Fprint(v.ios.ErrOut, "\r\x1b[K"+v.line(p.Progress, p.Total, p.Message, now))
		v.drawn = true
	}
}

// line renders "[#####-----] 50% 5/10 message (2.0/s)", fitted to the
// terminal width.
func (v *progressView) line(done float64, total *float64, msg string, now time.Time) string {
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
	if w := v.ios.TerminalWidth(); w > 10 && len([]rune(line)) >= w {
		line = string([]rune(line)[:w-2]) + "…"
	}
	return line
}

func num(f float64) string {
	if f == float64(int64(f)) {
		return fmt.Sprintf("%d", int64(f))
	}
	return fmt.Sprintf("%.1f", f)
}

// status draws a one-line status in place of the bar (task polling).
func (v *progressView) status(line string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	fmt.Fprint(v.ios.ErrOut, "\r\x1b[K"+output.SanitizeLine(line))
	v.drawn = true
}

// aboveBar writes whole lines to stderr above the bar: the bar is cleared
// first, in the same write, so that a line never lands in its middle, and
// the next update draws it again below them.
type aboveBar struct{ v *progressView }

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

// clear removes the bar, before other output or at the end.
func (v *progressView) clear() {
	if v == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.drawn {
		fmt.Fprint(v.ios.ErrOut, "\r\x1b[K")
		v.drawn = false
	}
}
