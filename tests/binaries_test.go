package tests

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// builds is a set of Go packages compiled once per test run into a
// folder of their own.
type builds struct {
	once sync.Once
	dir  string
	err  error
}

// get builds pkgs (with extra environment) the first time and returns
// the folder holding the binaries.
func (b *builds) get(t *testing.T, env []string, pkgs ...string) string {
	return b.getFlags(t, env, nil, pkgs...)
}

// getFlags is get with extra go build flags.
func (b *builds) getFlags(t *testing.T, env, flags []string, pkgs ...string) string {
	b.once.Do(func() {
		b.dir, b.err = os.MkdirTemp("", "mcpctl-test-bin")
		if b.err != nil {
			return
		}
		args := append(append([]string{"build", "-o", b.dir + string(os.PathSeparator)}, flags...), pkgs...)
		cmd := exec.Command("go", args...)
		cmd.Env = append(os.Environ(), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("building %s: %v\n%s", strings.Join(pkgs, " "), err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.dir
}

// startListening runs a server that first prints "listening on URL" and
// returns the URL, and how to stop the server.
func startListening(path string, args ...string) (string, func(), error) {
	cmd := exec.Command(path, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop := func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		stop()
		return "", nil, fmt.Errorf("%s printed no address: %v", path, err)
	}
	return strings.TrimSpace(strings.TrimPrefix(line, "listening on ")), stop, nil
}
