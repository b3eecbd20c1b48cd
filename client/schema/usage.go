package schema

import (
	"encoding/json"
	"strings"

	"github.com/mcpctl/mcpctl/client/ojson"
)

// Usage builds a one-line usage from the schema: required properties first,
// then optional ones in brackets, each group in schema order, e.g.
//
//	location=STRING [units=metric|imperial|kelvin]
//
// Placeholders: STRING, INT, NUMBER, true|false, null; enum (or const)
// values joined by |; arrays of scalars as name[]=ITEM… (one item per
// occurrence); objects and arrays of non-scalars as name:=JSON; VALUE when
// the schema does not say. Properties reachable through $ref and allOf
// count as declared; those only in anyOf/oneOf branches are optional.
// A schema without properties gives "".
func (s *Schema) Usage() string {
	var req, opt []string
	for _, e := range s.propertyList(s.nodes[""]) {
		item := e.name + s.valueSpec(e.n)
		if e.required {
			req = append(req, item)
		} else {
			opt = append(opt, "["+item+"]")
		}
	}
	return strings.Join(append(req, opt...), " ")
}

// valueSpec returns the operator and placeholder for one property, such as
// "=STRING", "[]=INT…" or ":=JSON".
func (s *Schema) valueSpec(n *node) string {
	if n == nil {
		return "=VALUE"
	}
	sh := s.shapeOf(n)
	if sh.hasConst {
		if t, ok := scalarText(sh.constV); ok {
			return "=" + t
		}
		return ":=JSON"
	}
	if sh.hasEnum && len(sh.enum) > 0 {
		parts := make([]string, 0, len(sh.enum))
		scalar := true
		for _, m := range sh.enum {
			t, ok := scalarText(m)
			scalar = scalar && ok
			parts = append(parts, t)
		}
		if scalar {
			return "=" + strings.Join(dedupe(parts), "|")
		}
		return ":=JSON"
	}
	types := sh.nonNullTypes()
	if len(types) == 0 {
		if sh.has("null") {
			return "=null"
		}
		return "=VALUE"
	}
	if sh.has("object") {
		return ":=JSON"
	}
	if sh.has("array") {
		if sh.items != nil {
			is := s.shapeOf(sh.items)
			if p, ok := scalarPlaceholder(&is); ok && !is.has("array") && !is.has("object") {
				return "[]=" + p + "…"
			}
		}
		return ":=JSON"
	}
	if p, ok := scalarPlaceholder(&sh); ok {
		return "=" + p
	}
	return "=VALUE"
}

// scalarPlaceholder renders the placeholder for a scalar shape.
func scalarPlaceholder(sh *shape) (string, bool) {
	if sh.hasConst {
		return scalarText(sh.constV)
	}
	if sh.hasEnum && len(sh.enum) > 0 {
		parts := make([]string, 0, len(sh.enum))
		for _, m := range sh.enum {
			t, ok := scalarText(m)
			if !ok {
				return "", false
			}
			parts = append(parts, t)
		}
		return strings.Join(dedupe(parts), "|"), true
	}
	var parts []string
	for _, t := range sh.nonNullTypes() {
		switch t {
		case "string":
			parts = append(parts, "STRING")
		case "integer":
			parts = append(parts, "INT")
		case "number":
			parts = append(parts, "NUMBER")
		case "boolean":
			parts = append(parts, "true|false")
		default:
			return "", false
		}
	}
	if len(parts) == 0 {
		if sh.has("null") {
			return "null", true
		}
		return "VALUE", true
	}
	return strings.Join(dedupe(parts), "|"), true
}

// scalarText renders a scalar as typed on the command line: strings raw,
// other scalars as JSON.
func scalarText(v any) (string, bool) {
	switch t := v.(type) {
	case string:
		return t, true
	case json.Number, bool, nil:
		return jsonText(t), true
	}
	return "", false
}

// Example returns an example arguments object: required properties and
// those with a default, in schema order. Each value is the default if
// present, else the const, the first enum member, the first of `examples`,
// or a placeholder by type ("example", 0 or the minimum, false, null, [],
// or a nested example object).
func (s *Schema) Example() json.RawMessage {
	v := s.exampleValue(s.nodes[""], 0, map[string]bool{})
	if _, ok := v.(*object); !ok {
		v = ojson.NewObject()
	}
	return ojson.Encode(v)
}

const maxExampleDepth = 8

func (s *Schema) exampleValue(n *node, depth int, stack map[string]bool) any {
	if n == nil {
		return "example"
	}
	sh := s.shapeOf(n)
	switch {
	case sh.hasDef:
		return sh.def
	case sh.hasConst:
		return sh.constV
	case sh.hasEnum && len(sh.enum) > 0:
		return sh.enum[0]
	case sh.hasExample:
		return sh.example
	}
	types := sh.nonNullTypes()
	t := ""
	if len(types) > 0 {
		t = types[0]
	} else if sh.has("null") {
		t = "null"
	}
	switch t {
	case "object":
		return s.exampleObject(n, depth, stack)
	case "array":
		a := &array{}
		if sh.minItems > 0 && sh.items != nil && depth < maxExampleDepth {
			for i := 0; i < sh.minItems; i++ {
				a.Append(s.exampleValue(sh.items, depth+1, stack))
			}
		}
		return a
	case "integer":
		if m, ok := sh.minimum.(json.Number); ok && isJSONInteger(string(m)) {
			return m
		}
		return json.Number("0")
	case "number":
		if m, ok := sh.minimum.(json.Number); ok {
			return m
		}
		return json.Number("0")
	case "boolean":
		return false
	case "null":
		return nil
	}
	return "example"
}

func (s *Schema) exampleObject(n *node, depth int, stack map[string]bool) *object {
	o := ojson.NewObject()
	if depth >= maxExampleDepth || stack[n.ptr] {
		return o
	}
	stack[n.ptr] = true
	defer delete(stack, n.ptr)
	for _, e := range s.propertyList(n) {
		if e.required || (e.n != nil && s.shapeOf(e.n).hasDef) {
			o.Set(e.name, s.exampleValue(e.n, depth+1, stack))
		}
	}
	return o
}

// Properties lists the top-level property names in schema order (including
// those declared through $ref, allOf, anyOf and oneOf), for suggestions and
// completion.
func (s *Schema) Properties() []string {
	return s.declaredNames(s.nodes[""])
}
