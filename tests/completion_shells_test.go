package tests

// Issue 13, completion injection: a server's tool names, argument keys and
// enum values are shell code. Typed at a real interactive shell — TAB,
// then Enter — each must reach mcpctl as the one literal word the server
// named, and nothing else may run. Names with line breaks or control
// characters must not be offered at all.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"github.com/creack/pty"

	"github.com/mcpctl/mcpctl/tests/fakemcp"
)

func TestCompletionInjectionBash(t *testing.T) {
	testCompletionInjection(t, "bash", false, []string{"--norc", "--noprofile", "-i"}, `PS1='mcpctl-test> '
source %[1]s/mcpctl.bash
`)
}

func TestCompletionInjectionZsh(t *testing.T) {
	testCompletionInjection(t, "zsh", true, []string{"-f", "-i"}, `PS1='mcpctl-test> '
autoload -Uz compinit && compinit -D -u
source %[1]s/_mcpctl
`)
}

func TestCompletionInjectionFish(t *testing.T) {
	testCompletionInjection(t, "fish", true, []string{"--no-config", "--private", "-i"}, `function fish_prompt; printf 'mcpctl-test> '; end
set -g fish_greeting
source %[1]s/mcpctl.fish
`)
}

// tabCase is a line typed after "mcpctl … tools call " ("\t" is a TAB),
// then Enter, and the call the server must have got.
type tabCase struct {
	keys string
	tool string
	args map[string]any
}

// testCompletionInjection starts shell at a pseudo-terminal with rc (a
// format: %[1]s is the folder holding the completion scripts) sourced,
// fills the cache with one tools list of the hostile server, and types
// every case. keyLeavesQuote: the shell leaves a quote the user opened
// open after an argument key (KEY=, no space follows), for the value to
// be typed inside it; bash's readline closes it.
func testCompletionInjection(t *testing.T, shell string, keyLeavesQuote bool, flags []string, rc string) {
	path := needTool(t, shell)
	bin := faultBinaries(t)
	work, home := t.TempDir(), t.TempDir()
	marker := filepath.Join(t.TempDir(), "PWNED")
	record := filepath.Join(t.TempDir(), "calls.jsonl")
	// Files an unquoted glob name would expand to.
	for _, f := range []string{"glob12ax", "glob12ay", "vglob-decoy"} {
		if err := os.WriteFile(filepath.Join(work, f), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_DATA_HOME="+filepath.Join(home, ".local/share"),
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"), "MCPCTL_CACHE_DIR="+t.TempDir(), "MCPCTL_STATE_DIR="+t.TempDir(),
		"FAKEMCP_MARKER="+marker, "FAKEMCP_RECORD="+record, "NO_COLOR=1", "TERM=xterm", "HISTFILE=")
	for _, name := range []string{"MCPCTL_SERVER", "MCPCTL_CONFIG", "ENV", "BASH_ENV", "ZDOTDIR"} {
		env = append(env, name+"=")
	}
	scripts := t.TempDir()
	mcpctl := exec.Command(filepath.Join(bin, "mcpctl"), "completion", "--dir", scripts)
	mcpctl.Env = env
	if out, err := mcpctl.CombinedOutput(); err != nil {
		t.Fatalf("completion --dir: %v\n%s", err, out)
	}
	const server = `--stdio 'fakemcp hostilenames' --server-stderr discard` // as typed
	list := exec.Command(filepath.Join(bin, "mcpctl"), "--stdio", "fakemcp hostilenames", "--server-stderr", "discard", "tools", "list")
	list.Env, list.Dir = env, work
	if out, err := list.CombinedOutput(); err != nil || !bytes.Contains(out, []byte("zap$(touch")) {
		t.Fatalf("tools list: %v\n%s", err, out)
	}
	rcFile := filepath.Join(scripts, "rc."+shell)
	if err := os.WriteFile(rcFile, []byte(fmt.Sprintf(rc, scripts)), 0o600); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(path, flags...)
	cmd.Env, cmd.Dir = env, work
	master, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: 200})
	if err != nil {
		t.Fatal(err)
	}
	s := &ptySession{t: t, cmd: cmd, master: master, done: make(chan error, 1)}
	go func() { _, _ = io.Copy(&s.screen, master) }()
	go func() { s.done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		master.Close()
	})
	s.send("source " + rcFile)
	s.expect(`mcpctl-test> `)

	seen := 0
	for i, c := range injectionCases(fakemcp.HostileNames(marker), keyLeavesQuote) {
		typed := strings.ReplaceAll(c.keys, "\t", "<TAB>")
		if _, err := master.Write([]byte("mcpctl " + server + " --no-validate tools call " + c.keys + "\r")); err != nil {
			t.Fatal(err)
		}
		// A line still open (an unclosed quote) swallows this one, and
		// the case fails here.
		s.send(fmt.Sprintf(`printf 'DONE-%%s\n' %d`, i))
		s.expect(fmt.Sprintf(`DONE-%d\r?\n`, i))
		if _, err := os.Stat(marker); err == nil {
			t.Errorf("%s: %q ran the server's command (the marker file exists)", shell, typed)
			os.Remove(marker)
		}
		calls := readCalls(t, record)
		if len(calls) != seen+1 {
			t.Errorf("%s: %q: mcpctl made %d calls, want 1", shell, typed, len(calls)-seen)
			seen = len(calls)
			continue
		}
		got := calls[seen]
		seen++
		if got.Name != c.tool || !reflect.DeepEqual(got.Arguments, c.args) {
			t.Errorf("%s: %q called %q with %v, want %q with %v", shell, typed, got.Name, got.Arguments, c.tool, c.args)
		}
	}
	s.send("exit")
	s.wait()
}

// injectionCases types each offered name by its leading word and TAB
// (a pair: the word, TAB, its last letter, TAB), unquoted and inside a
// quote the user opened (after is typed next: the value, after a key),
// and each dropped name's leading word where no offered name shares it:
// TAB must add nothing.
func injectionCases(h fakemcp.Hostile, keyLeavesQuote bool) []tabCase {
	var cases []tabCase
	// after follows an offered name's TAB; dropAfter a dropped one's.
	add := func(offered, dropped []string, before, after, dropAfter string, want func(string) tabCase) {
		words := map[string]int{}
		for _, n := range offered {
			words[leadingWord(n)]++
		}
		for _, n := range offered {
			w := leadingWord(n)
			keys := w + "\t"
			if words[w] > 1 {
				keys += n[len(n)-1:] + "\t"
			}
			for _, quote := range []string{"", "'", `"`} {
				c := want(n)
				c.keys = before + quote + keys + after
				if keyLeavesQuote && after != "" {
					c.keys += quote
				}
				cases = append(cases, c)
			}
		}
		for _, n := range dropped {
			if w := leadingWord(n); words[w] == 0 {
				words[w]++
				c := want(w)
				c.keys = before + w + "\t" + dropAfter
				cases = append(cases, c)
			}
		}
	}
	add(h.Tools, h.DroppedTools, "", "", "", func(n string) tabCase { return tabCase{tool: n, args: map[string]any{}} })
	var keys []string
	for _, k := range h.Keys {
		if k != fakemcp.ValueKey { // its enum refuses other values
			keys = append(keys, k)
		}
	}
	add(keys, h.DroppedKeys, fakemcp.ArgsTool+" ", "1", "=1", func(k string) tabCase {
		return tabCase{tool: fakemcp.ArgsTool, args: map[string]any{k: "1"}}
	})
	add(h.Values, h.DroppedValues, fakemcp.ArgsTool+" "+fakemcp.ValueKey+"=", "", "", func(v string) tabCase {
		return tabCase{tool: fakemcp.ArgsTool, args: map[string]any{fakemcp.ValueKey: v}}
	})
	return cases
}

// leadingWord is the run of lower-case letters a hostile name starts with.
func leadingWord(s string) string {
	return s[:len(s)-len(strings.TrimLeftFunc(s, unicode.IsLower))]
}

type recordedCall struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// readCalls reads the calls the hostilenames server recorded.
func readCalls(t *testing.T, path string) []recordedCall {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var calls []recordedCall
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if line == "" {
			continue
		}
		var c recordedCall
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if c.Arguments == nil {
			c.Arguments = map[string]any{}
		}
		calls = append(calls, c)
	}
	return calls
}
