package schema

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestReadWalk(t *testing.T) {
	doc, err := Read(json.RawMessage(`{"$schema":"https://example.com/unknown","type":"object",
		"$defs":{"r":{"type":["string","null"]}},
		"properties":{
			"a":{"$ref":"#/$defs/r","x":1},
			"o":{"type":"object","properties":{"a~/b":{"allOf":[{"type":"integer"}]}}},
			"l":{"type":"array","items":{"anyOf":[{"const":"x","title":"X"},{"const":"y"}]}},
			"p":{"properties":{}}},
		"x-data":{"properties":{"hidden":{}}},
		"default":{"properties":{"hidden":{}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	type seen struct {
		ptr   string
		path  string // "-" when not reached through properties alone
		types string
	}
	var got []seen
	_ = doc.Walk(func(n Node) error {
		path, ok := n.PropertyPath()
		p := strings.Join(path, ".")
		if !ok {
			p = "-"
		}
		got = append(got, seen{n.Pointer(), p, strings.Join(n.Types(), "|")})
		return nil
	})
	want := []seen{
		{"", "", "object"},
		{"/$defs/r", "-", "string|null"},
		{"/properties/a", "a", "string|null"},
		{"/properties/o", "o", "object"},
		{"/properties/o/properties/a~0~1b", "o.a~/b", "integer"},
		{"/properties/o/properties/a~0~1b/allOf/0", "-", "integer"},
		{"/properties/l", "l", "array"},
		{"/properties/l/items", "-", ""},
		{"/properties/l/items/anyOf/0", "-", ""},
		{"/properties/l/items/anyOf/1", "-", ""},
		{"/properties/p", "p", ""}, // object implied, not declared
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("walk:\n got %v\nwant %v", got, want)
	}

	root := doc.Root()
	props, ok := root.Properties()
	if !ok || len(props) != 4 || props[0].Name != "a" || props[3].Name != "p" {
		t.Fatalf("Properties = %v, %v", props, ok)
	}
	if v, ok := props[0].Schema.Keyword("x"); !ok || string(v) != "1" {
		t.Errorf(`Keyword("x") = %s, %v`, v, ok)
	}
	items, ok := props[2].Schema.Items()
	if !ok || len(items.AnyOf()) != 2 || len(items.OneOf()) != 0 {
		t.Fatalf("Items = %v, %v", items, ok)
	}
	if c, _ := items.AnyOf()[0].Keyword("const"); string(c) != `"x"` {
		t.Errorf("const = %s", c)
	}
	if _, ok := props[0].Schema.Items(); ok {
		t.Error("a schema without items has Items")
	}
}

// Read keeps the text of what it reads exactly as written, and reads past
// what Compile refuses.
func TestReadKeepsTextAndReadsPast(t *testing.T) {
	raw := `{ "properties" : { "n" : { "enum" : [ 1.50 , "\u00e9" ] , "$id" : "::bad" , "$ref" : "%zz" } } , "p" : 1 }`
	doc, err := Read(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	props, _ := doc.Root().Properties()
	n := props[0].Schema
	if e, _ := n.Keyword("enum"); string(e) != `[ 1.50 , "\u00e9" ]` {
		t.Errorf("enum text = %s", e)
	}
	if j := string(n.JSON()); !strings.HasPrefix(j, `{ "enum"`) || !strings.HasSuffix(j, `"%zz" }`) {
		t.Errorf("JSON = %s", j)
	}
	if string(doc.Root().JSON()) != raw {
		t.Error("the root's JSON is not the document")
	}
	for _, bad := range []string{`{"type":`, `{} {}`, ``} {
		if _, err := Read(json.RawMessage(bad)); err == nil {
			t.Errorf("Read(%q) accepted", bad)
		}
	}
	for _, notSchema := range []string{`"text"`, `42`, `[{"properties":{}}]`} {
		doc, err := Read(json.RawMessage(notSchema))
		if err != nil || doc.Root().IsSchema() {
			t.Errorf("Read(%s) = %v, root is a schema: %v", notSchema, err, err == nil && doc.Root().IsSchema())
			continue
		}
		if err := doc.Walk(func(Node) error { return fmt.Errorf("visited") }); err != nil {
			t.Errorf("Read(%s): Walk visited a subschema", notSchema)
		}
	}
	if _, ok := doc.Root().Properties(); !ok {
		t.Error("properties is an object")
	}
	doc, _ = Read(json.RawMessage(`{"properties":[]}`))
	if _, ok := doc.Root().Properties(); ok {
		t.Error(`"properties":[] read as properties`)
	}
	var zero Node
	if zero.IsSchema() || zero.Types() != nil || zero.JSON() != nil {
		t.Error("the zero Node is a schema")
	}
	if _, ok := zero.Items(); ok {
		t.Error("the zero Node has items")
	}
	if p, ok := zero.Properties(); p != nil || !ok || zero.AnyOf() != nil {
		t.Error("the zero Node has properties")
	}
}

// Finding every annotation of a tool's inputSchema, and where it sits.
func ExampleDoc_Walk() {
	doc, err := Read(json.RawMessage(`{
		"type": "object",
		"$defs": {"region": {"type": "string"}},
		"properties": {
			"region": {"$ref": "#/$defs/region", "x-mcp-header": "Region"},
			"tags": {"type": "array", "items": {"type": "string", "x-mcp-header": "Tag"}}
		}
	}`))
	if err != nil {
		panic(err)
	}
	_ = doc.Walk(func(n Node) error {
		if h, ok := n.Keyword("x-mcp-header"); ok {
			path, direct := n.PropertyPath()
			fmt.Println(string(h), n.Pointer(), path, direct, n.Types())
		}
		return nil
	})
	// Output:
	// "Region" /properties/region [region] true [string]
	// "Tag" /properties/tags/items [] false [string]
}

// What `tools describe` reads: allOf branches, additionalProperties,
// each $ref with its target (resolved as Compile resolves it), and an
// empty "properties" told from none.
func TestReadRefsAllOfAdditionalProperties(t *testing.T) {
	doc, err := Read(json.RawMessage(`{"$id":"https://example.com/tool.json",
		"$defs":{"u":{"$anchor":"unit","type":"string"},"i":{"$id":"item.json","type":"integer"}},
		"allOf":[{"properties":{"a":{}}},5,{"required":["a"]}],
		"additionalProperties":{"type":"number"},
		"properties":{
			"ptr":{"$ref":"#/$defs/u"},
			"anchor":{"$ref":"#unit"},
			"id":{"$ref":"item.json"},
			"nested":{"$id":"nested.json","$defs":{"u":{"type":"boolean"}},"$ref":"#/$defs/u"},
			"self":{"$ref":""},
			"dangling":{"$ref":"#/$defs/missing"},
			"remote":{"$ref":"https://other.example/s.json"},
			"notRef":{"$ref":5,"additionalProperties":"no"},
			"none":{"properties":{},"additionalProperties":false},
			"dyn":{"$dynamicRef":"#unit"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	root := doc.Root()
	all := root.AllOf()
	if len(all) != 2 || all[0].Pointer() != "/allOf/0" || all[1].Pointer() != "/allOf/2" {
		t.Errorf("AllOf skips the value that is not a schema: %v", all)
	}
	if ap, ok := root.AdditionalProperties(); !ok || ap.Pointer() != "/additionalProperties" || strings.Join(ap.Types(), "") != "number" {
		t.Errorf("AdditionalProperties = %v, %v", ap, ok)
	}
	props, _ := root.Properties()
	byName := map[string]Node{}
	for _, p := range props {
		byName[p.Name] = p.Schema
	}
	for _, tc := range []struct {
		name, ref, target string // target "-" for no schema
		ok                bool
	}{
		{"ptr", "#/$defs/u", "/$defs/u", true},
		{"anchor", "#unit", "/$defs/u", true},
		{"id", "item.json", "/$defs/i", true},
		{"nested", "#/$defs/u", "/properties/nested/$defs/u", true},
		{"self", "", "", true},
		{"dangling", "#/$defs/missing", "-", true},
		{"remote", "https://other.example/s.json", "-", true},
		{"notRef", "", "-", false},
		{"dyn", "", "-", false},
	} {
		ref, target, ok := byName[tc.name].Ref()
		got := target.Pointer()
		if !target.IsSchema() {
			got = "-"
		}
		if ref != tc.ref || got != tc.target || ok != tc.ok {
			t.Errorf("%s: Ref() = %q, %q, %v; want %q, %q, %v", tc.name, ref, got, ok, tc.ref, tc.target, tc.ok)
		}
	}
	if _, ok := byName["notRef"].AdditionalProperties(); ok {
		t.Error(`"additionalProperties":"no" read as a schema`)
	}
	if ap, ok := byName["none"].AdditionalProperties(); !ok || ap.IsObject() || string(ap.JSON()) != "false" {
		t.Errorf("additionalProperties false = %v, %v", ap, ok)
	}
	if p, ok := byName["none"].Properties(); p == nil || len(p) != 0 || !ok {
		t.Errorf(`"properties":{} = %#v, %v; want empty, not nil`, p, ok)
	}
	if p, ok := byName["ptr"].Properties(); p != nil || !ok {
		t.Errorf("no properties = %#v, %v; want nil", p, ok)
	}
	var zero Node
	if _, _, ok := zero.Ref(); ok || zero.AllOf() != nil {
		t.Error("the zero Node has a $ref or allOf")
	}
	if _, ok := zero.AdditionalProperties(); ok {
		t.Error("the zero Node has additionalProperties")
	}
}
