//go:build !linux && !darwin

package commands

import (
	"net"
	"os"
	"syscall"
)

// Sessions are not offered here: mcpctl needs a local socket whose
// peer's user it can check, and a lock that dies with its process.
const keepaliveSupported = false

func ownerOf(os.FileInfo) int              { return -1 }
func lockSession(string) (*os.File, error) { return nil, errKeepaliveUnsupported }
func detached() *syscall.SysProcAttr       { return nil }
func restrictUmask()                       {}
func peerOf(net.Conn) (int, error)         { return -1, errKeepaliveUnsupported }
func closeOnExec(int)                      {}
