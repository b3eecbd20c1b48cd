//go:build unix

package fakemcp

// Issue 13, item 5: servers whose descendants leave the server's process
// group with setsid(), so that signalling the group no longer reaches
// them (tests/faults_test.go, the grandchild_* cases):
//
//	setsidkeep      starts a child in a session of its own that keeps the
//	                server's stdout and stderr open and sleeps a minute
//	setsiddaemon    starts a child in a session of its own with its stdio
//	                on /dev/null that ignores SIGTERM and SIGHUP
//	doublefork      starts a child in a session of its own that starts the
//	                grandchild (stdio on /dev/null, deaf to SIGTERM and
//	                SIGHUP) and exits at once, as daemons do: the
//	                grandchild is orphaned before mcpctl ever asks
//
// Each server then answers like echo and exits when its input ends,
// leaving the descendant behind. The helpers re-execute fakemcp in the
// *-child and *-middle modes with the server's other arguments (the fault
// suite's marker), and the environment is inherited, so the leftover
// check finds them.

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"
)

// serveGrandchild plays the modes above; ok is false for other modes.
func serveGrandchild(mode string, in io.Reader, out, errOut io.Writer) (code int, ok bool) {
	switch mode {
	case "setsidkeep", "setsiddaemon", "doublefork":
		helper := map[string]string{"setsidkeep": "setsidkeep-child", "setsiddaemon": "setsiddaemon-child", "doublefork": "doublefork-middle"}[mode]
		child := reexec(helper)
		if mode == "setsidkeep" {
			child.Stdout, child.Stderr = out, errOut
		}
		// The descendant closes its end of this pipe once it is set up
		// (deaf to signals): only then is the server ready, or mcpctl
		// might be quicker than the descendant's signal.Ignore.
		r, w, err := os.Pipe()
		if err != nil {
			fmt.Fprintln(errOut, "fakemcp:", err)
			return 1, true
		}
		child.ExtraFiles = []*os.File{w}
		if err := child.Start(); err != nil {
			fmt.Fprintln(errOut, "fakemcp:", err)
			return 1, true
		}
		w.Close()
		_, _ = io.Copy(io.Discard, r)
		r.Close()
		if mode == "doublefork" {
			// The middle process has exited, the grandchild running.
			_ = child.Wait()
		}
		fmt.Fprintf(errOut, "fakemcp: mode %s ready\n", mode)
		serveLines(in, out, errOut, newServer("echo"))
		fmt.Fprintln(errOut, "fakemcp: input closed; exiting, my descendant stays")
		return 0, true
	case "setsidkeep-child":
		readyPipe().Close()
		time.Sleep(60 * time.Second)
		return 0, true
	case "setsiddaemon-child", "doublefork-child":
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP)
		readyPipe().Close()
		time.Sleep(60 * time.Second)
		return 0, true
	case "doublefork-middle":
		// Already a session leader; its child is not, as daemon(3) does.
		child := reexec("doublefork-child")
		child.SysProcAttr = nil
		child.ExtraFiles = []*os.File{readyPipe()}
		if err := child.Start(); err != nil {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// readyPipe is a helper's end of the server's readiness pipe (fd 3).
func readyPipe() *os.File { return os.NewFile(3, "ready") }

// reexec is fakemcp again in mode, with the server's other arguments, in a
// session of its own and with its stdio on /dev/null.
func reexec(mode string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], append([]string{mode}, os.Args[2:]...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	return cmd
}
