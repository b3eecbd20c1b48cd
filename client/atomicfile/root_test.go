//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// WriteIn and TryLockIn work relative to an open folder: a link planted
// in it is replaced (the write) or refused (the lock), never followed to
// the file it points to, and a write leaves no temporary file.
func TestInRootNotThroughLinks(t *testing.T) {
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("precious"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"x.json", "x.lock"} {
		if err := os.Symlink(victim, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteIn(root, "x.json", []byte("new")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "x.json")); string(got) != "new" {
		t.Errorf("the file holds %q", got)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "x.json")); err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
		t.Errorf("the file: %v %v", fi, err)
	}
	if f, err := TryLockIn(root, "x.lock"); err == nil {
		f.Close()
		t.Error("a lock was taken through a link out of the folder")
	}
	if got, _ := os.ReadFile(victim); string(got) != "precious" {
		t.Errorf("the file the links pointed to holds %q", got)
	}
	assertNoTemp(t, dir)
	a, err := TryLockIn(root, "y.lock")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := TryLockIn(root, "y.lock"); !errors.Is(err, ErrLocked) {
		t.Errorf("a second TryLockIn: %v, want ErrLocked", err)
	}
	a.Close()
}
