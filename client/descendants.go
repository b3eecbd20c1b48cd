package client

import (
	"os"
	"os/exec"
)

// What a stdio server leaves behind. Close signals the server's process
// group (proc_unix.go), which reaches everything the server starts unless
// it leaves the group: a child that calls setsid() or setpgid(), often a
// daemon that also forks twice so that it is orphaned at once, is out of
// reach of a signal to the group, and once orphaned it is no longer below
// the server in the process tree either. StdioOptions.TrackDescendants
// asks Close to find and end those too:
//
//   - Linux, cgroup v2, where the caller's cgroup lets it make a child
//     cgroup (writable and, under systemd, delegated): the server starts
//     in a cgroup of its own (clone3 CLONE_INTO_CGROUP, so nothing it
//     forks escapes in between). Whatever is in it at Close is sent
//     SIGTERM, then killed (cgroup.kill, or each process where the kernel
//     has no cgroup.kill), and the cgroup is removed. Only a process that
//     moves itself to another cgroup (it needs write access to one)
//     escapes.
//   - Linux otherwise: the server's descendants are found in /proc below
//     it while it runs, and, when the calling process is a child
//     subreaper (ReapOrphans), among the calling process's own children
//     once they are orphaned: one in a session of its own (setsid), one
//     still in the server's process group, or one seen below the server
//     earlier. They get the same SIGTERM, then SIGKILL, and those that
//     became the caller's children are reaped. Without a subreaper an
//     orphan is adopted by init and is found only if it was seen below
//     the server before (Close looks once before it closes the server's
//     input).
//   - Other systems: the process group only (see docs/reliability.md for
//     what each could offer).

// descendantTracker keeps hold of what a server started beyond its
// process group, for Close to end.
type descendantTracker interface {
	// signal sends sig to every tracked process still running (the
	// server's process group is signalled apart).
	signal(sig os.Signal)
	// alive reports whether any tracked process still runs, reaping
	// those that are the caller's children and have exited.
	alive() bool
	// release reaps what is left to reap and undoes the setup (the
	// cgroup); called once, after the server has been waited for.
	release()
}

// startServer starts the command build returns, tracking its descendants
// when track is set. cgroups says whether a cgroup of its own may be
// tried (Linux).
func startServer(build func() *exec.Cmd, track, cgroups bool) (*exec.Cmd, descendantTracker, error) {
	if !track {
		cmd := build()
		return cmd, nil, startCmd(cmd)
	}
	return startTracked(build, cgroups)
}

// ReapOrphans makes the calling process a child subreaper
// (prctl PR_SET_CHILD_SUBREAPER, Linux) for the rest of its life: a
// descendant whose parent exits becomes its child instead of init's, so
// that a StdioTransport with TrackDescendants can still find an orphan its
// server left (a daemon that forked twice, say), end it and reap it.
//
// It is process-wide state, which is why it is a function of its own and
// never done behind the caller's back: call it early from a program's main
// package, before any server starts. Such a process inherits the orphans
// of everything it starts, and must reap them; StdioTransport.Close reaps
// those it takes for its server's, and any other stays a zombie until the
// process exits. A child the program itself starts in a session of its
// own (Setsid) would be taken for an orphan of the server being closed:
// do not combine those with ReapOrphans. On other systems it returns
// errors.ErrUnsupported.
func ReapOrphans() error { return setSubreaper() }
