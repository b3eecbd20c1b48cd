package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The package keeps its own ordered JSON tree instead of map[string]any:
// Usage lists properties "in schema order" and Coerce must hand the
// arguments back with the caller's key order, neither of which survives a
// Go map. Numbers stay json.Number so big integers and exact decimals are
// never rounded through float64.
//
// A tree value is one of: *object, *array, string, json.Number, bool, nil.

// object is a JSON object that remembers key order. Duplicate keys keep the
// position of the first occurrence and the value of the last, like
// encoding/json.
type object struct {
	keys []string
	vals map[string]any
}

// array is a JSON array. It is a pointer type so that instance nodes have an
// identity the cost walk can memoise on.
type array struct {
	items []any
}

func newObject() *object { return &object{vals: map[string]any{}} }

func (o *object) get(k string) (any, bool) {
	if o == nil {
		return nil, false
	}
	v, ok := o.vals[k]
	return v, ok
}

func (o *object) set(k string, v any) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

// errDepth is returned by parseJSON when nesting exceeds the given bound.
var errDepth = errors.New("nesting too deep")

// parseJSON decodes exactly one JSON value. maxDepth bounds the nesting of
// objects and arrays (1 for `{}`); deeper input yields errDepth.
func parseJSON(data []byte, maxDepth int) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseValue(dec, 0, maxDepth)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("invalid JSON: unexpected data after the top-level value")
	}
	return v, nil
}

func parseValue(dec *json.Decoder, depth, maxDepth int) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, errors.New("invalid JSON: unexpected end of input")
		}
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth+1 > maxDepth {
			return nil, errDepth
		}
		switch t {
		case '{':
			o := newObject()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, fmt.Errorf("invalid JSON: %w", err)
				}
				k, ok := kt.(string)
				if !ok {
					return nil, errors.New("invalid JSON: object key is not a string")
				}
				v, err := parseValue(dec, depth+1, maxDepth)
				if err != nil {
					return nil, err
				}
				o.set(k, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, fmt.Errorf("invalid JSON: %w", err)
			}
			return o, nil
		case '[':
			a := &array{}
			for dec.More() {
				v, err := parseValue(dec, depth+1, maxDepth)
				if err != nil {
					return nil, err
				}
				a.items = append(a.items, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, fmt.Errorf("invalid JSON: %w", err)
			}
			return a, nil
		}
		return nil, fmt.Errorf("invalid JSON: unexpected %v", t)
	default:
		return tok, nil // string, json.Number, bool, nil
	}
}

// encodeJSON serialises a tree, preserving key order and number text.
func encodeJSON(v any) []byte {
	var b bytes.Buffer
	writeJSON(&b, v)
	return b.Bytes()
}

func writeJSON(b *bytes.Buffer, v any) {
	switch t := v.(type) {
	case *object:
		b.WriteByte('{')
		for i, k := range t.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			writeJSON(b, t.vals[k])
		}
		b.WriteByte('}')
	case *array:
		b.WriteByte('[')
		for i, it := range t.items {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, it)
		}
		b.WriteByte(']')
	case string:
		writeString(b, t)
	case json.Number:
		b.WriteString(string(t))
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case nil:
		b.WriteString("null")
	}
}

// writeString writes s as a JSON string without HTML escaping, so that
// `<`, `>` and `&` in user input come back unchanged.
func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	trimNewline(b)
}

func trimNewline(b *bytes.Buffer) {
	if n := b.Len(); n > 0 && b.Bytes()[n-1] == '\n' {
		b.Truncate(n - 1)
	}
}

// jsonText renders any value (tree or plain) as compact JSON.
func jsonText(v any) string { return string(encodeJSON(v)) }

// --- JSON pointers ---

func escapeToken(tok string) string {
	tok = strings.ReplaceAll(tok, "~", "~0")
	return strings.ReplaceAll(tok, "/", "~1")
}

func unescapeToken(tok string) string {
	tok = strings.ReplaceAll(tok, "~1", "/")
	return strings.ReplaceAll(tok, "~0", "~")
}

// ptrJoin appends tokens to a JSON pointer.
func ptrJoin(ptr string, toks ...string) string {
	var sb strings.Builder
	sb.WriteString(ptr)
	for _, t := range toks {
		sb.WriteByte('/')
		sb.WriteString(escapeToken(t))
	}
	return sb.String()
}

// pointerOf renders instance path tokens as a JSON pointer ("" for the root).
func pointerOf(toks []string) string { return ptrJoin("", toks...) }

// lookupPtr resolves a JSON pointer inside a tree.
func lookupPtr(root any, ptr string) (any, bool) {
	if ptr == "" {
		return root, true
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, false
	}
	v := root
	for _, raw := range strings.Split(ptr[1:], "/") {
		tok := unescapeToken(raw)
		switch t := v.(type) {
		case *object:
			nv, ok := t.vals[tok]
			if !ok {
				return nil, false
			}
			v = nv
		case *array:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(t.items) || strconv.Itoa(i) != tok {
				return nil, false
			}
			v = t.items[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// parentPtr drops the last token of a JSON pointer.
func parentPtr(ptr string) string {
	if i := strings.LastIndexByte(ptr, '/'); i >= 0 {
		return ptr[:i]
	}
	return ""
}

// lastToken returns the unescaped last token of a JSON pointer.
func lastToken(ptr string) string {
	return unescapeToken(ptr[strings.LastIndexByte(ptr, '/')+1:])
}
