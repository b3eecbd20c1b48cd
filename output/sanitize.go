package output

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

const (
	esc = 0x1b
	bel = 0x07
)

// Server text reaches a terminal in three kinds of slot, each with its own
// rule (docs/reliability.md, "Terminal safety"):
//
//   - Free text (descriptions, content, log data, a server's stderr):
//     Sanitize and SanitizeLine remove what a terminal would obey and keep
//     everything a reader needs, including the zero-width joiner of an
//     emoji, the zero-width non-joiner of Persian and the marks of
//     right-to-left prose.
//   - Names, URIs and keys (a tool's name, a property, a cursor: text a
//     user types back): SanitizeName drops nothing and shows every
//     character a terminal would not as an escape, so "del\u200bete_all"
//     cannot pass for delete_all.
//   - mcpctl's own one-line messages (errors, warnings), which quote both:
//     SanitizeMessage removes escape sequences like free text but shows
//     invisible and direction-changing characters like a name.

// policy says how one slot treats each class of character.
type policy struct {
	escapeControls  bool // C0, DEL, C1 and ESC written as \u escapes (else removed, sequences whole)
	breaks          byte // newline and tab: 'k' kept, 's' made spaces, 'e' escaped
	escapeInvisible bool // invisible and direction-changing characters written as escapes (else bidi controls removed, the rest kept)
}

var (
	freeText = policy{breaks: 'k'}
	freeLine = policy{breaks: 's'}
	nameSlot = policy{escapeControls: true, breaks: 'e', escapeInvisible: true}
	message  = policy{breaks: 's', escapeInvisible: true}
)

// Sanitize makes server text safe to print on a terminal. Tool descriptions
// and resource text are untrusted: an escape sequence in them could retitle
// the window, plant a hyperlink, move the cursor over earlier output, and a
// bidi override could make text read differently from what it is.
//
// Removed: CSI (ESC [ … final byte), OSC/DCS/SOS/PM/APC strings up to BEL or
// ST (or the end of the text if unterminated, as a terminal would swallow
// it), other two-byte ESC sequences, C0 controls other than newline and tab,
// DEL, C1 controls (U+0080–U+009F, with 8-bit CSI/OSC handled like their ESC
// forms), and the bidi embedding, override and isolate characters
// U+202A–U+202E and U+2066–U+2069. Invalid UTF-8 becomes U+FFFD. Everything
// else, including all printable Unicode and the invisible characters prose
// uses (joiners, bidi marks), is kept.
func Sanitize(s string) string { return sanitize(s, freeText) }

// SanitizeLine is Sanitize for one-line contexts such as table cells: line
// breaks and tabs become spaces so one record stays on one row.
func SanitizeLine(s string) string { return sanitize(s, freeLine) }

// SanitizeName prepares a name, URI or key for a terminal. Nothing is
// removed: C0 and C1 controls, DEL, newline and tab, and every invisible or
// direction-changing character (see isInvisible) are written as \uXXXX
// (\UXXXXXXXX beyond the Basic Multilingual Plane), the escapes of Go,
// JSON and bash's $'…'. ESC becoming \u001b leaves the rest of an escape
// sequence as plain visible text. Invalid UTF-8 becomes U+FFFD. A
// backslash is not escaped: a name is shown, not encoded.
func SanitizeName(s string) string { return sanitize(s, nameSlot) }

// SanitizeMessage prepares one of mcpctl's own one-line messages, which
// quote server prose and names alike: escape sequences and controls are
// removed and line breaks become spaces, as in SanitizeLine, and invisible
// and direction-changing characters, bidi overrides included, are written
// as escapes, as in SanitizeName.
func SanitizeMessage(s string) string { return sanitize(s, message) }

// OneLine folds text onto one line for a message (a command's stderr
// quoted in an error): each run of white space, line breaks included,
// becomes one space, and none is left at either end.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func sanitize(s string, p policy) string {
	if isClean(s) && (p.breaks == 'k' || !strings.ContainsAny(s, "\n\t")) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	sanitizeTo(&b, s, p)
	return b.String()
}

// textSink is a strings.Builder or a bytes.Buffer: LineSanitizer writes
// into its batch without a string per line.
type textSink interface {
	WriteString(string) (int, error)
	WriteByte(byte) error
}

// sanitizeTo writes s to b as policy p says.
func sanitizeTo[W textSink](b W, s string, p policy) {
	for i := 0; i < len(s); {
		if c := s[i]; c >= 0x20 && c < 0x7f {
			// A run of printable ASCII is copied whole: a flood of
			// server text must not cost a call per character.
			j := i + 1
			for j < len(s) && s[j] >= 0x20 && s[j] < 0x7f {
				j++
			}
			b.WriteString(s[i:j])
			i = j
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString("\ufffd")
			i++
		case r == '\n' || r == '\t':
			switch p.breaks {
			case 'k':
				b.WriteByte(byte(r))
			case 's':
				b.WriteByte(' ')
			default:
				writeEscape(b, r)
			}
			i += n
		case isControl(r) && p.escapeControls:
			writeEscape(b, r)
			i += n
		case r == esc:
			i = skipEscape(s, i+1)
		case r == 0x9b: // 8-bit CSI
			i = skipCSI(s, i+n)
		case r == 0x90 || r == 0x98 || r == 0x9d || r == 0x9e || r == 0x9f: // DCS SOS OSC PM APC
			i = skipString(s, i+n)
		case isControl(r):
			i += n
		case p.escapeInvisible && isInvisible(r):
			writeEscape(b, r)
			i += n
		case isBidiControl(r):
			i += n
		default:
			b.WriteString(s[i : i+n])
			i += n
		}
	}
}

// isControl: C0 controls, DEL and C1 controls.
func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) }

// writeEscape writes r as \uXXXX, or \UXXXXXXXX beyond U+FFFF.
func writeEscape[W textSink](b W, r rune) {
	digits := 4
	if r > 0xffff {
		digits = 8
		b.WriteString(`\U`)
	} else {
		b.WriteString(`\u`)
	}
	for shift := 4 * (digits - 1); shift >= 0; shift -= 4 {
		b.WriteByte("0123456789abcdef"[r>>shift&0xf])
	}
}

// isClean is the fast path: almost all server text is plain.
func isClean(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return false
		}
		if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}

func isBidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// isInvisible reports the characters a terminal shows as nothing, or as
// an ordinary space, though they change what a string is, and those that
// change the direction text is shown in:
//
//   - format characters (category Cf): the zero-width space, non-joiner
//     and joiner (U+200B–U+200D), the bidi marks U+200E, U+200F and U+061C,
//     embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069),
//     the word joiner and invisible operators (U+2060–U+2064), the BOM
//     (U+FEFF), the soft hyphen (U+00AD), the Mongolian vowel separator
//     (U+180E), interlinear annotation marks, Unicode tag characters…
//   - line and paragraph separators (U+2028, U+2029) and every space but
//     U+0020 (the no-break space U+00A0, U+2000–U+200A, U+3000…);
//   - letters and marks with no glyph: the Hangul fillers (U+115F, U+1160,
//     U+3164, U+FFA0), the combining grapheme joiner (U+034F), variation
//     selectors (U+FE00–U+FE0F, U+E0100–U+E01EF), the Mongolian free
//     variation selectors (U+180B–U+180D, U+180F), the Khmer inherent
//     vowels (U+17B4, U+17B5) and the blank braille pattern (U+2800).
func isInvisible(r rune) bool {
	switch {
	case r < 0x80:
		return false
	case unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Zs):
		return true
	case r == 0x034f, r == 0x115f, r == 0x1160, r == 0x17b4, r == 0x17b5, r >= 0x180b && r <= 0x180f,
		r == 0x2800, r == 0x3164, r >= 0xfe00 && r <= 0xfe0f, r == 0xffa0, r >= 0xe0100 && r <= 0xe01ef:
		return true
	}
	return false
}

// skipEscape returns the index just past the sequence whose ESC was at i-1.
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', 'X', '^', '_':
		return skipString(s, i+1)
	}
	// nF sequences: intermediates 0x20–0x2F, then one final byte 0x30–0x7E.
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipCSI skips parameter and intermediate bytes and the final byte. A byte
// outside the grammar ends the sequence and is kept, so that a malformed
// sequence cannot hide the text after it.
func skipCSI(s string, i int) int {
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x3f {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipString skips a control string up to BEL, ESC \ or 8-bit ST (U+009C).
func skipString(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == bel:
			return i + 1
		case s[i] == esc && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		case s[i] == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c:
			return i + 2
		}
		i++
	}
	return i
}
