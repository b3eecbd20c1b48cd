package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

// The fault suite's machinery: the real binaries, a run of mcpctl with its
// exit status, output, wall time and peak memory, and the process table
// check. The cases are in faults_test.go.

var faultBuild builds

// faultBinaries builds mcpctl and fakemcp as a user would (go build,
// CGO_ENABLED=0, -tags urfave_cli_no_docs as make build does), and
// peakrss: the suite measures the real binary's memory and time, whatever
// instrumentation (-race) the test binary itself carries.
func faultBinaries(t *testing.T) string {
	return faultBuild.getFlags(t, []string{"CGO_ENABLED=0"}, shippedBuildFlags,
		"github.com/mcpctl/mcpctl", "github.com/mcpctl/mcpctl/tests/fakemcp/cmd/fakemcp", "github.com/mcpctl/mcpctl/tests/peakrss")
}

// startFakeHTTP runs "fakemcp --http MODE" (or --https) as a process of
// its own and returns its URL.
func startFakeHTTP(t *testing.T, bin, mode string, tls bool) string {
	t.Helper()
	flag := "--http"
	if tls {
		flag = "--https"
	}
	url, stop, err := startListening(filepath.Join(bin, "fakemcp"), flag, "127.0.0.1:0", mode)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return url
}

// fakeCounts asks an HTTP fakemcp how many requests of each method it saw.
func fakeCounts(t *testing.T, url string) map[string]int {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"fake/count"}`))
	if err != nil {
		t.Fatalf("fake/count: %v", err)
	}
	defer resp.Body.Close()
	var m struct {
		Result map[string]int `json:"result"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatalf("fake/count: %v", err)
	}
	return m.Result
}

// faultRun is what one run of mcpctl came to.
type faultRun struct {
	code    int
	stdout  []byte
	stderr  string
	elapsed time.Duration
	maxRSS  int64 // KiB: mcpctl's peak, or a server's it waited for, whichever is larger (peakrss)
}

// runFault runs mcpctl with args and env, killing it (and failing) if it
// outlives limit. marker is put in its environment, which every process
// it starts inherits, so leftovers can be found by it.
func runFault(t *testing.T, bin string, env []string, marker string, limit time.Duration, args ...string) *faultRun {
	t.Helper()
	return runFaultCapped(t, bin, env, marker, limit, 0, args...)
}

// runFaultCapped is runFault killing mcpctl once its resident set passes
// ceiling MiB (0: never), so that a run gone wrong fails at once instead
// of eating the machine (peakrss -kill-above).
func runFaultCapped(t *testing.T, bin string, env []string, marker string, limit time.Duration, ceiling int, args ...string) *faultRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	rssFile := filepath.Join(t.TempDir(), "rss")
	var watch []string
	if ceiling > 0 {
		watch = []string{"-kill-above", strconv.Itoa(ceiling << 10)}
	}
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "peakrss"), append(append(watch, rssFile, filepath.Join(bin, "mcpctl")), args...)...)
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"NO_COLOR=1", "MCPCTL_CACHE_DIR="+t.TempDir(), "MCPCTL_STATE_DIR="+t.TempDir(),
		"MCPCTL_FAULT_MARKER="+marker)
	cmd.Env = append(cmd.Env, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r := &faultRun{stdout: stdout.Bytes(), stderr: stderr.String(), elapsed: time.Since(start)}
	if ctx.Err() != nil {
		killMarked(marker)
		t.Fatalf("mcpctl %s was still running after %s (hang); stderr:\n%s", strings.Join(args, " "), limit, tail(r.stderr))
	}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running mcpctl: %v", err)
	}
	rss, err := os.ReadFile(rssFile)
	if err != nil {
		t.Fatalf("peakrss wrote no figure: %v", err)
	}
	r.maxRSS, _ = strconv.ParseInt(string(rss), 10, 64)
	return r
}

// markedProcs lists the processes (other than zombies) whose environment
// or command line holds marker as a whole entry or argument (both end in a
// NUL), so that one marker never matches another it is a prefix of.
func markedProcs(marker string) []string {
	whole := []byte(marker + "\x00")
	entries, _ := os.ReadDir("/proc")
	var pids []string
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if strings.Contains(string(stat), ") Z ") {
			continue
		}
		env, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if bytes.Contains(env, whole) || bytes.Contains(cmdline, whole) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

// noneLeft waits a moment for the kernel to reap, then fails if anything
// mcpctl started is still running (and kills it, so one failure does not
// spill into the next test).
func noneLeft(t *testing.T, marker string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		pids := markedProcs(marker)
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			killMarked(marker)
			t.Errorf("processes left running after mcpctl exited: %v", pids)
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func killMarked(marker string) {
	for _, p := range markedProcs(marker) {
		if pid, err := strconv.Atoi(p); err == nil {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// goCrash matches what a Go panic or fatal error prints.
var goCrash = regexp.MustCompile(`(?m)^(panic: |fatal error: |goroutine \d+ \[)|\.go:\d+ \+0x[0-9a-f]+`)

// errorLines are mcpctl's own error lines on stderr (warnings aside).
func errorLines(stderr string) []string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "mcpctl: ") && !strings.HasPrefix(l, "mcpctl: warning: ") {
			out = append(out, l)
		}
	}
	return out
}

// terminalActive finds the first byte sequence a terminal would act on:
// ESC, C0 controls other than newline and tab (CR too: it rewrites the
// line), DEL, C1 controls and bidi overrides, or invalid UTF-8; or a
// character it would not show, by which a name can pass for another
// (issue 13): see invisible. Free text may keep some of those (a joiner
// in an emoji, a mark in right-to-left prose); the fault servers put them
// only in names, URIs and keys.
func terminalActive(b []byte) (string, bool) {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			return fmt.Sprintf("invalid UTF-8 at byte %d", i), true
		case r == '\n' || r == '\t':
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || invisible(r):
			lo := max(0, i-20)
			return fmt.Sprintf("%U at byte %d, after %q", r, i, b[lo:i]), true
		}
		i += n
	}
	return "", false
}

// invisible: format characters (zero-width space, joiners, bidi marks,
// the BOM, the soft hyphen, tag characters…), line and paragraph
// separators, spaces other than U+0020, and letters and marks that show
// as nothing (Hangul fillers, the combining grapheme joiner, variation
// selectors, Khmer inherent vowels, Mongolian variation selectors, the
// blank braille pattern). Written here apart from output's own list, so
// that a gap there is caught.
func invisible(r rune) bool {
	switch {
	case r < 0x80:
		return false
	case unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Zs):
		return true
	}
	for _, rg := range [][2]rune{{0x034f, 0x034f}, {0x115f, 0x1160}, {0x17b4, 0x17b5}, {0x180b, 0x180f}, {0x2800, 0x2800},
		{0x3164, 0x3164}, {0xfe00, 0xfe0f}, {0xffa0, 0xffa0}, {0xe0100, 0xe01ef}} {
		if r >= rg[0] && r <= rg[1] {
			return true
		}
	}
	return false
}

func tail(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}

// The leftover check finds what it must, and only that: a process with
// the marker in its environment, not one whose marker merely starts the
// same way.
func TestMarkedProcs(t *testing.T) {
	marker := "mcpctl-marked-" + strconv.Itoa(os.Getpid())
	cmd := exec.Command("sleep", "30")
	cmd.Env = append(os.Environ(), "MCPCTL_FAULT_MARKER="+marker+"-longer")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	if pids := markedProcs(marker); len(pids) != 0 {
		t.Errorf("marker %s matched %v, which carry another marker", marker, pids)
	}
	if pids := markedProcs(marker + "-longer"); len(pids) != 1 || pids[0] != strconv.Itoa(cmd.Process.Pid) {
		t.Errorf("markedProcs = %v, want [%d]", pids, cmd.Process.Pid)
	}
}
