package sessiond

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// peerCred reads the peer's credentials the kernel recorded at connect.
func peerCred(fd int) (uid, pid int, err error) {
	cred, err := syscall.GetsockoptUcred(fd, syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	if err != nil {
		return -1, 0, err
	}
	return int(cred.Uid), int(cred.Pid), nil
}

// procStart is when process pid started, as /proc/PID/stat says it (clock
// ticks after boot: with the pid, it names one process for good), and
// whether it is stopped (SIGSTOP, or by a debugger); ok is false when no
// such process runs.
func procStart(pid int) (start string, stopped, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", false, false
	}
	// "PID (COMM) STATE PPID …": COMM may hold anything, so fields count
	// from the last ')'; STARTTIME is the 22nd field.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return "", false, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 || f[0] == "Z" || f[0] == "X" {
		return "", false, false
	}
	return f[19], f[0] == "T" || f[0] == "t", true
}
