package output

import "testing"

func TestSanitize(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"plain ascii", "hello world", "hello world"},
		{"keeps newline and tab", "a\tb\nc", "a\tb\nc"},
		{"keeps unicode text", "héllo 世界 📁 ¡ü!", "héllo 世界 📁 ¡ü!"},
		{"CSI colour", "\x1b[31mred\x1b[0m text", "red text"},
		{"CSI cursor movement", "ok\x1b[2K\x1b[1Afake", "okfake"},
		{"CSI private mode", "a\x1b[?25lb", "ab"},
		{"OSC title with BEL", "\x1b]0;pwned\x07visible", "visible"},
		{"OSC hyperlink with ST", "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", "click"},
		{"unterminated OSC swallows the rest", "safe\x1b]0;title", "safe"},
		{"DCS string", "a\x1bPq#0;2;0;0;0\x1b\\b", "ab"},
		{"two byte escape", "a\x1bcb\x1b7c", "abc"},
		{"charset designation", "a\x1b(Bb", "ab"},
		{"trailing ESC", "abc\x1b", "abc"},
		{"C0 controls", "a\x00b\x07c\x08d\re\x7ff", "abcdef"},
		{"C1 controls", "a\u0085b\u0080c\u009c", "abc"},
		{"8-bit CSI with params", "x\u009b31my", "xy"},
		{"8-bit OSC with 8-bit ST", "x\u009d0;t\u009cy", "xy"},
		{"bidi overrides and isolates", "a\u202eb\u202ac\u2066d\u2069e", "abcde"},
		{"keeps LRM and ZWJ", "a\u200eb\u200dc", "a\u200eb\u200dc"},
		{"invalid UTF-8 becomes U+FFFD", "a\x9bb", "a\ufffdb"},
		{"malformed CSI keeps following text", "a\x1b[1;\u00e9b", "a\u00e9b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Sanitize(tc.in); got != tc.want {
				t.Errorf("Sanitize(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if got := Sanitize(Sanitize(tc.in)); got != tc.want {
				t.Errorf("Sanitize is not idempotent on %q: %q", tc.in, got)
			}
		})
	}
}

func TestSanitizeLine(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"newlines and tabs become spaces", "a\nb\tc", "a b c"},
		{"CRLF becomes one space", "a\r\nb", "a b"},
		{"escapes still removed", "\x1b[1mbold\x1b[0m\ncell", "bold cell"},
		{"unicode kept", "naïve 文字", "naïve 文字"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := SanitizeLine(tc.in); got != tc.want {
				t.Errorf("SanitizeLine(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
