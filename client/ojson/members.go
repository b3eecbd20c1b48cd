package ojson

import (
	"bytes"
	"encoding/json"
	"errors"
	"unicode/utf8"
)

// Errors of SplitObject, besides a *SyntaxError (which says where, so that
// callers can locate it).
var (
	ErrNotObject    = errors.New("not a JSON object")
	ErrUnterminated = errors.New("unterminated JSON object")
	ErrTrailingData = errors.New("trailing data after the JSON object")
)

// Member is one member of a JSON object: its key and its value as raw
// JSON.
type Member struct {
	Key   string
	Value json.RawMessage
}

// Members is a JSON object as its members in order. The zero value is an
// empty object.
type Members []Member

// SplitObject returns the members of the JSON object data in wire order,
// duplicates included, each value as raw JSON: a slice of data, not a
// copy (a large argument is not held twice). data must hold exactly one
// object (surrounding white space aside).
func SplitObject(data []byte) (Members, error) {
	m, err := splitObject(data)
	if err != nil && err != ErrNotObject && err != ErrTrailingData {
		// Report the text's own fault in the words Check uses everywhere.
		if se := Check(data); se != nil {
			if se.Offset == int64(len(data)) && bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
				return nil, ErrUnterminated
			}
			return nil, se
		}
	}
	return m, err
}

// splitObject walks data with Check's reader, taking each member's value
// where it lies.
func splitObject(data []byte) (Members, error) {
	c := checker{data: data}
	c.space()
	if c.pos >= len(data) {
		return nil, c.end()
	}
	switch data[c.pos] {
	case '{':
	case '[':
		return nil, ErrNotObject
	default:
		if err := c.value(); err != nil { // a scalar: read, to tell a typo from a string
			return nil, err
		}
		return nil, ErrNotObject
	}
	c.pos++
	c.space()
	out := Members{}
	if c.pos < len(data) && data[c.pos] == '}' {
		c.pos++
	} else {
		for {
			if c.pos >= len(data) || data[c.pos] != '"' {
				return nil, c.bad("")
			}
			start := c.pos
			if err := c.str(); err != nil {
				return nil, err
			}
			key, err := unquote(data[start:c.pos])
			if err != nil {
				return nil, err
			}
			c.space()
			if c.pos >= len(data) || data[c.pos] != ':' {
				return nil, c.bad("after object key")
			}
			c.pos++
			c.space()
			start = c.pos
			if err := c.value(); err != nil {
				return nil, err
			}
			// Capped, so that appending to a value never writes over
			// what follows it in data.
			out = append(out, Member{Key: key, Value: data[start:c.pos:c.pos]})
			c.space()
			if c.pos >= len(data) {
				return nil, c.end()
			}
			if data[c.pos] == '}' {
				c.pos++
				break
			}
			if data[c.pos] != ',' {
				return nil, c.bad("after object key:value pair")
			}
			c.pos++
			c.space()
		}
	}
	c.space()
	if c.pos < len(data) {
		return nil, ErrTrailingData
	}
	return out, nil
}

// unquote is a JSON string's value (q with its quotes, checked by str).
func unquote(q []byte) (string, error) {
	in := q[1 : len(q)-1]
	if bytes.IndexByte(in, '\\') < 0 && utf8.Valid(in) {
		return string(in), nil
	}
	var s string
	err := json.Unmarshal(q, &s)
	return s, err
}

// Get returns the value of key (the last one, if the object has several),
// or nil.
func (m Members) Get(key string) json.RawMessage {
	for i := len(m) - 1; i >= 0; i-- {
		if m[i].Key == key {
			return m[i].Value
		}
	}
	return nil
}

// Has reports whether the object has a member named key.
func (m Members) Has(key string) bool {
	for _, f := range m {
		if f.Key == key {
			return true
		}
	}
	return false
}

// Set gives key the value v: in the place of its first member, whose
// duplicates go, or as a new last member.
func (m *Members) Set(key string, v json.RawMessage) {
	out := (*m)[:0]
	placed := false
	for _, f := range *m {
		if f.Key == key {
			if placed {
				continue
			}
			f.Value, placed = v, true
		}
		out = append(out, f)
	}
	clear((*m)[len(out):])
	if !placed {
		out = append(out, Member{Key: key, Value: v})
	}
	*m = out
}

// Delete removes every member named key.
func (m *Members) Delete(key string) {
	out := (*m)[:0]
	for _, f := range *m {
		if f.Key != key {
			out = append(out, f)
		}
	}
	clear((*m)[len(out):])
	*m = out
}

// Keys returns the distinct keys in the order they first appear.
func (m Members) Keys() []string {
	keys := make([]string, 0, len(m))
	seen := make(map[string]bool, len(m))
	for _, f := range m {
		if !seen[f.Key] {
			seen[f.Key] = true
			keys = append(keys, f.Key)
		}
	}
	return keys
}

// Unique returns the object as encoding/json reads it: one member per key,
// in the place of its first occurrence, with its last value.
func (m Members) Unique() Members {
	keys := m.Keys()
	if len(keys) == len(m) {
		return m
	}
	out := make(Members, len(keys))
	for i, k := range keys {
		out[i] = Member{Key: k, Value: m.Get(k)}
	}
	return out
}

// JSON writes the members, as they are, as a compact JSON object, in a
// buffer of its final size (a large value is copied once).
func (m Members) JSON() json.RawMessage {
	n := 2
	for _, f := range m {
		n += len(f.Key) + 4 + max(len(f.Value), 4) // quotes, colon, comma
	}
	b := bytes.NewBuffer(make([]byte, 0, n))
	m.WriteJSON(b)
	return b.Bytes()
}

// WriteJSON writes the members as JSON does, into b.
func (m Members) WriteJSON(b *bytes.Buffer) {
	b.WriteByte('{')
	for i, f := range m {
		if i > 0 {
			b.WriteByte(',')
		}
		writeString(b, f.Key)
		b.WriteByte(':')
		if len(f.Value) == 0 {
			b.WriteString("null")
		} else {
			b.Write(f.Value)
		}
	}
	b.WriteByte('}')
}

// JoinArray writes raw values as a JSON array.
func JoinArray(items []json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(it)
	}
	b.WriteByte(']')
	return b.Bytes()
}
