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
//     Sanitize and SanitizeLine remove what a terminal would obey, show
//     bidi overrides, tag characters and runs of invisible characters as
//     escapes (text hidden from a person, as instructions to a model are
//     in a tool description, or turned around), and keep the one
//     invisible character prose puts between two others: the zero-width
//     joiner of an emoji, the zero-width non-joiner of Persian, the marks
//     of right-to-left prose.
//   - Names, URIs and keys (a tool's name, a property, a cursor: text a
//     user types back): SanitizeName drops nothing and shows every
//     character a terminal would not as an escape, so "del\u200bete_all"
//     cannot pass for delete_all.
//   - mcpctl's own one-line messages (errors, warnings), which quote both:
//     SanitizeMessage removes escape sequences like free text but shows
//     invisible and direction-changing characters like a name.

// policy says how one slot treats each class of character.
type policy struct {
	escapeControls bool // C0, DEL, C1 and ESC written as \u escapes (else removed, sequences whole)
	breaks         byte // newline and tab: 'k' kept, 's' made spaces, 'e' escaped
	invisible      byte // invisible and direction-changing characters: 'e' escaped, 'p' the prose rule (proseRun), 'k' kept
}

var (
	freeText = policy{breaks: 'k', invisible: 'p'}
	freeLine = policy{breaks: 's', invisible: 'p'}
	nameSlot = policy{escapeControls: true, breaks: 'e', invisible: 'e'}
	message  = policy{breaks: 's', invisible: 'e'}
)

// Sanitize makes server text safe to print on a terminal. Tool descriptions
// and resource text are untrusted: an escape sequence in them could retitle
// the window, plant a hyperlink, move the cursor over earlier output, and a
// bidi override could make text read differently from what it is.
//
// Removed: CSI (ESC [ … final byte), OSC/DCS/SOS/PM/APC strings up to BEL or
// ST (or the end of the text if unterminated, as a terminal would swallow
// it), other two-byte ESC sequences, C0 controls other than newline and tab,
// DEL and C1 controls (U+0080–U+009F, with 8-bit CSI/OSC handled like their
// ESC forms). Invalid UTF-8 becomes U+FFFD.
//
// Shown as escapes, as in a name (SanitizeName): the invisible and
// direction-changing characters (isInvisible) but spaces, unless prose
// put them there (proseRun): one joiner, bidi mark, zero-width space, soft
// hyphen or variation selector on its own, an emoji's variation selector
// and joiner, the tag characters of an emoji flag. So the bidi overrides
// and isolates, Unicode tag characters that spell text no one sees, the
// BOM, and every run of zero-width characters (which can spell text too)
// are seen. Everything else, all printable Unicode, is kept.
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

// ShowName prepares a name, URI or key for a one-line slot (a listing, a
// line of mcpctl's own such as "session NAME started"): on a terminal
// every character it would not show is written as an escape
// (SanitizeName); on a pipe it is as it is, with line breaks folded.
func ShowName(s string, terminal bool) string {
	if terminal {
		return SanitizeName(s)
	}
	return lineBreaks.Replace(s)
}

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
	if p.invisible == 'p' && hasControl(s) {
		// Controls go first, so that the prose rule judges the invisible
		// characters a terminal gets side by side as one run.
		var c strings.Builder
		c.Grow(len(s))
		sanitizeTo(&c, s, policy{breaks: p.breaks, invisible: 'k'})
		s = c.String()
	}
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
		case p.invisible == 'e' && isInvisible(r):
			writeEscape(b, r)
			i += n
		case p.invisible == 'p' && isInvisible(r) && !unicode.Is(unicode.Zs, r):
			// Free text: the whole run of invisible characters is judged
			// at once, so that the first of a run is not kept as prose.
			end := invisibleRun(s, i)
			if proseRun(s[:i], s[i:end]) {
				b.WriteString(s[i:end])
			} else {
				for _, r := range s[i:end] {
					writeEscape(b, r)
				}
			}
			i = end
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

// hasControl reports a C0 control but newline and tab, DEL or a C1
// control in s.
func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f || (c == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9f) {
			return true
		}
	}
	return false
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

// invisibleRun is the end of the run of invisible characters, spaces
// apart, that starts at i.
func invisibleRun(s string, i int) int {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || !isInvisible(r) || unicode.Is(unicode.Zs, r) {
			break
		}
		i += n
	}
	return i
}

// proseRun reports whether free text keeps a run of invisible characters
// (run, after the text before): what prose puts there, one character at
// a time (one of proseInvisible), an emoji's variation selector followed
// by its zero-width joiner (🏳️‍🌈), or the tag characters of an emoji
// flag (🏴 then a region's code in tag letters and digits, then the cancel
// tag). Anything longer can spell text a person does not see.
func proseRun(before, run string) bool {
	r, n := utf8.DecodeRuneInString(run)
	switch {
	case n == len(run):
		return proseInvisible(r)
	case isVariationSelector(r) && run[n:] == "\u200d":
		return true
	}
	return strings.HasSuffix(before, "\U0001F3F4") && isFlagTags(run)
}

// proseInvisible: the invisible characters prose uses one at a time: the
// soft hyphen, the Arabic letter mark, the zero-width space, non-joiner
// and joiner, the left-to-right and right-to-left marks, the word joiner,
// the combining grapheme joiner and the variation selectors.
func proseInvisible(r rune) bool {
	return r == 0x00ad || r == 0x061c || (r >= 0x200b && r <= 0x200f) || r == 0x2060 || r == 0x034f || isVariationSelector(r)
}

func isVariationSelector(r rune) bool {
	return (r >= 0xfe00 && r <= 0xfe0f) || (r >= 0xe0100 && r <= 0xe01ef)
}

// isFlagTags: the tag sequence of an emoji flag (Unicode TS #51, emoji
// tag sequences): one to seven tag digits or small letters, a
// subdivision's code such as "gbsct", then CANCEL TAG.
func isFlagTags(run string) bool {
	n := 0
	for i, r := range run {
		switch {
		case r == 0xe007f:
			return n >= 1 && n <= 7 && i+utf8.RuneLen(r) == len(run)
		case (r >= 0xe0030 && r <= 0xe0039) || (r >= 0xe0061 && r <= 0xe007a):
			n++
		default:
			return false
		}
	}
	return false
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
