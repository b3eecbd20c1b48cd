//go:build linux

package tests

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Issue 13, item 5. The grandchild_* fault cases take whichever way of
// tracking a server's descendants the machine allows the test's user: a
// cgroup of the server's own where cgroup v2 lets it make one (delegated,
// or root outside systemd), else /proc and the subreaper. Run as root,
// this test runs the same servers again as an unprivileged user
// (nobody, 65534), who may not make a cgroup where root may, so that both
// ways are held to the same promise: the answer printed, nothing left.
func TestGrandchildrenUnprivileged(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to run mcpctl as another user (the fault suite itself runs unprivileged here)")
	}
	bin := faultBinaries(t)
	// The built binaries sit in a folder only root may enter.
	dir, err := os.MkdirTemp("", "mcpctl-nobody")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	for _, name := range []string{"mcpctl", "fakemcp"} {
		b, err := os.ReadFile(filepath.Join(bin, name))
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, name), b, 0o755)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(home, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}

	for _, mode := range []string{"setsidkeep", "setsiddaemon", "doublefork", "ignoreterm"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			marker := "mcpctl-nobody-" + strings.TrimPrefix(filepath.Base(dir), "mcpctl-nobody") + "-" + mode
			const timeout = 10 * time.Second
			ctx, cancel := context.WithTimeout(context.Background(), timeout+shutdownGrace+30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, filepath.Join(dir, "mcpctl"), "--stdio", filepath.Join(dir, "fakemcp")+" "+mode+" "+marker,
				"--server-stderr", "discard", "--timeout", timeout.String(), "--protocol-version", "2026-07-28", "tools", "list")
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "NO_COLOR=1",
				"MCPCTL_CACHE_DIR=" + filepath.Join(home, "cache"), "MCPCTL_STATE_DIR=" + filepath.Join(home, "state"),
				"MCPCTL_FAULT_MARKER=" + marker}
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			start := time.Now()
			out, err := cmd.Output()
			elapsed := time.Since(start)
			t.Logf("%v in %s", err, elapsed.Round(time.Millisecond))
			if ctx.Err() != nil {
				killMarked(marker)
				t.Fatalf("mcpctl hung; stderr:\n%s", tail(stderr.String()))
			}
			if err != nil || !strings.Contains(string(out), `"method":"tools/list"`) {
				t.Errorf("mcpctl: %v; stdout %.300q; stderr:\n%s", err, out, tail(stderr.String()))
			}
			if elapsed > timeout+shutdownGrace {
				t.Errorf("took %s: more than --timeout %s plus %s", elapsed, timeout, shutdownGrace)
			}
			noneLeft(t, marker)
		})
	}
}
