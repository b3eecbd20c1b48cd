package tests

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/mcpctl/mcpctl/commands"
	"github.com/mcpctl/mcpctl/tests/fakemcp"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"mcpctl":  func() { os.Exit(commands.Main()) },
		"fakemcp": func() { os.Exit(fakemcp.Main()) },
	})
}

var demoBuild builds

// buildDemo compiles the demo server once per test run: scripts run it as
// a real subprocess, over stdio and over HTTP.
func buildDemo(t *testing.T) string {
	// The demo server, and the headless browser that OAuth logins in the
	// scripts ($BROWSER) use.
	return demoBuild.get(t, nil, "github.com/mcpctl/mcpctl/tests/servers/demo", "github.com/mcpctl/mcpctl/tests/browser")
}

func TestScripts(t *testing.T) {
	testscript.Run(t, scriptParams(t, "testdata/script"))
}

// TestDualEra runs the scripts of testdata/dual twice: against servers
// found modern by the era probe, and with the same servers forced to a
// legacy revision (MCPCTL_PROTOCOL_VERSION=2025-11-25: the initialize
// handshake). The same command lines must work on both; lines that differ
// by era carry the [modern] or [legacy] condition.
func TestDualEra(t *testing.T) {
	for _, era := range []string{"modern", "legacy"} {
		t.Run(era, func(t *testing.T) {
			p := scriptParams(t, "testdata/dual")
			setup := p.Setup
			p.Setup = func(env *testscript.Env) error {
				if era == "legacy" {
					env.Setenv("MCPCTL_PROTOCOL_VERSION", "2025-11-25")
				}
				env.Setenv("ERA", era)
				return setup(env)
			}
			p.Condition = func(cond string) (bool, error) {
				switch cond {
				case "modern", "legacy":
					return cond == era, nil
				}
				return false, fmt.Errorf("unknown condition %q", cond)
			}
			testscript.Run(t, p)
		})
	}
}

func scriptParams(t *testing.T, dir string) testscript.Params {
	bin := buildDemo(t)
	return testscript.Params{
		Dir:                 dir,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       os.Getenv("MCPCTL_UPDATE_SCRIPTS") != "",
		Setup: func(env *testscript.Env) error {
			env.Setenv("PATH", bin+string(os.PathListSeparator)+env.Getenv("PATH"))
			env.Setenv("NO_COLOR", "1")
			env.Setenv("COLUMNS", "100")
			env.Setenv("MCPCTL_CACHE_DIR", filepath.Join(env.WorkDir, ".cache", "mcpctl"))
			// Sessions (mcpctl session) put their sockets here: a short
			// path (a socket's is bounded), ended with the script.
			rt, err := sessionRuntimeDir()
			if err != nil {
				return err
			}
			env.Setenv("XDG_RUNTIME_DIR", rt)
			env.Defer(func() { endSessions(rt) })
			// Under -race, run.sh sets GORACE so that the test binary's many
			// runs as mcpctl and as servers do not each wait a second at exit.
			if v := os.Getenv("GORACE"); v != "" {
				env.Setenv("GORACE", v)
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":     cmdExits,
			"fakehttp":  cmdFakeHTTP,
			"fakehttps": cmdFakeHTTPS,
			"demohttp":  cmdDemoHTTP,
			"deadurl":   cmdDeadURL,
			"nothttp":   cmdNotHTTP,
			"noproc":    cmdNoProc,
		},
	}
}

// exits N prog args…: run prog and require exit status N exactly.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits N prog args…")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: %v", err)
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("exits: %v", err)
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}

// fakehttp VAR MODE [PATH]: serve fakemcp MODE over HTTP; $VAR is its
// URL, ending in PATH (/mcp unless given).
func cmdFakeHTTP(ts *testscript.TestScript, neg bool, args []string) {
	serveFake(ts, neg, args, httptest.NewServer)
}

// fakehttps VAR MODE: the same over TLS, with a certificate no one trusts.
func cmdFakeHTTPS(ts *testscript.TestScript, neg bool, args []string) {
	serveFake(ts, neg, args, httptest.NewTLSServer)
}

func serveFake(ts *testscript.TestScript, neg bool, args []string, start func(http.Handler) *httptest.Server) {
	if neg || len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: fakehttp[s] VAR MODE [PATH]")
	}
	path := "/mcp"
	if len(args) == 3 {
		path = args[2]
	}
	srv := start(fakemcp.Handler(args[1]))
	ts.Defer(func() {
		// A session the script left running (it failed midway) holds a
		// GET stream open until the script's sessions are ended, after
		// this: Close alone would wait for it.
		srv.CloseClientConnections()
		srv.Close()
	})
	ts.Setenv(args[0], srv.URL+path)
}

// demohttp VAR [FLAG…]: run the demo server on Streamable HTTP (with the
// demo's extra flags, e.g. --auth); $VAR is its URL.
func cmdDemoHTTP(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: demohttp VAR [FLAG…]")
	}
	url, stop, err := startListening(filepath.Join(demoBuild.dir, "demo"), append([]string{"--http", "127.0.0.1:0"}, args[1:]...)...)
	if err != nil {
		ts.Fatalf("demohttp: %v", err)
	}
	ts.Defer(stop)
	ts.Setenv(args[0], url)
}

// deadurl VAR: a loopback URL on which nothing listens.
func cmdDeadURL(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: deadurl VAR")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		ts.Fatalf("deadurl: %v", err)
	}
	addr := l.Addr().String()
	l.Close()
	ts.Setenv(args[0], "http://"+addr+"/mcp")
}

// nothttp VAR: a loopback URL whose peer speaks something else than HTTP.
func cmdNotHTTP(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: nothttp VAR")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		ts.Fatalf("nothttp: %v", err)
	}
	ts.Defer(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			_, _ = c.Write([]byte("SSH-2.0-OpenSSH_9.2\r\n"))
			c.Close()
		}
	}()
	ts.Setenv(args[0], "http://"+l.Addr().String()+"/mcp")
}

// noproc MARKER: no process may have MARKER in its command line. Scripts
// pass a unique marker to the servers they start, then check that mcpctl
// left none of them running. A moment is allowed for the kernel to reap.
func cmdNoProc(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: noproc MARKER")
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		pids := findProcs(args[0])
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("processes still running with %q in their command line: %v", args[0], pids)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func findProcs(marker string) []string {
	entries, _ := os.ReadDir("/proc")
	var pids []string
	self := strconv.Itoa(os.Getpid())
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil || e.Name() == self {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if strings.Contains(string(stat), ") Z ") {
			continue // a zombie is already dead, only not yet reaped
		}
		if strings.Contains(string(cmdline), marker) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}
