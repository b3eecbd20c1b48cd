package tests

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// Issue 13, item 3: a prompt at the terminal ends with the command. Ctrl-C
// (SIGINT) and SIGTERM end it with exit 130, as they end a request
// elsewhere, and the request in flight is cancelled as usual; an explicit
// --timeout (flag, MCPCTL_TIMEOUT, config) bounds the whole command,
// counted from its start, and ends an unanswered prompt with exit 3 naming
// --timeout. The
// terminal is left as it was found, and nothing is left running.

// The arguments that run fakemcp in mode over stdio, marked.
func promptServer(mode, marker string, legacy bool) []string {
	v := "2026-07-28"
	if legacy {
		v = "2025-11-25"
	}
	return []string{"--stdio", "fakemcp " + mode + " " + marker, "--protocol-version", v}
}

// saneTerminal fails unless the terminal still echoes, reads lines and
// turns ^C into SIGINT: nothing left it in raw or no-echo mode.
func saneTerminal(t *testing.T, s *ptySession) {
	t.Helper()
	var tio syscall.Termios
	// On Linux, TCGETS on the master reads the slave's settings.
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, s.master.Fd(), syscall.TCGETS, uintptr(unsafe.Pointer(&tio))); errno != 0 {
		t.Fatalf("TCGETS: %v", errno)
	}
	if want := uint32(syscall.ECHO | syscall.ICANON | syscall.ISIG); tio.Lflag&want != want {
		t.Errorf("the terminal was left with lflag %#o: echo, line mode or signals are off", tio.Lflag)
	}
}

func promptMarker(t *testing.T) string {
	return "mcpctl-prompt-" + strings.ReplaceAll(t.Name(), "/", "-") + "-" + filepath.Base(t.TempDir())
}

// Ctrl-C typed at a form prompt, the terminal being mcpctl's controlling
// terminal as at a shell: exit 130, "interrupted" on a line of its own.
func TestPromptCtrlC(t *testing.T) {
	marker := promptMarker(t)
	s := startPTYWith(t, true, []string{"MCPCTL_FAULT_MARKER=" + marker}, "--stdio", "demo", "tools", "call", "signup_form")
	s.expect(`Full name \(required\)[\s\S]*text: `)
	if _, err := s.master.Write([]byte{3}); err != nil { // ^C
		t.Fatal(err)
	}
	code, out := s.wait()
	if code != 130 || out != "" {
		t.Errorf("exit %d, stdout %q; want 130 and nothing; terminal:\n%s", code, out, s.screen.String())
	}
	s.expect(`\nmcpctl: interrupted\r?\n`)
	saneTerminal(t, s)
	noneLeft(t, marker)
}

// Ctrl-C at a task's input prompt stops the wait, as Ctrl-C while polling
// does. This stdio server, without a session, ends with the command, and
// its task with it: said so, with no command to find the task again
// (issue 25, item 6).
func TestPromptCtrlCTask(t *testing.T) {
	marker := promptMarker(t)
	s := startPTYWith(t, true, []string{"MCPCTL_FAULT_MARKER=" + marker}, "--stdio", "demo", "tools", "call", "slow_task")
	s.expect(`Continue\? \(required\)[\s\S]*yes or no \[yes\]: `)
	if _, err := s.master.Write([]byte{3}); err != nil {
		t.Fatal(err)
	}
	if code, out := s.wait(); code != 130 || out != "" {
		t.Errorf("exit %d, stdout %q; want 130 and nothing; terminal:\n%s", code, out, s.screen.String())
	}
	s.expect(`\nmcpctl: interrupted: tools/call slow_task: stopped waiting for task [0-9a-f-]+, which ends with its server; ` + sessionForTasks + `\r?\n`)
	saneTerminal(t, s)
	noneLeft(t, marker)
}

// The same with a legacy server, whose question comes while its
// tools/call is in flight: the server is sent notifications/cancelled
// for it, as on any Ctrl-C.
func TestPromptCtrlCLegacy(t *testing.T) {
	marker := promptMarker(t)
	s := startPTYWith(t, true, nil, append(promptServer("legacy", marker, true), "tools", "call", "ask")...)
	s.expect(`The server asks: Your name\?[\s\S]*name \(required\)[\s\S]*text: `)
	if _, err := s.master.Write([]byte{3}); err != nil {
		t.Fatal(err)
	}
	code, out := s.wait()
	if code != 130 || out != "" {
		t.Errorf("exit %d, stdout %q; want 130 and nothing; terminal:\n%s", code, out, s.screen.String())
	}
	s.expect(`\nmcpctl: interrupted\r?\n`)
	s.pos = 0
	s.expect(`fakemcp: notification notifications/cancelled`)
	saneTerminal(t, s)
	noneLeft(t, marker)
}

// SIGTERM sent by pid while the confirmation ("Send this to the
// server?") waits: exit 130, as for SIGTERM anywhere in mcpctl.
func TestPromptSIGTERM(t *testing.T) {
	marker := promptMarker(t)
	s := startPTY(t, nil, append(promptServer("inputrequired", marker, false), "tools", "call", "ask", "--no-validate")...)
	s.expect(`The server asks: Your name\?[\s\S]*text: `)
	s.send("Ada")
	s.expect(`Send this to the server\? \[Y\]es / \[d\]ecline / \[c\]ancel: `)
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	code, out := s.wait()
	if code != 130 || out != "" {
		t.Errorf("exit %d, stdout %q; want 130 and nothing; terminal:\n%s", code, out, s.screen.String())
	}
	s.expect(`\nmcpctl: interrupted\r?\n`)
	saneTerminal(t, s)
	noneLeft(t, marker)
}

// Nobody answers, and --timeout was given: the command ends at its
// deadline with exit 3 and a message naming --timeout. Given as a flag to
// a modern server, and as MCPCTL_TIMEOUT to a legacy one (whose request
// is in flight meanwhile).
func TestPromptTimeout(t *testing.T) {
	for _, c := range []struct {
		name   string
		env    []string
		args   []string
		prompt string
	}{
		{"flag", nil, []string{"--timeout", "2s", "tools", "call", "ask", "--no-validate"}, `Your name\?[\s\S]*text: `},
		{"env_legacy", []string{"MCPCTL_TIMEOUT=2s"}, []string{"tools", "call", "ask"}, `Your name\?[\s\S]*text: `},
	} {
		t.Run(c.name, func(t *testing.T) {
			marker := promptMarker(t)
			mode, legacy := "inputrequired", false
			if strings.HasSuffix(c.name, "legacy") {
				mode, legacy = "legacy", true
			}
			s := startPTY(t, c.env, append(promptServer(mode, marker, legacy), c.args...)...)
			s.expect(c.prompt)
			code, out := s.wait()
			if code != 3 || out != "" {
				t.Errorf("exit %d, stdout %q; want 3 and nothing; terminal:\n%s", code, out, s.screen.String())
			}
			s.expect(`\nmcpctl: tools/call ask: nobody answered the prompt within --timeout 2s of the command's start\r?\n`)
			saneTerminal(t, s)
			noneLeft(t, marker)
		})
	}
}

// Over HTTP the legacy server's question comes on the response stream of
// its tools/call: Ctrl-C at the prompt closes that stream, which the
// server sees as the request's context ending.
func TestPromptCtrlCHTTP(t *testing.T) {
	arrived := make(chan struct{})
	cancelled := make(chan struct{})
	done := make(chan struct{})
	defer close(done)
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.Unmarshal(body, &msg)
		switch msg.Method {
		case "initialize":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"asker","version":"1"}}}`, msg.ID)
		case "tools/call":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"srv-1\",\"method\":\"elicitation/create\","+
				"\"params\":{\"message\":\"Your name?\",\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}}}}}\n\n")
			w.(http.Flusher).Flush()
			once.Do(func() { close(arrived) })
			select {
			case <-r.Context().Done():
				close(cancelled)
			case <-done:
			}
		default: // notifications, and mcpctl's answer to the question
			w.WriteHeader(http.StatusAccepted)
		}
	}))
	defer srv.Close()
	s := startPTYWith(t, true, nil, "--url", srv.URL, "--protocol-version", "2025-11-25", "call", "tools/call", `{"name":"ask"}`)
	select {
	case <-arrived:
	case <-time.After(15 * time.Second):
		t.Fatalf("the call never arrived; terminal:\n%s", s.screen.String())
	}
	s.expect(`The server asks: Your name\?[\s\S]*text: `)
	if _, err := s.master.Write([]byte{3}); err != nil {
		t.Fatal(err)
	}
	code, out := s.wait()
	if code != 130 || out != "" {
		t.Errorf("exit %d, stdout %q; want 130 and nothing; terminal:\n%s", code, out, s.screen.String())
	}
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Error("the server never saw the stream of the call in flight end")
	}
	saneTerminal(t, s)
}
