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
//	peakrss FILE CMD ARGS…
package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: peakrss FILE CMD ARGS…")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, "peakrss:", err)
		os.Exit(127)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		_ = os.WriteFile(os.Args[1], []byte(strconv.FormatInt(ru.Maxrss, 10)), 0o600)
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		os.Exit(128 + int(ws.Signal()))
	}
	os.Exit(cmd.ProcessState.ExitCode())
}
