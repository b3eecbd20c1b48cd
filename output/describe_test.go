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
