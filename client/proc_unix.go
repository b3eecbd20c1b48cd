//go:build unix

package client

import (
	"os"
	"os/exec"
	"syscall"
)

const (
	sigTerm = syscall.SIGTERM
	sigKill = syscall.SIGKILL
)

// setProcessGroup puts the server in a group of its own: a terminal's
// Ctrl-C then reaches only mcpctl, which shuts the server down in order,
// and the whole group can be ended at once.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func killGroup(cmd *exec.Cmd, sig os.Signal) {
	s, ok := sig.(syscall.Signal)
	if cmd == nil || cmd.Process == nil || !ok {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, s)
}

func groupAlive(cmd *exec.Cmd) bool {
	if cmd == nil || cmd.Process == nil {
		return false
	}
	return syscall.Kill(-cmd.Process.Pid, 0) == nil
}
