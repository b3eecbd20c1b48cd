package commands

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// Completion injection (issue 13): names a server lists are shell code.
// tests/completion_shells_test.go proves the scripts safe through real
// bash, zsh and fish at a terminal; these pin down what __complete hands
// each script, and PowerShell, which no test here can run.

var (
	hostileOffered = []string{"zap$(touch x)", "it's", `a"b`, "sp ace", "glob*?[ab]", "bang!", "‘smart’", "eq=$(x)", "plain_name-1.0", "ünï"}
	hostileDropped = []string{"nl\nx", "cr\rx", "esc\x1b[2J", "del\x7f", "c1\u0085", "csi\u009b2J", "tab\tx", "bidi\u202ex"}
)

// hostileFixture configures "evil" (stdio: evil) and caches its tools.
func hostileFixture(t *testing.T) *testEnv {
	t.Helper()
	e := isolate(t)
	e.writeConfig("servers:\n  evil:\n    command: evil\n")
	var tools []map[string]any
	for _, n := range append(append([]string(nil), hostileOffered...), hostileDropped...) {
		tools = append(tools, map[string]any{"name": n, "description": "d\x1b[2J", "inputSchema": map[string]any{"type": "object"}})
	}
	b, _ := json.Marshal(map[string]any{"tools": tools, "ttlMs": 60000})
	e.putCached("stdio:evil", "tools/list", string(b))
	return e
}

func TestCompleteQuotesForBash(t *testing.T) {
	t.Parallel()
	e := hostileFixture(t)
	const call = "mcpctl -s evil tools call "
	for _, tc := range []struct {
		line, wordbreaks string
		want             []string
	}{
		// Outside quotes: one single-quoted word, or the word as it is
		// when nothing in it is special.
		{line: call + "z", want: []string{`'zap$(touch x)'`}},
		{line: call + "it", want: []string{`'it'\''s'`}},
		{line: call + "a", want: []string{`'a"b'`}},
		{line: call + "g", want: []string{`'glob*?[ab]'`}},
		{line: call + "b", want: []string{`'bang!'`}},
		{line: call + "pl", want: []string{"plain_name-1.0"}},
		// Inside a quote the user opened: escaped for it, and closed.
		{line: call + "'z", want: []string{`zap$(touch x)'`}},
		{line: call + "'it", want: []string{`it'\''s'`}},
		{line: call + `"z`, want: []string{`zap\$(touch x)"`}},
		{line: call + `"a`, want: []string{`a\"b"`}},
		{line: call + `"b`, want: []string{`bang"'!'""`}}, // no backslash stops ! inside "…"
		// readline replaces only what follows an unquoted = or : (the
		// default COMP_WORDBREAKS), or an open quote.
		{line: call + "eq=", want: []string{`'$(x)'`}},
		{line: call + "eq=$", want: []string{`'$(x)'`}},
		{line: call + "'eq=", want: []string{`eq=$(x)'`}},
		{line: call + `eq'='`, want: []string{`'eq=$(x)'`}}, // a quoted = breaks nothing
		{line: call + "eq=", wordbreaks: " \t\n\"'><;|&(:", want: []string{`'eq=$(x)'`}},
		{line: call + "c", want: nil}, // cr…, c1…, csi…: never offered
		{line: call + "n", want: nil},
	} {
		e.Setenv("MCPCTL_COMP_WORDBREAKS", tc.wordbreaks)
		_, got := e.complete("bash", tc.line)
		if !sameSet(got, tc.want) {
			t.Errorf("%q (COMP_WORDBREAKS %q): %q, want %q", tc.line, tc.wordbreaks, got, tc.want)
		}
	}
	// Every offered name once, quoted; none of the others.
	e.Setenv("MCPCTL_COMP_WORDBREAKS", "")
	_, got := e.complete("bash", call)
	var want []string
	for _, n := range hostileOffered {
		want = append(want, shellQuote(n))
	}
	if !sameSet(got, want) {
		t.Errorf("all: %q, want %q", got, want)
	}
}

// zsh's compadd and fish quote what they insert: they get the names as
// they are, with descriptions sanitised; never a name with a control
// character.
func TestCompleteDropsControlNames(t *testing.T) {
	t.Parallel()
	e := hostileFixture(t)
	for _, shell := range []string{"zsh", "fish"} {
		_, got := e.complete(shell, "-s", "evil", "tools", "call", "")
		var want []string
		for _, n := range hostileOffered {
			want = append(want, n+"\td")
		}
		if !sameSet(got, want) {
			t.Errorf("%s: %q, want %q", shell, got, want)
		}
	}
	if _, got := e.complete("zsh", "-s", "evil", "tools", "call", "cr"); len(got) != 0 {
		t.Errorf("cr: %q", got)
	}
}

// PowerShell inserts a CompletionResult's text as it is: __complete gives
// it as one literal word, single-quoted with every kind of single quote
// PowerShell knows doubled, then the name to show, then the description.
func TestCompletePowerShellQuotes(t *testing.T) {
	t.Parallel()
	e := hostileFixture(t)
	_, got := e.complete("powershell", "mcpctl -s evil tools call ")
	var names []string
	for _, line := range got {
		f := strings.Split(line, "\t")
		if len(f) != 3 || f[2] != "d" {
			t.Errorf("%q: want insert, name and description", line)
			continue
		}
		if v, ok := powershellUnquote(f[0]); !ok || v != f[1] {
			t.Errorf("%q inserts %q (literal: %v), want %q", line, v, ok, f[1])
		}
		names = append(names, f[1])
	}
	if !sameSet(names, hostileOffered) {
		t.Errorf("names %q, want %q", names, hostileOffered)
	}
	for in, want := range map[string]string{
		"it's": `'it''s'`, "‘smart’": "'‘‘smart’’'", "zap$(touch x)": `'zap$(touch x)'`, "plain_name-1.0": "plain_name-1.0", "": "''",
		"a;b": "'a;b'", "a`b": "'a`b'", "a,b": "'a,b'", "@a": "'@a'", "{a}": "'{a}'", "a b": "'a b'", "#a": "'#a'",
	} {
		if got := powershellQuote(in); got != want {
			t.Errorf("powershellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

// powershellUnquote reads s as PowerShell reads one argument word: bare
// (plain characters only) or single-quoted, where a doubled quote is one.
func powershellUnquote(s string) (string, bool) {
	if s != "" && strings.Trim(s, plainChars) == "" {
		return s, true
	}
	quote := func(r rune) bool { return strings.ContainsRune("'\u2018\u2019\u201a\u201b", r) }
	r := []rune(s)
	if len(r) < 2 || !quote(r[0]) || !quote(r[len(r)-1]) {
		return "", false
	}
	var b strings.Builder
	for i := 1; i < len(r)-1; i++ {
		if quote(r[i]) {
			if i+1 == len(r)-1 || !quote(r[i+1]) {
				return "", false // the string would end here
			}
			i++
		}
		b.WriteRune(r[i])
	}
	return b.String(), true
}

// The scripts insert what __complete gives and nothing else: bash never
// word-splits or globs it, PowerShell passes the quoted text as the
// completion text.
func TestCompletionScriptsInsertVerbatim(t *testing.T) {
	t.Parallel()
	for shell, lines := range map[string][]string{
		"bash":       {`reply=$(MCPCTL_COMP_WORDBREAKS="$COMP_WORDBREAKS" "${COMP_WORDS[0]}" __complete bash -- "${COMP_LINE:0:COMP_POINT}" 2>/dev/null) || return`, `mapfile -t out <<< "$reply"`, `COMPREPLY=("${out[@]:1}")`},
		"zsh":        {`compadd -l "${opts[@]}" -d descs -a vals`},
		"powershell": {"$insert, $shown, $desc = $entry -split \"`t\", 3", `[System.Management.Automation.CompletionResult]::new($insert, $shown, 'ParameterValue', $desc)`},
	} {
		for _, l := range lines {
			if !strings.Contains(completionScripts[shell], l) {
				t.Errorf("the %s script lacks %s", shell, l)
			}
		}
	}
	// compadd -Q would insert metacharacters unquoted.
	if regexp.MustCompile(`(?m)^[^#\n]*compadd[^\n]* -Q`).MatchString(completionScripts["zsh"]) || strings.Contains(completionScripts["bash"], "=($(") {
		t.Error("a script inserts candidates unquoted or lets the shell split them")
	}
}
