package output

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/mcpctl/mcpctl/client/schema"
)

// textDescribe explains one Tool so that a person (or an agent reading
// text) can call it without reading JSON Schema: parameters in the server's
// order with type, required marker, default, allowed values and description.
func textDescribe(t *textWriter, tool *value) bool {
	if !tool.is(kindObject) || tool.str("name") == "" {
		return false
	}
	head := t.bold(t.name(tool.str("name")))
	title := tool.str("title")
	if title == "" {
		title = tool.get("annotations").str("title")
	}
	if title != "" {
		head += " — " + t.one(title)
	}
	t.linef("%s", head)
	if d := tool.str("description"); d != "" {
		t.b.WriteByte('\n')
		t.block(strings.TrimRight(d, "\n"))
	}

	t.b.WriteByte('\n')
	t.schemaSection("Parameters:", tool.get("inputSchema"), "none")
	if out := tool.get("outputSchema"); out != nil {
		t.b.WriteByte('\n')
		t.schemaSection("Output:", out, "object")
	}
	if ann := tool.get("annotations"); ann.is(kindObject) && len(ann.keys()) > 0 {
		t.b.WriteByte('\n')
		t.linef("%s", t.bold("Annotations:"))
		for _, k := range ann.keys() {
			t.linef("  %s: %s", t.name(k), t.one(ann.get(k).display()))
		}
	}
	// How the tool runs: execution.taskSupport (2025-11-25) says whether
	// it runs as a task.
	if ex := tool.get("execution"); ex.is(kindObject) && len(ex.keys()) > 0 {
		t.b.WriteByte('\n')
		t.linef("%s", t.bold("Execution:"))
		for _, k := range ex.keys() {
			t.linef("  %s: %s", t.name(k), t.one(ex.get(k).display()))
		}
	}
	return true
}

// schemaSection lists an object schema's properties. Schemas whose root is a
// composition (oneOf/anyOf) list each alternative; arrays of objects list the
// item properties; anything else is summarised by its type. emptyObject is
// what an object schema without properties reads as, and what an absent
// schema (v nil) reads as.
func (t *textWriter) schemaSection(title string, v *value, emptyObject string) {
	s := schemaOf(v)
	props, required := schemaProperties(s)
	if len(props) > 0 {
		t.linef("%s", t.bold(title))
		t.params(props, required, "  ")
		return
	}
	for _, c := range []struct {
		word string
		alts []schema.Node
	}{{"one of", s.OneOf()}, {"any of", s.AnyOf()}} {
		if len(c.alts) == 0 {
			continue
		}
		t.linef("%s %s", t.bold(title), c.word)
		for i, alt := range c.alts {
			ap, areq := schemaProperties(alt)
			t.linef("  alternative %d:", i+1)
			if len(ap) == 0 {
				t.linef("    %s", t.name(typeOf(alt, true)))
			}
			t.params(ap, areq, "    ")
		}
		return
	}
	if typeName(s) == "array" {
		if items, ok := s.Items(); ok {
			if ip, ireq := schemaProperties(items); len(ip) > 0 {
				t.linef("%s array of objects:", t.bold(title))
				t.params(ip, ireq, "  ")
				return
			}
		}
	}
	if v == nil || typeName(s) == "object" {
		switch ap, ok := s.AdditionalProperties(); {
		case !ok || isFalse(ap):
			t.linef("%s %s", t.bold(title), emptyObject)
		default:
			t.linef("%s any properties (%s values)", t.bold(title), t.name(typeOf(ap, true)))
		}
		return
	}
	t.linef("%s %s", t.bold(title), t.name(typeOf(s, true)))
}

// schemaOf reads a tool's inputSchema or outputSchema for its structure
// with schema.Read, which knows where a schema keeps its subschemas and
// how its $refs resolve. An absent member, or one that is not a schema,
// reads as no schema (the zero Node).
func schemaOf(v *value) schema.Node {
	if v == nil {
		return schema.Node{}
	}
	doc, err := schema.Read(v.raw)
	if err != nil {
		return schema.Node{} // not reached: v is a part of a parsed result
	}
	return doc.Root()
}

// keyword is one of a schema's data or annotation keywords (type, default,
// enum, description, required, ...) as a value; nil when the schema does
// not have it.
func keyword(n schema.Node, name string) *value {
	raw, ok := n.Keyword(name)
	if !ok {
		return nil
	}
	v, err := parseValue(raw)
	if err != nil {
		return nil
	}
	return v
}

// keywordText is a keyword's value when it is a string ("" otherwise).
func keywordText(n schema.Node, name string) string {
	if v := keyword(n, name); v.is(kindString) {
		return v.text()
	}
	return ""
}

// isFalse reports whether n is the schema false, which nothing matches.
func isFalse(n schema.Node) bool {
	return n.IsSchema() && !n.IsObject() && string(bytes.TrimSpace(n.JSON())) == "false"
}

// schemaProperties returns the properties of an object schema in wire order,
// including those contributed by allOf members, and the set of required
// names.
func schemaProperties(s schema.Node) ([]schema.Property, map[string]bool) {
	var props []schema.Property
	required := map[string]bool{}
	var collect func(n schema.Node)
	collect = func(n schema.Node) {
		own, _ := n.Properties()
		props = append(props, own...)
		for _, r := range keyword(n, "required").items() {
			if r.is(kindString) {
				required[r.text()] = true
			}
		}
		for _, m := range n.AllOf() {
			collect(m)
		}
	}
	collect(s)
	return props, required
}

func (t *textWriter) params(props []schema.Property, required map[string]bool, indent string) {
	for _, p := range props {
		eff := p.Schema
		if _, target, ok := p.Schema.Ref(); ok && target.IsSchema() {
			eff = target
		}
		facts := []string{typeOf(p.Schema, true)}
		if required[p.Name] {
			facts = append(facts, "required")
		}
		if d := first(p.Schema, eff, "default"); d != nil {
			facts = append(facts, "default "+d.compact())
		}
		if c := first(p.Schema, eff, "const"); c != nil {
			facts = append(facts, "always "+c.compact())
		}
		if e := first(p.Schema, eff, "enum"); e.is(kindArray) {
			facts = append(facts, "one of: "+enumList(e.items()))
		}
		line := indent + t.name(p.Name) + " (" + t.name(strings.Join(facts, ", ")) + ")"
		desc := keywordText(p.Schema, "description")
		if desc == "" {
			desc = keywordText(eff, "description")
		}
		lines := strings.Split(strings.TrimSpace(t.clean(desc)), "\n")
		if lines[0] != "" {
			line += " — " + lines[0]
		}
		t.linef("%s", line)
		for _, l := range lines[1:] {
			t.linef("%s    %s", indent, l)
		}
	}
}

// first looks a keyword up on the property and then on its $ref target, so a
// default written next to a $ref wins over one inside the definition.
func first(p, eff schema.Node, key string) *value {
	if v := keyword(p, key); v != nil {
		return v
	}
	return keyword(eff, key)
}

func enumList(items []*value) string {
	const shown = 20
	parts := make([]string, 0, min(len(items), shown)+1)
	for i, it := range items {
		if i == shown {
			parts = append(parts, "… "+strconv.Itoa(len(items)-shown)+" more")
			break
		}
		parts = append(parts, it.compact())
	}
	return strings.Join(parts, " | ")
}

// typeOf summarises a schema as a type expression: "string", "string|null",
// "number[]", a $ref target's type (followed once; followRef stops loops),
// or anyOf/oneOf member types joined with "|".
func typeOf(s schema.Node, followRef bool) string {
	if !s.IsSchema() {
		return "any"
	}
	if !s.IsObject() {
		if isFalse(s) {
			return "never"
		}
		return "any"
	}
	if ref, target, ok := s.Ref(); ok {
		if followRef && target.IsSchema() {
			if ty := typeOf(target, false); ty != "any" {
				return ty
			}
		}
		if name := refName(ref); name != "" {
			return name
		}
		// "" is the document itself: a root that refers to itself says
		// what its other keywords say.
	}
	if ty := typeName(s); ty != "" {
		if ty == "array" {
			if items, ok := s.Items(); ok {
				it := typeOf(items, followRef)
				if strings.Contains(it, "|") {
					it = "(" + it + ")"
				}
				return it + "[]"
			}
		}
		return ty
	}
	if ty := keyword(s, "type"); ty.is(kindArray) {
		var names []string
		for _, x := range ty.items() {
			names = append(names, x.display())
		}
		return strings.Join(names, "|")
	}
	for _, alts := range [][]schema.Node{s.AnyOf(), s.OneOf()} {
		if len(alts) > 0 {
			var names []string
			for _, a := range alts {
				names = append(names, typeOf(a, followRef))
			}
			return strings.Join(names, "|")
		}
	}
	if c := keyword(s, "const"); c != nil {
		return c.compact()
	}
	if keyword(s, "enum") != nil {
		return "enum"
	}
	if props, ok := s.Properties(); props != nil || !ok {
		return "object"
	}
	return "any"
}

// refName is how a $ref reads when its target says nothing about the type:
// the last segment of the reference ("Loop" for #/$defs/Loop), or the
// whole reference when that segment is empty ("#"); "" for the reference
// "" (the document itself).
func refName(ref string) string {
	if name := ref[strings.LastIndex(ref, "/")+1:]; name != "" {
		return name
	}
	return ref
}

// typeName is the schema's type when it names one type.
func typeName(s schema.Node) string { return keywordText(s, "type") }
