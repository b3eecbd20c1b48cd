package tests

import (
	"bytes"
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
		cmd := exec.Command(filepath.Join(bin, "mcpctl"), append([]string{"--stdio", "fakemcp escapes " + marker,
			"--server-stderr", "discard", "--protocol-version", "2026-07-28"}, args...)...)
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "NO_COLOR=1",
			"MCPCTL_CACHE_DIR="+t.TempDir(), "MCPCTL_STATE_DIR="+t.TempDir(), "MCPCTL_FAULT_MARKER="+marker)
		f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 200})
		if err != nil {
			t.Fatal(err)
		}
		var screen bytes.Buffer
		copied := make(chan struct{})
		go func() { _, _ = io.Copy(&screen, f); close(copied) }()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			t.Fatalf("%v did not finish", args)
		}
		<-copied
		f.Close()
		// The terminal driver turns \n into \r\n; any other CR came from
		// the server.
		out := bytes.ReplaceAll(screen.Bytes(), []byte("\r\n"), []byte("\n"))
		if what, bad := terminalActive(out); bad {
			t.Errorf("%v: the terminal got %s:\n%q", args, what, out)
		}
		if !strings.Contains(string(out), "red title link clip clear bell back") {
			t.Errorf("%v: the server's text is missing:\n%q", args, out)
		}
		noneLeft(t, marker)
	}
}
