package tests

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/mcpctl/mcpctl/commands"
	"github.com/mcpctl/mcpctl/output"
)

// needTool finds a program a test needs. Missing, the test is skipped,
// unless MCPCTL_REQUIRE_TOOLS is set (tests/run.sh sets it and installs
// them), so that CI cannot pass by skipping.
func needTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("MCPCTL_REQUIRE_TOOLS") != "" {
			t.Fatalf("%s is required (MCPCTL_REQUIRE_TOOLS is set) but not installed", name)
		}
		t.Skipf("%s is not installed", name)
	}
	return p
}

// TestRequiredTools fails in CI when a program the script tests skip
// without is missing.
func TestRequiredTools(t *testing.T) {
	for _, name := range []string{"bash", "zsh", "fish", "groff", "make"} {
		needTool(t, name)
	}
}

func runMcpctl(t *testing.T, args ...string) string {
	t.Helper()
	ios, _, out, errOut := output.Test()
	if code := commands.Run(context.Background(), commands.ProcessFactory(ios), append([]string{"mcpctl"}, args...)); code != 0 {
		t.Fatalf("mcpctl %s: exit %d: %s", strings.Join(args, " "), code, errOut)
	}
	return out.String()
}

// sameFiles compares the files of a checked-in folder with freshly
// generated ones.
func sameFiles(t *testing.T, checkedIn, fresh, regenerate string) {
	t.Helper()
	names := func(dir string) []string {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range entries {
			out = append(out, e.Name())
		}
		sort.Strings(out)
		return out
	}
	want, got := names(fresh), names(checkedIn)
	if strings.Join(want, " ") != strings.Join(got, " ") {
		t.Errorf("%s holds %v, the app makes %v; run %s", checkedIn, got, want, regenerate)
	}
	for _, n := range want {
		a, _ := os.ReadFile(filepath.Join(checkedIn, n))
		b, _ := os.ReadFile(filepath.Join(fresh, n))
		if string(a) != string(b) {
			t.Errorf("%s/%s is out of date; run %s", checkedIn, n, regenerate)
		}
	}
}

func TestManPagesCurrent(t *testing.T) {
	dir := t.TempDir()
	runMcpctl(t, "man", "--dir", dir)
	sameFiles(t, "../man", dir, "go generate ./... (go run . man --dir man)")
}

func TestCompletionsCurrent(t *testing.T) {
	dir := t.TempDir()
	runMcpctl(t, "completion", "--dir", dir)
	sameFiles(t, "../completions", dir, "go generate ./... (go run . completion --dir completions)")
	for shell, file := range commands.CompletionFiles {
		want, err := os.ReadFile(filepath.Join("../completions", file))
		if err != nil {
			t.Fatal(err)
		}
		if got := runMcpctl(t, "completion", shell); got != string(want) {
			t.Errorf("mcpctl completion %s differs from completions/%s", shell, file)
		}
	}
}

// TestManPagesRender renders every page as man would, with every groff
// warning on: none may appear, and each page has its sections.
func TestManPagesRender(t *testing.T) {
	groff := needTool(t, "groff")
	pages, err := filepath.Glob("../man/*.1")
	if err != nil || len(pages) < 30 {
		t.Fatalf("man pages: %v %v", pages, err)
	}
	for _, page := range pages {
		cmd := exec.Command(groff, "-man", "-Tutf8", "-ww", page)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil || stderr.Len() > 0 {
			t.Errorf("groff %s: %v\n%s", page, err, stderr.String())
			continue
		}
		text := plain(out)
		for _, section := range []string{"NAME", "SYNOPSIS", "DESCRIPTION", "EXAMPLES", "EXIT STATUS", "ENVIRONMENT", "FILES", "SEE ALSO"} {
			if !strings.Contains(text, "\n"+section+"\n") {
				t.Errorf("%s has no %s section", page, section)
			}
		}
		// Options and examples come out as typed: ASCII hyphens and quotes.
		if strings.ContainsAny(text, "\u2010\u2212\u2019\u02dc") {
			t.Errorf("%s renders typographic characters where commands need ASCII", page)
		}
	}
	out, _ := exec.Command(groff, "-man", "-Tutf8", "-ww", "../man/mcpctl-tools-call.1").Output()
	for _, want := range []string{"mcpctl -s weather tools call weather_current location=SF units=imperial", "--no-validate", "MCPCTL_SERVER", "~/.config/mcpctl/config.yaml"} {
		if !strings.Contains(plain(out), want) {
			t.Errorf("mcpctl-tools-call.1 lacks %q", want)
		}
	}
}

// plain removes what grotty adds for bold and underline: SGR escapes, or
// overstriking with backspaces.
func plain(b []byte) string {
	return overstrike.ReplaceAllString(sgr.ReplaceAllString(string(b), ""), "")
}

var (
	sgr        = regexp.MustCompile("\x1b\\[[0-9;]*m")
	overstrike = regexp.MustCompile(".\x08")
)

// TestMakeInstall installs into a temporary PREFIX and checks that the
// binary runs and the man pages and completions are where they belong.
func TestMakeInstall(t *testing.T) {
	makeBin := needTool(t, "make")
	prefix := t.TempDir()
	cmd := exec.Command(makeBin, "-s", "-C", "..", "install", "PREFIX="+prefix, "BIN="+filepath.Join(t.TempDir(), "mcpctl"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make install: %v\n%s", err, out)
	}
	for _, f := range []string{
		"bin/mcpctl", "share/man/man1/mcpctl.1", "share/man/man1/mcpctl-tools-call.1",
		"share/bash-completion/completions/mcpctl", "share/zsh/site-functions/_mcpctl",
		"share/fish/vendor_completions.d/mcpctl.fish", "share/mcpctl/mcpctl.ps1",
	} {
		if _, err := os.Stat(filepath.Join(prefix, f)); err != nil {
			t.Errorf("not installed: %s", f)
		}
	}
	out, err := exec.Command(filepath.Join(prefix, "bin", "mcpctl"), "--version").Output()
	if err != nil || !strings.HasPrefix(string(out), "mcpctl version ") {
		t.Errorf("installed mcpctl --version: %q %v", out, err)
	}
}
