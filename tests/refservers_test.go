package tests

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestRefServers runs testdata/refservers against the MCP reference servers
// from npm (server-everything, server-filesystem, server-memory), which
// speak only legacy revisions: servers nobody here wrote. tests/run.sh
// installs them (tests/refservers/install.sh) and sets MCPCTL_REFSERVERS to
// their node_modules folder; without it the test is skipped, unless
// MCPCTL_REQUIRE_REFSERVERS=1 says it must run (CI).
func TestRefServers(t *testing.T) {
	nm := refServers(t)
	preload, err := filepath.Abs("refservers/loopback.cjs")
	if err != nil {
		t.Fatal(err)
	}
	p := scriptParams(t, "testdata/refservers")
	setup := p.Setup
	p.Setup = func(env *testscript.Env) error {
		// $EVERYTHING, $FILESYSTEM and $MEMORY are command lines for --stdio,
		// to be followed by the server's own arguments.
		pkg := filepath.Join(nm, "@modelcontextprotocol")
		for v, name := range map[string]string{"EVERYTHING": "server-everything", "FILESYSTEM": "server-filesystem", "MEMORY": "server-memory"} {
			env.Setenv(v, "node "+filepath.Join(pkg, name, "dist", "index.js"))
		}
		env.Setenv("LOOPBACK", preload)
		return setup(env)
	}
	p.Cmds["everything"] = cmdEverything
	testscript.Run(t, p)
}

var listeningRE = regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+)`)

// everything VAR MODE: run server-everything in MODE (streamableHttp or
// sse) on a free loopback port; $VAR is its endpoint URL (/mcp or /sse).
// The server logs every request on stdout; that goes nowhere.
func cmdEverything(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 || (args[1] != "streamableHttp" && args[1] != "sse") {
		ts.Fatalf("usage: everything VAR streamableHttp|sse")
	}
	script := strings.TrimPrefix(ts.Getenv("EVERYTHING"), "node ")
	cmd := exec.Command("node", "-r", ts.Getenv("LOOPBACK"), script, args[1])
	cmd.Env = append(os.Environ(), "PORT=0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		ts.Fatalf("everything: %v", err)
	}
	if err := cmd.Start(); err != nil {
		ts.Fatalf("everything: %v", err)
	}
	ts.Defer(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sent := false
		for sc.Scan() { // keep draining, so the server never blocks on stderr
			if m := listeningRE.FindStringSubmatch(sc.Text()); m != nil && !sent {
				found <- m[1]
				sent = true
			}
		}
		if !sent {
			close(found)
		}
	}()
	select {
	case base, ok := <-found:
		if !ok {
			ts.Fatalf("everything: the server exited without listening")
		}
		path := "/mcp"
		if args[1] == "sse" {
			path = "/sse"
		}
		ts.Setenv(args[0], strings.TrimSuffix(base, "/")+path)
	case <-time.After(20 * time.Second):
		ts.Fatalf("everything: no 'listening on' line within 20s")
	}
}

// refServers is the node_modules folder of the reference servers
// (MCPCTL_REFSERVERS); without it the test is skipped, unless
// MCPCTL_REQUIRE_REFSERVERS=1 says it must run (CI). node must be on PATH.
func refServers(t *testing.T) string {
	t.Helper()
	nm := os.Getenv("MCPCTL_REFSERVERS")
	if nm == "" {
		if os.Getenv("MCPCTL_REQUIRE_REFSERVERS") == "1" {
			t.Fatal("MCPCTL_REFSERVERS is not set: run bash tests/refservers/install.sh")
		}
		t.Skip("MCPCTL_REFSERVERS is not set (bash tests/refservers/install.sh prints it; tests/run.sh sets it)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("node is not on PATH: %v", err)
	}
	return nm
}
