package output

import (
	"bytes"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/mattn/go-isatty"
	"golang.org/x/term"
)

// IOStreams carries the three standard streams and what is known about them.
// Commands receive one instead of touching os.Stdout, so every renderer can be
// tested in both terminal and pipe mode with Test and the Set* methods.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	stdinTTY  bool
	stdoutTTY bool
	stderrTTY bool
	forced    bool // MCPCTL_FORCE_TTY

	// colorAllowed holds the environment's verdict (NO_COLOR, TERM=dumb);
	// ColorEnabled still requires a terminal on stdout.
	colorAllowed bool

	// termSize asks the real terminal for its width; nil when stdout is not a
	// terminal or in tests.
	termSize func() (int, error)
	columns  string // $COLUMNS as read by System
	width    int    // explicit override from SetTerminalWidth

	quiet bool // --quiet: mcpctl's notes are left out
}

// System returns IOStreams bound to the process's real standard streams.
//
// MCPCTL_FORCE_TTY set to anything but "", "0", "false", "no" or "off"
// makes stdin and stdout count as terminals, so scripted tests can exercise
// terminal output (set NO_COLOR as well to keep escape codes out of golden
// files), and makes what is passed on to stderr be made safe as for a
// terminal (StderrToTerminal).
func System() *IOStreams {
	s := &IOStreams{
		In:        os.Stdin,
		Out:       os.Stdout,
		ErrOut:    os.Stderr,
		stdinTTY:  isTerminal(os.Stdin),
		stdoutTTY: isTerminal(os.Stdout),
		stderrTTY: isTerminal(os.Stderr),
		columns:   os.Getenv("COLUMNS"),
	}
	s.colorAllowed = os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
	if s.stdoutTTY {
		fd := int(os.Stdout.Fd())
		s.termSize = func() (int, error) {
			w, _, err := term.GetSize(fd)
			return w, err
		}
	}
	if forced(os.Getenv("MCPCTL_FORCE_TTY")) {
		s.stdinTTY, s.stdoutTTY, s.forced = true, true, true
	}
	return s
}

// Test returns IOStreams backed by buffers, with every TTY flag and colour
// off and an 80-column width, independent of the test process's environment.
func Test() (ios *IOStreams, in *bytes.Buffer, out *bytes.Buffer, errOut *bytes.Buffer) {
	in, out, errOut = &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: in, Out: out, ErrOut: errOut}, in, out, errOut
}

func isTerminal(f *os.File) bool {
	fd := f.Fd()
	return isatty.IsTerminal(fd) || isatty.IsCygwinTerminal(fd)
}

func forced(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "0", "false", "no", "off":
		return false
	}
	return true
}

// IsStdoutTTY and the other TTY accessors report what System detected; the
// setters let tests (and flags such as a future --tty) override it.
func (s *IOStreams) IsStdoutTTY() bool     { return s.stdoutTTY }
func (s *IOStreams) SetStdoutTTY(tty bool) { s.stdoutTTY = tty }
func (s *IOStreams) IsStdinTTY() bool      { return s.stdinTTY }
func (s *IOStreams) SetStdinTTY(tty bool)  { s.stdinTTY = tty }
func (s *IOStreams) IsStderrTTY() bool     { return s.stderrTTY }
func (s *IOStreams) SetStderrTTY(tty bool) { s.stderrTTY = tty }

// StderrToTerminal reports whether text mcpctl passes on to stderr from
// elsewhere (a stdio server's stderr) must be made safe for a terminal:
// stderr is one, or MCPCTL_FORCE_TTY asks for terminal output. Unlike
// IsStderrTTY it makes nothing interactive: MCPCTL_FORCE_TTY does not turn
// on prompts, progress bars or a browser.
func (s *IOStreams) StderrToTerminal() bool { return s.stderrTTY || s.forced }

// ColorEnabled reports whether stdout may carry ANSI colour: only on a
// terminal, and only when NO_COLOR is unset and TERM is not "dumb".
func (s *IOStreams) ColorEnabled() bool { return s.stdoutTTY && s.colorAllowed }

// SetColorEnabled overrides the environment's verdict on colour; it cannot
// turn colour on for a non-terminal stdout.
func (s *IOStreams) SetColorEnabled(on bool) { s.colorAllowed = on }

// TerminalWidth is the width tables are fitted to: the real terminal's, else
// $COLUMNS, else 80.
func (s *IOStreams) TerminalWidth() int {
	if s.width > 0 {
		return s.width
	}
	if s.termSize != nil {
		if w, err := s.termSize(); err == nil && w > 0 {
			return w
		}
	}
	if n, err := strconv.Atoi(strings.TrimSpace(s.columns)); err == nil && n > 0 {
		return n
	}
	return 80
}

// SetTerminalWidth fixes the width for tests; 0 restores detection.
func (s *IOStreams) SetTerminalWidth(w int) { s.width = w }

// Quiet reports whether mcpctl's notes on stderr (what a command did:
// a file written, a session started) are left out, as --quiet asks;
// errors and warnings never are. SetQuiet sets it.
func (s *IOStreams) Quiet() bool     { return s.quiet }
func (s *IOStreams) SetQuiet(q bool) { s.quiet = q }
