package schema

import "strings"

// Reading a schema for humans (usage lines, examples, messages) needs a
// "flattened" view of each subschema: the properties and types it implies
// through $ref, allOf and anyOf/oneOf. These helpers build that view. They
// are bounded by a visited set (refs may be cyclic) and by maxViewDepth.

const maxViewDepth = 32

// propEntry is one property an object schema declares.
type propEntry struct {
	name     string
	n        *node // the property's subschema; nil if only listed in required
	required bool
}

// propertyList collects the properties an object schema declares, in schema
// order: its own, then those from $ref targets and allOf branches (which
// always apply), then those from anyOf/oneOf branches (which may apply, so
// they are never required). Names listed in a definite `required` but
// declared nowhere come last.
func (s *Schema) propertyList(n *node) []propEntry {
	var out []propEntry
	idx := map[string]int{}
	var reqOrder []string
	reqSet := map[string]bool{}
	visited := map[string]bool{}
	var walk func(n *node, definite bool, depth int)
	walk = func(n *node, definite bool, depth int) {
		if n == nil || n.obj == nil || visited[n.ptr] || depth > maxViewDepth {
			return
		}
		visited[n.ptr] = true
		pure := pureRef(n.obj, n.draft)
		if !pure {
			if props, ok := n.obj.Get("properties").(*object); ok {
				for _, k := range props.Keys() {
					if _, seen := idx[k]; !seen {
						idx[k] = len(out)
						out = append(out, propEntry{name: k, n: s.child(n, "properties", k)})
					}
				}
			}
			if req, ok := n.obj.Get("required").(*array); ok && definite {
				for _, r := range req.Items() {
					if name, ok := r.(string); ok && !reqSet[name] {
						reqSet[name] = true
						reqOrder = append(reqOrder, name)
					}
				}
			}
		}
		for _, t := range n.refs {
			walk(s.nodes[t], definite, depth+1)
		}
		if pure {
			return
		}
		for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
			if a, ok := n.obj.Get(kw).(*array); ok {
				for i := range a.Items() {
					walk(s.child(n, kw, itoa(i)), definite && kw == "allOf", depth+1)
				}
			}
		}
	}
	walk(n, true, 0)
	for _, name := range reqOrder {
		if i, ok := idx[name]; ok {
			out[i].required = true
		} else {
			idx[name] = len(out)
			out = append(out, propEntry{name: name, required: true})
		}
	}
	return out
}

// declaredNames lists the property names of an object schema.
func (s *Schema) declaredNames(n *node) []string {
	var out []string
	for _, e := range s.propertyList(n) {
		out = append(out, e.name)
	}
	return out
}

// findProperty returns the subschema declared for property name, or nil.
func (s *Schema) findProperty(n *node, name string) *node {
	for _, e := range s.propertyList(n) {
		if e.name == name {
			return e.n
		}
	}
	return nil
}

// findPropertyAround looks for property name in the schema at ptr and, if
// that schema is an in-place part of a bigger one (then/else, an allOf or
// anyOf branch, ...), in the enclosing schemas too: `"then":{"required":
// ["vat"]}` usually relies on "vat" being declared beside the "if".
func (s *Schema) findPropertyAround(ptr, name string) *node {
	for {
		if p := s.findProperty(s.node(ptr), name); p != nil {
			return p
		}
		up, ok := inPlaceParent(ptr)
		if !ok {
			return nil
		}
		ptr = up
	}
}

// inPlaceParent strips one in-place keyword position from ptr.
func inPlaceParent(ptr string) (string, bool) {
	if ptr == "" {
		return "", false
	}
	last := lastToken(ptr)
	parent := parentPtr(ptr)
	switch last {
	case "then", "else", "if", "not":
		return parent, true
	}
	switch lastToken(parent) {
	case "allOf", "anyOf", "oneOf", "dependentSchemas", "dependencies":
		if parent != "" {
			return parentPtr(parent), true
		}
	}
	return "", false
}

// shape is the flattened view of a value schema.
type shape struct {
	types      []string // declared types, in schema order, deduplicated
	implied    bool     // types is not declared but implied by keywords (properties: object)
	enum       []any
	hasEnum    bool
	constV     any
	hasConst   bool
	def        any
	hasDef     bool
	example    any
	hasExample bool
	items      *node // schema for array items
	minimum    any
	minItems   int
}

func (sh *shape) addType(t string) {
	for _, x := range sh.types {
		if x == t {
			return
		}
	}
	sh.types = append(sh.types, t)
}

// nonNullTypes drops "null": a nullable string is typed as a string.
func (sh *shape) nonNullTypes() []string {
	var out []string
	for _, t := range sh.types {
		if t != "null" {
			out = append(out, t)
		}
	}
	return out
}

func (sh *shape) has(t string) bool {
	for _, x := range sh.types {
		if x == t {
			return true
		}
	}
	return false
}

// shapeOf flattens n through $ref, allOf, anyOf and oneOf: types are the
// union in schema order; enum, const, default, examples and items are the
// first found.
func (s *Schema) shapeOf(n *node) shape {
	var sh shape
	objectish, arrayish := false, false
	visited := map[string]bool{}
	var walk func(n *node, depth int)
	walk = func(n *node, depth int) {
		if n == nil || n.obj == nil || visited[n.ptr] || depth > maxViewDepth {
			return
		}
		visited[n.ptr] = true
		o := n.obj
		pure := pureRef(o, n.draft)
		if !pure {
			switch t := o.Get("type").(type) {
			case string:
				sh.addType(t)
			case *array:
				for _, it := range t.Items() {
					if ts, ok := it.(string); ok {
						sh.addType(ts)
					}
				}
			}
			if e, ok := o.Get("enum").(*array); ok && !sh.hasEnum {
				sh.enum, sh.hasEnum = e.Items(), true
			}
			if c, ok := o.Lookup("const"); ok && !sh.hasConst {
				sh.constV, sh.hasConst = c, true
			}
			if d, ok := o.Lookup("default"); ok && !sh.hasDef {
				sh.def, sh.hasDef = d, true
			}
			if ex, ok := o.Get("examples").(*array); ok && len(ex.Items()) > 0 && !sh.hasExample {
				sh.example, sh.hasExample = ex.Items()[0], true
			}
			if m, ok := o.Lookup("minimum"); ok && sh.minimum == nil {
				sh.minimum = m
			}
			if mi, ok := numberInt(o.Get("minItems")); ok && sh.minItems == 0 {
				sh.minItems = mi
			}
			if sh.items == nil {
				if c := s.child(n, "items"); c != nil {
					sh.items = c
				} else if c := s.child(n, "additionalItems"); c != nil && n.draft < draft2020 {
					sh.items = c
				}
			}
			for _, k := range []string{"properties", "required", "additionalProperties", "patternProperties"} {
				if _, ok := o.Lookup(k); ok {
					objectish = true
				}
			}
			for _, k := range []string{"items", "prefixItems", "contains"} {
				if _, ok := o.Lookup(k); ok {
					arrayish = true
				}
			}
		}
		for _, t := range n.refs {
			walk(s.nodes[t], depth+1)
		}
		if pure {
			return
		}
		for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
			if a, ok := o.Get(kw).(*array); ok {
				for i := range a.Items() {
					walk(s.child(n, kw, itoa(i)), depth+1)
				}
			}
		}
	}
	walk(n, 0)
	if len(sh.types) == 0 && !sh.hasEnum && !sh.hasConst {
		if objectish {
			sh.addType("object")
		} else if arrayish {
			sh.addType("array")
		}
		sh.implied = len(sh.types) > 0
	}
	return sh
}

// describeType renders a property's type for messages: "string",
// "integer or null", "one of \"a\", \"b\""; "" when the schema says nothing.
func (s *Schema) describeType(n *node) string {
	sh := s.shapeOf(n)
	switch {
	case sh.hasConst:
		return jsonText(sh.constV)
	case len(sh.types) > 0:
		return strings.Join(sh.types, " or ")
	case sh.hasEnum:
		return "one of " + joinValues(sh.enum)
	}
	return ""
}

func numberInt(v any) (int, bool) {
	n, ok := v.(interface{ Int64() (int64, error) })
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	if err != nil || i < 0 || i > 1000 {
		return 0, false
	}
	return int(i), true
}
