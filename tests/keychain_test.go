//go:build linux

package tests

// Issue 17, item 7: tokens in the OS keychain, against a real Secret
// Service: gnome-keyring on a D-Bus session bus of the test's own
// (dbus-run-session), its login keyring created and unlocked with a
// password, in a home folder of the test's own. tests/run.sh installs the
// Debian packages and sets MCPCTL_REQUIRE_KEYRING=1, so that CI fails
// rather than skips without them.

import (
	"bufio"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// needKeyring skips the test (or fails it, under MCPCTL_REQUIRE_KEYRING=1)
// when the Secret Service programs are not installed.
func needKeyring(t *testing.T) {
	t.Helper()
	for _, prog := range []string{"dbus-run-session", "gnome-keyring-daemon", "dbus-send"} {
		if _, err := exec.LookPath(prog); err != nil {
			if os.Getenv("MCPCTL_REQUIRE_KEYRING") == "1" {
				t.Fatalf("%s is not installed, and MCPCTL_REQUIRE_KEYRING=1 (Debian: apt-get install gnome-keyring dbus-daemon dbus-bin)", prog)
			}
			t.Skipf("%s is not installed: the keychain test needs a Secret Service (Debian: apt-get install gnome-keyring dbus-daemon dbus-bin)", prog)
		}
	}
}

// secretService starts a D-Bus session bus with gnome-keyring on it, its
// login keyring unlocked, and returns the environment that reaches it;
// both end with the test.
func secretService(t *testing.T) []string {
	t.Helper()
	home := t.TempDir()
	env := []string{"HOME=" + home, "XDG_DATA_HOME=" + filepath.Join(home, "data"), "XDG_CACHE_HOME=" + filepath.Join(home, "cache"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "XDG_RUNTIME_DIR=" + home, "DISPLAY=", "WAYLAND_DISPLAY="}
	cmd := exec.Command("dbus-run-session", "--", "sh", "-c",
		`printf pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null || exit 1
echo "$DBUS_SESSION_BUS_ADDRESS"
exec cat >/dev/null`)
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stderr = io.Discard
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close() // the shell ends, and with it the bus and the keyring
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "unix:") {
		t.Fatalf("dbus-run-session with gnome-keyring gave no bus address (%q, %v)", line, err)
	}
	return append(env, "DBUS_SESSION_BUS_ADDRESS="+strings.TrimSpace(line))
}

// filesBesideLocks lists the files in state but the refresh locks.
func filesBesideLocks(t *testing.T, state string) []string {
	t.Helper()
	var out []string
	_ = filepath.WalkDir(state, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".lock") {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func TestKeychainSecretService(t *testing.T) {
	needKeyring(t)
	demo := filepath.Join(buildDemo(t), "demo")
	url, stop, err := startListening(demo, "--http", "127.0.0.1:0", "--auth", "--token-ttl", "2s")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	bus := secretService(t)
	state := t.TempDir()
	env := append(append([]string{"MCPCTL_STATE_DIR=" + state, "BROWSER=" + filepath.Join(buildDemo(t), "browser"),
		"MCPCTL_TOKEN_STORE=keychain"}, bus...), "MCPCTL_URL="+url)
	run := func(want int, args ...string) *faultRun {
		t.Helper()
		r := secMcpctl(t, env, args...)
		if r.code != want {
			t.Fatalf("mcpctl %s: exit %d, want %d\n%s%s", strings.Join(args, " "), r.code, want, r.stdout, r.stderr)
		}
		return r
	}

	// A login keeps the tokens in the keychain: no file in the state folder.
	run(0, "auth", "login")
	if f := filesBesideLocks(t, state); len(f) != 0 {
		t.Errorf("files written with --token-store keychain: %v", f)
	}
	r := run(0, "auth", "status")
	var st struct{ Store, Issuer string }
	if err := json.Unmarshal(r.stdout, &st); err != nil || st.Store != "keychain" {
		t.Errorf("auth status: %s (%v), want store keychain", r.stdout, err)
	}
	// Not in files: the file store has nothing.
	run(5, "--token-store", "file", "auth", "status")

	// Later commands use it, and refresh it: ten at once through the
	// expired token, whose refresh token the server rotates, refresh it
	// once (the lock in the state folder, the new token in the keychain).
	if r := run(0, "--trace", "tools", "list"); strings.Contains(r.stderr, "open this URL") {
		t.Errorf("a second login:\n%s", r.stderr)
	}
	time.Sleep(2200 * time.Millisecond)
	bin := faultBinaries(t)
	var wg sync.WaitGroup
	stderrs := make([]string, 10)
	fails := make([]error, 10)
	for i := range stderrs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(filepath.Join(bin, "mcpctl"), "--trace", "--refresh", "tools", "list")
			cmd.Env = append(os.Environ(), env...)
			var errOut strings.Builder
			cmd.Stderr = &errOut
			fails[i] = cmd.Run()
			stderrs[i] = errOut.String()
		}()
	}
	wg.Wait()
	refreshes := 0
	for i, e := range stderrs {
		if fails[i] != nil || strings.Contains(e, "open this URL") {
			t.Errorf("run %d of ten at once: %v\n%s", i, fails[i], e)
		}
		refreshes += strings.Count(e, "# oauth: refreshing the token")
	}
	if refreshes != 1 {
		t.Errorf("%d refreshes by ten runs at once, want 1", refreshes)
	}
	if f := filesBesideLocks(t, state); len(f) != 0 {
		t.Errorf("files written by the refresh: %v", f)
	}
	if r := run(0, "--trace", "--refresh", "tools", "list"); strings.Contains(r.stderr, "refreshing the token") {
		t.Errorf("the refreshed token was not the one stored:\n%s", r.stderr)
	}

	// auth logout removes it from the keychain.
	if r := run(0, "auth", "logout"); !strings.Contains(r.stderr, "mcpctl: forgot the tokens for") {
		t.Errorf("logout: %s", r.stderr)
	}
	run(5, "auth", "status")

	// A locked keychain: exit 5 under keychain, one line naming it and the
	// way out; auto goes on with files, saying so.
	lock := exec.Command("dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.secrets", "/org/freedesktop/secrets",
		"org.freedesktop.Secret.Service.Lock", "array:objpath:/org/freedesktop/secrets/collection/login")
	lock.Env = append(os.Environ(), bus...)
	if out, err := lock.CombinedOutput(); err != nil {
		t.Fatalf("locking the keyring: %v\n%s", err, out)
	}
	r = run(5, "auth", "login")
	oneErrorLine(t, r.stderr, `^mcpctl: the OS keychain \(Secret Service\) cannot be used \(open\): .+; to keep tokens in 0600 files instead, use --token-store file$`)
	r = run(0, "--token-store", "auto", "auth", "login")
	if !strings.Contains(r.stderr, "mcpctl: note: the OS keychain (Secret Service) cannot be used (open): ") || !strings.Contains(r.stderr, "; tokens are kept in files under "+state) {
		t.Errorf("auto with a locked keychain says nothing of it:\n%s", r.stderr)
	}
	if len(tokenFiles(state)) != 1 {
		t.Errorf("auto with a locked keychain wrote no token file: %v", filesBesideLocks(t, state))
	}

	// No session bus at all: keychain exits 5, auto uses the files quietly.
	nobus := append(append([]string(nil), env...), "DBUS_SESSION_BUS_ADDRESS=unix:path="+filepath.Join(t.TempDir(), "none"))
	r = secMcpctl(t, nobus, "auth", "status")
	if r.code != 5 {
		t.Errorf("keychain without a bus: exit %d\n%s", r.code, r.stderr)
	}
	oneErrorLine(t, r.stderr, `^mcpctl: the OS keychain \(Secret Service\) cannot be used \(open\): .+; to keep tokens in 0600 files instead, use --token-store file$`)
	r = secMcpctl(t, nobus, "--token-store", "auto", "auth", "status")
	if r.code != 0 || r.stderr != "" || !strings.Contains(string(r.stdout), `"store":"file"`) {
		t.Errorf("auto without a bus: exit %d, want the file's token and nothing said\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// With no session bus to be found, the keychain lookup of every HTTP
// command (--token-store auto, the default) must not start one: godbus
// would run dbus-launch, whose daemon outlives mcpctl. A dbus-launch on
// PATH that leaves a mark shows whether it ran.
func TestKeychainStartsNoBus(t *testing.T) {
	demo := filepath.Join(buildDemo(t), "demo")
	url, stop, err := startListening(demo, "--http", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	bin := t.TempDir()
	mark := filepath.Join(t.TempDir(), "ran")
	if err := os.WriteFile(filepath.Join(bin, "dbus-launch"), []byte("#!/bin/sh\ntouch "+mark+"\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "DBUS_SESSION_BUS_ADDRESS=",
		"XDG_RUNTIME_DIR=" + t.TempDir(), "MCPCTL_STATE_DIR=" + t.TempDir(), "MCPCTL_TOKEN_STORE=auto"}
	r := secMcpctl(t, env, "--url", url, "--trace", "tools", "list")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(mark); err == nil {
		t.Error("mcpctl ran dbus-launch: a session bus started that outlives it")
	}
	if !strings.Contains(r.stderr, "# oauth: tokens in files under ") {
		t.Errorf("--trace does not say the tokens are in files:\n%s", r.stderr)
	}
}
