//go:build unix

// Command peakrss runs a command and writes its peak resident set size
// (KiB, from the rusage wait4 returns) to the file named by its first
// argument, then exits with the command's status (128+N after signal N).
//
// The fault suite starts mcpctl through it because a child started
// straight from the test process would be charged that process's memory:
// Go starts children with vfork, and Linux records the parent's
// high-water mark as the child's at exec. This launcher is small, so what
// it adds to the figure is a few MiB at most.
//
// With -kill-above KIB it also kills the command (SIGKILL) once its
// resident set passes KIB, so that a run that would eat the machine fails
// at once instead (Linux: it watches /proc/PID/status).
//
//	peakrss [-kill-above KIB] FILE CMD ARGS…
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

func main() {
	args := os.Args[1:]
	var ceiling int64
	if len(args) > 1 && args[0] == "-kill-above" {
		n, err := strconv.ParseInt(args[1], 10, 64)
		if err != nil || n <= 0 {
			fmt.Fprintln(os.Stderr, "peakrss: -kill-above wants a number of KiB")
			os.Exit(2)
		}
		ceiling, args = n, args[2:]
	}
	if len(args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: peakrss [-kill-above KIB] FILE CMD ARGS…")
		os.Exit(2)
	}
	cmd := exec.Command(args[1], args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Start()
	if err == nil {
		if ceiling > 0 {
			go watch(cmd.Process, ceiling)
		}
		err = cmd.Wait()
	}
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, "peakrss:", err)
		os.Exit(127)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		_ = os.WriteFile(args[0], []byte(strconv.FormatInt(ru.Maxrss, 10)), 0o600)
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		os.Exit(128 + int(ws.Signal()))
	}
	os.Exit(cmd.ProcessState.ExitCode())
}

// watch kills p once its resident set passes ceiling KiB.
func watch(p *os.Process, ceiling int64) {
	status := fmt.Sprintf("/proc/%d/status", p.Pid)
	for {
		rss, ok := residentKiB(status)
		if !ok {
			return // gone (or no /proc): nothing to watch
		}
		if rss > ceiling {
			fmt.Fprintf(os.Stderr, "peakrss: killed the command: its resident set reached %d KiB, over %d\n", rss, ceiling)
			_ = p.Kill()
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func residentKiB(status string) (int64, bool) {
	b, err := os.ReadFile(status)
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if rest, found := bytes.CutPrefix(sc.Bytes(), []byte("VmRSS:")); found {
			n, err := strconv.ParseInt(string(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte(" kB"))), 10, 64)
			return n, err == nil
		}
	}
	return 0, false // a zombie has no VmRSS
}
