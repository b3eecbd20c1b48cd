//go:build !linux && !darwin

package sessiond

import (
	"net"
	"os"
	"syscall"
)

// Supported: sessions are not offered here. mcpctl needs a local socket
// whose peer's user it can check, and a lock that dies with its process.
const Supported = false

func ownerOf(os.FileInfo) int        { return -1 }
func lock(string) (*os.File, error)  { return nil, ErrUnsupported }
func Detached() *syscall.SysProcAttr { return nil }
func CloseOnExec(int)                {}
func RestrictUmask()                 {}
func peerOf(net.Conn) (int, error)   { return -1, ErrUnsupported }
