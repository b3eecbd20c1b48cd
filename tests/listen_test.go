package tests

import (
	"bufio"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpctl/mcpctl/tests/fakemcp"
)

// listenLines starts mcpctl listen and returns a reader of its stdout
// lines, so a test sees each line as soon as it is written.
func listenLines(t *testing.T, args ...string) (*exec.Cmd, *bufio.Reader, *syncBuffer) {
	t.Helper()
	dir := linkBinaries(t)
	cmd := exec.Command(filepath.Join(dir, "mcpctl"), args...)
	cmd.Env = append(os.Environ(), "PATH="+dir+":"+os.Getenv("PATH"), "MCPCTL_CACHE_DIR="+t.TempDir())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd, bufio.NewReader(out), &stderr
}

// readLine returns the next stdout line, failing after a while.
func readLine(t *testing.T, r *bufio.Reader, stderr *syncBuffer) string {
	t.Helper()
	type res struct {
		line string
		err  error
	}
	ch := make(chan res, 1)
	go func() {
		l, err := r.ReadString('\n')
		ch <- res{l, err}
	}()
	select {
	case got := <-ch:
		if got.err != nil && got.err != io.EOF {
			t.Fatalf("reading stdout: %v; stderr:\n%s", got.err, stderr.String())
		}
		return strings.TrimSpace(got.line)
	case <-time.After(15 * time.Second):
		t.Fatalf("no line on stdout; stderr:\n%s", stderr.String())
	}
	return ""
}

// A stdio server that dies is restarted and the subscription re-sent; a
// line says events may have been missed. Lines arrive while the stream is
// still open, one at a time.
func TestListenReconnectStdio(t *testing.T) {
	marker := "mark-listen-" + strconv.Itoa(os.Getpid())
	cmd, r, stderr := listenLines(t, "--stdio", "fakemcp listenhold "+marker, "--server-stderr", "discard", "listen", "--tools", "--count", "4")
	for i := 0; i < 2; i++ {
		if l := readLine(t, r, stderr); !strings.HasPrefix(l, `{"subscriptionId":2,"method":"notifications/`) {
			t.Fatalf("line %d = %s", i, l)
		}
	}
	var pids []string
	for _, p := range findProcs(marker) {
		if p != strconv.Itoa(cmd.Process.Pid) { // mcpctl's own arguments name it too
			pids = append(pids, p)
		}
	}
	if len(pids) != 1 {
		t.Fatalf("server processes: %v", pids)
	}
	pid, _ := strconv.Atoi(pids[0])
	_ = syscall.Kill(pid, syscall.SIGKILL)
	if l := readLine(t, r, stderr); !strings.Contains(l, `"method":"mcpctl/reconnected"`) || !strings.Contains(l, "events may have been missed") {
		t.Fatalf("after the server died: %s", l)
	}
	for i := 0; i < 2; i++ {
		if l := readLine(t, r, stderr); !strings.Contains(l, `"method":"notifications/`) {
			t.Fatalf("after reconnecting, line %d = %s", i, l)
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v; stderr:\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "the subscription broke") {
		t.Errorf("the reconnect was not reported; stderr:\n%s", stderr.String())
	}
	time.Sleep(100 * time.Millisecond)
	if left := findProcs(marker); len(left) > 0 {
		t.Errorf("server processes left: %v", left)
	}
}

// A cut HTTP connection is re-established the same way.
func TestListenReconnectHTTP(t *testing.T) {
	srv := httptest.NewServer(fakemcp.Handler("listenhold"))
	defer srv.Close()
	cmd, r, stderr := listenLines(t, "--url", srv.URL+"/mcp", "listen", "--tools", "--count", "4")
	for i := 0; i < 2; i++ {
		readLine(t, r, stderr)
	}
	srv.CloseClientConnections()
	if l := readLine(t, r, stderr); !strings.Contains(l, `"method":"mcpctl/reconnected"`) {
		t.Fatalf("after the connection was cut: %s", l)
	}
	for i := 0; i < 2; i++ {
		readLine(t, r, stderr)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v; stderr:\n%s", err, stderr.String())
	}
}

// --no-reconnect turns a broken stream into exit 3; Ctrl-C ends listening
// with exit 0 and stops the server.
func TestListenEnds(t *testing.T) {
	srv := httptest.NewServer(fakemcp.Handler("listenhold"))
	cmd, r, stderr := listenLines(t, "--url", srv.URL+"/mcp", "listen", "--tools", "--no-reconnect")
	readLine(t, r, stderr)
	srv.CloseClientConnections()
	err := cmd.Wait()
	srv.Close()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		t.Errorf("--no-reconnect: exit %v, want 3; stderr:\n%s", err, stderr.String())
	}

	marker := "mark-listen-int-" + strconv.Itoa(os.Getpid())
	cmd, r, stderr = listenLines(t, "--stdio", "fakemcp listenhold "+marker, "--trace", "listen", "--tools")
	readLine(t, r, stderr)
	_ = cmd.Process.Signal(syscall.SIGINT)
	if err := cmd.Wait(); err != nil {
		t.Errorf("Ctrl-C: exit %v, want 0; stderr:\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), `"method":"notifications/cancelled","params":{"requestId":2`) {
		t.Errorf("no notifications/cancelled for the listen request; stderr:\n%s", stderr.String())
	}
	time.Sleep(100 * time.Millisecond)
	if left := findProcs(marker); len(left) > 0 {
		t.Errorf("server processes left: %v", left)
	}
}
