package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSessionFlags(t *testing.T) {
	t.Parallel()
	checkFlags(t, "session", newCmdSessionStart, []flagCase[sessionStartOptions]{
		{args: []string{"session", "start"}, want: &sessionStartOptions{idle: defaultIdle}},
		{args: []string{"session", "start", "--idle", "30s", "--name", "x", "--replace"}, want: &sessionStartOptions{idle: 30 * time.Second, name: "x", replace: true}},
		{args: []string{"session", "start", "--idle", "0s"}, err: "--idle must be positive"},
		{args: []string{"session", "start", "extra"}, err: "usage: mcpctl session start"},
	})
	checkFlags(t, "session", newCmdSessionStop, []flagCase[sessionStopOptions]{
		{args: []string{"session", "stop", "a", "b"}, want: &sessionStopOptions{names: []string{"a", "b"}}},
		{args: []string{"session", "stop", "--all"}, want: &sessionStopOptions{names: []string{}, all: true}},
		{args: []string{"session", "stop"}, err: "usage: mcpctl session stop NAME… | --all"},
		{args: []string{"session", "stop", "--all", "a"}, err: "usage: mcpctl session stop NAME… | --all"},
	})
	checkFlags(t, "session", newCmdSessionLogs, []flagCase[sessionLogsOptions]{
		{args: []string{"session", "logs", "a"}, want: &sessionLogsOptions{name: "a"}},
		{args: []string{"session", "logs"}, err: "usage: mcpctl session logs NAME"},
	})
	checkFlags(t, "session", newCmdSessionList, []flagCase[sessionListOptions]{
		{args: []string{"session", "list", "-o", "table"}, want: &sessionListOptions{}},
	})
}

// An invocation's progress token and a modern subscription id are the
// session's own on the way to the server and the invocation's own on the
// way back; another request's notifications are not passed on.
func TestSessionRewritesIDs(t *testing.T) {
	t.Parallel()
	params := json.RawMessage(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","progressToken":2},"name":"x"}`)
	out, token, version := rewriteRequest(params, 4294967300)
	if string(out) != `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","progressToken":4294967300},"name":"x"}` || string(token) != "2" || version != "2026-07-28" {
		t.Errorf("rewritten: %s %s %s", out, token, version)
	}
	if out, token, _ := rewriteRequest(json.RawMessage(`{"name":"x"}`), 9); string(out) != `{"name":"x"}` || token != nil {
		t.Errorf("no _meta: %s %s", out, token)
	}
}

// The log stays under its bound, keeping the newest lines.
func TestBoundedLog(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "log")
	b, err := openBoundedLog(path, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		if _, err := b.Write([]byte(strings.Repeat("x", 20) + string(rune('a'+i%26)) + "\n")); err != nil {
			t.Fatal(err)
		}
	}
	_, _ = b.Write([]byte("last line\n"))
	b.Close()
	data, _ := os.ReadFile(path)
	if len(data) > 1000 || !strings.HasSuffix(string(data), "last line\n") || !strings.Contains(string(data), "older lines dropped") {
		t.Errorf("%d bytes:\n%s", len(data), data)
	}
}

// Only a private folder of our own is used for sockets.
func TestSessionDirChecks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	loose := filepath.Join(dir, "loose")
	if err := os.Mkdir(loose, 0o755); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Lstat(loose)
	if err := checkSessionDir(loose, fi); err == nil || !strings.Contains(err.Error(), "chmod 700") {
		t.Errorf("loose folder: %v", err)
	}
	link := filepath.Join(dir, "link")
	_ = os.Symlink(loose, link)
	fi, _ = os.Lstat(link)
	if err := checkSessionDir(link, fi); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("symlinked folder: %v", err)
	}
	if err := os.Chmod(loose, 0o700); err != nil {
		t.Fatal(err)
	}
	fi, _ = os.Lstat(loose)
	if err := checkSessionDir(loose, fi); err != nil {
		t.Errorf("a private folder: %v", err)
	}
}

// A legacy server's list is remembered only when the server declared it
// announces changes, per params (not _meta), and forgotten at the
// announcement.
func TestSessionLists(t *testing.T) {
	t.Parallel()
	l := newKsLists(json.RawMessage(`{"capabilities":{"tools":{"listChanged":true},"prompts":{}}}`))
	k := l.key("tools/list", json.RawMessage(`{"_meta":{"progressToken":5}}`))
	if k == "" || k != l.key("tools/list", nil) || k == l.key("tools/list", json.RawMessage(`{"cursor":"2"}`)) {
		t.Errorf("keys: %q %q", k, l.key("tools/list", nil))
	}
	if l.key("prompts/list", nil) != "" || l.key("tools/call", nil) != "" {
		t.Error("remembered a list whose changes are not announced, or a call")
	}
	l.put(k, json.RawMessage(`{"tools":[]}`))
	if string(l.get(k)) != `{"tools":[]}` {
		t.Errorf("get: %s", l.get(k))
	}
	l.saw("notifications/prompts/list_changed")
	if l.get(k) == nil {
		t.Error("another list's change forgot tools/list")
	}
	l.saw("notifications/tools/list_changed")
	if l.get(k) != nil {
		t.Error("tools/list_changed did not forget tools/list")
	}
	if newKsLists(nil).key("tools/list", nil) != "" {
		t.Error("a modern server's lists are remembered")
	}
}
