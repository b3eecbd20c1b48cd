package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

func TestWriteCreatesPrivateFileAndFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	file := filepath.Join(dir, "x.json")
	if err := Write(file, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := Write(file, []byte("two")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(file); string(got) != "two" {
		t.Errorf("file holds %q, want two", got)
	}
	if runtime.GOOS != "windows" {
		if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o600 {
			t.Errorf("file mode %v, want 0600", fi.Mode().Perm())
		}
		if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
			t.Errorf("folder mode %v, want 0700", fi.Mode().Perm())
		}
	}
	assertNoTemp(t, dir)
}

func TestWriteFailureLeavesNoTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "sub")
	if err := os.Mkdir(target, 0o700); err != nil {
		t.Fatal(err)
	}
	// A directory cannot be replaced by a file.
	if err := os.WriteFile(filepath.Join(target, "keep"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(target, []byte("x")); err == nil {
		t.Fatal("replacing a non-empty directory succeeded")
	}
	assertNoTemp(t, dir)
}

func TestCreateFirstWins(t *testing.T) {
	file := filepath.Join(t.TempDir(), "key")
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = Create(file, []byte{byte('a' + i)})
		}()
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, os.ErrExist):
			t.Errorf("a losing Create: %v, want ErrExist", err)
		}
	}
	if won != 1 {
		t.Errorf("%d writers won, want 1", won)
	}
	if got, _ := os.ReadFile(file); len(got) != 1 {
		t.Errorf("file holds %q", got)
	}
	assertNoTemp(t, filepath.Dir(file))
}

func TestIsTemp(t *testing.T) {
	dir := t.TempDir()
	tmp, err := writeTemp(filepath.Join(dir, "x"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !IsTemp(filepath.Base(tmp)) {
		t.Errorf("IsTemp(%q) = false", filepath.Base(tmp))
	}
	if IsTemp("x.json") {
		t.Error("IsTemp(x.json) = true")
	}
}

func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if IsTemp(e.Name()) {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}
