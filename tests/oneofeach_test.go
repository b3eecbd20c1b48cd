package tests

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Issue 14 item 4 (one of each): mcpctl has one atomic file write
// (client/atomicfile), one ordered-JSON package (client/ojson), one place
// that knows where its files go (config/dirs.go) and one typer for
// command-line text (client/schema). TestOneOfEach fails when the
// tell-tale call of a second copy turns up anywhere else in the
// program's code: a temporary file renamed or linked into place, a JSON
// decoder walked token by token, a look at the environment or the system
// for a base folder, text parsed into a number or a boolean by hand.
func TestOneOfEach(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	rules := []struct {
		what  string
		re    *regexp.Regexp
		owner string // the one file or folder allowed to do it
	}{
		{"an atomic write (temporary file, then rename or link)", regexp.MustCompile(`\bos\.(Rename|Link|CreateTemp)\(`), "client/atomicfile/"},
		{"an ordered-JSON decoder (json.Decoder walked token by token)", regexp.MustCompile(`\bjson\.Delim\b`), "client/ojson/"},
		{"a directory lookup", regexp.MustCompile(`\bos\.User(Cache|Config|Home)Dir\(|Getenv\("(XDG_[A-Z_]+|HOME|USERPROFILE|LocalAppData|AppData|MCPCTL_(CONFIG|CACHE_DIR|STATE_DIR))"\)`), "config/dirs.go"},
		{"a typer of command-line text", regexp.MustCompile(`\bstrconv\.Parse(Float|Bool)\(`), "client/schema/"},
	}
	var files []string
	for _, dir := range []string{"main.go", "client", "commands", "config", "output"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 50 {
		t.Fatalf("found %d Go files, not the program", len(files))
	}
	found := map[string]bool{}
	for _, p := range files {
		rel := filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
		for n := 1; sc.Scan(); n++ {
			line := strings.TrimSpace(sc.Text())
			if strings.HasPrefix(line, "//") {
				continue
			}
			for _, r := range rules {
				if !r.re.MatchString(line) {
					continue
				}
				if strings.HasPrefix(rel, r.owner) {
					found[r.owner] = true
					continue
				}
				t.Errorf("%s:%d: %s outside %s: %s", rel, n, r.what, r.owner, line)
			}
		}
		f.Close()
	}
	// The patterns still find the one copy: they have not gone stale.
	for _, r := range rules {
		if r.owner != "client/schema/" && !found[r.owner] {
			t.Errorf("%s: the rule for %s matches nothing there; update it", r.owner, r.what)
		}
	}
}
