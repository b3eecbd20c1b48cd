package fakemcp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// ServeStdio plays mode on newline-delimited JSON-RPC and returns the
// process exit status.
func ServeStdio(mode string, in io.Reader, out, errOut io.Writer) int {
	if strings.HasPrefix(mode, "legacy") {
		return serveLegacyStdio(mode, in, out, errOut)
	}
	if code, ok := serveFaultStdio(mode, in, out, errOut); ok {
		return code
	}
	if code, ok := serveStartFault(mode, in, out, errOut); ok { // issue 25, item 1 (slowstart.go)
		return code
	}
	if code, ok := serveStderrFault(mode, in, out, errOut); ok { // issue 13, item 4
		return code
	}
	if code, ok := serveGrandchild(mode, in, out, errOut); ok { // issue 13, item 5
		return code
	}
	if code, ok := serveLogsStdio(mode, in, out, errOut); ok { // issue 23, item 7
		return code
	}
	fmt.Fprintf(errOut, "fakemcp: mode %s ready\n", mode)
	if code := serveLines(in, out, errOut, newServer(mode)); code >= 0 {
		return code
	}
	// Like a careless server, linger a little after stdin closes when
	// asked to stay silent, so shutdown escalation is exercised.
	if mode == "silent" {
		time.Sleep(30 * time.Second)
	}
	return 0
}

// serveLines answers requests until the input ends (-1) or a reply says
// to exit (its status).
func serveLines(in io.Reader, out, errOut io.Writer, s *server) int {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var req request
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			fmt.Fprintf(errOut, "fakemcp: bad input: %v\n", err)
			continue
		}
		if len(req.ID) == 0 {
			fmt.Fprintf(errOut, "fakemcp: notification %s\n", req.Method)
			continue
		}
		r := s.handle(req)
		switch {
		case r.silent:
			fmt.Fprintln(errOut, "fakemcp: ignoring", req.Method)
			continue
		case r.stream != nil:
			r.stream(out, func(m string) string { return m + "\n" })
		case r.raw != "":
			fmt.Fprintln(out, r.raw)
		default:
			for _, m := range r.messages {
				fmt.Fprintln(out, m)
			}
		}
		if r.exit >= 0 {
			fmt.Fprintln(errOut, "fatal: the fake server gives up")
			return r.exit
		}
	}
	return -1
}

// Main runs "fakemcp MODE" over the process's stdio.
func Main() int {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: fakemcp MODE [MARKER]; modes:", Modes())
		return 2
	}
	return ServeStdio(os.Args[1], os.Stdin, os.Stdout, os.Stderr)
}
