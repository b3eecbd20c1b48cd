package tests

// Issue 14 item 6: a URL elicitation's and a login's browser is opened by
// $BROWSER when it is set, else by github.com/cli/browser's platform
// opener (on Linux the first of xdg-open, x-www-browser, www-browser and
// wslview on PATH). These run the real binary at a terminal with a PATH
// that holds only fake openers, the demo server and fakemcp.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeOpenerNamed writes an opener called name into dir that records the
// URL it is given in the file record; with stay it then waits in the
// foreground, as xdg-open does for some browsers, until the test ends.
func fakeOpenerNamed(t *testing.T, dir, name, record string, stay bool) {
	t.Helper()
	script := "#!/bin/sh\nprintf '%s\\n' \"$1\" >> '" + record + "'\n"
	if stay {
		script += "exec /bin/sleep 60\n"
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// openerPATH is a PATH of dir, the demo server and the test binaries, and
// nothing of the system's (no real xdg-open or www-browser).
func openerPATH(t *testing.T, dir string) string {
	return "PATH=" + dir + string(os.PathListSeparator) + buildDemo(t) + string(os.PathListSeparator) + linkBinaries(t)
}

// acceptURL answers yes to opening the page, then says it is done, and
// returns what the terminal showed.
func acceptURL(t *testing.T, env []string, marker string) string {
	t.Helper()
	s := startPTY(t, append(env, "MCPCTL_FAULT_MARKER="+marker), append(promptServer("urlelicit:ok", marker, false), "call", "tools/call", `{"name":"x"}`)...)
	s.expect(`Open it in your browser\? \[y/N\]: `)
	s.send("y")
	s.expect(`Press Enter when you have finished`)
	s.send("")
	if code, out := s.wait(); code != 0 || !strings.Contains(out, "the client answered accept") {
		t.Fatalf("exit %d, stdout %s; terminal:\n%s", code, out, s.screen.String())
	}
	return s.screen.String()
}

const elicitedURL = "https://good.example/connect?session=1\n"

// Without xdg-open, cli/browser's next opener is used (mcpctl's own code
// knew only xdg-open, and said it found no opener).
func TestOpenerIsPlatformsFallback(t *testing.T) {
	dir := t.TempDir()
	record := filepath.Join(t.TempDir(), "opened")
	fakeOpenerNamed(t, dir, "x-www-browser", record, false)
	screen := acceptURL(t, []string{openerPATH(t, dir), "BROWSER="}, promptMarker(t))
	if !strings.Contains(screen, "Opened in your browser") {
		t.Errorf("terminal:\n%s", screen)
	}
	if got := opened(record, 5*time.Second); got != elicitedURL {
		t.Fatalf("x-www-browser got %q", got)
	}
}

// $BROWSER still wins over the platform's opener.
func TestOpenerBROWSERWins(t *testing.T) {
	dir := t.TempDir()
	platform, chosen := filepath.Join(t.TempDir(), "platform"), filepath.Join(t.TempDir(), "chosen")
	fakeOpenerNamed(t, dir, "xdg-open", platform, false)
	mine := t.TempDir()
	fakeOpenerNamed(t, mine, "my-browser", chosen, false)
	acceptURL(t, []string{openerPATH(t, dir), "BROWSER=" + filepath.Join(mine, "my-browser") + " --new-tab %s"}, promptMarker(t))
	if got := opened(chosen, 5*time.Second); got != "--new-tab\n" {
		// The fake records its first argument: the flag, then the URL.
		t.Fatalf("$BROWSER got %q", got)
	}
	if got := opened(platform, 500*time.Millisecond); got != "" {
		t.Fatalf("the platform's opener ran too: %q", got)
	}
}

// No opener at all: the user is told so, and how to fix it, and the
// prompt goes on (the URL is on the screen to open by hand).
func TestOpenerNoneFound(t *testing.T) {
	screen := acceptURL(t, []string{openerPATH(t, t.TempDir()), "BROWSER="}, promptMarker(t))
	if !strings.Contains(screen, "could not open a browser (no browser opener found (xdg-open, x-www-browser, www-browser, wslview), and $BROWSER is not set); open the URL yourself") {
		t.Errorf("terminal:\n%s", screen)
	}
}

// An opener that stays in the foreground (xdg-open waits for some
// browsers) does not hold the prompt: cli/browser waits for its opener,
// mcpctl does not wait for the browser to be closed.
func TestOpenerInForeground(t *testing.T) {
	dir := t.TempDir()
	record := filepath.Join(t.TempDir(), "opened")
	fakeOpenerNamed(t, dir, "xdg-open", record, true)
	marker := promptMarker(t)
	t.Cleanup(func() { killMarked(marker) }) // the "browser" outlives mcpctl, as a real one does
	screen := acceptURL(t, []string{openerPATH(t, dir), "BROWSER="}, marker)
	if !strings.Contains(screen, "Opened in your browser") {
		t.Errorf("terminal:\n%s", screen)
	}
	if got := opened(record, 5*time.Second); got != elicitedURL {
		t.Fatalf("xdg-open got %q", got)
	}
}
