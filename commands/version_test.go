package commands

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestStdioChildrenWording: each system's build says, in mcpctl version,
// what is ended with a stdio server there; the Windows build must not claim
// process groups, which Windows lacks (docs/reliability.md).
func TestStdioChildrenWording(t *testing.T) {
	win := stdioChildren("windows")
	if !strings.Contains(win, "server process only") || !strings.Contains(win, "not ended") {
		t.Errorf("windows: %q does not say that only the server is ended", win)
	}
	for _, goos := range []string{"linux", "darwin", "freebsd"} {
		if s := stdioChildren(goos); !strings.Contains(s, "process group") || s == win {
			t.Errorf("%s: %q", goos, s)
		}
	}
	if !strings.Contains(stdioChildren("linux"), "subreaper") {
		t.Errorf("linux: %q does not name the subreaper", stdioChildren("linux"))
	}
}

func TestVersionText(t *testing.T) {
	v := versionInfo{
		Version: "1.4.0", Commit: "0123456789abcdef0123456789abcdef01234567", CommitTime: "2026-11-30T12:00:00Z", Modified: true,
		Go: "go1.27.3", Platform: "windows/arm64",
		Protocol:      versionProtocol{Latest: "2026-07-28", Legacy: []string{"2025-11-25", "2024-11-05"}},
		StdioChildren: stdioChildren("windows"),
	}
	want := "mcpctl 1.4.0\n" +
		"commit:   0123456789abcdef0123456789abcdef01234567 (2026-11-30T12:00:00Z), modified\n" +
		"go:       go1.27.3 windows/arm64\n" +
		"protocol: 2026-07-28; legacy 2025-11-25, 2024-11-05\n" +
		"stdio:    " + stdioChildren("windows") + "\n"
	if got := string(versionText(v)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	v.Commit, v.CommitTime, v.Modified = "", "", false
	if got := string(versionText(v)); !strings.Contains(got, "commit:   unknown (built without git)\n") {
		t.Errorf("no commit: got\n%s", got)
	}
}

// TestVersionStamped: the release build's -X Commit=… wins over whatever
// the Go build information says.
func TestVersionStamped(t *testing.T) {
	defer func(v, c, ct string) { Version, Commit, CommitTime = v, c, ct }(Version, Commit, CommitTime)
	Version, Commit, CommitTime = "1.4.0", "abc123", "2026-11-30T12:00:00Z"
	v := buildVersion()
	if v.Version != "1.4.0" || v.Commit != "abc123" || v.CommitTime != "2026-11-30T12:00:00Z" {
		t.Errorf("got %+v", v)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{`"version":"1.4.0"`, `"commit":"abc123"`, `"protocol":{"latest":"2026-07-28","legacy":[`, `"stdioChildren":"`} {
		if !strings.Contains(string(raw), field) {
			t.Errorf("%s lacks %s", raw, field)
		}
	}
}

// mcpctl version's flags: it takes no arguments, and -o and --jq are
// passed on as given.
func TestVersionFlags(t *testing.T) {
	t.Parallel()
	checkFlags(t, "", newCmdVersion, []flagCase[versionOptions]{
		{args: []string{"version"}, want: &versionOptions{}},
		{args: []string{"-o", "json", "version"}, want: &versionOptions{Output: "json"}},
		{args: []string{"--jq", ".go", "version"}, want: &versionOptions{JQ: ".go"}},
		{args: []string{"version", "extra"}, err: "usage: mcpctl version"},
	})
}
