// Command releasecheck checks what a GoReleaser run of .goreleaser.yaml
// left in its dist folder (tests/release.sh runs it after a snapshot
// release; docs/release.md):
//
//   - checksums.txt lists every archive and package, and each sum is right;
//   - an archive for each of the six targets (linux, darwin, windows ×
//     amd64, arm64), holding the binary, README.md, LICENSE, docs/*.md, every man page
//     and every completion script, byte for byte those of the checkout;
//   - each binary is for its target, static (CGO_ENABLED=0), built with
//     -trimpath and the shipped build's tag (read from its Go build
//     information, so the foreign ones are checked without running
//     them), and stamped with the version and commit;
//   - the Homebrew formula names the four macOS and Linux archives with
//     their checksums and installs the man pages and completions;
//   - the Scoop manifest names the two Windows zips with their checksums.
//
// The .deb and .rpm contents are checked by the script, with dpkg-deb and
// rpm, as a distribution would see them.
//
//	releasecheck -dist DIR -repo DIR -version VERSION -commit SHA
package main

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"debug/buildinfo"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// targets are the six the release builds; a change that breaks one of
// them fails the release check.
var targets = []struct{ goos, goarch string }{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

// completions are the scripts every archive carries (commands.CompletionFiles).
var completions = []string{"completions/mcpctl.bash", "completions/_mcpctl", "completions/mcpctl.fish", "completions/mcpctl.ps1"}

type checker struct {
	dist, repo, version, commit string
	sums                        map[string]string
	failed                      bool
}

func main() {
	var c checker
	flag.StringVar(&c.dist, "dist", "", "GoReleaser's dist `DIR`")
	flag.StringVar(&c.repo, "repo", ".", "the checkout the release was made from")
	flag.StringVar(&c.version, "version", "", "the release's `VERSION` (without v)")
	flag.StringVar(&c.commit, "commit", "", "the commit it was made from")
	flag.Parse()
	if c.dist == "" || c.version == "" || c.commit == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: releasecheck -dist DIR -repo DIR -version VERSION -commit SHA")
		os.Exit(2)
	}
	c.checkSums()
	files := c.expectedFiles()
	for _, t := range targets {
		c.checkArchive(t.goos, t.goarch, files)
	}
	c.checkFormula()
	c.checkScoop()
	if c.failed {
		os.Exit(1)
	}
	fmt.Println("releasecheck: ok: checksums, 6 archives (binary, README.md, LICENSE, docs, man pages, completions), Homebrew formula, Scoop manifest")
}

func (c *checker) failf(format string, a ...any) {
	c.failed = true
	fmt.Fprintf(os.Stderr, "releasecheck: "+format+"\n", a...)
}

func archiveName(version, goos, goarch string) string {
	ext := ".tar.gz"
	if goos == "windows" {
		ext = ".zip"
	}
	return fmt.Sprintf("mcpctl_%s_%s_%s%s", version, goos, goarch, ext)
}

// checkSums reads checksums.txt, checks every sum, and that every archive
// and package in dist is listed.
func (c *checker) checkSums() {
	c.sums = map[string]string{}
	f, err := os.Open(filepath.Join(c.dist, "checksums.txt"))
	if err != nil {
		c.failf("%v", err)
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok || len(sum) != 64 {
			c.failf("checksums.txt: not a sha256sum line: %q", sc.Text())
			continue
		}
		c.sums[name] = sum
		data, err := os.ReadFile(filepath.Join(c.dist, name))
		if err != nil {
			c.failf("checksums.txt lists %s: %v", name, err)
			continue
		}
		if got := sha256hex(data); got != sum {
			c.failf("checksums.txt: %s is %s, the file's sha256 is %s", name, sum, got)
		}
	}
	entries, _ := os.ReadDir(c.dist)
	packages := 0
	for _, e := range entries {
		n := e.Name()
		if strings.HasSuffix(n, ".tar.gz") || strings.HasSuffix(n, ".zip") || strings.HasSuffix(n, ".deb") || strings.HasSuffix(n, ".rpm") {
			packages++
			if _, ok := c.sums[n]; !ok {
				c.failf("checksums.txt does not list %s", n)
			}
		}
	}
	// Six archives, and a .deb and an .rpm for each Linux architecture.
	if packages != 10 {
		c.failf("dist holds %d archives and packages, want 10 (6 archives, 2 .deb, 2 .rpm)", packages)
	}
}

// expectedFiles maps each file an archive must hold (besides the binary)
// to its bytes in the checkout.
func (c *checker) expectedFiles() map[string][]byte {
	names := []string{"README.md", "LICENSE"}
	pages, _ := filepath.Glob(filepath.Join(c.repo, "man", "*.1"))
	if len(pages) == 0 {
		c.failf("no man pages in %s/man", c.repo)
	}
	for _, p := range pages {
		names = append(names, "man/"+filepath.Base(p))
	}
	// The reference the README links to travels with it.
	docs, _ := filepath.Glob(filepath.Join(c.repo, "docs", "*.md"))
	if len(docs) == 0 {
		c.failf("no docs in %s/docs", c.repo)
	}
	for _, p := range docs {
		names = append(names, "docs/"+filepath.Base(p))
	}
	names = append(names, completions...)
	files := map[string][]byte{}
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(c.repo, n))
		if err != nil {
			c.failf("%v", err)
			continue
		}
		files[n] = data
	}
	return files
}

func (c *checker) checkArchive(goos, goarch string, want map[string][]byte) {
	name := archiveName(c.version, goos, goarch)
	members, modes, err := readArchive(filepath.Join(c.dist, name))
	if err != nil {
		c.failf("%s: %v", name, err)
		return
	}
	for n, data := range want {
		got, ok := members[n]
		switch {
		case !ok:
			c.failf("%s does not hold %s", name, n)
		case !bytes.Equal(got, data):
			c.failf("%s: %s differs from the checkout's", name, n)
		}
	}
	bin := "mcpctl"
	if goos == "windows" {
		bin = "mcpctl.exe"
	}
	exe, ok := members[bin]
	if !ok {
		c.failf("%s does not hold %s", name, bin)
		return
	}
	if goos != "windows" && modes[bin]&0o111 == 0 {
		c.failf("%s: %s is not executable (mode %v)", name, bin, modes[bin])
	}
	c.checkBinary(name+": "+bin, exe, goos, goarch)
}

// checkBinary reads the Go build information every Go binary carries
// (ELF, Mach-O and PE alike).
func (c *checker) checkBinary(what string, exe []byte, goos, goarch string) {
	bi, err := buildinfo.Read(bytes.NewReader(exe))
	if err != nil {
		c.failf("%s: no Go build information: %v", what, err)
		return
	}
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	checks := []struct {
		ok   bool
		what string
	}{
		{settings["GOOS"] == goos && settings["GOARCH"] == goarch, "built for " + goos + "/" + goarch},
		{settings["CGO_ENABLED"] == "0", "static (CGO_ENABLED=0)"},
		{settings["-trimpath"] == "true", "built with -trimpath"},
		{strings.Contains(settings["-tags"], "urfave_cli_no_docs"), "built with -tags urfave_cli_no_docs"},
		// -trimpath leaves -ldflags out of the build information: the
		// strings -X set are looked for in the binary itself (the Linux
		// amd64 one is also run, from the installed .deb).
		{bytes.Contains(exe, []byte(c.version)), "stamped with version " + c.version},
		{bytes.Contains(exe, []byte(c.commit)), "stamped with commit " + c.commit},
		{bi.Path == "github.com/mcpctl/mcpctl", "the mcpctl command"},
	}
	for _, ch := range checks {
		if !ch.ok {
			c.failf("%s: not %s (build info: path %s, %v)", what, ch.what, bi.Path, settings)
		}
	}
}

func readArchive(path string) (map[string][]byte, map[string]os.FileMode, error) {
	members := map[string][]byte{}
	modes := map[string]os.FileMode{}
	if strings.HasSuffix(path, ".zip") {
		z, err := zip.OpenReader(path)
		if err != nil {
			return nil, nil, err
		}
		defer z.Close()
		for _, f := range z.File {
			r, err := f.Open()
			if err != nil {
				return nil, nil, err
			}
			data, err := io.ReadAll(r)
			r.Close()
			if err != nil {
				return nil, nil, err
			}
			members[f.Name], modes[f.Name] = data, f.Mode()
		}
		return members, modes, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return nil, nil, err
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return members, modes, nil
		}
		if err != nil {
			return nil, nil, err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return nil, nil, err
		}
		members[h.Name], modes[h.Name] = data, h.FileInfo().Mode()
	}
}

// checkFormula: each macOS and Linux archive's URL followed by its
// checksum, no Windows archive, and the install lines for the man pages
// and completions.
func (c *checker) checkFormula() {
	path := filepath.Join(c.dist, "homebrew", "Formula", "mcpctl.rb")
	data, err := os.ReadFile(path)
	if err != nil {
		c.failf("Homebrew formula: %v", err)
		return
	}
	text := string(data)
	pairs := regexp.MustCompile(`url "([^"]+)"\s+sha256 "([0-9a-f]{64})"`).FindAllStringSubmatch(text, -1)
	named := map[string]string{}
	for _, p := range pairs {
		named[p[1][strings.LastIndex(p[1], "/")+1:]] = p[2]
	}
	var want []string
	for _, t := range targets {
		if t.goos != "windows" {
			want = append(want, archiveName(c.version, t.goos, t.goarch))
		}
	}
	c.sameArchives("Homebrew formula", named, want)
	for _, line := range []string{`bin.install "mcpctl"`, `man1.install Dir["man/*.1"]`, `bash_completion.install "completions/mcpctl.bash"`, `zsh_completion.install "completions/_mcpctl"`, `fish_completion.install "completions/mcpctl.fish"`, `version "` + c.version + `"`} {
		if !strings.Contains(text, line) {
			c.failf("Homebrew formula: no %s", line)
		}
	}
}

func (c *checker) checkScoop() {
	data, err := os.ReadFile(filepath.Join(c.dist, "scoop", "mcpctl.json"))
	if err != nil {
		c.failf("Scoop manifest: %v", err)
		return
	}
	var m struct {
		Version      string `json:"version"`
		Architecture map[string]struct {
			URL  string   `json:"url"`
			Bin  []string `json:"bin"`
			Hash string   `json:"hash"`
		} `json:"architecture"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		c.failf("Scoop manifest: %v", err)
		return
	}
	if m.Version != c.version {
		c.failf("Scoop manifest: version %q, want %q", m.Version, c.version)
	}
	named := map[string]string{}
	for arch, a := range m.Architecture {
		name := a.URL[strings.LastIndex(a.URL, "/")+1:]
		named[name] = a.Hash
		if want := map[string]string{"64bit": "amd64", "arm64": "arm64"}[arch]; !strings.HasSuffix(name, "_windows_"+want+".zip") {
			c.failf("Scoop manifest: architecture %s names %s", arch, name)
		}
		if len(a.Bin) != 1 || a.Bin[0] != "mcpctl.exe" {
			c.failf("Scoop manifest: architecture %s: bin %v, want [mcpctl.exe]", arch, a.Bin)
		}
	}
	c.sameArchives("Scoop manifest", named, []string{archiveName(c.version, "windows", "amd64"), archiveName(c.version, "windows", "arm64")})
}

// sameArchives checks that named (archive → sha256) is exactly want, each
// with the sum checksums.txt gives.
func (c *checker) sameArchives(what string, named map[string]string, want []string) {
	var got []string
	for n := range named {
		got = append(got, n)
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		c.failf("%s names %v, want %v", what, got, want)
	}
	for n, sum := range named {
		if c.sums[n] != sum {
			c.failf("%s: %s has sha256 %s, checksums.txt says %s", what, n, sum, c.sums[n])
		}
	}
}

func sha256hex(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}
