package ojson

import (
	"bytes"
	"encoding/json"
	"strconv"
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
// applies, so "<" stays "<". Bytes that are not UTF-8 become U+FFFD, as
// encoding/json writes them.
func String(s string) json.RawMessage {
	var b bytes.Buffer
	writeString(&b, s)
	return b.Bytes()
}

func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	if n := b.Len(); n > 0 && b.Bytes()[n-1] == '\n' {
		b.Truncate(n - 1)
	}
}
