//go:build !linux

package client

import (
	"errors"
	"os/exec"
)

func setSubreaper() error { return errors.ErrUnsupported }

// startTracked: no cgroups and no subreaper here; the process group is
// all there is (docs/reliability.md).
func startTracked(build func() *exec.Cmd, _ bool) (*exec.Cmd, descendantTracker, error) {
	cmd := build()
	return cmd, nil, startCmd(cmd)
}
