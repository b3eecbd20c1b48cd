package output

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/mcpctl/mcpctl/client/ojson"
)

// value is a place in a parsed result: a node of its ojson tree and the
// text it was parsed from. Objects keep their members in wire order (tool
// parameters are listed the way the server wrote them; a key sent twice
// shows once, with its last value, as every JSON reader sees it), numbers
// their text, and every node its raw bytes, so sub-trees such as
// structuredContent can be re-indented without a lossy decode/encode trip.
// The methods are nil-safe, so lookups chain; a nil *value is a member
// that is absent, which is not JSON null.
type value struct {
	node any // an ojson tree value
	raw  []byte
}

// nodeOf is v's tree value; an absent member has none.
func nodeOf(v *value) any {
	if v == nil {
		return nil
	}
	return v.node
}

type valueKind int

const (
	kindNull valueKind = iota
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

// parseValue decodes one JSON document, rejecting trailing data.
func parseValue(raw []byte) (*value, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, errors.New("empty result")
	}
	tree, err := ojson.Parse(raw, ojson.Options{KeepText: true})
	if err != nil {
		return nil, fmt.Errorf("invalid JSON result: %w", err)
	}
	return &value{node: tree, raw: raw}, nil
}

func (v *value) kind() valueKind {
	switch nodeOf(v).(type) {
	case *ojson.Object:
		return kindObject
	case *ojson.Array:
		return kindArray
	case string:
		return kindString
	case json.Number:
		return kindNumber
	case bool:
		return kindBool
	}
	return kindNull
}

// text is a string's value or a number's text ("" for anything else).
func (v *value) text() string {
	switch t := nodeOf(v).(type) {
	case string:
		return t
	case json.Number:
		return string(t)
	}
	return ""
}

// boolean is a boolean's value (false for anything else).
func (v *value) boolean() bool {
	b, _ := nodeOf(v).(bool)
	return b
}

// keys are an object's keys in wire order.
func (v *value) keys() []string {
	if o, ok := nodeOf(v).(*ojson.Object); ok {
		return o.Keys()
	}
	return nil
}

// items are an array's elements.
func (v *value) items() []*value {
	a, ok := nodeOf(v).(*ojson.Array)
	if !ok {
		return nil
	}
	out := make([]*value, a.Len())
	for i, it := range a.Items() {
		out[i] = &value{node: it, raw: a.Text(i)}
	}
	return out
}

// get returns the member named key, or nil. It is nil-safe so lookups
// chain.
func (v *value) get(key string) *value {
	o, ok := nodeOf(v).(*ojson.Object)
	if !ok {
		return nil
	}
	m, ok := o.Lookup(key)
	if !ok {
		return nil
	}
	return &value{node: m, raw: o.Text(key)}
}

func (v *value) str(key string) string {
	if m := v.get(key); m != nil && m.kind() == kindString {
		return m.text()
	}
	return ""
}

func (v *value) isTrue(key string) bool {
	return v.get(key).boolean()
}

func (v *value) is(k valueKind) bool { return v != nil && v.kind() == k }

// array returns the elements of the member named key when it is an array.
func (v *value) array(key string) ([]*value, bool) {
	m := v.get(key)
	if !m.is(kindArray) {
		return nil, false
	}
	return m.items(), true
}

// compact renders the value as one line of JSON, exactly as the server wrote
// it apart from whitespace.
func (v *value) compact() string {
	var b bytes.Buffer
	if err := ojson.Compact(&b, v.raw); err != nil {
		return string(v.raw)
	}
	return b.String()
}

// display is how a scalar reads in a table cell or a text line: strings bare,
// everything else as compact JSON.
func (v *value) display() string {
	if v.kind() == kindString {
		return v.text()
	}
	return v.compact()
}

// writeJSON re-indents on a terminal and compacts for a pipe. Neither changes
// key order, numbers or string escapes, so a pipe gets the server's bytes
// minus insignificant whitespace.
func writeJSON(w *bytes.Buffer, raw []byte, tty bool) error {
	var err error
	if tty {
		var b bytes.Buffer
		if err = json.Indent(&b, raw, "", "  "); err == nil {
			w.Write(escapeTerminalRunes(b.Bytes()))
		}
	} else {
		err = ojson.Compact(w, raw) // into w: no buffer of its own, as large as raw
	}
	if err != nil {
		return fmt.Errorf("invalid JSON result: %w", err)
	}
	w.WriteByte('\n')
	return nil
}

// escapeTerminalRunes rewrites characters that a terminal could act on, or
// would not show, as JSON \u escapes (a pair of them beyond U+FFFF). In
// valid JSON these runes can only occur inside strings, where the escape
// means the same character, so the document's value is unchanged; only its
// spelling is. Every string is treated as a name would be: an emoji's
// joiner is written as \u200d too, since JSON shows data, not prose.
func escapeTerminalRunes(b []byte) []byte {
	if utf8.Valid(b) && !bytes.ContainsFunc(b, needsJSONEscape) {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			// A stray byte such as 0x9b is 8-bit CSI to some terminals.
			out = append(out, `\ufffd`...)
		case needsJSONEscape(r) && r > 0xffff:
			hi, lo := utf16.EncodeRune(r)
			out = fmt.Appendf(out, `\u%04x\u%04x`, hi, lo)
		case needsJSONEscape(r):
			out = fmt.Appendf(out, `\u%04x`, r)
		default:
			out = append(out, b[i:i+n]...)
		}
		i += n
	}
	return out
}

// EscapeJSONText spells JSON text the way JSON is shown at a terminal:
// every character a terminal could act on or would not show is written as
// a \u escape. The value the text denotes is unchanged.
func EscapeJSONText(b []byte) []byte { return escapeTerminalRunes(b) }

// needsJSONEscape: DEL and C1 controls (JSON escapes C0 itself) and the
// invisible and direction-changing characters, U+2028 and U+2029 among
// them.
func needsJSONEscape(r rune) bool {
	return r == 0x7f || (r >= 0x80 && r <= 0x9f) || isInvisible(r)
}

// WriteJSONLine writes raw as one compact line, the NDJSON framing used for
// streams (listen, batch, progress, a continuation) whatever the terminal.
// To a terminal the line is spelled as JSON is shown there
// (EscapeJSONText): C1 controls, invisible and direction-changing
// characters and invalid UTF-8 as \u escapes, the value unchanged; to a
// pipe it is the server's bytes.
func WriteJSONLine(w io.Writer, raw json.RawMessage, terminal bool) error {
	var b bytes.Buffer
	if err := writeJSON(&b, raw, false); err != nil {
		return err
	}
	line := b.Bytes()
	if terminal {
		line = escapeTerminalRunes(line)
	}
	_, err := w.Write(line)
	return err
}
