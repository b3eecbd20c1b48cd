package tests

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// The escapes fault at a real terminal rather than MCPCTL_FORCE_TTY:
// stdin, stdout and stderr on a pseudo-terminal, as a person runs mcpctl.
// Nothing the server wrote may act on the terminal; the text stays.
func TestFaultEscapesAtRealTerminal(t *testing.T) {
	bin := faultBinaries(t)
	marker := "mcpctl-fault-pty-" + filepath.Base(t.TempDir())
	for _, args := range [][]string{
		{"tools", "list"},
		{"resources", "read", "fake://evil"},
		{"tools", "call", escapedToolName()},
		{"call", "tools/call", `{"name":"fail"}`},
	} {
		out := runAtTerminal(t, bin, marker, append([]string{"--stdio", "fakemcp escapes " + marker,
			"--server-stderr", "discard", "--protocol-version", "2026-07-28"}, args...)...)
		if what, bad := terminalActive(out); bad {
			t.Errorf("%v: the terminal got %s:\n%q", args, what, out)
		}
		if !strings.Contains(string(out), "red title link clip clear bell back") {
			t.Errorf("%v: the server's text is missing:\n%q", args, out)
		}
		noneLeft(t, marker)
	}
}

// runAtTerminal runs mcpctl with stdin, stdout and stderr on a
// pseudo-terminal and returns what the terminal was sent, with the
// terminal driver's \r\n turned back into \n (any other CR came from a
// server).
func runAtTerminal(t *testing.T, bin, marker string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(filepath.Join(bin, "mcpctl"), args...)
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "NO_COLOR=1",
		"MCPCTL_CACHE_DIR="+t.TempDir(), "MCPCTL_STATE_DIR="+t.TempDir(), "MCPCTL_FAULT_MARKER="+marker)
	_, screen := runCmdAtTerminal(t, cmd, 200)
	return screen
}

// runCmdAtTerminal starts cmd with stdin, stdout and stderr on a
// pseudo-terminal of cols columns, waits for it, and returns its exit code
// and what the terminal was sent, \r\n turned back into \n.
func runCmdAtTerminal(t *testing.T, cmd *exec.Cmd, cols uint16) (int, []byte) {
	t.Helper()
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: cols})
	if err != nil {
		t.Fatal(err)
	}
	var screen bytes.Buffer
	copied := make(chan struct{})
	go func() { _, _ = io.Copy(&screen, f); close(copied) }()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("%v did not finish", cmd.Args)
	}
	<-copied
	f.Close()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, bytes.ReplaceAll(screen.Bytes(), []byte("\r\n"), []byte("\n"))
}
