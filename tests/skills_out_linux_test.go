package tests

import (
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Issue 24, item 5: skills get --out into a folder another user can
// write (mode 1777, as /tmp). While mcpctl writes a skill there 200 times,
// the "other user" (a goroutine) exchanges the skill's references folder
// with a symbolic link to a folder outside, in one step and as fast as it
// can. mcpctl must never write there: each run writes the skill or refuses
// (exit 2, nothing written), and the outside folder keeps exactly what it
// had. Before, each path was checked with Lstat and then written by its
// path, and a swap in between replaced the file outside.
func TestSkillsOutSymlinkSwap(t *testing.T) {
	bin := faultBinaries(t)
	srv := startFakeHTTP(t, bin, "skills", false)
	u, err := url.Parse(srv)
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	shared := filepath.Join(work, "shared")
	victim := filepath.Join(work, "victim")
	for _, d := range []string{shared, victim} {
		if err := os.Mkdir(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(shared, 0o1777); err != nil { // like /tmp
		t.Fatal(err)
	}
	// What the victim's folder holds: a file of the name a skill file has
	// (as if the link went to ~/.ssh and the file were authorized_keys).
	kept := map[string]string{"authorized_keys": "ssh-ed25519 AAAA mine\n", "GUIDE.md": "mine\n"}
	for name, content := range kept {
		if err := os.WriteFile(filepath.Join(victim, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	run := func() *faultRun {
		t.Helper()
		marker := fmt.Sprintf("mcpctl-skills-swap-%d", os.Getpid())
		r := runFault(t, bin, nil, marker, 30*time.Second, "--url", srv, "--protocol-version", "2026-07-28", "skills", "get", "git-workflow", "--out", shared)
		if goCrash.MatchString(r.stderr) {
			t.Fatalf("Go crashed:\n%s", r.stderr)
		}
		return r
	}
	if r := run(); r.code != 0 {
		t.Fatalf("the first write: exit %d\n%s", r.code, r.stderr)
	}
	skill := filepath.Join(shared, strings.ReplaceAll(u.Host, ":", "_"), "git-workflow")
	if _, err := os.Stat(filepath.Join(skill, "references", "GUIDE.md")); err != nil {
		t.Fatal(err)
	}

	// The attacker: the references folder and a symbolic link to the
	// victim's folder, exchanged in one step (renameat2 RENAME_EXCHANGE)
	// again and again, so that the name is always one or the other.
	target := filepath.Join(skill, "references")
	link := filepath.Join(skill, "link")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var swaps atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			if unix.Renameat2(unix.AT_FDCWD, target, unix.AT_FDCWD, link, unix.RENAME_EXCHANGE) == nil {
				swaps.Add(1)
			}
		}
	}()
	codes := map[int]int{}
	const tries = 200
	for range tries {
		r := run()
		codes[r.code]++
		if r.code != 0 && r.code != 2 {
			t.Errorf("exit %d, want 0 (written) or 2 (refused)\n%s", r.code, r.stderr)
		}
		if r.code == 2 && !strings.Contains(r.stderr, "nothing is written") {
			t.Errorf("a refusal that does not say nothing was written:\n%s", r.stderr)
		}
	}
	stop.Store(true)
	wg.Wait()
	t.Logf("%d runs: exit codes %v; %d swaps", tries, codes, swaps.Load())
	if swaps.Load() == 0 {
		t.Fatal("the attacker never swapped a folder: the test tested nothing")
	}
	_ = filepath.WalkDir(shared, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".tmp-") {
			t.Errorf("a temporary file was left behind: %s", p)
		}
		return nil
	})
	entries, err := os.ReadDir(victim)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		content, ok := kept[e.Name()]
		data, _ := os.ReadFile(filepath.Join(victim, e.Name()))
		if !ok || string(data) != content {
			t.Errorf("the folder outside holds %s (%q): mcpctl wrote through a link", e.Name(), data)
		}
	}
}
