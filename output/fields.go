package output

import (
	"slices"
	"strings"

	"github.com/mcpctl/mcpctl/client/schema"
)

// The fields of a schema as `tools describe` lists them, for the text and
// the table alike: each property, and below it, as deep as a person
// filling in request items needs, the fields of an object (opts[scale]),
// of an array's items (edits[0][oldText]), a map's values (labels[KEY])
// and the items of an array that say more than their type (tags[]), each
// named by the key of the request item that sets it. What is said of each
// field is its type, whether it is required, its default, the values it
// allows and its bounds, and its description (facts).

const (
	// maxFieldDepth: a parameter and three levels of fields below it.
	maxFieldDepth = 4
	// maxNestedFields bounds the lines below the parameters: $refs can
	// make a small schema fan out into more lines than anyone reads.
	maxNestedFields = 200
)

// field is one line of a describe listing.
type field struct {
	path     []string // request-item tokens: "edits", "0", "oldText"
	depth    int      // 0 for a property of the listed schema
	schema   schema.Node
	required bool
}

// key is the field's name as a request item spells it; a property of the
// listed schema is its name as the schema writes it.
func (f field) key() string {
	if f.depth == 0 {
		return f.path[0]
	}
	return schema.ItemKey(f.path)
}

// fieldList is the fields of one listed schema.
type fieldList struct {
	rows   []field
	nested int  // rows below depth 0
	cut    bool // nested rows were left out past maxNestedFields
}

// listFields lists props and the fields below them. root is the schema
// they belong to: a field that refers back to it (or to any schema being
// listed above it) is not expanded again.
func listFields(root schema.Node, props []schema.Property, required map[string]bool) *fieldList {
	l := &fieldList{}
	stack := []string{root.Pointer()}
	for _, p := range props {
		l.add(p.Schema, []string{p.Name}, required[p.Name], 0, stack)
	}
	return l
}

func (l *fieldList) add(n schema.Node, path []string, required bool, depth int, stack []string) {
	if depth > 0 {
		if l.nested >= maxNestedFields {
			l.cut = true
			return
		}
		l.nested++
	}
	l.rows = append(l.rows, field{path: path, depth: depth, schema: n, required: required})
	l.below(n, path, depth, stack)
}

// below adds the fields under n, whose own line (if any) is at depth.
func (l *fieldList) below(n schema.Node, path []string, depth int, stack []string) {
	if depth+1 >= maxFieldDepth {
		return
	}
	parts := structureOf(n)
	for _, p := range parts {
		if slices.Contains(stack, p.Pointer()) {
			return // a schema that contains itself: listed once, above
		}
	}
	stack = slices.Clip(stack)
	for _, p := range parts {
		stack = append(stack, p.Pointer())
	}
	at := func(tok string) []string { return append(slices.Clip(path), tok) }
	props, required := propertiesOf(parts)
	for _, p := range props {
		l.add(p.Schema, at(p.Name), required[p.Name], depth+1, stack)
	}
	if len(props) == 0 {
		if ap, ok := firstOf(parts, schema.Node.AdditionalProperties); ok && ap.IsObject() && (len(ap.Types()) > 0 || saysMore(ap)) {
			l.add(ap, at("KEY"), false, depth+1, stack)
		}
	}
	items, ok := firstOf(parts, schema.Node.Items)
	switch {
	case !ok || !items.IsObject():
	case objectLike(items):
		// The item is the object whose fields follow: edits[0][oldText].
		l.below(items, at("0"), depth, stack)
	case slices.Contains(items.Types(), "array"):
		if saysMore(items) {
			l.add(items, at("0"), false, depth+1, stack)
		} else {
			l.below(items, at("0"), depth, stack)
		}
	case saysMore(items):
		l.add(items, at(""), false, depth+1, stack) // tags[]: appended
	}
}

// structureOf is n and what shapes it with n: its $ref target, its allOf
// members, and the one branch of an anyOf or oneOf that is not null (the
// Optional[Model] of Python servers), each followed in turn.
func structureOf(n schema.Node) []schema.Node {
	var parts []schema.Node
	var walk func(n schema.Node, depth int)
	walk = func(n schema.Node, depth int) {
		if !n.IsObject() || depth > maxFieldDepth*2 || slices.ContainsFunc(parts, func(p schema.Node) bool { return p.Pointer() == n.Pointer() }) {
			return
		}
		parts = append(parts, n)
		if _, target, ok := n.Ref(); ok {
			walk(target, depth+1)
		}
		for _, m := range n.AllOf() {
			walk(m, depth+1)
		}
		if alt, ok := soleBranch(n); ok {
			walk(alt, depth+1)
		}
	}
	walk(n, 0)
	return parts
}

// soleBranch is the one branch of n's anyOf (or oneOf) that allows more
// than null, when the others allow only null: {"anyOf":[X,{"type":"null"}]}
// is X or nothing.
func soleBranch(n schema.Node) (schema.Node, bool) {
	for _, alts := range [][]schema.Node{n.AnyOf(), n.OneOf()} {
		var some []schema.Node
		for _, a := range alts {
			if t := a.Types(); len(t) != 1 || t[0] != "null" {
				some = append(some, a)
			}
		}
		if len(some) == 1 && len(alts) > 1 {
			return some[0], true
		}
	}
	return schema.Node{}, false
}

// propertiesOf is the properties the parts declare, in schema order, a
// name declared twice listed once, and the names they require.
func propertiesOf(parts []schema.Node) ([]schema.Property, map[string]bool) {
	var props []schema.Property
	required := map[string]bool{}
	for _, p := range parts {
		own, _ := p.Properties()
		for _, pr := range own {
			if !slices.ContainsFunc(props, func(q schema.Property) bool { return q.Name == pr.Name }) {
				props = append(props, pr)
			}
		}
		for _, r := range keyword(p, "required").items() {
			if r.is(kindString) {
				required[r.text()] = true
			}
		}
	}
	return props, required
}

// firstOf is the first of the parts' subschemas that get finds.
func firstOf(parts []schema.Node, get func(schema.Node) (schema.Node, bool)) (schema.Node, bool) {
	for _, p := range parts {
		if s, ok := get(p); ok {
			return s, true
		}
	}
	return schema.Node{}, false
}

// objectLike: n's value is an object with fields to list.
func objectLike(n schema.Node) bool {
	parts := structureOf(n)
	if props, _ := propertiesOf(parts); len(props) > 0 {
		return true
	}
	ap, ok := firstOf(parts, schema.Node.AdditionalProperties)
	return ok && ap.IsObject() && slices.Contains(n.Types(), "object")
}

// saysMore: the schema says something of its values beyond their type.
func saysMore(n schema.Node) bool {
	f := factsOf(n)
	return f.def != "" || len(f.allowed) > 0 || f.desc != ""
}

// facts is what describe says of a field.
type facts struct {
	typ     string   // a type expression (typeOf)
	def     string   // the default, as compact JSON ("": none)
	allowed []string // its const or enum, then its bounds, in words
	desc    string   // its description
}

// factsOf reads a field's keywords on the field's schema first and then
// on what shapes it (structureOf), so a default written next to a $ref
// wins over one inside the definition, and the bounds of an Optional
// integer are those of its integer branch.
func factsOf(n schema.Node) facts {
	parts := structureOf(n)
	look := func(name string) *value {
		for _, p := range parts {
			if v := keyword(p, name); v != nil {
				return v
			}
		}
		return nil
	}
	f := facts{typ: typeOf(n, true)}
	if d := look("default"); d != nil {
		f.def = d.compact()
	}
	if c := look("const"); c != nil {
		f.allowed = append(f.allowed, "always "+c.compact())
	}
	if e := look("enum"); e.is(kindArray) {
		f.allowed = append(f.allowed, "one of: "+enumList(e.items()))
	}
	f.allowed = append(f.allowed, bounds(look)...)
	if d := look("description"); d.is(kindString) {
		f.desc = d.text()
	}
	return f
}

// bounds says a schema's numeric bounds in the validator's words (">= 1",
// as in "must be >= 1, got 0"), then its lengths, pattern and format, its
// number of items and of properties.
func bounds(look func(string) *value) []string {
	var out []string
	number := func(name string) string {
		if v := look(name); v.is(kindNumber) {
			return v.text()
		}
		return ""
	}
	for _, b := range []struct{ kw, exclusive, op, strictOp string }{
		{"minimum", "exclusiveMinimum", ">=", ">"},
		{"maximum", "exclusiveMaximum", "<=", "<"},
	} {
		if m := number(b.kw); m != "" {
			op := b.op
			if look(b.exclusive).boolean() { // draft-04: exclusiveMinimum true beside minimum
				op = b.strictOp
			}
			out = append(out, op+" "+m)
		}
		if m := number(b.exclusive); m != "" {
			out = append(out, b.strictOp+" "+m)
		}
	}
	if m := number("multipleOf"); m != "" {
		out = append(out, "multiple of "+m)
	}
	out = appendCount(out, number("minLength"), number("maxLength"), "character")
	if p := look("pattern"); p.is(kindString) {
		out = append(out, "pattern "+p.compact())
	}
	if f := look("format"); f.is(kindString) {
		out = append(out, "format "+f.text())
	}
	out = appendCount(out, number("minItems"), number("maxItems"), "item")
	if look("uniqueItems").boolean() {
		out = append(out, "unique items")
	}
	return appendCount(out, number("minProperties"), number("maxProperties"), "property")
}

// appendCount says a count's bounds: "1 to 50 items", "at least 1 item",
// "at most 50 items" (a least of 0 says nothing).
func appendCount(out []string, lo, hi, unit string) []string {
	if lo == "0" {
		lo = ""
	}
	plural := func(n string) string {
		if n == "1" {
			return unit
		}
		if strings.HasSuffix(unit, "y") {
			return strings.TrimSuffix(unit, "y") + "ies"
		}
		return unit + "s"
	}
	switch {
	case lo != "" && hi != "" && lo == hi:
		return append(out, "exactly "+lo+" "+plural(lo))
	case lo != "" && hi != "":
		return append(out, lo+" to "+hi+" "+plural(hi))
	case lo != "":
		return append(out, "at least "+lo+" "+plural(lo))
	case hi != "":
		return append(out, "at most "+hi+" "+plural(hi))
	}
	return out
}
