package schema

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpctl/mcpctl/client/ojson"
)

// The package's trees (schema documents and arguments alike) are ojson
// trees: Usage lists properties "in schema order" and Coerce must hand the
// arguments back with the caller's key order, neither of which survives a
// Go map, and numbers stay json.Number so big integers and exact decimals
// are never rounded through float64.
//
// A tree value is one of: *object, *array, string, json.Number, bool, nil.
type (
	object = ojson.Object
	array  = ojson.Array
)

// errDepth is returned by parseJSON when nesting exceeds the given bound.
var errDepth = ojson.ErrDepth

// parseJSON decodes exactly one JSON value. maxDepth bounds the nesting of
// objects and arrays (1 for `{}`); deeper input yields errDepth.
func parseJSON(data []byte, maxDepth int) (any, error) {
	v, err := ojson.Parse(data, ojson.Options{MaxDepth: maxDepth})
	if err != nil && !errors.Is(err, errDepth) {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	return v, err
}

// jsonText renders any value (tree or plain) as compact JSON.
func jsonText(v any) string { return string(ojson.Encode(v)) }

// JSON pointers.

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
			nv, ok := t.Lookup(tok)
			if !ok {
				return nil, false
			}
			v = nv
		case *array:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(t.Items()) || strconv.Itoa(i) != tok {
				return nil, false
			}
			v = t.Items()[i]
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
