package tests

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startDemoHTTP runs the demo server on Streamable HTTP for one test.
func startDemoHTTP(t *testing.T) string {
	t.Helper()
	url, stop, err := startListening(filepath.Join(buildDemo(t), "demo"), "--http", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return url
}

// Ctrl-C while waiting for a task stops the wait, not the task, and says
// how to pick it up; --cancel-on-interrupt cancels it instead.
func TestInterruptTask(t *testing.T) {
	url := startDemoHTTP(t)
	dir := linkBinaries(t)
	env := append(os.Environ(), "MCPCTL_CACHE_DIR="+t.TempDir(), "MCPCTL_STATE_DIR="+t.TempDir())
	taskID := regexp.MustCompile(`"taskId":"([0-9a-f-]+)"`)
	for _, tc := range []struct {
		name       string
		extra      []string
		wantMsg    string
		wantStatus string
	}{
		{"keep running", nil, `stopped waiting for task [0-9a-f-]+, which keeps running; 'mcpctl tasks wait [0-9a-f-]+' picks it up again`, "completed"},
		{"cancel", []string{"--cancel-on-interrupt"}, `stopped waiting for task [0-9a-f-]+ and asked the server to cancel it`, "cancelled"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"--url", url, "--trace", "--answers", `{"confirm":{"action":"accept","content":{"confirm":true}}}`}, tc.extra...)
			cmd := exec.Command(filepath.Join(dir, "mcpctl"), append(args, "tools", "call", "slow_task")...)
			cmd.Env = env
			// Interrupt once the answer is in (a poll follows the update), so
			// the task goes on to finish by itself.
			stderr := interruptWhen(t, cmd, "the task never asked for input", func(out string) bool {
				i := strings.Index(out, `"method":"tasks/update"`)
				return i >= 0 && strings.Contains(out[i:], `"method":"tasks/get"`)
			})
			if !regexp.MustCompile(tc.wantMsg).MatchString(stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.wantMsg, stderr)
			}
			m := taskID.FindStringSubmatch(stderr)
			if m == nil {
				t.Fatal("no task id in the trace")
			}
			// The task's fate on the server: finished on its own, or cancelled.
			var status string
			for i := 0; i < 50; i++ {
				out, _ := exec.Command(filepath.Join(dir, "mcpctl"), "--url", url, "tasks", "get", m[1], "--jq", ".status").Output()
				status = strings.TrimSpace(string(out))
				if status == tc.wantStatus {
					return
				}
				time.Sleep(100 * time.Millisecond)
			}
			t.Errorf("task status %q, want %q", status, tc.wantStatus)
		})
	}
}

// interruptWhen starts cmd, sends it SIGINT once ready says yes to its
// stderr so far (failing with never if that takes over 15s), and checks
// that it exits 130; it returns the stderr.
func interruptWhen(t *testing.T, cmd *exec.Cmd, never string, ready func(stderr string) bool) string {
	t.Helper()
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(15 * time.Second)
	for !ready(stderr.String()) {
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("%s; stderr:\n%s", never, stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	_ = cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Fatalf("exit %v, want 130; stderr:\n%s", err, stderr.String())
	}
	return stderr.String()
}
