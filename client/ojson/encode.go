package ojson

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// Encode writes a tree value (or a plain string, json.Number, bool or
// nil) as compact JSON, keys in order and numbers as their text. A
// json.RawMessage in the tree is a value kept as it was written, and is
// written so (empty: null).
func Encode(v any) []byte {
	var b bytes.Buffer
	writeValue(&b, v)
	return b.Bytes()
}

func writeValue(b *bytes.Buffer, v any) {
	switch t := v.(type) {
	case *Object:
		b.WriteByte('{')
		for i, k := range t.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			writeValue(b, t.vals[k])
		}
		b.WriteByte('}')
	case *Array:
		b.WriteByte('[')
		for i, it := range t.items {
			if i > 0 {
				b.WriteByte(',')
			}
			writeValue(b, it)
		}
		b.WriteByte(']')
	case string:
		writeString(b, t)
	case json.Number:
		b.WriteString(string(t))
	case json.RawMessage:
		if len(t) == 0 {
			b.WriteString("null")
		} else {
			b.Write(t)
		}
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case nil:
		b.WriteString("null")
	}
}

// String encodes s as a JSON string without the HTML escaping json.Marshal
// applies, so "<" stays "<". Bytes that are not UTF-8 become the escape
// \ufffd, and U+2028 and U+2029 are escaped (JavaScript reads them as
// line ends). Written here rather than by encoding/json, whose output for
// invalid UTF-8 differs between Go's json v1 and v2.
func String(s string) json.RawMessage {
	var b bytes.Buffer
	b.Grow(len(s) + 2) // plain text, the usual case, fills it: no copies left behind
	writeString(&b, s)
	return b.Bytes()
}

const hexDigits = "0123456789abcdef"

func writeString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\r':
				b.WriteString(`\r`)
			case c == '\t':
				b.WriteString(`\t`)
			case c < 0x20:
				b.WriteString(`\u00`)
				b.WriteByte(hexDigits[c>>4])
				b.WriteByte(hexDigits[c&0xf])
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\ufffd`)
		case r == '\u2028':
			b.WriteString(`\u2028`)
		case r == '\u2029':
			b.WriteString(`\u2029`)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	b.WriteByte('"')
}
