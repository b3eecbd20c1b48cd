package tests

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// mcpctl contains only code its team wrote; other projects' code comes in
// through go.mod, unmodified. TestNoForeignCode reads every file git
// tracks and fails on the marks a copy leaves: a copyright or licence
// notice that is not mcpctl's, a licence file other than the top-level
// LICENSE, or a vendored layout (vendor/, third_party/, a dependency's name
// under internal/, a module path as folders).
func TestNoForeignCode(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	files := strings.Split(strings.TrimRight(string(out), "\x00"), "\x00")
	if len(files) < 50 || !contains(files, "go.mod") {
		t.Fatalf("git ls-files listed %d files, not the tree", len(files))
	}
	deps := dependencyNames(t, filepath.Join(root, "go.mod"))
	self := filepath.ToSlash(filepath.Join("tests", "nocopies_test.go"))
	for _, f := range files {
		if why := foreignPath(f, deps); why != "" {
			t.Errorf("%s: %s", f, why)
		}
		if f == "LICENSE" || f == self {
			continue // our licence; and this file, which spells the marks out
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if os.IsNotExist(err) {
			continue // deleted in the work tree, not yet in the index
		}
		if err != nil {
			t.Fatal(err)
		}
		if bytes.IndexByte(data, 0) >= 0 {
			continue // binary
		}
		for i, line := range lines(data) {
			if why := foreignNotice(line, f == "README.md"); why != "" {
				t.Errorf("%s:%d: %s: %s", f, i+1, why, strings.TrimSpace(line))
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func lines(data []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

// The patterns are assembled from pieces so that this file does not match
// them itself.
var (
	copyrightNotice = regexp.MustCompile(`(?i)\bcopy` + `right\s*(\(c\)|©|[0-9]{4})|©\s*([0-9]{4}|\p{Lu})`)
	licensedUnder   = regexp.MustCompile(`(?i)\blicen[cs]ed\s+` + `under\b`)
	spdxLine        = regexp.MustCompile(`SPDX-` + `([A-Za-z]+(-[A-Za-z]+)*):\s*(.*)`)
	licenceFile     = regexp.MustCompile(`(?i)^(licen[cs]e|copying|notice|unlicense|patents)([._-].*)?$`)
)

// foreignNotice reports a line that marks someone else's work. The
// top-level README may say how mcpctl itself is licensed.
func foreignNotice(line string, topReadme bool) string {
	ours := strings.Contains(strings.ToLower(line), "mcpctl")
	switch {
	case copyrightNotice.MatchString(line) && !ours:
		return "a copyright notice that is not mcpctl's"
	case licensedUnder.MatchString(line) && !ours && !topReadme:
		return "a licence notice that is not mcpctl's"
	}
	if m := spdxLine.FindStringSubmatch(line); m != nil {
		switch {
		case m[1] == "License-Identifier" && strings.TrimSpace(m[3]) == "Apache-2.0":
			// mcpctl's own licence
		case m[1] == "License-Identifier":
			return "an SPDX licence that is not mcpctl's"
		case !ours:
			return "an SPDX line that names someone else"
		}
	}
	return ""
}

// foreignPath reports a path that looks vendored.
func foreignPath(f string, deps map[string]bool) string {
	segs := strings.Split(f, "/")
	if licenceFile.MatchString(path.Base(f)) && f != "LICENSE" {
		return "a licence file; the only one is the top-level LICENSE"
	}
	for i, s := range segs[:len(segs)-1] {
		switch strings.ToLower(s) {
		case "vendor", "third_party", "third-party", "thirdparty":
			return "a vendored folder (" + s + "/)"
		case "github.com", "golang.org", "gopkg.in", "google.golang.org", "go.googlesource.com":
			return "a module path as folders (" + s + "/)"
		case "internal":
			if i+1 < len(segs)-1 && deps[strings.ToLower(segs[i+1])] {
				return "a dependency's name under internal/ (" + segs[i+1] + ")"
			}
		}
	}
	return ""
}

// dependencyNames lists the names a copy of a required module would likely
// get as a folder: github.com/santhosh-tekuri/jsonschema/v6 gives
// "jsonschema", github.com/mattn/go-isatty "go-isatty" and "isatty",
// gopkg.in/yaml.v3 "yaml.v3" and "yaml".
func dependencyNames(t *testing.T, goMod string) map[string]bool {
	data, err := os.ReadFile(goMod)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	inRequire := false
	for _, line := range lines(data) {
		line = strings.TrimSpace(line)
		var mod string
		switch {
		case strings.HasPrefix(line, "require ("):
			inRequire = true
			continue
		case inRequire && line == ")":
			inRequire = false
			continue
		case inRequire:
			mod, _, _ = strings.Cut(line, " ")
		case strings.HasPrefix(line, "require "):
			mod, _, _ = strings.Cut(strings.TrimPrefix(line, "require "), " ")
		default:
			continue
		}
		elems := strings.Split(mod, "/")
		base := elems[len(elems)-1]
		if regexp.MustCompile(`^v[0-9]+$`).MatchString(base) && len(elems) > 1 {
			base = elems[len(elems)-2]
		}
		base = strings.ToLower(base)
		for _, n := range []string{base, strings.TrimPrefix(base, "go-"), strings.TrimSuffix(base, "-go"),
			regexp.MustCompile(`\.v[0-9]+$`).ReplaceAllString(base, "")} {
			if len(n) >= 3 {
				names[n] = true
			}
		}
	}
	if !names["gojq"] || !names["cli"] {
		t.Fatalf("read no dependencies from %s (%d names)", goMod, len(names))
	}
	return names
}
