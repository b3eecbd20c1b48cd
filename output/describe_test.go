package output

import (
	"fmt"
	"strings"
	"testing"
)

func TestRenderTextDescribe(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		tty  bool
		want string
	}{
		{
			name: "parameters with type, required, default, enum and description",
			raw: `{"name":"get_forecast","title":"Forecast","description":"Weather forecast.\nUses the national service.",
			  "inputSchema":{"type":"object","properties":{
			    "location":{"type":"string","description":"City name"},
			    "units":{"type":"string","enum":["metric","imperial"],"default":"metric","description":"Unit system"},
			    "days":{"type":"integer","default":3,"minimum":1},
			    "precision":{"type":"number","default":0.10}
			  },"required":["location"]},
			  "annotations":{"readOnlyHint":true,"openWorldHint":false}}`,
			want: "get_forecast — Forecast\n" +
				"\n" +
				"Weather forecast.\nUses the national service.\n" +
				"\n" +
				"Parameters:\n" +
				"  location (string, required) — City name\n" +
				"  units (string, default \"metric\", one of: \"metric\" | \"imperial\") — Unit system\n" +
				"  days (integer, default 3, >= 1)\n" +
				"  precision (number, default 0.10)\n" +
				"\n" +
				"Annotations:\n" +
				"  readOnlyHint: true\n" +
				"  openWorldHint: false\n",
		},
		{
			name: "$ref followed once, anyOf and type arrays joined, arrays of items",
			raw: `{"name":"t","inputSchema":{"type":"object","$defs":{"Unit":{"type":"string","enum":["c","f"]},"Loop":{"$ref":"#/$defs/Loop"}},
			  "properties":{
			    "unit":{"$ref":"#/$defs/Unit"},
			    "loop":{"$ref":"#/$defs/Loop"},
			    "when":{"anyOf":[{"type":"string"},{"type":"null"}]},
			    "tags":{"type":"array","items":{"type":"string"}},
			    "maybe":{"type":["integer","null"]},
			    "any":{}
			  },"required":["unit"]}}`,
			want: "t\n" +
				"\n" +
				"Parameters:\n" +
				"  unit (string, required, one of: \"c\" | \"f\")\n" +
				"  loop (Loop)\n" +
				"  when (string|null)\n" +
				"  tags (string[])\n" +
				"  maybe (integer|null)\n" +
				"  any (any)\n",
		},
		{
			name: "no parameters, output schema, annotation title",
			raw: `{"name":"now","annotations":{"title":"Clock"},"inputSchema":{"type":"object","additionalProperties":false},
			  "outputSchema":{"type":"object","properties":{"iso":{"type":"string","description":"ISO 8601 time"}},"required":["iso"]}}`,
			want: "now — Clock\n" +
				"\n" +
				"Parameters: none\n" +
				"\n" +
				"Output:\n" +
				"  iso (string, required) — ISO 8601 time\n" +
				"\n" +
				"Annotations:\n" +
				"  title: Clock\n",
		},
		{
			name: "oneOf at the root lists each alternative",
			raw: `{"name":"find","inputSchema":{"type":"object","oneOf":[
			  {"properties":{"id":{"type":"string"}},"required":["id"]},
			  {"properties":{"name":{"type":"string"}},"required":["name"]}]}}`,
			want: "find\n\nParameters: one of\n  alternative 1:\n    id (string, required)\n  alternative 2:\n    name (string, required)\n",
		},
		{
			// The description loses its escapes; the names keep every
			// character, the ones a terminal would obey shown as escapes.
			name: "terminal: hostile description sanitised, names escaped",
			tty:  true,
			raw: `{"name":"x\u001b[2J","description":"ok\u001b]8;;http://evil\u0007link\u001b]8;;\u0007",
			  "inputSchema":{"type":"object","properties":{"a\u202e":{"type":"string","description":"d\u001b[31m"}}}}`,
			want: "x\\u001b[2J\n\noklink\n\nParameters:\n  a\\u202e (string) — d\n",
		},
		// Issue 14 item 4: describe reads the schema through schema.Read.
		// The shapes below read the same as before the move.
		{
			name: "allOf members contribute properties, required and additionalProperties",
			raw: `{"name":"m","inputSchema":{"allOf":[
			    {"properties":{"id":{"type":"string"}},"required":["id"]},
			    {"properties":{"n":{"type":"integer","description":"count"}}}],"required":["n",5]},
			  "outputSchema":{"type":"object","additionalProperties":{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"null"}]}}}}`,
			want: "m\n\nParameters:\n  id (string, required)\n  n (integer, required) — count\n\nOutput: any properties ((string|null)[] values)\n",
		},
		{
			name: "arrays of objects, boolean schemas, an empty properties object",
			raw: `{"name":"b","inputSchema":{"type":"object","properties":{"yes":true,"no":false,"o":{"properties":{}},"p":{"properties":{"x":{}}}}},
			  "outputSchema":{"type":"array","items":{"properties":{"ok":{"type":"boolean"}},"required":["ok"]}}}`,
			want: "b\n\nParameters:\n  yes (any)\n  no (never)\n  o (object)\n  p (object)\n    p[x] (any)\n\nOutput: array of objects:\n  ok (boolean, required)\n",
		},
		{
			name: "a default next to a $ref wins; description and enum from the target",
			raw: `{"name":"r","inputSchema":{"type":"object","definitions":{"U":{"type":"string","enum":["a","b"],"default":"a","description":"unit"}},
			  "properties":{"u":{"$ref":"#/definitions/U","default":"b"},"m":{"$ref":"#/definitions/Missing"},"x":{"$ref":"https://example.com/x.json"}}}}`,
			want: "r\n\nParameters:\n  u (string, default \"b\", one of: \"a\" | \"b\") — unit\n  m (Missing)\n  x (x.json)\n",
		},
		// Shapes that describe read otherwise before it used schema.Read.
		// References resolve as JSON Schema 2020-12 (Core §8.2, §9.1.1)
		// and mcpctl's validator resolve them: against the base URI of the
		// enclosing $id, to a JSON pointer or a plain-name anchor. Before,
		// only "#/..." pointers from the document root were followed, so
		// these printed "#unit", "item.json" and "T" (the root has no
		// $defs/T), and a $ref "#" printed "#".
		{
			name: "$ref to an anchor, against an $id, to the document",
			raw: `{"name":"a","inputSchema":{"$id":"https://example.com/tool.json","type":"object",
			  "$defs":{"u":{"$anchor":"unit","type":"string","description":"a unit"},"i":{"$id":"item.json","type":"integer"}},
			  "properties":{
			    "unit":{"$ref":"#unit"},
			    "item":{"$ref":"item.json"},
			    "nested":{"$id":"nested.json","$defs":{"T":{"type":"boolean"}},"$ref":"#/$defs/T"},
			    "self":{"$ref":"#"}}}}`,
			want: "a\n\nParameters:\n  unit (string) — a unit\n  item (integer)\n  nested (boolean)\n  self (object)\n",
		},
		{
			// The $ref "" is the document itself (RFC 3986 §4.4): a
			// property that refers to it reads as the root reads; a root
			// that refers to itself says what its other keywords say.
			// Before, "" was not read as a reference at all.
			name: `$ref "" is the document`,
			raw: `{"name":"e","inputSchema":{"type":"object","properties":{"again":{"$ref":"","type":"string"}}},
			  "outputSchema":{"$ref":"","type":"array","items":{"type":"string"}}}`,
			want: "e\n\nParameters:\n  again (object)\n\nOutput: string[]\n",
		},
		{
			// A reference whose last segment is empty is named whole;
			// before, the parameter read "p ()".
			name: "a reference ending in / is named whole",
			raw:  `{"name":"s","inputSchema":{"type":"object","properties":{"p":{"$ref":"#/$defs/"}}}}`,
			want: "s\n\nParameters:\n  p (#/$defs/)\n",
		},
		{
			// A list of items (draft-07 and 2019-09 tuples) gives no one
			// type for every item; before, it read "any[]".
			name: "tuple items give no item type",
			raw: `{"name":"tu","inputSchema":{"$schema":"http://json-schema.org/draft-07/schema#","type":"object",
			  "properties":{"pair":{"type":"array","items":[{"type":"string"},{"type":"integer"}]},"list":{"type":"array","items":{"type":"number"}}}}}`,
			want: "tu\n\nParameters:\n  pair (array)\n  list (number[])\n",
		},
		{
			// Values that are not schemas (a number, a string, a list) in
			// a place that holds subschemas are not alternatives, items
			// or additionalProperties; before, each read as "any".
			name: "values that are not schemas are not subschemas",
			raw: `{"name":"n","inputSchema":{"type":"object","properties":{
			    "u":{"anyOf":[{"type":"string"},5]},
			    "l":{"type":"array","items":"string"},
			    "c":{"oneOf":[[]],"const":"x"}}},
			  "outputSchema":{"type":"object","additionalProperties":"string","oneOf":[3,{"properties":{"k":{"type":"string"}}}]}}`,
			want: "n\n\nParameters:\n  u (string)\n  l (array)\n  c (\"x\", always \"x\")\n\nOutput: one of\n  alternative 1:\n    k (string)\n",
		},
		{
			// execution.taskSupport (2025-11-25) says whether the tool
			// runs as a task; it is shown as the server gave it.
			name: "execution",
			raw:  `{"name":"r","inputSchema":{"type":"object"},"execution":{"taskSupport":"required"}}`,
			want: "r\n\nParameters: none\n\nExecution:\n  taskSupport: required\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := render(t, tc.tty, Options{Format: FormatText}, KindToolDescribe, tc.raw)
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// Issue 25, item 5: describe lists the fields of nested objects, of an
// array's items and of a map's values, named by the request items that
// set them (edits[0][oldText], opts[scale], labels[KEY], tags[]), with
// their enums, defaults and bounds, as deep as a person needs and no
// deeper, and never in circles.
func TestRenderTextDescribeFields(t *testing.T) {
	tests := []struct {
		name, raw, want string
	}{
		{
			name: "an array of objects with bounds and enums (server-filesystem's edit_file)",
			raw: `{"name":"edit_file","inputSchema":{"type":"object","properties":{
			    "path":{"type":"string","minLength":1,"pattern":"^[^*?]+$"},
			    "edits":{"type":"array","minItems":1,"maxItems":50,"description":"The edits","items":{"type":"object","properties":{
			      "oldText":{"type":"string","minLength":1,"description":"Text to search for"},
			      "newText":{"type":"string","maxLength":10000},
			      "match":{"type":"string","enum":["exact","whitespace"],"default":"exact"},
			      "line":{"type":"integer","minimum":1,"exclusiveMaximum":1000000}},
			      "required":["oldText","newText"]}},
			    "dryRun":{"type":"boolean","default":false}},
			  "required":["path","edits"]}}`,
			want: "edit_file\n\nParameters:\n" +
				"  path (string, required, at least 1 character, pattern \"^[^*?]+$\")\n" +
				"  edits (object[], required, 1 to 50 items) — The edits\n" +
				"    edits[0][oldText] (string, required, at least 1 character) — Text to search for\n" +
				"    edits[0][newText] (string, required, at most 10000 characters)\n" +
				"    edits[0][match] (string, default \"exact\", one of: \"exact\" | \"whitespace\")\n" +
				"    edits[0][line] (integer, >= 1, < 1000000)\n" +
				"  dryRun (boolean, default false)\n",
		},
		{
			name: "nested objects, numbers as written, the other bounds",
			raw: `{"name":"n","inputSchema":{"type":"object","properties":{
			    "opts":{"type":"object","properties":{"scale":{"type":"integer","minimum":1,"maximum":10,"default":5},
			      "deep":{"type":"object","properties":{"ratio":{"type":"number","exclusiveMinimum":0,"multipleOf":0.25}}}}},
			    "code":{"type":"string","minLength":0,"maxLength":3,"format":"iso-4217"},
			    "pair":{"type":"array","minItems":2,"maxItems":2,"uniqueItems":true,"items":{"type":"string"}},
			    "bag":{"type":"object","minProperties":1,"maxProperties":1}}}}`,
			want: "n\n\nParameters:\n" +
				"  opts (object)\n" +
				"    opts[scale] (integer, default 5, >= 1, <= 10)\n" +
				"    opts[deep] (object)\n" +
				"      opts[deep][ratio] (number, > 0, multiple of 0.25)\n" +
				"  code (string, at most 3 characters, format iso-4217)\n" +
				"  pair (string[], exactly 2 items, unique items)\n" +
				"  bag (object, exactly 1 property)\n",
		},
		{
			name: "draft-04 exclusive bounds",
			raw: `{"name":"d","inputSchema":{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{
			    "p":{"type":"number","minimum":0,"exclusiveMinimum":true,"maximum":1,"exclusiveMaximum":false}}}}`,
			want: "d\n\nParameters:\n  p (number, > 0, <= 1)\n",
		},
		{
			name: "through $refs, an Optional model, a map, items that say more than their type",
			raw: `{"name":"r","inputSchema":{"type":"object","$defs":{
			      "Edit":{"type":"object","properties":{"at":{"type":"integer","minimum":0}},"required":["at"]},
			      "Opts":{"type":"object","properties":{"verbose":{"type":"boolean","default":false}}}},
			    "properties":{
			      "edits":{"type":"array","items":{"$ref":"#/$defs/Edit"}},
			      "opts":{"anyOf":[{"$ref":"#/$defs/Opts"},{"type":"null"}],"default":null},
			      "labels":{"type":"object","additionalProperties":{"type":"integer","maximum":9}},
			      "tags":{"type":"array","items":{"type":"string","enum":["a","b"]}},
			      "names":{"type":"array","items":{"type":"string"}},
			      "grid":{"type":"array","items":{"type":"array","items":{"type":"object","properties":{"v":{"type":"number"}}}}}}}}`,
			want: "r\n\nParameters:\n" +
				"  edits (object[])\n" +
				"    edits[0][at] (integer, required, >= 0)\n" +
				"  opts (object|null, default null)\n" +
				"    opts[verbose] (boolean, default false)\n" +
				"  labels (object)\n" +
				"    labels[KEY] (integer, <= 9)\n" +
				"  tags (string[])\n" +
				"    tags[] (string, one of: \"a\" | \"b\")\n" +
				"  names (string[])\n" +
				"  grid (object[][])\n" +
				"    grid[0][0][v] (number)\n",
		},
		{
			// A schema that contains itself is listed once; a deep one
			// stops at the fourth level, its type still said.
			name: "recursion and depth",
			raw: `{"name":"tree","inputSchema":{"type":"object","$defs":{"Node":{"type":"object","properties":{"name":{"type":"string"},"kids":{"type":"array","items":{"$ref":"#/$defs/Node"}}}}},
			    "properties":{"root":{"$ref":"#/$defs/Node"},"self":{"$ref":"#"},
			      "a":{"type":"object","properties":{"b":{"type":"object","properties":{"c":{"type":"object","properties":{"d":{"type":"object","properties":{"e":{"type":"string"}}}}}}}}}}}}`,
			want: "tree\n\nParameters:\n" +
				"  root (object)\n" +
				"    root[name] (string)\n" +
				"    root[kids] (object[])\n" +
				"  self (object)\n" +
				"  a (object)\n" +
				"    a[b] (object)\n" +
				"      a[b][c] (object)\n" +
				"        a[b][c][d] (object)\n",
		},
		{
			name: "output fields too, keys escaped as items escape them",
			raw: `{"name":"o","inputSchema":{"type":"object","properties":{"m":{"type":"object","properties":{"a=b":{"type":"string"}}}}},
			  "outputSchema":{"type":"object","properties":{"rows":{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer","minimum":1}}}}}}}`,
			want: "o\n\nParameters:\n  m (object)\n    m[a\\=b] (string)\n\nOutput:\n  rows (object[])\n    rows[0][id] (integer, >= 1)\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := render(t, false, Options{Format: FormatText}, KindToolDescribe, tc.raw)
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// A schema that fans out through its $refs lists a bounded number of
// fields and says that there are more.
func TestRenderTextDescribeFanOut(t *testing.T) {
	props := func(ref string) string {
		var p []string
		for i := range 10 {
			p = append(p, fmt.Sprintf(`"f%d":{"$ref":"%s"}`, i, ref))
		}
		return `{"type":"object","properties":{` + strings.Join(p, ",") + `}}`
	}
	raw := `{"name":"fan","inputSchema":{"type":"object","$defs":{"A":` + props("#/$defs/B") + `,"B":` + props("#/$defs/C") +
		`,"C":` + props("#/$defs/D") + `,"D":{"type":"string"}},"properties":{"x":{"$ref":"#/$defs/A"},"y":{"type":"string"}}}}`
	got := render(t, false, Options{Format: FormatText}, KindToolDescribe, raw)
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if n := len(lines); n > maxNestedFields+8 {
		t.Errorf("%d lines, want at most about %d", n, maxNestedFields)
	}
	if !strings.Contains(got, "\n  y (string)\n") || !strings.HasSuffix(got, "\n  … (more fields: -o json shows the whole schema)\n") {
		t.Errorf("every parameter, then a note of what was left out; got\n%s", got)
	}
}
