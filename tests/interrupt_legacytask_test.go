package tests

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Issue 17, item 6: Ctrl-C while waiting for a 2025-11-25 server's task
// (tests/fakemcp/legacytasks.go, which never ends) stops the wait, not the
// task, as for the Tasks extension; --cancel-on-interrupt sends
// tasks/cancel instead.
func TestInterruptLegacyTask(t *testing.T) {
	bin := faultBinaries(t)
	url := startFakeHTTP(t, bin, "legacytaskworking", false)
	env := append(os.Environ(), "MCPCTL_CACHE_DIR="+t.TempDir(), "MCPCTL_STATE_DIR="+t.TempDir())
	for _, tc := range []struct {
		name    string
		extra   []string
		wantMsg string
	}{
		{"keep running", nil, `(?m)^mcpctl: interrupted: tools/call slow: stopped waiting for task task-legacytaskworking, which keeps running; 'mcpctl tasks wait task-legacytaskworking' picks it up again$`},
		{"cancel", []string{"--cancel-on-interrupt"}, `(?m)^mcpctl: interrupted: tools/call slow: stopped waiting for task task-legacytaskworking and asked the server to cancel it$`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"--url", url, "--trace"}, tc.extra...)
			cmd := exec.Command(filepath.Join(bin, "mcpctl"), append(args, "tools", "call", "slow")...)
			cmd.Env = env
			out := interruptWhen(t, cmd, "no task was polled", func(stderr string) bool {
				return strings.Contains(stderr, `"method":"tasks/get"`)
			})
			if !regexp.MustCompile(tc.wantMsg).MatchString(out) {
				t.Errorf("stderr lacks %q:\n%s", tc.wantMsg, out)
			}
			if cancelled := strings.Contains(out, `"method":"tasks/cancel"`); cancelled != (tc.extra != nil) {
				t.Errorf("tasks/cancel sent: %v, want %v; stderr:\n%s", cancelled, tc.extra != nil, out)
			}
		})
	}
}
