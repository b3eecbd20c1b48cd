package ojson

import (
	"bytes"
	"encoding/json"
	"errors"
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
// duplicates included, each value as raw JSON. data must hold exactly one
// object (surrounding white space aside).
func SplitObject(data []byte) (Members, error) {
	m, err := splitObject(data)
	if err != nil && err != ErrNotObject && err != ErrTrailingData {
		// encoding/json's errors differ between its v1 and v2; report
		// the text's own fault in words of ours.
		if se := Check(data); se != nil {
			if se.Offset == int64(len(data)) && bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
				return nil, ErrUnterminated
			}
			return nil, se
		}
	}
	return m, err
}

func splitObject(data []byte) (Members, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, ErrNotObject
	}
	out := Members{}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, Member{Key: kt.(string), Value: v})
	}
	if end, err := dec.Token(); err != nil || end != json.Delim('}') {
		return nil, ErrUnterminated
	}
	if len(bytes.TrimSpace(data[dec.InputOffset():])) > 0 {
		return nil, ErrTrailingData
	}
	return out, nil
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

// JSON writes the members, as they are, as a compact JSON object.
func (m Members) JSON() json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range m {
		if i > 0 {
			b.WriteByte(',')
		}
		writeString(&b, f.Key)
		b.WriteByte(':')
		if len(f.Value) == 0 {
			b.WriteString("null")
		} else {
			b.Write(f.Value)
		}
	}
	b.WriteByte('}')
	return b.Bytes()
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
