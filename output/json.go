package output

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// value is an order-preserving view of a JSON document. Objects keep their
// members in wire order (tool parameters are listed the way the server wrote
// them) and every node remembers its raw bytes, so sub-trees such as
// structuredContent can be re-indented without a lossy decode/encode trip.
type value struct {
	kind    valueKind
	text    string // string value, or the literal text of a number
	boolean bool
	items   []*value
	keys    []string
	vals    []*value
	raw     []byte
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
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, errors.New("empty result")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := decodeValue(dec, raw)
	if err != nil {
		return nil, fmt.Errorf("invalid JSON result: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("invalid JSON result: data after the first value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder, raw []byte) (*value, error) {
	start := skipSeparators(raw, int(dec.InputOffset()))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	v := &value{}
	switch t := tok.(type) {
	case nil:
		v.kind = kindNull
	case bool:
		v.kind, v.boolean = kindBool, t
	case json.Number:
		v.kind, v.text = kindNumber, t.String()
	case string:
		v.kind, v.text = kindString, t
	case json.Delim:
		if t == '[' {
			v.kind = kindArray
			for dec.More() {
				item, err := decodeValue(dec, raw)
				if err != nil {
					return nil, err
				}
				v.items = append(v.items, item)
			}
		} else {
			v.kind = kindObject
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ := kt.(string)
				val, err := decodeValue(dec, raw)
				if err != nil {
					return nil, err
				}
				v.keys = append(v.keys, key)
				v.vals = append(v.vals, val)
			}
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
	}
	v.raw = raw[start:dec.InputOffset()]
	return v, nil
}

// skipSeparators moves past the whitespace, ':' and ',' that json.Decoder
// consumes between tokens without reporting them.
func skipSeparators(raw []byte, i int) int {
	for i < len(raw) {
		switch raw[i] {
		case ' ', '\t', '\r', '\n', ':', ',':
			i++
		default:
			return i
		}
	}
	return i
}

// get returns the member named key (the last one, as encoding/json would, if
// a server sent duplicates), or nil. It is nil-safe so lookups chain.
func (v *value) get(key string) *value {
	if v == nil || v.kind != kindObject {
		return nil
	}
	for i := len(v.keys) - 1; i >= 0; i-- {
		if v.keys[i] == key {
			return v.vals[i]
		}
	}
	return nil
}

func (v *value) str(key string) string {
	if m := v.get(key); m != nil && m.kind == kindString {
		return m.text
	}
	return ""
}

func (v *value) isTrue(key string) bool {
	m := v.get(key)
	return m != nil && m.kind == kindBool && m.boolean
}

func (v *value) is(k valueKind) bool { return v != nil && v.kind == k }

// array returns the elements of the member named key when it is an array.
func (v *value) array(key string) ([]*value, bool) {
	m := v.get(key)
	if !m.is(kindArray) {
		return nil, false
	}
	return m.items, true
}

// compact renders the value as one line of JSON, exactly as the server wrote
// it apart from whitespace.
func (v *value) compact() string {
	var b bytes.Buffer
	if err := json.Compact(&b, v.raw); err != nil {
		return string(v.raw)
	}
	return b.String()
}

// display is how a scalar reads in a table cell or a text line: strings bare,
// everything else as compact JSON.
func (v *value) display() string {
	if v.kind == kindString {
		return v.text
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
		err = json.Compact(w, raw)
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
// streams (listen, notifications) whatever the terminal.
func WriteJSONLine(w io.Writer, raw json.RawMessage) error {
	var b bytes.Buffer
	if err := writeJSON(&b, raw, false); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}
