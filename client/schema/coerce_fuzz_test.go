package schema

import (
	"encoding/json"
	"strconv"
	"testing"
)

// FuzzCoerce types every string of an arbitrary arguments object with an
// arbitrary schema. Whatever the schema, each string either stays as it
// was or becomes a value that the text denotes exactly (a number equal to
// it, true/false, null); nothing else in the arguments changes; and typing
// the result again changes nothing.
func FuzzCoerce(f *testing.F) {
	// Seeds: testdata/fuzz/FuzzCoerce.
	f.Fuzz(func(t *testing.T, schemaText, argsText string) {
		s, err := Compile(json.RawMessage(schemaText), Limits{})
		if err != nil {
			return
		}
		tree, err := parseJSON([]byte(argsText), maxArgsDepth)
		if err != nil {
			return
		}
		if _, isObj := tree.(*object); !isObj {
			return
		}
		var paths [][]string
		stringLeaves(tree, nil, &paths)
		out, err := s.Coerce(json.RawMessage(argsText), paths)
		if err != nil {
			t.Fatalf("Coerce(%s): %v", argsText, err)
		}
		typed, err := parseJSON(out, maxArgsDepth)
		if err != nil {
			t.Fatalf("Coerce(%s) = %s, not JSON: %v", argsText, out, err)
		}
		if msg := compareTyped(tree, typed, ""); msg != "" {
			t.Fatalf("schema %s, arguments %s -> %s: %s", schemaText, argsText, out, msg)
		}
		var again [][]string
		stringLeaves(typed, nil, &again)
		out2, err := s.Coerce(out, again)
		if err != nil || string(out2) != string(out) {
			t.Fatalf("typing twice: %s -> %s -> %s, %v", argsText, out, out2, err)
		}
	})
}

// stringLeaves lists the paths of every string in v.
func stringLeaves(v any, path []string, out *[][]string) {
	switch t := v.(type) {
	case string:
		*out = append(*out, append([]string(nil), path...))
	case *object:
		for _, k := range t.Keys() {
			stringLeaves(t.Get(k), append(path, k), out)
		}
	case *array:
		for i, it := range t.Items() {
			stringLeaves(it, append(path, strconv.Itoa(i)), out)
		}
	}
}

// compareTyped checks that after is before with some strings replaced by
// the value they denote; it returns what is wrong, or "".
func compareTyped(before, after any, at string) string {
	switch b := before.(type) {
	case string:
		switch a := after.(type) {
		case string:
			if a != b {
				return at + ": the string " + strconv.Quote(b) + " became " + strconv.Quote(a)
			}
		case json.Number:
			if !isJSONNumber(b) || !numbersEqual(string(a), b) {
				return at + ": " + strconv.Quote(b) + " became the number " + string(a)
			}
		case bool:
			if strconv.FormatBool(a) != b {
				return at + ": " + strconv.Quote(b) + " became " + strconv.FormatBool(a)
			}
		case nil:
			if b != "null" {
				return at + ": " + strconv.Quote(b) + " became null"
			}
		default:
			return at + ": " + strconv.Quote(b) + " became " + jsonText(a)
		}
	case *object:
		a, ok := after.(*object)
		if !ok || len(a.Keys()) != len(b.Keys()) {
			return at + ": the object changed shape"
		}
		for i, k := range b.Keys() {
			if a.Keys()[i] != k {
				return at + ": the keys changed order"
			}
			if msg := compareTyped(b.Get(k), a.Get(k), at+"/"+k); msg != "" {
				return msg
			}
		}
	case *array:
		a, ok := after.(*array)
		if !ok || len(a.Items()) != len(b.Items()) {
			return at + ": the array changed shape"
		}
		for i := range b.Items() {
			if msg := compareTyped(b.Items()[i], a.Items()[i], at+"/"+strconv.Itoa(i)); msg != "" {
				return msg
			}
		}
	default:
		if jsonText(before) != jsonText(after) {
			return at + ": " + jsonText(before) + " became " + jsonText(after)
		}
	}
	return ""
}
