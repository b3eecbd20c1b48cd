package output

import (
	"strconv"
	"strings"
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
	return true
}

// schemaSection lists an object schema's properties. Schemas whose root is a
// composition (oneOf/anyOf) list each alternative; arrays of objects list the
// item properties; anything else is summarised by its type. emptyObject is
// what an object schema without properties reads as.
func (t *textWriter) schemaSection(title string, schema *value, emptyObject string) {
	props, required := schemaProperties(schema)
	if len(props) > 0 {
		t.linef("%s", t.bold(title))
		t.params(props, required, schema, "  ")
		return
	}
	for _, kw := range []string{"oneOf", "anyOf"} {
		if alts, ok := schema.array(kw); ok && len(alts) > 0 {
			t.linef("%s %s", t.bold(title), map[string]string{"oneOf": "one of", "anyOf": "any of"}[kw])
			for i, alt := range alts {
				ap, areq := schemaProperties(alt)
				t.linef("  alternative %d:", i+1)
				if len(ap) == 0 {
					t.linef("    %s", t.name(typeOf(alt, schema, true)))
				}
				t.params(ap, areq, schema, "    ")
			}
			return
		}
	}
	if typeName(schema) == "array" {
		items := schema.get("items")
		if ip, ireq := schemaProperties(items); len(ip) > 0 {
			t.linef("%s array of objects:", t.bold(title))
			t.params(ip, ireq, schema, "  ")
			return
		}
	}
	if schema == nil || typeName(schema) == "object" {
		switch ap := schema.get("additionalProperties"); {
		case ap == nil || (ap.is(kindBool) && !ap.boolean()):
			t.linef("%s %s", t.bold(title), emptyObject)
		default:
			t.linef("%s any properties (%s values)", t.bold(title), t.name(typeOf(ap, schema, true)))
		}
		return
	}
	t.linef("%s %s", t.bold(title), t.name(typeOf(schema, schema, true)))
}

type property struct {
	name   string
	schema *value
}

// schemaProperties returns the properties of an object schema in wire order,
// including those contributed by allOf members, and the set of required
// names.
func schemaProperties(schema *value) ([]property, map[string]bool) {
	var props []property
	required := map[string]bool{}
	var collect func(s *value)
	collect = func(s *value) {
		if p := s.get("properties"); p.is(kindObject) {
			for _, k := range p.keys() {
				props = append(props, property{k, p.get(k)})
			}
		}
		if req, ok := s.array("required"); ok {
			for _, r := range req {
				if r.is(kindString) {
					required[r.text()] = true
				}
			}
		}
		if all, ok := s.array("allOf"); ok {
			for _, m := range all {
				collect(m)
			}
		}
	}
	collect(schema)
	return props, required
}

func (t *textWriter) params(props []property, required map[string]bool, root *value, indent string) {
	for _, p := range props {
		eff := p.schema
		if target := resolveRef(root, p.schema.str("$ref")); target != nil {
			eff = target
		}
		facts := []string{typeOf(p.schema, root, true)}
		if required[p.name] {
			facts = append(facts, "required")
		}
		if d := first(p.schema, eff, "default"); d != nil {
			facts = append(facts, "default "+d.compact())
		}
		if c := first(p.schema, eff, "const"); c != nil {
			facts = append(facts, "always "+c.compact())
		}
		if e := first(p.schema, eff, "enum"); e.is(kindArray) {
			facts = append(facts, "one of: "+enumList(e.items()))
		}
		line := indent + t.name(p.name) + " (" + t.name(strings.Join(facts, ", ")) + ")"
		desc := p.schema.str("description")
		if desc == "" {
			desc = eff.str("description")
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
func first(p, eff *value, key string) *value {
	if v := p.get(key); v != nil {
		return v
	}
	return eff.get(key)
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
func typeOf(s, root *value, followRef bool) string {
	if s == nil {
		return "any"
	}
	if s.is(kindBool) {
		if s.boolean() {
			return "any"
		}
		return "never"
	}
	if ref := s.str("$ref"); ref != "" {
		if target := resolveRef(root, ref); followRef && target != nil {
			if ty := typeOf(target, root, false); ty != "any" {
				return ty
			}
		}
		return ref[strings.LastIndex(ref, "/")+1:]
	}
	if ty := typeName(s); ty != "" {
		if ty == "array" {
			if items := s.get("items"); items != nil {
				it := typeOf(items, root, followRef)
				if strings.Contains(it, "|") {
					it = "(" + it + ")"
				}
				return it + "[]"
			}
		}
		return ty
	}
	if ty := s.get("type"); ty.is(kindArray) {
		var names []string
		for _, x := range ty.items() {
			names = append(names, x.display())
		}
		return strings.Join(names, "|")
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		if alts, ok := s.array(kw); ok && len(alts) > 0 {
			var names []string
			for _, a := range alts {
				names = append(names, typeOf(a, root, followRef))
			}
			return strings.Join(names, "|")
		}
	}
	if c := s.get("const"); c != nil {
		return c.compact()
	}
	if s.get("enum") != nil {
		return "enum"
	}
	if s.get("properties") != nil {
		return "object"
	}
	return "any"
}

func typeName(s *value) string { return s.str("type") }

// resolveRef follows a local JSON pointer ("#/$defs/Name", "#/definitions/…")
// inside the schema it came from; remote references are not fetched.
func resolveRef(root *value, ref string) *value {
	if root == nil || !strings.HasPrefix(ref, "#/") {
		return nil
	}
	cur := root
	for _, tok := range strings.Split(ref[2:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch {
		case cur.is(kindObject):
			cur = cur.get(tok)
		case cur.is(kindArray):
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(cur.items()) {
				return nil
			}
			cur = cur.items()[i]
		default:
			return nil
		}
		if cur == nil {
			return nil
		}
	}
	return cur
}
