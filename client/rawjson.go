package client

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// field is one member of a JSON object, kept raw and in order.
type field struct {
	Key   string
	Value json.RawMessage
}

// splitObject returns the members of a raw JSON object in wire order.
func splitObject(raw json.RawMessage) ([]field, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("not a JSON object")
	}
	var out []field
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, field{Key: kt.(string), Value: v})
	}
	if end, err := dec.Token(); err != nil || end != json.Delim('}') {
		return nil, fmt.Errorf("unterminated JSON object")
	}
	if len(bytes.TrimSpace(raw[dec.InputOffset():])) > 0 {
		return nil, fmt.Errorf("trailing data after the JSON object")
	}
	return out, nil
}

// joinObject writes members back as a compact JSON object.
func joinObject(fields []field) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.Key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(f.Value)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// getField returns the raw value of key, or nil.
func getField(fields []field, key string) json.RawMessage {
	for _, f := range fields {
		if f.Key == key {
			return f.Value
		}
	}
	return nil
}

// setField replaces key's value, appending the member if it is absent.
func setField(fields []field, key string, v json.RawMessage) []field {
	for i, f := range fields {
		if f.Key == key {
			fields[i].Value = v
			return fields
		}
	}
	return append(fields, field{Key: key, Value: v})
}

func deleteField(fields []field, key string) []field {
	out := fields[:0]
	for _, f := range fields {
		if f.Key != key {
			out = append(out, f)
		}
	}
	return out
}

// joinArray writes raw elements as a JSON array.
func joinArray(items []json.RawMessage) json.RawMessage {
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
