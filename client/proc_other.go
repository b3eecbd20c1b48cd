//go:build !unix

package client

import (
	"os"
	"os/exec"
)

var (
	sigTerm = os.Kill
	sigKill = os.Kill
)

func setProcessGroup(*exec.Cmd) {}

func killGroup(cmd *exec.Cmd, _ os.Signal) {
	if cmd != nil && cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

func groupAlive(*exec.Cmd) bool { return false }
