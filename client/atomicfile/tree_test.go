package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestCheckTree(t *testing.T) {
	long := strings.Repeat("n", maxName+1)
	deep := strings.Repeat(strings.Repeat("d", 200)+"/", maxPath()/200+1) + "f"
	for _, c := range []struct {
		paths []string
		want  string // "" for none
	}{
		{[]string{"SKILL.md", "references/GUIDE.md", "references/more/x", "tools.md", "tools/run.sh"}, ""},
		{[]string{strings.Repeat("n", maxName)}, ""},
		{[]string{"SKILL.md", "tools", "tools/run.sh"}, "tools is both a file and the folder of tools/run.sh"},
		{[]string{"tools/run.sh", "SKILL.md", "tools"}, "tools is both a file and the folder of tools/run.sh"},
		{[]string{"a/b/c", "a/b"}, "a/b is both a file and the folder of a/b/c"},
		{[]string{"a", "a"}, "a is listed twice"},
		{[]string{"x/" + long}, "x/nnnnnnnnnnnnnnnn… has a name of 256 bytes, more than the 255 a file name may have"},
		{[]string{deep}, "is a path of"},
		{[]string{"a/../b"}, `has a segment ".." that is not a file name`},
		{[]string{"a//b"}, `has a segment "" that is not a file name`},
		{[]string{"a\x00b"}, "that is not a file name"},
	} {
		err := CheckTree(c.paths)
		var ne *NameError
		switch {
		case c.want == "" && err != nil:
			t.Errorf("CheckTree(%q): %v", c.paths, err)
		case c.want != "" && (!errors.As(err, &ne) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("CheckTree(%.80q) = %v, want a NameError saying %q", c.paths, err, c.want)
		}
	}
}

func TestShortPath(t *testing.T) {
	for in, want := range map[string]string{
		"references/GUIDE.md":                                "references/GUIDE.md",
		"x/" + strings.Repeat("é", 20):                       "x/" + strings.Repeat("é", 8) + "…",
		strings.Repeat(strings.Repeat("d", 40)+"/", 5) + "f": "dddddddddddddddd…/…/f",
	} {
		if got := ShortPath(in); got != want {
			t.Errorf("ShortPath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWriteTree(t *testing.T) {
	top := filepath.Join(t.TempDir(), "out", "skills")
	files := []TreeFile{{"SKILL.md", []byte("one")}, {"references/GUIDE.md", []byte("two")}}
	if err := WriteTree(top, "srv/acme/x", files, 0o755); err != nil {
		t.Fatal(err)
	}
	files[0].Data = []byte("three")
	if err := WriteTree(top, "srv/acme/x", files, 0o755); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(top, "srv", "acme", "x")
	for rel, want := range map[string]string{"SKILL.md": "three", "references/GUIDE.md": "two"} {
		p := filepath.Join(base, filepath.FromSlash(rel))
		if got, err := os.ReadFile(p); err != nil || string(got) != want {
			t.Errorf("%s holds %q (%v), want %q", rel, got, err, want)
		}
		if fi, _ := os.Stat(p); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", rel, fi.Mode().Perm())
		}
	}
	assertNoTemp(t, base)
	assertNoTemp(t, filepath.Join(base, "references"))
}

// A tree refused for what the disk holds writes nothing, not even its
// folders or the top folder it would have made.
func TestWriteTreeAllOrNothing(t *testing.T) {
	for _, c := range []struct {
		name    string
		prepare func(t *testing.T, base string)
		want    string
	}{
		{"folder where a file goes", func(t *testing.T, base string) {
			mkdirAll(t, filepath.Join(base, "references", "GUIDE.md"))
		}, "references/GUIDE.md is a folder where a file goes"},
		{"file where a folder goes", func(t *testing.T, base string) {
			mkdirAll(t, base)
			if err := os.WriteFile(filepath.Join(base, "references"), nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}, "references is not a folder"},
		{"symbolic link", func(t *testing.T, base string) {
			if runtime.GOOS == "windows" {
				t.Skip("symbolic links need privileges on Windows")
			}
			mkdirAll(t, base)
			if err := os.Symlink(t.TempDir(), filepath.Join(base, "references")); err != nil {
				t.Fatal(err)
			}
		}, "references is a symbolic link; not following it"},
	} {
		t.Run(c.name, func(t *testing.T) {
			top := filepath.Join(t.TempDir(), "out")
			base := filepath.Join(top, "srv", "x")
			c.prepare(t, base)
			err := WriteTree(top, "srv/x", []TreeFile{{"SKILL.md", []byte("one")}, {"references/GUIDE.md", []byte("two")}}, 0o755)
			var te *TreeError
			if !errors.As(err, &te) || !strings.HasSuffix(err.Error(), c.want) {
				t.Fatalf("WriteTree: %v, want a TreeError ending %q", err, c.want)
			}
			if _, err := os.Lstat(filepath.Join(base, "SKILL.md")); err == nil {
				t.Error("SKILL.md was written")
			}
			assertNoTemp(t, base)
		})
	}
	// Refused names: top is not even made.
	top := filepath.Join(t.TempDir(), "out")
	err := WriteTree(top, "srv", []TreeFile{{"a", nil}, {"a/b", nil}}, 0o755)
	var ne *NameError
	if !errors.As(err, &ne) {
		t.Fatalf("WriteTree: %v, want a NameError", err)
	}
	if _, err := os.Lstat(top); err == nil {
		t.Error("the top folder was made")
	}
}

// A top folder that cannot be made is a TreeError too: nothing was
// written.
func TestWriteTreeTopNotMade(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	err := WriteTree(filepath.Join(file, "top"), "x", []TreeFile{{"f", []byte("1")}}, 0o755)
	var te *TreeError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "could not be written") {
		t.Fatalf("WriteTree under a file: %v, want a TreeError", err)
	}
}

func mkdirAll(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

// CreateTree writes only new files: a name the disk holds already, a
// link a server could have planted included, is refused before anything
// is written, and what is there stays as it was.
func TestCreateTree(t *testing.T) {
	top := t.TempDir()
	files := []TreeFile{{"content-1.png", []byte("one")}, {"content-2.bin", []byte("two")}}
	if err := CreateTree(top, "", files, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(top, "content-2.bin")); err != nil || string(got) != "two" {
		t.Fatalf("content-2.bin holds %q (%v)", got, err)
	}
	err := CreateTree(top, "", []TreeFile{{"content-0.txt", []byte("new")}, {"content-1.png", []byte("again")}}, 0o755)
	var te *TreeError
	if !errors.As(err, &te) || !te.Exists || err.Error() != "content-1.png exists already" {
		t.Fatalf("CreateTree over a file: %v, want a TreeError saying it exists", err)
	}
	if got, _ := os.ReadFile(filepath.Join(top, "content-1.png")); string(got) != "one" {
		t.Errorf("content-1.png was replaced: %q", got)
	}
	if _, err := os.Lstat(filepath.Join(top, "content-0.txt")); err == nil {
		t.Error("a file of the refused tree was written")
	}
	if runtime.GOOS != "windows" {
		outside := filepath.Join(t.TempDir(), "target")
		if err := os.Symlink(outside, filepath.Join(top, "planted.png")); err != nil {
			t.Fatal(err)
		}
		err := CreateTree(top, "", []TreeFile{{"planted.png", []byte("x")}}, 0o755)
		if !errors.As(err, &te) {
			t.Fatalf("CreateTree over a link: %v, want a TreeError", err)
		}
		if _, err := os.Lstat(outside); err == nil {
			t.Error("the link was followed")
		}
	}
	assertNoTemp(t, top)
}

// A name taken between the check and the last step: CreateTree does not
// replace it, and takes away the files it had put in place already.
func TestCreateTreeNameTakenMeanwhile(t *testing.T) {
	top := t.TempDir()
	w := &treeWriter{perm: 0o755, dirs: map[string]*os.Root{}}
	defer w.close()
	paths := []string{"a", "b"}
	if err := w.stage(top, paths, []TreeFile{{"a", []byte("1")}, {"b", []byte("2")}}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(top, "b"), []byte("theirs"), 0o600); err != nil {
		t.Fatal(err)
	}
	err := w.commit()
	var te *TreeError
	if !errors.As(err, &te) || !te.Exists || err.Error() != "b exists already" {
		t.Fatalf("commit: %v, want a TreeError saying b exists", err)
	}
	if got, _ := os.ReadFile(filepath.Join(top, "b")); string(got) != "theirs" {
		t.Errorf("b was replaced: %q", got)
	}
	if _, err := os.Lstat(filepath.Join(top, "a")); err == nil {
		t.Error("a, put in place before b failed, was left")
	}
	assertNoTemp(t, top)
}
