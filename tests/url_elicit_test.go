package tests

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 13, item 10, at a terminal: the host shown is the one the
// browser will load, and a URL whose host cannot be told is not offered
// at all. The non-interactive cases are in faultCases (url_elicitation_*).
func TestPTYURLElicitationHost(t *testing.T) {
	for _, c := range []struct {
		kind   string
		screen []string // in order
		answer string   // what the server is told
	}{
		{"idn", []string{`URL:  https://xn--pple-43d\.example/login\r?\n`,
			`Host: xn--pple-43d\.example \(\x{0430}pple\.example: an internationalised name, which can imitate another; check it letter by letter\)\r?\n`,
			`Open it in your browser\? \[y/N\]: `}, "accept"},
		{"noslashes", []string{`URL:  "https:evil\.example/login"\r?\n`,
			`mcpctl will not open it: it has no "//" after "https:", so it names no host \(a browser would take one from what follows\); answered cancel\r?\n`}, "cancel"},
		{"fakehost", []string{`URL:  "https://good\.example@evil\.example/login"\r?\n`,
			`mcpctl will not open it: it has a user name before "@", which can disguise the host \(the host is "evil\.example"\); answered cancel`}, "cancel"},
		{"ipv4hex", []string{`mcpctl will not open it: its host "0x7f\.1" is an IP address in disguise \(a browser loads 127\.0\.0\.1\)`}, "cancel"},
	} {
		t.Run(c.kind, func(t *testing.T) {
			marker := promptMarker(t)
			s := startPTY(t, nil, append(promptServer("urlelicit:"+c.kind, marker, false), "call", "tools/call", `{"name":"x"}`)...)
			s.expect(`The server asks you to visit a web page: Log in to continue`)
			for _, re := range c.screen {
				s.expect(re)
			}
			if c.answer == "accept" {
				s.send("n")
				s.expect(`Press Enter when you have finished in the browser`)
				s.send("")
			}
			code, out := s.wait()
			if code != 0 || !strings.Contains(out, `"text":"the client answered `+c.answer+`"`) {
				t.Errorf("exit %d, stdout %s; terminal:\n%s", code, out, s.screen.String())
			}
			if c.answer == "cancel" && strings.Contains(s.screen.String(), "Open it in your browser") {
				t.Error("a refused URL was offered to open")
			}
			noneLeft(t, marker)
		})
	}
}

// A URL elicitation opens the page with $BROWSER when it is set, as a
// login does; what it is handed is the URL shown.
func TestURLElicitationUsesBROWSER(t *testing.T) {
	opener, record := fakeOpener(t) // not on PATH: only $BROWSER can reach it
	marker := promptMarker(t)
	s := startPTY(t, []string{"BROWSER=" + filepath.Join(opener, "xdg-open")},
		append(promptServer("urlelicit:ok", marker, false), "call", "tools/call", `{"name":"x"}`)...)
	s.expect(`URL:  https://good\.example/connect\?session=1\r?\n`)
	s.expect(`Open it in your browser\? \[y/N\]: `)
	s.send("y")
	s.expect(`Opened in your browser`)
	s.expect(`Press Enter when you have finished`)
	s.send("")
	if code, out := s.wait(); code != 0 || !strings.Contains(out, "the client answered accept") {
		t.Fatalf("exit %d, stdout %s; terminal:\n%s", code, out, s.screen.String())
	}
	if got := opened(record, 5*time.Second); got != "https://good.example/connect?session=1\n" {
		t.Fatalf("$BROWSER got %q", got)
	}
	noneLeft(t, marker)
}
