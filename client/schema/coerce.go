package schema

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpctl/mcpctl/client/ojson"
)

// Coerce re-types string values that came from `key=value` items on the
// command line, using the schema at each value's location.
//
// args is the arguments object as raw JSON (empty means {}). stringPaths
// lists the values that may be re-typed. Each path is the sequence of
// tokens from the top of args to the value: an object key, or, where the
// value at that point of args is an array, a decimal index ("0", "1", ...).
// So {"location"} is args.location, {"filter","max"} is args.filter.max and
// {"tags","0"} is the first element of args.tags. Paths are resolved
// against args as given (an index token addresses an existing element);
// paths that do not lead to a string value are ignored, so values given as
// JSON (`key:=json`) are never touched as long as the caller does not list
// them.
//
// For each listed string the schema at that location is consulted
// (properties, patternProperties, additionalProperties, items/prefixItems,
// local $refs, allOf merged, anyOf/oneOf branches in order) and the first
// conversion that the schema accepts wins, trying in schema order:
// const/enum members equal to the text (enum [1,2,"x"] with "1" gives 1),
// then each declared type: "string" keeps the string, "integer" needs an
// integer literal, "number" a JSON number literal (no NaN, Infinity, hex,
// leading "+" or zeros), "boolean" exactly true/false, "null" exactly null.
// Number text is kept exactly, so big values survive. Without type
// information, or when the text converts to none of the declared types,
// the string stays as is (Validate then reports the mismatch). When the
// text converts but no conversion is accepted (a number past a bound, a
// value not in the enum), the first conversion in schema order is kept,
// so that Validate reports the bound it breaks, as for the same value
// given as JSON.
//
// The result is args re-encoded with its key order and number text
// preserved. Coerce only errs when args is not valid JSON.
func (s *Schema) Coerce(args json.RawMessage, stringPaths [][]string) (json.RawMessage, error) {
	tree, err := parseArgs(args)
	if err != nil {
		return nil, fmt.Errorf("arguments are not valid JSON: %w", err)
	}
	c := &coercer{s: s, budget: s.limits.MaxEvaluations}
	for _, p := range stringPaths {
		set, segs, str, ok := locateString(tree, p)
		if !ok {
			continue
		}
		if v, changed := c.coerce(segs, str); changed {
			set(v)
		}
	}
	return ojson.Encode(tree), nil
}

// seg is one step of a path: an object key, or an array index (index >= 0).
type seg struct {
	key   string
	index int
}

// locateString follows path through tree to a string value and returns a
// setter for that slot.
func locateString(tree any, path []string) (func(any), []seg, string, bool) {
	if len(path) == 0 {
		return nil, nil, "", false
	}
	segs := make([]seg, 0, len(path))
	v := tree
	var set func(any)
	for _, tok := range path {
		switch c := v.(type) {
		case *object:
			nv, ok := c.Lookup(tok)
			if !ok {
				return nil, nil, "", false
			}
			k := tok
			set = func(x any) { c.Set(k, x) }
			segs = append(segs, seg{key: tok, index: -1})
			v = nv
		case *array:
			i := atoiStrict(tok)
			if i < 0 || i >= len(c.Items()) {
				return nil, nil, "", false
			}
			set = func(x any) { c.Set(i, x) }
			segs = append(segs, seg{key: tok, index: i})
			v = c.Items()[i]
		default:
			return nil, nil, "", false
		}
	}
	str, ok := v.(string)
	return set, segs, str, ok
}

// expr is what the schema says about one location, as a tree of
// constraints: a leaf subschema, all of (allOf, siblings), any of
// (anyOf/oneOf branches). A nil *expr means "unconstrained".
type expr struct {
	op   byte // 'L' leaf, '&' all, '|' any
	n    *node
	kids []*expr // for '|', a nil kid is an unconstrained branch
}

type coercer struct {
	s      *Schema
	budget int // steps left; bounds work on hostile schemas
}

func (c *coercer) coerce(segs []seg, str string) (any, bool) {
	e := c.nav(c.s.nodes[""], segs, map[navKey]bool{})
	if e == nil {
		return str, false
	}
	cands := c.candidates(e, str)
	for _, cand := range cands {
		if c.accepts(e, cand) {
			return changed(cand, str)
		}
	}
	// Nothing fits. The first conversion the schema's types allow is
	// still the value that was meant: totalThoughts=0 for an integer of
	// minimum 1 is the number 0, out of bounds, and validation says so
	// ("must be >= 1, got 0", as for totalThoughts:=0) rather than that a
	// string is not an integer. The text stays a string when it converts
	// to nothing, or when the location takes it as it is.
	if len(cands) == 0 || c.accepts(e, str) {
		return str, false
	}
	return changed(cands[0], str)
}

// changed reports v as the typed value of the text str, unless v is str
// itself.
func changed(v any, str string) (any, bool) {
	if s, isStr := v.(string); isStr && s == str {
		return str, false
	}
	return v, true
}

type navKey struct {
	ptr  string
	left int
}

// nav finds the constraints on the value at segs below n.
func (c *coercer) nav(n *node, segs []seg, stack map[navKey]bool) *expr {
	if n == nil || c.budget <= 0 {
		return nil
	}
	c.budget--
	if len(segs) == 0 {
		return &expr{op: 'L', n: n}
	}
	if n.obj == nil {
		if n.bval {
			return nil
		}
		return &expr{op: 'L', n: n} // false: nothing fits
	}
	key := navKey{n.ptr, len(segs)}
	if stack[key] {
		return nil // in-place ref cycle
	}
	stack[key] = true
	defer delete(stack, key)

	var parts []*expr
	add := func(e *expr) {
		if e != nil {
			parts = append(parts, e)
		}
	}
	for _, t := range n.refs {
		add(c.nav(c.s.nodes[t], segs, stack))
	}
	if !pureRef(n.obj, n.draft) {
		if a, ok := n.obj.Get("allOf").(*array); ok {
			for i := range a.Items() {
				add(c.nav(c.s.child(n, "allOf", itoa(i)), segs, stack))
			}
		}
		for _, kw := range []string{"anyOf", "oneOf"} {
			a, ok := n.obj.Get(kw).(*array)
			if !ok {
				continue
			}
			alt := &expr{op: '|'}
			constrained := false
			for i := range a.Items() {
				k := c.nav(c.s.child(n, kw, itoa(i)), segs, stack)
				constrained = constrained || k != nil
				alt.kids = append(alt.kids, k)
			}
			if constrained {
				add(alt)
			}
		}
		var kids []*node
		if segs[0].index >= 0 {
			kids = c.s.itemChildren(n, segs[0].index)
		} else {
			kids = c.s.objectChildren(n, segs[0].key)
		}
		for _, k := range kids {
			add(c.nav(k, segs[1:], stack))
		}
	}
	switch len(parts) {
	case 0:
		return nil
	case 1:
		return parts[0]
	}
	return &expr{op: '&', kids: parts}
}

// hint is a typing suggestion from the schema: a type name or a literal
// (enum/const member).
type hint struct {
	typ    string
	member any
	isLit  bool
}

func (c *coercer) hints(e *expr, visited map[string]bool, out []hint) []hint {
	if e == nil {
		return out
	}
	if e.op == 'L' {
		return c.leafHints(e.n, visited, out, 0)
	}
	for _, k := range e.kids {
		out = c.hints(k, visited, out)
	}
	return out
}

// leafHints lists hints of a subschema in schema order: const, enum, type,
// then those of $ref targets, allOf, anyOf and oneOf branches.
func (c *coercer) leafHints(n *node, visited map[string]bool, out []hint, depth int) []hint {
	if n == nil || n.obj == nil || visited[n.ptr] || depth > maxViewDepth || c.budget <= 0 {
		return out
	}
	c.budget--
	visited[n.ptr] = true
	o := n.obj
	pure := pureRef(o, n.draft)
	if !pure {
		if v, ok := o.Lookup("const"); ok {
			out = append(out, hint{member: v, isLit: true})
		}
		if e, ok := o.Get("enum").(*array); ok {
			for _, m := range e.Items() {
				out = append(out, hint{member: m, isLit: true})
			}
		}
		switch t := o.Get("type").(type) {
		case string:
			out = append(out, hint{typ: t})
		case *array:
			for _, it := range t.Items() {
				if ts, ok := it.(string); ok {
					out = append(out, hint{typ: ts})
				}
			}
		}
	}
	for _, t := range n.refs {
		out = c.leafHints(c.s.nodes[t], visited, out, depth+1)
	}
	if !pure {
		for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
			if a, ok := o.Get(kw).(*array); ok {
				for i := range a.Items() {
					out = c.leafHints(c.s.child(n, kw, itoa(i)), visited, out, depth+1)
				}
			}
		}
	}
	return out
}

// candidates turns hints into typed values for str, in order, without
// duplicates.
func (c *coercer) candidates(e *expr, str string) []any {
	var out []any
	seen := map[string]bool{}
	for _, h := range c.hints(e, map[string]bool{}, nil) {
		v, ok := convert(h, str)
		if !ok {
			continue
		}
		k := fmt.Sprintf("%T:%s", v, jsonText(v))
		if !seen[k] {
			seen[k] = true
			out = append(out, v)
		}
	}
	return out
}

// isJSONInteger matches -?(0|[1-9][0-9]*), an integer literal as JSON
// writes it. (Scanned by hand: a package-level regexp would be compiled
// at start-up by every mcpctl process.)
func isJSONInteger(s string) bool {
	rest, ok := jsonInt(s)
	return ok && rest == ""
}

// isJSONNumber matches a JSON number literal:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func isJSONNumber(s string) bool {
	rest, ok := jsonInt(s)
	if !ok {
		return false
	}
	if strings.HasPrefix(rest, ".") {
		frac := strings.TrimLeft(rest[1:], "0123456789")
		if len(frac) == len(rest)-1 {
			return false // no digit after the point
		}
		rest = frac
	}
	if strings.HasPrefix(rest, "e") || strings.HasPrefix(rest, "E") {
		rest = rest[1:]
		if strings.HasPrefix(rest, "+") || strings.HasPrefix(rest, "-") {
			rest = rest[1:]
		}
		exp := strings.TrimLeft(rest, "0123456789")
		if len(exp) == len(rest) {
			return false // no digit in the exponent
		}
		rest = exp
	}
	return rest == ""
}

// jsonInt consumes -?(0|[1-9][0-9]*) and returns what follows.
func jsonInt(s string) (string, bool) {
	s = strings.TrimPrefix(s, "-")
	switch {
	case s == "":
		return "", false
	case s[0] == '0':
		return s[1:], true
	case s[0] >= '1' && s[0] <= '9':
		return strings.TrimLeft(s, "0123456789"), true
	}
	return "", false
}

// convert applies one hint to the command-line text.
func convert(h hint, str string) (any, bool) {
	if h.isLit {
		if literalMatches(h.member, str) {
			return h.member, true
		}
		return nil, false
	}
	switch h.typ {
	case "string":
		return str, true
	case "integer":
		if isJSONInteger(str) {
			return json.Number(str), true
		}
	case "number":
		if isJSONNumber(str) {
			return json.Number(str), true
		}
	case "boolean":
		if str == "true" || str == "false" {
			return str == "true", true
		}
	case "null":
		if str == "null" {
			return nil, true
		}
	}
	return nil, false
}

// literalMatches reports whether str, typed on the command line, denotes
// the enum/const member m.
func literalMatches(m any, str string) bool {
	switch t := m.(type) {
	case string:
		return t == str
	case json.Number:
		return isJSONNumber(str) && numbersEqual(string(t), str)
	case bool:
		return strconv.FormatBool(t) == str
	case nil:
		return str == "null"
	}
	return false
}

// numbersEqual compares two JSON number literals exactly (decimal.go).
func numbersEqual(a, b string) bool {
	c, ok := CompareNumbers(a, b)
	return a == b || ok && c == 0
}

// accepts reports whether v is valid at the location described by e.
func (c *coercer) accepts(e *expr, v any) bool {
	if e == nil {
		return true
	}
	switch e.op {
	case 'L':
		return c.s.accepts(e.n, v)
	case '&':
		for _, k := range e.kids {
			if !c.accepts(k, v) {
				return false
			}
		}
		return true
	default:
		for _, k := range e.kids {
			if c.accepts(k, v) {
				return true
			}
		}
		return false
	}
}
