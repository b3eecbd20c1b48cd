package output

import "testing"

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
				"  days (integer, default 3)\n" +
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
			want: "b\n\nParameters:\n  yes (any)\n  no (never)\n  o (object)\n  p (object)\n\nOutput: array of objects:\n  ok (boolean, required)\n",
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
