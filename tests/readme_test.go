package tests

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// The README is a newcomer's page (issue 15 item 7): it has to fit on one,
// and the reference lives in docs/.
func TestReadmeFitsOnAPage(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n >= 200 {
		t.Errorf("README.md has %d lines; keep it under 200 and move the reference to docs/", n)
	}
}

// docPages is README.md and every page under docs/, as paths relative to
// the tests folder.
func docPages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob("../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 10 {
		t.Fatalf("only %d pages in docs/: %q", len(pages), pages)
	}
	return append([]string{"../README.md"}, pages...)
}

var (
	fence      = regexp.MustCompile("(?ms)^[ \\t]*```.*?^[ \\t]*```[^\\n]*$")
	codeSpan   = regexp.MustCompile("`[^`]*`")
	mdLink     = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)\)`)
	mdHeading  = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *#*$`)
	withScheme = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// prose is a Markdown page without its code: fenced blocks and code spans
// hold examples (`a[b]=c`), not links or headings.
func prose(page string) string {
	return codeSpan.ReplaceAllString(fence.ReplaceAllString(page, ""), "")
}

// links are the targets of a page's Markdown links.
func links(page string) []string {
	var out []string
	for _, m := range mdLink.FindAllStringSubmatch(prose(page), -1) {
		out = append(out, m[1])
	}
	return out
}

// anchors are the ids GitHub gives a page's headings: lower case, spaces
// to hyphens, punctuation dropped, and -1, -2… for a heading repeated.
func anchors(page string) map[string]bool {
	out := map[string]bool{}
	for _, m := range mdHeading.FindAllStringSubmatch(fence.ReplaceAllString(page, ""), -1) {
		var b strings.Builder
		for _, r := range strings.ToLower(strings.ReplaceAll(m[1], "`", "")) {
			switch {
			case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteRune('-')
			}
		}
		id := b.String()
		for n := 1; out[id]; n++ {
			id = b.String() + "-" + strconv.Itoa(n)
		}
		out[id] = true
	}
	return out
}

// Every relative link of README.md and docs/*.md names a file that exists,
// and an #anchor names a heading of that page, so that moving a section
// cannot leave a link pointing at nothing.
func TestDocLinksResolve(t *testing.T) {
	t.Parallel()
	checked := 0
	for _, page := range docPages(t) {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, target := range links(string(data)) {
			if withScheme.MatchString(target) {
				continue // https://, mailto:: not ours to check
			}
			checked++
			file, anchor, _ := strings.Cut(target, "#")
			dest := page
			if file != "" {
				dest = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
			}
			st, err := os.Stat(dest)
			if err != nil {
				t.Errorf("%s links to %s, which does not exist", page[3:], target)
				continue
			}
			if anchor == "" {
				continue
			}
			if st.IsDir() || !strings.HasSuffix(dest, ".md") {
				t.Errorf("%s links to %s: an anchor in something that is not a Markdown page", page[3:], target)
				continue
			}
			body, err := os.ReadFile(dest)
			if err != nil {
				t.Fatal(err)
			}
			if !anchors(string(body))[anchor] {
				t.Errorf("%s links to %s, but %s has no heading #%s", page[3:], target, filepath.Base(dest), anchor)
			}
		}
	}
	if checked < 40 {
		t.Errorf("only %d relative links found in README.md and docs/: is the link pattern broken?", checked)
	}
}

// docs/README.md is the index: it links every page of docs/.
func TestDocsIndexListsEveryPage(t *testing.T) {
	t.Parallel()
	index, err := os.ReadFile("../docs/README.md")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, target := range links(string(index)) {
		file, _, _ := strings.Cut(target, "#")
		listed[file] = true
	}
	for _, page := range docPages(t)[1:] {
		name := filepath.Base(page)
		if name != "README.md" && !listed[name] {
			t.Errorf("docs/README.md does not link docs/%s", name)
		}
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "(docs/README.md)") {
		t.Error("README.md does not link the docs index, docs/README.md")
	}
}

// The README's quick start shows what the commands print at a terminal.
// Each "$ command" of its transcripts is run as written, in order, by sh
// at a real 80-column pseudo-terminal, against the demo server built as
// the README says (./demo-server), in an empty home; what it prints must
// be what the README shows (with that home for /home/ada).
func TestReadmeQuickStart(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	section := string(data)
	i := strings.Index(section, "\n## Quick start\n")
	if i < 0 {
		t.Fatal("README.md has no section 'Quick start'")
	}
	section = section[i+1:]
	if j := strings.Index(section, "\n## "); j >= 0 {
		section = section[:j]
	}
	type step struct{ cmd, want string }
	var steps []step
	for _, block := range fence.FindAllString(section, -1) {
		lines := strings.Split(block, "\n")
		lines = lines[1 : len(lines)-1]
		if len(lines) == 0 || !strings.HasPrefix(lines[0], "$ ") {
			continue // the build lines, shown without a prompt
		}
		for _, l := range lines {
			if cmd, ok := strings.CutPrefix(l, "$ "); ok {
				steps = append(steps, step{cmd: cmd})
			} else {
				steps[len(steps)-1].want += l + "\n"
			}
		}
	}
	if len(steps) < 5 {
		t.Fatalf("the quick start shows %d commands, want 5", len(steps))
	}

	work, home := t.TempDir(), t.TempDir()
	if err := os.Symlink(filepath.Join(buildDemo(t), "demo"), filepath.Join(work, "demo-server")); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + linkBinaries(t) + ":" + os.Getenv("PATH"), "HOME=" + home, "PWD=" + work,
		"NO_COLOR=1", "TERM=xterm"}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MCPCTL_") && !strings.HasPrefix(kv, "XDG_") &&
			!strings.HasPrefix(kv, "PATH=") && !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "PWD=") {
			env = append(env, kv)
		}
	}
	for _, s := range steps {
		cmd := exec.Command("sh", "-c", s.cmd)
		cmd.Dir, cmd.Env = work, env
		code, screen := runCmdAtTerminal(t, cmd, 80)
		got := string(screen)
		if code != 0 {
			t.Errorf("$ %s\nexit %d, want 0; it printed:\n%s", s.cmd, code, got)
			continue
		}
		want := strings.ReplaceAll(s.want, "/home/ada", home)
		if got != want {
			t.Errorf("$ %s\nprints:\n%s\nthe README shows:\n%s", s.cmd, got, want)
		}
	}
}
