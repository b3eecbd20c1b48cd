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
	if sec, ok := sectionOf(s); ok {
		switch {
		case sec.how == "":
			t.linef("%s", t.bold(title))
			t.fields(sec.lists[0], "  ")
		case len(sec.alts) > 0:
			t.linef("%s %s", t.bold(title), sec.how)
			for i, alt := range sec.alts {
				t.linef("  alternative %d:", i+1)
				if len(sec.lists[i].rows) == 0 {
					t.linef("    %s", t.name(typeOf(alt, true)))
				}
				t.fields(sec.lists[i], "    ")
			}
		default:
			t.linef("%s %s", t.bold(title), sec.how)
			t.fields(sec.lists[0], "  ")
		}
		return
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

// section is how a schema's fields are listed: its properties (how ""),
// those of each alternative of a oneOf or anyOf at its root (how "one of"
// or "any of", a list per alternative), or those of its items (how "array
// of objects:").
type section struct {
	how   string
	alts  []schema.Node
	lists []*fieldList
}

// sectionOf reads s for its fields; ok is false when it has none to list.
func sectionOf(s schema.Node) (sec section, ok bool) {
	if props, required := schemaProperties(s); len(props) > 0 {
		return section{lists: []*fieldList{listFields(s, props, required)}}, true
	}
	for _, c := range []struct {
		how  string
		alts []schema.Node
	}{{"one of", s.OneOf()}, {"any of", s.AnyOf()}} {
		if len(c.alts) == 0 {
			continue
		}
		sec = section{how: c.how, alts: c.alts}
		for _, alt := range c.alts {
			ap, areq := schemaProperties(alt)
			sec.lists = append(sec.lists, listFields(alt, ap, areq))
		}
		return sec, true
	}
	if typeName(s) == "array" {
		if items, ok := s.Items(); ok {
			if ip, ireq := schemaProperties(items); len(ip) > 0 {
				return section{how: "array of objects:", lists: []*fieldList{listFields(items, ip, ireq)}}, true
			}
		}
	}
	return section{}, false
}

// describeTable lists a tool's parameters, a row each, and the fields
// below them by their request-item keys, with what the text says of each
// in columns a script can cut (the output schema and annotations are in
// the text, JSON and YAML). The parameters of every alternative of a
// oneOf or anyOf follow one another. ok is false when tool is not a Tool.
func describeTable(tool *value) (*table, bool) {
	if !tool.is(kindObject) || tool.str("name") == "" {
		return nil, false
	}
	t := &table{headers: []string{"PARAMETER", "TYPE", "REQUIRED", "DEFAULT", "ALLOWED", "DESCRIPTION"}}
	sec, _ := sectionOf(schemaOf(tool.get("inputSchema")))
	for _, l := range sec.lists {
		for _, f := range l.rows {
			fa := factsOf(f.schema)
			req := ""
			if f.required {
				req = "yes"
			}
			t.rows = append(t.rows, []string{f.key(), fa.typ, req, fa.def, strings.Join(fa.allowed, ", "), firstLine(fa.desc)})
		}
		if l.cut {
			t.rows = append(t.rows, []string{"…", "", "", "", "", "more fields: -o json shows the whole schema"})
		}
	}
	return t, true
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
// including those its $ref target and allOf members contribute, and the
// set of required names.
func schemaProperties(s schema.Node) ([]schema.Property, map[string]bool) {
	return propertiesOf(structureOf(s))
}

// fields writes one line per field: the parameters at indent, the fields
// below them two spaces further each level, named by their request-item
// keys (edits[0][oldText]).
func (t *textWriter) fields(l *fieldList, indent string) {
	for _, f := range l.rows {
		fa := factsOf(f.schema)
		words := []string{fa.typ}
		if f.required {
			words = append(words, "required")
		}
		if fa.def != "" {
			words = append(words, "default "+fa.def)
		}
		words = append(words, fa.allowed...)
		in := indent + strings.Repeat("  ", f.depth)
		line := in + t.name(f.key()) + " (" + t.name(strings.Join(words, ", ")) + ")"
		lines := strings.Split(strings.TrimSpace(t.clean(fa.desc)), "\n")
		if lines[0] != "" {
			line += " — " + lines[0]
		}
		t.linef("%s", line)
		for _, l := range lines[1:] {
			t.linef("%s    %s", in, l)
		}
	}
	if l.cut {
		t.linef("%s… (more fields: -o json shows the whole schema)", indent)
	}
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
