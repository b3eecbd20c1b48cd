package output

import "testing"

func TestTestStreams(t *testing.T) {
	ios, in, out, errOut := Test()
	if ios.In != in || ios.Out != out || ios.ErrOut != errOut {
		t.Error("streams are not the returned buffers")
	}
	if ios.IsStdinTTY() || ios.IsStdoutTTY() || ios.IsStderrTTY() || ios.ColorEnabled() {
		t.Error("Test streams must start as non-terminals without colour")
	}
	if w := ios.TerminalWidth(); w != 80 {
		t.Errorf("default width %d, want 80", w)
	}
	ios.SetTerminalWidth(120)
	if w := ios.TerminalWidth(); w != 120 {
		t.Errorf("width %d after SetTerminalWidth(120)", w)
	}
}

func TestColorEnabled(t *testing.T) {
	tests := []struct {
		tty, allowed, want bool
	}{
		{false, false, false},
		{false, true, false}, // never colour on a pipe
		{true, false, false},
		{true, true, true},
	}
	for _, tc := range tests {
		ios, _, _, _ := Test()
		ios.SetStdoutTTY(tc.tty)
		ios.SetColorEnabled(tc.allowed)
		if got := ios.ColorEnabled(); got != tc.want {
			t.Errorf("tty=%v allowed=%v: ColorEnabled() = %v", tc.tty, tc.allowed, got)
		}
	}
}

func TestSystemEnvironment(t *testing.T) {
	t.Setenv("MCPCTL_FORCE_TTY", "1")
	t.Setenv("NO_COLOR", "1")
	t.Setenv("COLUMNS", "132")
	ios := System()
	if !ios.IsStdoutTTY() || !ios.IsStdinTTY() {
		t.Error("MCPCTL_FORCE_TTY=1 should make stdin and stdout terminals")
	}
	if ios.ColorEnabled() {
		t.Error("NO_COLOR should disable colour")
	}
	if ios.termSize == nil {
		if w := ios.TerminalWidth(); w != 132 {
			t.Errorf("width %d, want $COLUMNS 132", w)
		}
	}

	t.Setenv("MCPCTL_FORCE_TTY", "")
	t.Setenv("NO_COLOR", "")
	t.Setenv("TERM", "dumb")
	ios = System()
	ios.SetStdoutTTY(true)
	if ios.ColorEnabled() {
		t.Error("TERM=dumb should disable colour")
	}
}

func TestForced(t *testing.T) {
	for v, want := range map[string]bool{"": false, "0": false, "false": false, "1": true, "true": true, "yes": true} {
		if got := forced(v); got != want {
			t.Errorf("forced(%q) = %v, want %v", v, got, want)
		}
	}
}
