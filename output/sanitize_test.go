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
		{"bidi overrides and isolates are shown", "a\u202eb\u202ac\u2066d\u2069e", `a\u202eb\u202ac\u2066d\u2069e`},
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

func TestSanitizeName(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"plain", "get_weather", "get_weather"},
		{"zero-width space", "del\u200bete_all", `del\u200bete_all`},
		{"joiners and bidi marks", "a\u200cb\u200dc\u200ed\u200fe\u061cf", `a\u200cb\u200dc\u200ed\u200fe\u061cf`},
		{"bidi overrides are shown, not dropped", "\u202eevil\u2066x\u2069", `\u202eevil\u2066x\u2069`},
		{"word joiner, invisible operators, BOM", "a\u2060b\u2064c\ufeff", `a\u2060b\u2064c\ufeff`},
		{"soft hyphen and Mongolian vowel separator", "soft\u00adhy\u180ephen", `soft\u00adhy\u180ephen`},
		{"tag characters beyond the BMP", "tag\U000e0041", `tag\U000e0041`},
		{"spaces other than U+0020", "a b\u00a0c\u3000d\u2009e", `a b\u00a0c\u3000d\u2009e`},
		{"line and paragraph separators", "a\u2028b\u2029c", `a\u2028b\u2029c`},
		{"fillers and variation selectors", "ko\u3164 vs\ufe0f cgj\u034f x\U000e0100", `ko\u3164 vs\ufe0f cgj\u034f x\U000e0100`},
		{"controls are escaped, sequences left visible", "evil\x1b[31mred\x07\x7f\u009b", `evil\u001b[31mred\u0007\u007f\u009b`},
		{"newline and tab escaped", "a\nb\tc\r", `a\u000ab\u0009c\u000d`},
		{"visible unicode kept", "café 世界 📁 👍🏽", "café 世界 📁 👍🏽"},
		{"invalid UTF-8 becomes U+FFFD", "a\xffb", "a\ufffdb"},
		{"a backslash is kept", `C:\dir`, `C:\dir`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := SanitizeName(tc.in); got != tc.want {
				t.Errorf("SanitizeName(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestSanitizeMessage(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"plain", "the server has no tool", "the server has no tool"},
		{"escape sequences removed as in free text", "E \x1b[31mred\x1b[0m \x1b]0;t\x07x", "E red x"},
		{"line breaks become spaces", "a\nb\tc", "a b c"},
		{"invisible characters shown", "did you mean del\u200bete_all?", `did you mean del\u200bete_all?`},
		{"bidi overrides shown, not dropped", "bidi\u202eend", `bidi\u202eend`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := SanitizeMessage(tc.in); got != tc.want {
				t.Errorf("SanitizeMessage(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// Free text keeps the invisible characters prose needs, where it puts
// them: the joiner of an emoji sequence, the non-joiner of Persian, the
// marks of right-to-left text, a soft hyphen, an emoji's variation
// selector, the tags of a flag.
func TestSanitizeKeepsProse(t *testing.T) {
	for _, s := range []string{"👩\u200d💻 at work", "می\u200cخواهم", "\u05e9\u05dc\u05d5\u05dd\u200f!", "Silben\u00adtrennung", "zero\u200bwidth",
		"love ❤\ufe0f", "pride 🏳\ufe0f\u200d🌈", "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f Scotland", "no\u00a0break\u202fspaces\u3000"} {
		if got := Sanitize(s); got != s {
			t.Errorf("Sanitize(%q) = %q: prose lost a character", s, got)
		}
		if got := SanitizeLine(s); got != s {
			t.Errorf("SanitizeLine(%q) = %q: prose lost a character", s, got)
		}
	}
}

// Free text shows as escapes what hides text from a person (issue 24,
// item 9): bidi overrides, Unicode tag characters (which spell ASCII no
// one sees: instructions to a model in a tool description), the BOM and
// other invisible characters prose has no use for, and every run of
// invisible characters, the first of it too (zero-width characters in a
// row spell text as well).
func TestSanitizeShowsHiddenText(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"tag characters spell text", "Adds.\U000e0049\U000e0067\U000e006e", `Adds.\U000e0049\U000e0067\U000e006e`},
		{"a lone tag character", "a\U000e0041 b", `a\U000e0041 b`},
		{"flag tags without the black flag", "x\U000e0067\U000e0062\U000e007f", `x\U000e0067\U000e0062\U000e007f`},
		{"flag tags with a capital", "🏴\U000e0047\U000e0042\U000e007f", `🏴\U000e0047\U000e0042\U000e007f`},
		{"flag tags without the cancel tag", "🏴\U000e0067\U000e0062", `🏴\U000e0067\U000e0062`},
		{"flag tags too long", "🏴\U000e0061\U000e0061\U000e0061\U000e0061\U000e0061\U000e0061\U000e0061\U000e0061\U000e007f",
			`🏴\U000e0061\U000e0061\U000e0061\U000e0061\U000e0061\U000e0061\U000e0061\U000e0061\U000e007f`},
		{"a run of zero-width characters", "a\u200b\u200c\u200b\u200db", `a\u200b\u200c\u200b\u200db`},
		{"two joiners", "👩\u200d\u200d💻", `👩\u200d\u200d💻`},
		{"joiner then selector", "a\u200d\ufe0f", `a\u200d\ufe0f`},
		{"the BOM", "\ufeffhello", `\ufeffhello`},
		{"invisible operator and Mongolian vowel separator", "f\u2061x \u180e", `f\u2061x \u180e`},
		{"a Hangul filler", "ko\u3164", `ko\u3164`},
		{"line separator", "a\u2028b", `a\u2028b`},
		{"a run broken by a removed control", "a\u200b\x07\u200b", `a\u200b\u200b`},
		{"a run broken by an escape sequence", "a\u200c\x1b[0m\u200cb", `a\u200c\u200cb`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Sanitize(tc.in); got != tc.want {
				t.Errorf("Sanitize(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if got := SanitizeLine(tc.in); got != tc.want {
				t.Errorf("SanitizeLine(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestOneLine(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"":                                 "",
		"one":                              "one",
		"  usage: cmd\n\terror:  bad \r\n": "usage: cmd error: bad",
		"a\n\nb":                           "a b",
	} {
		if got := OneLine(in); got != want {
			t.Errorf("OneLine(%q) = %q, want %q", in, got, want)
		}
	}
}
