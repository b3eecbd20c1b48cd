//go:build !linux

package client

import "os/exec"

// dieWithParent: no parent-death signal here (Linux only); a server
// whose client was killed sees its input end, and the process group or
// cgroup is all Close has (docs/reliability.md).
func dieWithParent(*exec.Cmd) {}

func startCmd(cmd *exec.Cmd) error { return cmd.Start() }
