// Command legacydirect is the floor for a one-shot call to a legacy stdio
// server: it starts the server, sends initialize, waits for the answer,
// sends notifications/initialized and one tools/call, waits for that
// answer, then closes the server's stdin and sends SIGTERM at once, and
// exits when the server has. Nothing else: no tools/list, no era probe, no
// cache, no checks beyond the answers' ids. tests/bench/legacy.sh times it
// against `mcpctl tools call` on the same server.
//
//	legacydirect [-exit term|eof] TOOL ARGS-JSON CMD ARGS…
//
// -exit eof closes stdin and waits for the server to exit by itself (no
// signal): how long a server takes to leave on its own, for the notes.
// The tool's result goes to stdout, so that a broken run is seen.
//
// This is a benchmark driver, not a test: it has no _test.go files.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	exit := flag.String("exit", "term", "after the answer: term (close stdin, SIGTERM at once) or eof (close stdin, wait)")
	flag.Parse()
	if flag.NArg() < 3 || (*exit != "term" && *exit != "eof") {
		fmt.Fprintln(os.Stderr, "usage: legacydirect [-exit term|eof] TOOL ARGS-JSON CMD ARGS…")
		os.Exit(2)
	}
	tool, args, argv := flag.Arg(0), flag.Arg(1), flag.Args()[2:]
	if err := run(*exit, tool, json.RawMessage(args), argv); err != nil {
		fmt.Fprintln(os.Stderr, "legacydirect:", err)
		os.Exit(1)
	}
}

func run(exit, tool string, args json.RawMessage, argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = io.Discard
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	defer cmd.Process.Kill()
	r := bufio.NewReaderSize(out, 1<<20)
	send := func(v any) error {
		b, _ := json.Marshal(v)
		_, err := in.Write(append(b, '\n'))
		return err
	}
	// await reads lines until the answer to id; notifications and the
	// server's own requests (none here: no capabilities declared) pass.
	await := func(id int) (json.RawMessage, error) {
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				return nil, fmt.Errorf("reading the answer to %d: %w", id, err)
			}
			var m struct {
				ID     *int            `json:"id"`
				Method string          `json:"method"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if json.Unmarshal(line, &m) != nil || m.ID == nil || *m.ID != id || m.Method != "" {
				continue
			}
			if m.Error != nil {
				return nil, fmt.Errorf("error answer: %s", m.Error)
			}
			return m.Result, nil
		}
	}
	if err := send(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
		"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "legacydirect", "version": "0"}}}); err != nil {
		return err
	}
	if _, err := await(1); err != nil {
		return err
	}
	if err := send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}); err != nil {
		return err
	}
	if err := send(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call",
		"params": map[string]any{"name": tool, "arguments": args}}); err != nil {
		return err
	}
	res, err := await(2)
	if err != nil {
		return err
	}
	in.Close()
	start := time.Now()
	if exit == "term" {
		_ = cmd.Process.Signal(syscall.SIGTERM)
	}
	_ = cmd.Wait() // killed by SIGTERM: not an error here
	if exit == "eof" {
		fmt.Fprintf(os.Stderr, "legacydirect: the server exited %v after its stdin was closed\n", time.Since(start).Round(time.Millisecond))
	}
	fmt.Println(string(res))
	return nil
}
