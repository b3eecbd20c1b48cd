package output

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzSanitize: whatever a server sends, what Sanitize lets through to a
// terminal is valid UTF-8 with no ESC, no C0 control but newline and tab,
// no DEL, no C1 control and no bidi override; a second pass changes
// nothing; plain text passes untouched; printable text is never lost
// outside an escape sequence. SanitizeLine also has no newline or tab.
func FuzzSanitize(f *testing.F) {
	// Seeds: testdata/fuzz/FuzzSanitize.
	f.Fuzz(func(t *testing.T, s string) {
		out := Sanitize(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Sanitize(%q) = %q is not UTF-8", s, out)
		}
		for _, r := range out {
			if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) || isBidiControl(r) {
				t.Fatalf("Sanitize(%q) = %q lets %U through", s, out, r)
			}
		}
		if again := Sanitize(out); again != out {
			t.Fatalf("Sanitize is not idempotent: %q -> %q -> %q", s, out, again)
		}
		if isClean(s) && out != s {
			t.Fatalf("plain %q became %q", s, out)
		}
		// Without ESC and the 8-bit introducers nothing is a sequence:
		// every printable rune must survive, in order.
		if !strings.ContainsAny(s, "\x1b\u0090\u0098\u009b\u009d\u009e\u009f") {
			var want strings.Builder
			for i := 0; i < len(s); {
				r, n := utf8.DecodeRuneInString(s[i:])
				switch {
				case r == utf8.RuneError && n == 1:
					want.WriteRune(utf8.RuneError)
				case r == '\n' || r == '\t' || !(r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || isBidiControl(r)):
					want.WriteString(s[i : i+n])
				}
				i += n
			}
			if out != want.String() {
				t.Fatalf("Sanitize(%q) = %q, want %q", s, out, want.String())
			}
		}
		line := SanitizeLine(s)
		if strings.ContainsAny(line, "\n\t") || line != strings.Map(func(r rune) rune {
			if r == '\n' || r == '\t' {
				return ' '
			}
			return r
		}, out) {
			t.Fatalf("SanitizeLine(%q) = %q", s, line)
		}
	})
}
