//go:build linux || darwin

package sessiond

import (
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The log stays under its bound, keeping the newest lines, whole.
func TestLogBounded(t *testing.T) {
	t.Parallel()
	p := Paths{Dir: shortDir(t), ID: ID("x")}
	path := p.Log()
	const limit = 2000
	l, err := p.OpenLog(limit)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 500 {
		if _, err := l.Write([]byte(strings.Repeat("x", 20) + " line " + jsonInt(i) + "\n")); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := l.Write([]byte("last line\n")); err != nil {
		t.Fatal(err)
	}
	l.Close()
	data, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(data) > limit || lines[len(lines)-1] != "last line" || !strings.HasPrefix(lines[0], "[… older lines dropped") {
		t.Fatalf("%d bytes:\n%s", len(data), data)
	}
	whole := regexp.MustCompile(`^x{20} line (\d+)$`)
	prev := -1
	for _, line := range lines[1 : len(lines)-1] {
		m := whole.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("a line cut in two: %q", line)
		}
		var n int
		_ = json.Unmarshal([]byte(m[1]), &n)
		if prev >= 0 && n != prev+1 {
			t.Errorf("line %d after %d: lines lost in the middle", n, prev)
		}
		prev = n
	}
	if prev != 499 {
		t.Errorf("the newest line kept is %d, want 499", prev)
	}
	// Reopened, it goes on from its size; a write longer than the bound
	// keeps its end.
	l, err = p.OpenLog(limit)
	if err != nil {
		t.Fatal(err)
	}
	huge := strings.Repeat("y", 3*limit) + "the end\n"
	if n, err := l.Write([]byte(huge)); err != nil || n != len(huge) {
		t.Errorf("Write = %d, %v", n, err)
	}
	l.Close()
	data, _ = os.ReadFile(path)
	if len(data) > limit || !strings.HasSuffix(string(data), "the end\n") {
		t.Errorf("after a huge write, %d bytes ending %q", len(data), data[max(0, len(data)-20):])
	}
}

// Only a private folder of our own, in a private folder of our own, is
// used for sessions; OpenDir makes both.
func TestDirChecks(t *testing.T) {
	t.Parallel()
	base := filepath.Join(t.TempDir(), "runtime")
	dir, err := OpenDir(base, false)
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("without create, a missing folder: %v, %v", dir, err)
	}
	dir, err = OpenDir(base, true)
	if err != nil || dir.Path() != filepath.Join(base, "sessions") {
		t.Fatalf("OpenDir: %v, %v", dir, err)
	}
	dir.Close()
	for _, d := range []string{base, filepath.Join(base, "sessions")} {
		if fi, _ := os.Stat(d); fi.Mode().Perm() != 0o700 {
			t.Errorf("%s made with mode %04o", d, fi.Mode().Perm())
		}
	}
	if err := os.Remove(filepath.Join(base, "sessions")); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenDir(base, false); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("without create, a missing sessions folder: %v", err)
	}
	var unsafe *UnsafeError
	for _, d := range []string{filepath.Join(base, "sessions"), base} {
		if err := os.MkdirAll(filepath.Join(base, "sessions"), 0o700); err != nil {
			t.Fatal(err)
		}
		// Open to others (the sessions folder, or the folder holding it:
		// an attacker's 0777 …/mcpctl would let them swap what is in it).
		for _, mode := range []os.FileMode{0o755, 0o777, 0o1777} {
			if err := os.Chmod(d, mode); err != nil {
				t.Fatal(err)
			}
			if _, err := OpenDir(base, true); !errors.As(err, &unsafe) || !strings.Contains(err.Error(), "chmod 700 "+d) || !strings.Contains(err.Error(), d+" ") {
				t.Errorf("%s open to others (%04o): %v", d, mode, err)
			}
		}
		if err := os.Chmod(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	other := filepath.Join(t.TempDir(), "other")
	if err := os.MkdirAll(filepath.Join(other, "x"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(other, "x"), filepath.Join(other, "sessions")); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenDir(other, true); !errors.As(err, &unsafe) || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("a linked folder: %v", err)
	}
	// The folder holding it a link, even to a private folder of ours.
	linked := filepath.Join(t.TempDir(), "linked")
	if err := os.Symlink(base, linked); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenDir(linked, true); !errors.As(err, &unsafe) || !strings.Contains(err.Error(), "the folder "+linked+" (where the sessions folder is) is a symbolic link") {
		t.Errorf("a linked parent: %v", err)
	}
}

// Another user's folder is refused, whether it is the sessions folder or
// the one that holds it ($XDG_RUNTIME_DIR/mcpctl made first by someone
// else, in a shared /tmp): it is theirs to change under us.
func TestDirOfAnotherUser(t *testing.T) {
	t.Parallel()
	if os.Getuid() != 0 {
		t.Skip("needs root to give a folder to another user")
	}
	for _, which := range []string{".", "sessions"} {
		base := filepath.Join(t.TempDir(), "runtime")
		if err := os.MkdirAll(filepath.Join(base, "sessions"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(filepath.Join(base, which), 65534, 65534); err != nil {
			t.Fatal(err)
		}
		var unsafe *UnsafeError
		if _, err := OpenDir(base, true); !errors.As(err, &unsafe) || !unsafe.Foreign || !strings.Contains(err.Error(), "belongs to another user") {
			t.Errorf("%s another user's: %v", which, err)
		}
	}
}

// The session's files are made and read relative to the open folder,
// never through a link planted in it: the log is not appended to a file
// elsewhere, the lock and record not made there.
func TestFilesNotThroughLinks(t *testing.T) {
	t.Parallel()
	p := Paths{Dir: shortDir(t), ID: ID("x")}
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("precious\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{p.Log(), p.Record(), p.Lock()} {
		if err := os.Symlink(victim, f); err != nil {
			t.Fatal(err)
		}
	}
	var unsafe *UnsafeError
	if _, err := p.OpenLog(LogSize); !errors.As(err, &unsafe) || !strings.Contains(err.Error(), "mcpctl does not follow it") {
		t.Errorf("OpenLog through a link: %v", err)
	}
	if _, err := p.ReadLog(); !errors.As(err, &unsafe) {
		t.Errorf("ReadLog through a link: %v", err)
	}
	if l, err := p.lock(); err == nil {
		l.Close()
		t.Error("the lock was taken through a link out of the folder")
	}
	if _, err := p.readRecord(); !errors.As(err, &unsafe) {
		t.Errorf("readRecord through a link: %v", err)
	}
	// The record replaces the link; the starter's log too.
	if err := p.writeRecord(&record{Name: "x"}); err != nil {
		t.Fatal(err)
	}
	f, err := p.CreateLog()
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString("a log line\n")
	f.Close()
	if got, _ := os.ReadFile(victim); string(got) != "precious\n" {
		t.Errorf("the file the links pointed to now holds %q", got)
	}
	for _, file := range []string{p.Log(), p.Record()} {
		if fi, err := os.Lstat(file); err != nil || !fi.Mode().IsRegular() {
			t.Errorf("%s: %v %v", file, fi, err)
		}
	}
	if data, err := p.ReadLog(); err != nil || string(data) != "a log line\n" {
		t.Errorf("ReadLog: %q %v", data, err)
	}
}

// What is at the socket's place is trusted only if it is a socket of
// ours; one whose process is gone is removed, with the session's other
// files.
func TestDialChecksTheSocket(t *testing.T) {
	t.Parallel()
	p := Paths{Dir: shortDir(t), ID: ID("x")}
	if kc, err := Dial(p); kc != nil || err != nil {
		t.Errorf("no socket: %v, %v", kc, err)
	}
	l, err := net.Listen("unix", p.Socket())
	if err != nil {
		t.Fatal(err)
	}
	l.(*net.UnixListener).SetUnlinkOnClose(false)
	l.Close()
	if err := os.Chmod(p.Socket(), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{p.Record(), p.Log()} {
		if err := os.WriteFile(f, []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if kc, err := Dial(p); kc != nil || err != nil {
		t.Errorf("a stale socket: %v, %v", kc, err)
	}
	if entries, _ := os.ReadDir(p.Dir.Path()); len(entries) != 0 {
		t.Errorf("left after a stale socket: %v", entries)
	}
	if err := os.WriteFile(p.Socket(), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var unsafe *UnsafeError
	if _, err := Dial(p); !errors.As(err, &unsafe) || !strings.Contains(err.Error(), "is not a socket") {
		t.Errorf("a file in the socket's place: %v", err)
	}
	os.Remove(p.Socket())
	if err := os.Symlink(filepath.Join(p.Dir.Path(), "elsewhere"), p.Socket()); err != nil {
		t.Fatal(err)
	}
	if _, err := Dial(p); !errors.As(err, &unsafe) || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("a link in the socket's place: %v", err)
	}
}

// An invocation's progress token is the daemon's on the way to the
// server, and the invocation's own on the way back; _meta's other members
// and their order stay.
func TestRewriteRequest(t *testing.T) {
	t.Parallel()
	params := json.RawMessage(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","progressToken":2},"name":"x"}`)
	out, token, version := rewriteRequest(params, 4294967300)
	if string(out) != `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","progressToken":4294967300},"name":"x"}` || string(token) != "2" || version != "2026-07-28" {
		t.Errorf("rewritten: %s %s %s", out, token, version)
	}
	if out, token, _ := rewriteRequest(json.RawMessage(`{"name":"x"}`), 9); string(out) != `{"name":"x"}` || token != nil {
		t.Errorf("no _meta: %s %s", out, token)
	}
	// Mcp-Param-* headers travel in _meta and come out as headers; other
	// headers an invocation might put there are not the daemon's to send.
	with := putHeaders(json.RawMessage(`{"_meta":{"a":1},"name":"x"}`), map[string][]string{"Mcp-Param-Region": {"eu"}, "Authorization": {"Bearer x"}})
	back, h := takeHeaders(with)
	if string(back) != `{"_meta":{"a":1},"name":"x"}` || h.Get("Mcp-Param-Region") != "eu" || h.Get("Authorization") != "" {
		t.Errorf("headers: %s %v", back, h)
	}
}

// A legacy server's list is remembered only when the server declared it
// announces changes, per params (not _meta), and forgotten at the
// announcement.
func TestListsKeys(t *testing.T) {
	t.Parallel()
	l := newLists(json.RawMessage(`{"capabilities":{"tools":{"listChanged":true},"prompts":{}}}`))
	k := l.key("tools/list", json.RawMessage(`{"_meta":{"progressToken":5}}`))
	if k == "" || k != l.key("tools/list", nil) || k == l.key("tools/list", json.RawMessage(`{"cursor":"2"}`)) {
		t.Errorf("keys: %q %q", k, l.key("tools/list", nil))
	}
	if l.key("prompts/list", nil) != "" || l.key("tools/call", nil) != "" {
		t.Error("remembered a list whose changes are not announced, or a call")
	}
	l.put(k, json.RawMessage(`{"tools":[]}`))
	l.saw("notifications/prompts/list_changed")
	if l.get(k) == nil {
		t.Error("another list's change forgot tools/list")
	}
	l.saw("notifications/tools/list_changed")
	if l.get(k) != nil {
		t.Error("tools/list_changed did not forget tools/list")
	}
	if newLists(nil).key("tools/list", nil) != "" {
		t.Error("a modern server's lists are remembered")
	}
}
