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

func ownerOf(os.FileInfo) int                   { return -1 }
func lockIn(*os.Root, string) (*os.File, error) { return nil, ErrUnsupported }
func Detached() *syscall.SysProcAttr            { return nil }
func CloseOnExec(int)                           {}
func RestrictUmask()                            {}
func peerOf(net.Conn) (int, int, error)         { return -1, 0, ErrUnsupported }
func procStart(int) (string, bool, bool)        { return "", false, false }

const sigTerm, sigCont, sigKill = syscall.Signal(15), syscall.Signal(18), syscall.Signal(9)

func signalTo(int, syscall.Signal) {}
