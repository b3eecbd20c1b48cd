package tests

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 13, item 12: the progress bar is redrawn at most ~20 times a
// second, however fast the server sends progress, and its final state is
// still drawn. 200,000 notifications used to write some 11 MB to the
// terminal. The bar is forced on (--progress bar) with stderr on a pipe,
// so that every byte meant for the terminal is counted.
func TestFaultProgressBarFlood(t *testing.T) {
	bin := faultBinaries(t)
	const n = 200000
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			t.Parallel()
			marker := fmt.Sprintf("mcpctl-fault-%d-%s-progressbar", os.Getpid(), transport)
			mode := fmt.Sprintf("flood:%d", n)
			var args []string
			if transport == "stdio" {
				args = []string{"--stdio", "fakemcp " + mode + " " + marker, "--server-stderr", "discard"}
			} else {
				args = []string{"--url", startFakeHTTP(t, bin, mode, false)}
			}
			args = append(args, "--timeout", "60s", "--protocol-version", "2026-07-28", "--progress", "bar")
			r := runFault(t, bin, []string{"MCPCTL_FORCE_TTY=1"}, marker, 90*time.Second, append(args, callX...)...)
			t.Logf("exit %d in %s, %d bytes on stderr, peak RSS %d MiB", r.code, r.elapsed.Round(time.Millisecond), len(r.stderr), r.maxRSS/1024)
			if r.code != 0 || !strings.Contains(string(r.stdout), "ok") {
				t.Fatalf("exit %d, stdout %.200q; stderr:\n%s", r.code, r.stdout, tail(r.stderr))
			}
			if len(r.stderr) > 100<<10 {
				t.Errorf("the bar wrote %d bytes for %d notifications: it is redrawn for each", len(r.stderr), n)
			}
			// The last notification says n-1: the final state is drawn, then
			// the line is cleared for the result.
			final := fmt.Sprintf("\r\x1b[K%d", n-1)
			if !strings.Contains(r.stderr, final) || !strings.HasSuffix(r.stderr, "\r\x1b[K") {
				t.Errorf("the final state %q was not drawn, or the bar not cleared; stderr ends %q", final, r.stderr[max(0, len(r.stderr)-200):])
			}
			if draws := strings.Count(r.stderr, "\r\x1b[K"); draws < 2 {
				t.Errorf("%d redraws: the bar was hardly drawn", draws)
			}
			noneLeft(t, marker)
		})
	}
}

// The same at a real terminal, where --progress auto draws the bar: what
// reaches the terminal stays small, and the final state is on it. 40,000
// notifications keep the run well inside the session's 20 s on a loaded
// 2-core machine running the race-built binary (which reads ~9,000 a
// second there); drawn one by one they would still write ~500 KB, five
// times the bound below.
func TestPTYProgressBarFlood(t *testing.T) {
	dir := linkBinaries(t)
	marker := "mcpctl-pty-progress-" + filepath.Base(dir)
	s := startPTY(t, []string{"MCPCTL_FAULT_MARKER=" + marker}, "--stdio", "fakemcp flood:40000", "--server-stderr", "discard",
		"--protocol-version", "2026-07-28", "call", "tools/call", `{"name":"x"}`)
	code, out := s.wait()
	if code != 0 || !strings.Contains(out, `"text":"ok"`) {
		t.Fatalf("exit %d, stdout %.200q; terminal:\n%.2000s", code, out, s.screen.String())
	}
	s.expect(`39999`)
	if n := len(s.screen.String()); n > 100<<10 {
		t.Errorf("%d bytes reached the terminal for 40000 notifications", n)
	}
	noneLeft(t, marker)
}
