package client

import (
	"os/exec"
	"runtime"
	"sync"
	"syscall"
)

// A stdio server dies with the process that started it, however that
// process dies (kill -9, a crash, where Close never runs): the kernel
// sends it SIGKILL (prctl PR_SET_PDEATHSIG), since a server whose client is
// gone has no one to answer, and one that ignores the end of its input and
// SIGTERM would otherwise run on. What it started in turn is ended by the
// next process that makes a cgroup beside its (removeStaleCgroups).
//
// The kernel sends that signal when the thread that started the child
// ends, not the process, and Go ends a thread when a goroutine locked to
// it exits; so servers are started from one thread kept for the
// process's whole life (startCmd).

// dieWithParent asks for the parent-death signal for cmd (its SysProcAttr
// set).
func dieWithParent(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

// spawner is the goroutine, locked to its thread for good, that starts
// the servers.
var spawner struct {
	once sync.Once
	work chan func()
}

// startCmd starts cmd from the spawner's thread.
func startCmd(cmd *exec.Cmd) error {
	spawner.once.Do(func() {
		spawner.work = make(chan func())
		go func() {
			runtime.LockOSThread() // never unlocked: the thread lives as long as the process
			for fn := range spawner.work {
				fn()
			}
		}()
	})
	errc := make(chan error, 1)
	spawner.work <- func() { errc <- cmd.Start() }
	return <-errc
}
