package output

import (
	"strings"

	"github.com/mattn/go-runewidth"
)

// cells measures text as a terminal lays it out (github.com/mattn/go-runewidth):
// a grapheme cluster is one glyph (👍🏽, a flag, a ZWJ family: two cells,
// not the sum of their runes), emoji with emoji presentation (✅) are two
// cells, combining marks and format characters none. East Asian
// ambiguous characters count one cell whatever the locale says, as they
// always have here and as most terminals draw them by default, so that
// what mcpctl prints does not depend on LANG.
var cells = &runewidth.Condition{EastAsianWidth: false, StrictEmojiNeutral: true}

// DisplayWidth is how many terminal cells s occupies.
func DisplayWidth(s string) int { return cells.StringWidth(s) }

// Truncate cuts s to at most w cells, marking the cut with "…", and never
// inside a grapheme cluster.
func Truncate(s string, w int) string {
	if DisplayWidth(s) <= w {
		return s
	}
	if w <= 0 {
		return ""
	}
	return cells.Truncate(s, w, "…")
}

// pad right-fills s with spaces to w cells.
func pad(s string, w int) string {
	if n := w - DisplayWidth(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}

// firstLine is the summary line of a multi-line description.
func firstLine(s string) string {
	s = strings.TrimLeft(s, " \t\r\n")
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}
