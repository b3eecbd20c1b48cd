package output

import (
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzSanitize: whatever a server sends, what Sanitize lets through to a
// terminal is valid UTF-8 with no ESC, no C0 control but newline and tab,
// no DEL, no C1 control, no bidi override and no invisible character but
// those prose uses, one at a time (an emoji's selector and joiner, a
// flag's tags); a second pass changes nothing; plain text passes
// untouched; nothing but controls is lost outside an escape sequence
// (undoing the \u escapes gives back the rest). SanitizeLine also has no
// newline or tab.
// SanitizeName and SanitizeMessage let no control and no invisible or
// direction-changing character through, are idempotent, and drop
// nothing else: undoing their \u escapes gives back every character of
// a name, and every character of a message but its controls.
func FuzzSanitize(f *testing.F) {
	// Seeds: testdata/fuzz/FuzzSanitize.
	f.Fuzz(func(t *testing.T, s string) {
		out := Sanitize(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Sanitize(%q) = %q is not UTF-8", s, out)
		}
		for i := 0; i < len(out); {
			r, n := utf8.DecodeRuneInString(out[i:])
			if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
				t.Fatalf("Sanitize(%q) = %q lets %U through", s, out, r)
			}
			if isInvisible(r) && !unicode.Is(unicode.Zs, r) {
				end := invisibleRun(out, i)
				if !proseRun(out[:i], out[i:end]) {
					t.Fatalf("Sanitize(%q) = %q lets %q through", s, out, out[i:end])
				}
				n = end - i
			}
			i += n
		}
		if again := Sanitize(out); again != out {
			t.Fatalf("Sanitize is not idempotent: %q -> %q -> %q", s, out, again)
		}
		if isClean(s) && out != s {
			t.Fatalf("plain %q became %q", s, out)
		}
		// Without ESC, the 8-bit introducers and backslashes nothing is a
		// sequence nor an escape is ambiguous: every character but the
		// controls must survive, in order, written or as an escape.
		if !strings.ContainsAny(s, "\\\x1b\u0090\u0098\u009b\u009d\u009e\u009f") {
			var want strings.Builder
			for _, r := range s { // an invalid byte is U+FFFD, as Sanitize writes it
				if r == '\n' || r == '\t' || !isControl(r) {
					want.WriteRune(r)
				}
			}
			if got := unescape(out); got != want.String() {
				t.Fatalf("Sanitize(%q) = %q, which reads back as %q, not %q", s, out, got, want.String())
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
		checkEscaped(t, "SanitizeName", s, SanitizeName, func(r rune) string { return string(r) })
		checkEscaped(t, "SanitizeMessage", s, SanitizeMessage, func(r rune) string {
			switch {
			case r == '\n' || r == '\t':
				return " "
			case isControl(r):
				return ""
			}
			return string(r)
		})
	})
}

// checkEscaped holds an escaping sanitiser to its properties; kept says
// what each character of s must come back as once the escapes are undone
// (for input without ESC, 8-bit introducers or backslashes, whose
// spelling would be ambiguous).
func checkEscaped(t *testing.T, name, s string, fn func(string) string, kept func(rune) string) {
	out := fn(s)
	if !utf8.ValidString(out) {
		t.Fatalf("%s(%q) = %q is not UTF-8", name, s, out)
	}
	for _, r := range out {
		if isControl(r) || isInvisible(r) {
			t.Fatalf("%s(%q) = %q lets %U through", name, s, out, r)
		}
	}
	if again := fn(out); again != out {
		t.Fatalf("%s is not idempotent: %q -> %q -> %q", name, s, out, again)
	}
	if strings.ContainsAny(s, "\\\x1b\u0090\u0098\u009b\u009d\u009e\u009f") {
		return
	}
	var want strings.Builder
	for _, r := range s { // an invalid byte is U+FFFD, as the sanitisers write it
		want.WriteString(kept(r))
	}
	if got := unescape(out); got != want.String() {
		t.Fatalf("%s(%q) = %q, which reads back as %q, not %q", name, s, out, got, want.String())
	}
}

// unescape undoes \uXXXX and \UXXXXXXXX.
func unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		n := 0
		switch {
		case strings.HasPrefix(s[i:], `\u`):
			n = 4
		case strings.HasPrefix(s[i:], `\U`):
			n = 8
		}
		if n > 0 && i+2+n <= len(s) {
			if v, err := strconv.ParseUint(s[i+2:i+2+n], 16, 32); err == nil {
				b.WriteRune(rune(v))
				i += 2 + n
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}
