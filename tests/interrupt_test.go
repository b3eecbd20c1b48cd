package tests

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestInterrupt sends SIGINT to a real mcpctl waiting on a server that
// never answers: it must tell the server (notifications/cancelled), stop
// it, exit 130 and leave no process behind.
func TestInterrupt(t *testing.T) {
	dir := linkBinaries(t)
	marker := "mark-interrupt-" + filepath.Base(dir)
	cmd := exec.Command(filepath.Join(dir, "mcpctl"), "--trace", "--timeout", "0", "--protocol-version", "2026-07-28",
		"--stdio", filepath.Join(dir, "fakemcp")+" silent "+marker, "tools", "list")
	cmd.Env = append(os.Environ(), "PATH="+dir+":"+os.Getenv("PATH"))
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until the request is on the wire before interrupting.
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(stderr.String(), "ignoring tools/list") {
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("the request never reached the server; stderr:\n%s", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code != 130 {
		t.Errorf("exit status %d, want 130; stderr:\n%s", code, stderr.String())
	}
	for _, want := range []string{`"method":"notifications/cancelled","params":{"requestId":1`, "mcpctl: interrupted"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	time.Sleep(100 * time.Millisecond)
	if pids := findProcs(marker); len(pids) > 0 {
		t.Errorf("server processes left running: %v", pids)
	}
}

// TestInterruptHTTP: on HTTP, Ctrl-C closes the request's stream, which
// the server sees as the request's context ending.
func TestInterruptHTTP(t *testing.T) {
	dir := linkBinaries(t)
	arrived := make(chan struct{})
	cancelled := make(chan struct{})
	done := make(chan struct{})
	defer close(done)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// net/http notices a closed connection only once the body is read.
		_, _ = io.ReadAll(r.Body)
		close(arrived)
		select {
		case <-r.Context().Done():
			close(cancelled)
		case <-done:
		}
	}))
	defer srv.Close()
	cmd := exec.Command(filepath.Join(dir, "mcpctl"), "--url", srv.URL, "--timeout", "0", "tools", "list")
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-arrived:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("the request never arrived; stderr:\n%s", stderr.String())
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Errorf("exit: %v, want status 130; stderr:\n%s", err, stderr.String())
	}
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Error("the server never saw the request end")
	}
}

// linkBinaries makes the test binary reachable as "mcpctl" and "fakemcp":
// testscript.Main dispatches on the name it is run under.
func linkBinaries(t *testing.T) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, name := range []string{"mcpctl", "fakemcp"} {
		if err := os.Symlink(exe, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// syncBuffer is a bytes.Buffer safe to read while a process writes to it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
