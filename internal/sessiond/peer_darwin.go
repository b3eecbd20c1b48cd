package sessiond

import (
	"strconv"

	"golang.org/x/sys/unix"
)

// peerCred reads the peer's credentials the kernel recorded at connect.
func peerCred(fd int) (uid, pid int, err error) {
	cred, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	if err != nil {
		return -1, 0, err
	}
	pid, err = unix.GetsockoptInt(fd, unix.SOL_LOCAL, unix.LOCAL_PEERPID)
	if err != nil {
		return -1, 0, err
	}
	return int(cred.Uid), pid, nil
}

// p_stat of a stopped process and of a zombie (<sys/proc.h>).
const (
	sstop = 4
	szomb = 5
)

// procStart is when process pid started, as the kernel says it (with the
// pid, it names one process for good), and whether it is stopped; ok is
// false when no such process runs.
func procStart(pid int) (start string, stopped, ok bool) {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || kp.Proc.P_pid != int32(pid) || kp.Proc.P_stat == szomb {
		return "", false, false
	}
	t := kp.Proc.P_starttime
	return strconv.FormatInt(int64(t.Sec), 10) + "." + strconv.FormatInt(int64(t.Usec), 10), kp.Proc.P_stat == sstop, true
}
