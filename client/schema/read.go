package schema

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/mcpctl/mcpctl/client/ojson"
)

// Reading a schema without validating with it. Three readers of mcpctl
// need a schema's structure but not its rules: the x-mcp-header
// annotations of a tool's inputSchema (checked for every tool listed over
// HTTP, whether or not mcpctl could validate with that schema), the fields
// of an elicitation's requestedSchema (a flat form) and `tools describe`
// (a tool's parameters and output explained). They read it through Read,
// so that which keywords hold subschemas, how a $ref is resolved and what
// type a subschema declares are known in this package alone.

// Doc is a schema document read for its structure (Read). It is not for
// validation, and nothing in it changes after Read: it is safe for
// concurrent use.
type Doc struct {
	s   *Schema
	raw json.RawMessage
}

// Read parses a schema document to read its structure. Unlike Compile it
// accepts what it cannot validate with: a `$schema` mcpctl does not know is
// read by the rules of the enclosing dialect (2020-12 at the root), an
// `$id` or a `$ref` that is not a URI reference is left unresolved, and no
// Limits apply (the work is linear in the size of the document, which the
// caller already holds). A document that is not a schema (a string, a
// number) reads as one without subschemas. The only error is the JSON
// parser's, for text that is not one JSON value. The Doc keeps raw (its
// texts are slices of it): do not change raw afterwards.
func Read(raw json.RawMessage) (*Doc, error) {
	tree, err := ojson.Parse(raw, ojson.Options{KeepText: true})
	if err != nil {
		return nil, err
	}
	s := &Schema{tree: tree, nodes: map[string]*node{}, rootDraft: draft2020}
	d := &Doc{s: s, raw: raw}
	if !isSchemaValue(tree) {
		return d, nil
	}
	if root, ok := tree.(*object); ok {
		if sv, ok := root.Get("$schema").(string); ok {
			if dd, ok := draftFromURL(sv); ok {
				s.rootDraft = dd
			}
		}
	}
	b := &builder{
		tree:       tree,
		limits:     Limits{MaxSubschemas: math.MaxInt},
		nodes:      s.nodes,
		resources:  map[string]resourceInfo{},
		resByPtr:   map[string]resourceInfo{},
		anchors:    map[string]string{},
		dynAnchors: map[string]string{},
		lenient:    true,
	}
	if err := b.build(s.rootDraft); err != nil {
		return nil, err // not reached: the lenient builder reads past everything
	}
	s.order = b.order
	return d, nil
}

// Root is the document's root schema.
func (d *Doc) Root() Node { return Node{d, d.s.nodes[""]} }

// Walk calls fn for every subschema of the document, each once, in
// document order: the root, then, depth first, every value in a keyword
// position that holds a subschema in the document's dialect (properties,
// items, allOf, not, $defs, if, ... ) and every spot a $ref points at.
// Values of other keywords (enum, const, default, examples, unknown
// keywords) are data, not subschemas. Walk stops at fn's first error and
// returns it.
func (d *Doc) Walk(fn func(Node) error) error {
	for _, n := range d.s.order {
		if err := fn(Node{d, n}); err != nil {
			return err
		}
	}
	return nil
}

// Node is one subschema of a Doc. The zero Node (and a Node for a value
// that is not a schema) is no schema: IsSchema is false and it has no
// keywords, properties or types.
type Node struct {
	d *Doc
	n *node
}

// IsSchema reports whether the node is a schema (an object or a boolean).
func (n Node) IsSchema() bool { return n.n != nil }

// IsObject reports whether the node is an object schema (not a boolean).
func (n Node) IsObject() bool { return n.n != nil && n.n.obj != nil }

// Pointer is the JSON pointer of the node in the document ("" for the
// root).
func (n Node) Pointer() string {
	if n.n == nil {
		return ""
	}
	return n.n.ptr
}

// PropertyPath returns the chain of property names that leads from the
// root to the node through "properties" alone ({"a","b"} for
// /properties/a/properties/b; empty for the root). ok is false when the
// node is reached any other way: through items, a composition or
// conditional keyword, $defs, or only by a $ref. This is the "statically
// reachable" of the x-mcp-header annotation (MCP 2026-07-28, Streamable
// HTTP "Custom Headers from Tool Parameters").
func (n Node) PropertyPath() (path []string, ok bool) {
	if n.n == nil {
		return nil, false
	}
	if n.n.ptr == "" {
		return nil, true
	}
	toks := strings.Split(n.n.ptr[1:], "/")
	if len(toks)%2 != 0 {
		return nil, false
	}
	for i := 0; i < len(toks); i += 2 {
		if toks[i] != "properties" {
			return nil, false
		}
		path = append(path, unescapeToken(toks[i+1]))
	}
	return path, true
}

// JSON is the node's text as the document wrote it.
func (n Node) JSON() json.RawMessage {
	if n.n == nil {
		return nil
	}
	if n.n.ptr == "" {
		return n.d.raw
	}
	var t []byte
	switch p, _ := lookupPtr(n.d.s.tree, parentPtr(n.n.ptr)); p := p.(type) {
	case *object:
		t = p.Text(lastToken(n.n.ptr))
	case *array:
		if i, err := strconv.Atoi(lastToken(n.n.ptr)); err == nil {
			t = p.Text(i)
		}
	}
	if t == nil {
		v, _ := lookupPtr(n.d.s.tree, n.n.ptr)
		return ojson.Encode(v)
	}
	return t
}

// Keyword returns the value of one of the node's keywords as the document
// wrote it, for annotations and data (title, default, enum, x-mcp-header,
// ...): the structure around it is read with the methods below.
func (n Node) Keyword(name string) (json.RawMessage, bool) {
	if !n.IsObject() {
		return nil, false
	}
	v, ok := n.n.obj.Lookup(name)
	if !ok {
		return nil, false
	}
	if t := n.n.obj.Text(name); t != nil {
		return t, true
	}
	return ojson.Encode(v), true
}

// Property is one member of a schema's "properties", in schema order.
// Schema is no schema (IsSchema false) when the member's value is not one.
type Property struct {
	Name   string
	Schema Node
}

// Properties returns the node's own "properties" in schema order (not
// those of $ref targets or allOf branches: a flat form's fields, or one
// step of a PropertyPath). ok is false when the keyword is there but is not
// an object. props is nil without the keyword and empty but not nil for
// `"properties": {}`, so that a schema that names properties (and so reads
// as an object) is told from one that does not.
func (n Node) Properties() (props []Property, ok bool) {
	v, has := n.n.get("properties")
	if !has {
		return nil, true
	}
	o, isObj := v.(*object)
	if !isObj {
		return nil, false
	}
	props = make([]Property, 0, o.Len())
	for _, k := range o.Keys() {
		props = append(props, Property{Name: k, Schema: Node{n.d, n.d.s.child(n.n, "properties", k)}})
	}
	return props, true
}

// Items returns the schema every item of an array must match: `items`
// when it is a single schema. ok is false without one (no `items`, or the
// list form of drafts before 2020-12, which has no one schema for all).
func (n Node) Items() (Node, bool) { return n.single("items") }

// AdditionalProperties returns the schema of the node's
// additionalProperties (what members its properties and
// patternProperties do not name must match). ok is false without one: no
// keyword, or a value that is not a schema.
func (n Node) AdditionalProperties() (Node, bool) { return n.single("additionalProperties") }

// single is the subschema a keyword holds by itself (not in a list or a
// map).
func (n Node) single(kw string) (Node, bool) {
	if n.n == nil {
		return Node{}, false
	}
	c := n.d.s.child(n.n, kw)
	if c == nil {
		return Node{}, false
	}
	return Node{n.d, c}, true
}

// Ref returns the node's $ref as written and the subschema it points at,
// resolved as Compile resolves it: against the base URI of the enclosing
// `$id`, to a JSON pointer or an anchor in the document. target is no
// schema (IsSchema false) when the reference leads outside the document
// (nothing is fetched) or to nothing in it. ok is false when the node has
// no $ref string. $dynamicRef and $recursiveRef are not reported: their
// target depends on where evaluation came from, not on the document alone.
func (n Node) Ref() (ref string, target Node, ok bool) {
	ref, ok = n.n.str("$ref")
	if !ok {
		return "", Node{}, false
	}
	for i, kw := range n.n.refKws {
		if kw != "$ref" {
			continue
		}
		if t := n.d.s.nodes[n.n.refs[i]]; t != nil && !t.marker {
			target = Node{n.d, t}
		}
		break
	}
	return ref, target, true
}

// AllOf returns the schemas of the node's allOf, in order.
func (n Node) AllOf() []Node { return n.branches("allOf") }

// AnyOf returns the schemas of the node's anyOf, in order.
func (n Node) AnyOf() []Node { return n.branches("anyOf") }

// OneOf returns the schemas of the node's oneOf, in order.
func (n Node) OneOf() []Node { return n.branches("oneOf") }

func (n Node) branches(kw string) []Node {
	a, ok := n.n.get(kw)
	items, isArr := a.(*array)
	if !ok || !isArr {
		return nil
	}
	var out []Node
	for i := range items.Items() {
		if c := n.d.s.child(n.n, kw, itoa(i)); c != nil {
			out = append(out, Node{n.d, c})
		}
	}
	return out
}

// Types returns the types the node declares, in schema order without
// repeats: its `type` (a name or a list of names) and, as for Usage, those
// of its $ref targets and of its allOf, anyOf and oneOf branches, so
// {"$ref":"#/$defs/region"} declares what the definition declares and
// {"anyOf":[{"type":"string"},{"type":"null"}]} declares string and null.
// A type only implied (properties without a type) is not declared: Types
// is then empty, as it is when nothing is declared.
func (n Node) Types() []string {
	if n.n == nil {
		return nil
	}
	sh := n.d.s.shapeOf(n.n)
	if sh.implied {
		return nil
	}
	return sh.types
}
