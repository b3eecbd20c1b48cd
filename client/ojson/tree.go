package ojson

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// A tree value is one of: *Object, *Array, string, json.Number, bool, or
// nil for null.

// Object is a parsed JSON object that keeps its keys in order. A
// duplicate key keeps the place of its first occurrence and the value of
// its last, as encoding/json reads it.
type Object struct {
	keys  []string
	vals  map[string]any
	texts map[string][]byte // with KeepText: each value's text
}

// NewObject returns an empty object.
func NewObject() *Object { return &Object{vals: map[string]any{}} }

// Keys returns the keys in order. The slice is the object's own: do not
// change it.
func (o *Object) Keys() []string {
	if o == nil {
		return nil
	}
	return o.keys
}

// Len is the number of keys.
func (o *Object) Len() int {
	if o == nil {
		return 0
	}
	return len(o.keys)
}

// Lookup returns the value of key and whether the object has it.
func (o *Object) Lookup(key string) (any, bool) {
	if o == nil {
		return nil, false
	}
	v, ok := o.vals[key]
	return v, ok
}

// Get returns the value of key, or nil (which is also JSON null: use
// Lookup to tell them apart).
func (o *Object) Get(key string) any {
	if o == nil {
		return nil
	}
	return o.vals[key]
}

// Set gives key the value v, appending the key if it is new. The text the
// old value was parsed from is forgotten.
func (o *Object) Set(key string, v any) {
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
	delete(o.texts, key)
}

// Text returns the JSON text key's value was parsed from (Options.KeepText),
// or nil.
func (o *Object) Text(key string) []byte {
	if o == nil {
		return nil
	}
	return o.texts[key]
}

// Array is a parsed JSON array. It is a pointer type so that nodes of a
// tree have an identity (the schema validator memoises on it).
type Array struct {
	items []any
	texts [][]byte // with KeepText: each item's text
}

// NewArray returns an array of items.
func NewArray(items ...any) *Array { return &Array{items: items} }

// Items returns the items. The slice is the array's own: do not change it
// (Set does).
func (a *Array) Items() []any {
	if a == nil {
		return nil
	}
	return a.items
}

// Len is the number of items.
func (a *Array) Len() int {
	if a == nil {
		return 0
	}
	return len(a.items)
}

// Set replaces item i, forgetting the text it was parsed from.
func (a *Array) Set(i int, v any) {
	a.items[i] = v
	if i < len(a.texts) {
		a.texts[i] = nil
	}
}

// Append adds v at the end.
func (a *Array) Append(v any) {
	a.items = append(a.items, v)
	if a.texts != nil {
		a.texts = append(a.texts, nil)
	}
}

// Text returns the JSON text item i was parsed from (Options.KeepText), or
// nil.
func (a *Array) Text(i int) []byte {
	if a == nil || i >= len(a.texts) {
		return nil
	}
	return a.texts[i]
}

// Options tune Parse.
type Options struct {
	// MaxDepth bounds the nesting of objects and arrays (`{}` is depth 1;
	// 0 leaves only encoding/json's own bound). Deeper input is ErrDepth.
	MaxDepth int
	// KeepText makes every member and item remember the text it was
	// parsed from (Object.Text, Array.Text): a sub-tree can then be shown
	// exactly as written, string escapes included.
	KeepText bool
}

// ErrDepth is Parse's error for input nested deeper than Options.MaxDepth.
var ErrDepth = errors.New("nesting too deep")

// Parse decodes exactly one JSON value into a tree. Its errors are
// encoding/json's, or say what is wrong in words of their own; none names
// a caller.
func Parse(data []byte, opts Options) (any, error) {
	p := &parser{data: data, dec: json.NewDecoder(bytes.NewReader(data)), opts: opts}
	p.dec.UseNumber()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if _, err := p.dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the top-level value")
	}
	return v, nil
}

type parser struct {
	data []byte
	dec  *json.Decoder
	opts Options
}

// valueText parses a member or an item and, with KeepText, returns its
// text too.
func (p *parser) valueText(depth int) (any, []byte, error) {
	if !p.opts.KeepText {
		v, err := p.value(depth)
		return v, nil, err
	}
	start := skipSeparators(p.data, int(p.dec.InputOffset()))
	v, err := p.value(depth)
	if err != nil {
		return nil, nil, err
	}
	return v, p.data[start:p.dec.InputOffset()], nil
}

func (p *parser) value(depth int) (any, error) {
	tok, err := p.dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, errors.New("unexpected end of input")
		}
		return nil, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil // string, json.Number, bool, nil
	}
	if p.opts.MaxDepth > 0 && depth+1 > p.opts.MaxDepth {
		return nil, ErrDepth
	}
	switch d {
	case '{':
		o := NewObject()
		if p.opts.KeepText {
			o.texts = map[string][]byte{}
		}
		for p.dec.More() {
			kt, err := p.dec.Token()
			if err != nil {
				return nil, err
			}
			k, ok := kt.(string)
			if !ok {
				return nil, errors.New("object key is not a string")
			}
			v, text, err := p.valueText(depth + 1)
			if err != nil {
				return nil, err
			}
			o.Set(k, v)
			if text != nil {
				o.texts[k] = text
			}
		}
		if _, err := p.dec.Token(); err != nil {
			return nil, err
		}
		return o, nil
	case '[':
		a := &Array{}
		for p.dec.More() {
			v, text, err := p.valueText(depth + 1)
			if err != nil {
				return nil, err
			}
			a.items = append(a.items, v)
			if p.opts.KeepText {
				a.texts = append(a.texts, text)
			}
		}
		if _, err := p.dec.Token(); err != nil {
			return nil, err
		}
		return a, nil
	}
	return nil, errors.New("unexpected " + d.String())
}

// skipSeparators moves past the white space, ':' and ',' that
// json.Decoder consumes between tokens without reporting them.
func skipSeparators(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\r', '\n', ':', ',':
			i++
		default:
			return i
		}
	}
	return i
}
