//go:build unix

package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the stderr copier and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// shServer returns a stdio transport running script with sh -c; it is
// closed when the test ends.
func shServer(t *testing.T, script string, opts StdioOptions) *StdioTransport {
	t.Helper()
	opts.Command = []string{"sh", "-c", script}
	if opts.CloseGrace == 0 {
		opts.CloseGrace = 100 * time.Millisecond
	}
	if opts.TermGrace == 0 {
		opts.TermGrace = 100 * time.Millisecond
	}
	tr := NewStdio(opts)
	t.Cleanup(func() { _ = tr.Close() })
	return tr
}

func call(tr *StdioTransport, id int64, timeout time.Duration, notify func(Notification)) (*Message, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return tr.RoundTrip(ctx, &Request{ID: id, Method: "tools/list", Params: json.RawMessage(`{"_meta":{}}`)}, notify)
}

// waitUntil polls cond for up to d.
func waitUntil(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if cond() {
			return true
		}
		time.Sleep(5 * time.Millisecond)
	}
	return cond()
}

func TestStdioRoundTrip(t *testing.T) {
	var stderr syncBuffer
	tr := shServer(t, `read l; printf '%s\n' "$l" >&2; printf '%s\n' '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}' "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"`,
		StdioOptions{Stderr: &stderr})
	// The log message is tied to no request: it goes to the connection's
	// handler, not to the request in flight.
	var notes, mine []Notification
	tr.SetNotificationHandler(func(n Notification) { notes = append(notes, n) })
	msg, err := call(tr, 1, 2*time.Second, func(n Notification) { mine = append(mine, n) })
	if err != nil {
		t.Fatal(err)
	}
	if msg.Error != nil || string(msg.Result) != `{}` || string(msg.ID) != "1" {
		t.Errorf("message %+v", msg)
	}
	if len(notes) != 1 || notes[0].Method != "notifications/message" ||
		string(notes[0].Raw) != `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}` {
		t.Errorf("notifications %+v", notes)
	}
	if len(mine) != 0 {
		t.Errorf("the request got %+v, tied to no request", mine)
	}
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	// The server read exactly one newline-terminated JSON-RPC message.
	if got, want := stderr.String(), `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{}}}`+"\n"; got != want {
		t.Errorf("the server read %q, want %q", got, want)
	}
}

func TestStdioEnvAndDir(t *testing.T) {
	dir := t.TempDir()
	tr := shServer(t, `read l; printf '{"jsonrpc":"2.0","id":1,"result":{"foo":"%s","home":"%s","pwd":"%s"}}\n' "$FOO" "$HOME" "$(pwd -P)"`,
		StdioOptions{Env: []string{"FOO=bar"}, Dir: dir})
	msg, err := call(tr, 1, 2*time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(dir)
	var res struct{ Foo, Home, Pwd string }
	_ = json.Unmarshal(msg.Result, &res)
	if res.Foo != "bar" || res.Home != "" || res.Pwd != real {
		t.Errorf("server saw %+v; want FOO=bar, no HOME (Env is the whole environment), cwd %s", res, real)
	}
}

func TestStdioProtocolErrors(t *testing.T) {
	tests := []struct {
		name   string
		script string
		opts   StdioOptions
		msg    string // part of the error text
	}{
		{"non-JSON output", `read l; echo "Starting server on stdio..."; sleep 5`, StdioOptions{}, "stderr"},
		{"invalid JSON", `read l; echo '{"jsonrpc":'; sleep 5`, StdioOptions{}, "invalid JSON"},
		{"unknown id", `read l; echo '{"jsonrpc":"2.0","id":99,"result":{}}'; sleep 5`, StdioOptions{}, "never sent"},
		{"line too long", `read l; i=0; while [ $i -lt 40 ]; do printf '%s' '{"jsonrpc":"2.0","padding":"xxxxxxxxxx"}'; i=$((i+1)); done; echo; sleep 5`,
			StdioOptions{MaxLine: 1000}, "larger than 1000"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := shServer(t, tc.script, tc.opts)
			start := time.Now()
			msg, err := call(tr, 1, 3*time.Second, nil)
			var pe *ProtocolError
			if !errors.As(err, &pe) || !strings.Contains(pe.Error(), tc.msg) {
				t.Fatalf("got %+v, %v (%T); want *ProtocolError mentioning %q", msg, err, err, tc.msg)
			}
			// The server is not trusted any more: it was killed, later calls fail at once.
			if _, err2 := call(tr, 2, 3*time.Second, nil); !errors.As(err2, &pe) {
				t.Errorf("second call: %v, want the same *ProtocolError", err2)
			}
			_ = tr.Close()
			if d := time.Since(start); d > 1500*time.Millisecond {
				t.Errorf("took %v; the server should have been killed", d)
			}
		})
	}
}

func TestStdioEarlyExit(t *testing.T) {
	var stderr syncBuffer
	tr := shServer(t, `read l; echo "fatal: missing config" >&2; echo "second line" >&2; exit 3`, StdioOptions{Stderr: &stderr})
	msg, err := call(tr, 1, 3*time.Second, nil)
	var ce *ConnError
	if !errors.As(err, &ce) {
		t.Fatalf("got %+v, %v (%T); want *ConnError", msg, err, err)
	}
	if !strings.Contains(ce.Msg, "exit status 3") {
		t.Errorf("Msg %q does not give the exit status", ce.Msg)
	}
	if want := []string{"fatal: missing config", "second line"}; !equalStrings(ce.Stderr, want) {
		t.Errorf("Stderr %q, want %q", ce.Stderr, want)
	}
	if !strings.Contains(ce.Error(), "fatal: missing config") {
		t.Errorf("Error() = %q", ce.Error())
	}
	_ = tr.Close()
	if got := stderr.String(); got != "fatal: missing config\nsecond line\n" {
		t.Errorf("stderr forwarded %q", got)
	}
}

// A server that is already dead when the request is made.
func TestStdioExitedBeforeRequest(t *testing.T) {
	tr := shServer(t, `echo "boom" >&2; kill -9 $$`, StdioOptions{})
	if err := tr.start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-tr.readDone:
	case <-time.After(2 * time.Second):
		t.Fatal("the reader did not notice the exit")
	}
	_, err := call(tr, 1, 2*time.Second, nil)
	var ce *ConnError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v (%T), want *ConnError", err, err)
	}
	if !strings.Contains(ce.Msg, "killed") || !equalStrings(ce.Stderr, []string{"boom"}) {
		t.Errorf("ConnError %+v; want the signal and the stderr tail", ce)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestStdioStartFailures(t *testing.T) {
	for _, cmd := range [][]string{nil, {"/nonexistent/mcp-server"}, {"mcpctl-no-such-command-on-path"}} {
		tr := NewStdio(StdioOptions{Command: cmd})
		_, err := call(tr, 1, time.Second, nil)
		if !isErr[*ConnError](err) {
			t.Errorf("command %q: err = %v, want *ConnError", cmd, err)
		}
		if err := tr.Close(); err != nil {
			t.Errorf("Close after a failed start: %v", err)
		}
	}
}

func TestStdioDryRun(t *testing.T) {
	var got []DryRunRequest
	tr := NewStdio(StdioOptions{Command: []string{"sh", "-c", "exit 1"}, Dir: "/tmp", DryRun: func(r DryRunRequest) { got = append(got, r) }})
	_, err := call(tr, 1, time.Second, nil)
	if !errors.Is(err, ErrDryRun) {
		t.Fatalf("err = %v", err)
	}
	if tr.cmd != nil {
		t.Error("dry run started the server")
	}
	if len(got) != 1 || !equalStrings(got[0].Command, []string{"sh", "-c", "exit 1"}) || got[0].Dir != "/tmp" ||
		string(got[0].Body) != `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{}}}` {
		t.Errorf("dry run %+v", got)
	}
}

// Servers must not send requests on this revision; mcpctl answers -32601
// instead of leaving them waiting, and the call goes on.
func TestStdioServerRequestAnswered(t *testing.T) {
	var stderr syncBuffer
	tr := shServer(t, `read l; echo '{"jsonrpc":"2.0","id":"s1","method":"roots/list"}'; read r; printf '%s\n' "$r" >&2; echo '{"jsonrpc":"2.0","id":1,"result":{}}'`,
		StdioOptions{Stderr: &stderr})
	msg, err := call(tr, 1, 2*time.Second, nil)
	if err != nil || string(msg.Result) != `{}` {
		t.Fatalf("got %+v, %v", msg, err)
	}
	_ = tr.Close()
	reply, err := DecodeMessage([]byte(stderr.String()))
	if err != nil || string(reply.ID) != `"s1"` || reply.Error == nil || reply.Error.Code != CodeMethodNotFound {
		t.Errorf("the server got %q", stderr.String())
	}
}

// A timed-out request is cancelled with notifications/cancelled, and its
// late answer is not mistaken for a protocol violation.
func TestStdioCancelAndLateAnswer(t *testing.T) {
	var stderr syncBuffer
	tr := shServer(t, `read l; sleep 0.3; echo '{"jsonrpc":"2.0","id":1,"result":{"late":true}}'
while read l; do
  printf '%s\n' "$l" >&2
  case "$l" in *'"id":2,'*) echo '{"jsonrpc":"2.0","id":2,"result":{"ok":true}}';; esac
done`, StdioOptions{Stderr: &stderr})
	_, err := call(tr, 1, 50*time.Millisecond, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want context.DeadlineExceeded", err)
	}
	time.Sleep(400 * time.Millisecond) // the late answer arrives meanwhile
	msg, err := call(tr, 2, 2*time.Second, nil)
	if err != nil || string(msg.Result) != `{"ok":true}` {
		t.Fatalf("call after a cancelled one: %+v, %v", msg, err)
	}
	_ = tr.Close()
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if len(lines) < 1 || lines[0] != `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"timed out"}}` {
		t.Errorf("the server read %q; want notifications/cancelled for id 1 first", lines)
	}
}

func TestStdioClientTimeoutHasStderr(t *testing.T) {
	tr := shServer(t, `echo "listening on stdio" >&2; cat >/dev/null`, StdioOptions{})
	c := New(tr, Options{Era: EraModern, Timeout: 100 * time.Millisecond})
	_, err := c.Call(context.Background(), "tools/list", nil, nil)
	var te *TimeoutError
	if !errors.As(err, &te) {
		t.Fatalf("err = %v (%T), want *TimeoutError", err, err)
	}
	if !equalStrings(te.Stderr, []string{"listening on stdio"}) {
		t.Errorf("Stderr %q", te.Stderr)
	}
}

func TestStdioCloseWellBehaved(t *testing.T) {
	// Exits when its stdin closes: no signal needed.
	tr := shServer(t, `cat >/dev/null`, StdioOptions{CloseGrace: 2 * time.Second, TermGrace: 2 * time.Second})
	if err := tr.start(); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_ = tr.Close()
	if d := time.Since(start); d > time.Second {
		t.Errorf("Close took %v", d)
	}
	if tr.waitErr != nil {
		t.Errorf("the server did not exit cleanly: %v", tr.waitErr)
	}
	_ = tr.Close() // twice is fine

	// Never started: nothing to do.
	if err := NewStdio(StdioOptions{Command: []string{"sh"}}).Close(); err != nil {
		t.Error(err)
	}
}

func TestStdioCloseTerm(t *testing.T) {
	// Ignores stdin closing but not SIGTERM.
	var stderr syncBuffer
	tr := shServer(t, `echo ready >&2; exec sleep 30`, StdioOptions{Stderr: &stderr, CloseGrace: 100 * time.Millisecond, TermGrace: 5 * time.Second})
	if err := tr.start(); err != nil {
		t.Fatal(err)
	}
	if !waitUntil(2*time.Second, func() bool { return stderr.String() != "" }) {
		t.Fatal("server did not start")
	}
	start := time.Now()
	_ = tr.Close()
	d := time.Since(start)
	if d < 90*time.Millisecond || d > time.Second {
		t.Errorf("Close took %v; want about CloseGrace (100ms)", d)
	}
	if sig := exitSignal(tr.waitErr); sig != syscall.SIGTERM {
		t.Errorf("the server ended with %v (%v), want SIGTERM", sig, tr.waitErr)
	}
}

func TestStdioCloseGrace(t *testing.T) {
	// Leaves by itself 300ms after its stdin closes: a grace that long
	// sees it out; none (negative) sends SIGTERM at once, not waiting.
	// (read is the shell's own: no child in the group to linger as a
	// zombie after SIGTERM.)
	const script = `echo ready >&2; while read -r l; do :; done; sleep 0.3`
	for _, c := range []struct {
		grace time.Duration
		want  syscall.Signal
	}{{5 * time.Second, 0}, {-1, syscall.SIGTERM}} {
		var stderr syncBuffer
		tr := shServer(t, script, StdioOptions{Stderr: &stderr, CloseGrace: c.grace, TermGrace: 5 * time.Second})
		if err := tr.start(); err != nil {
			t.Fatal(err)
		}
		if !waitUntil(2*time.Second, func() bool { return stderr.String() != "" }) {
			t.Fatal("server did not start")
		}
		_ = tr.Close()
		if sig := exitSignal(tr.waitErr); sig != c.want {
			t.Errorf("CloseGrace %v: the server ended with signal %d (%v), want %d", c.grace, sig, tr.waitErr, c.want)
		}
	}
	if g := NewStdio(StdioOptions{}).opts.CloseGrace; g != DefaultCloseGrace {
		t.Errorf("CloseGrace 0 became %v, want DefaultCloseGrace", g)
	}
}

// exitSignal returns the signal that ended a process, or 0.
func exitSignal(waitErr error) syscall.Signal {
	var ee *exec.ExitError
	if !errors.As(waitErr, &ee) {
		return 0
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return 0
	}
	return ws.Signal()
}
