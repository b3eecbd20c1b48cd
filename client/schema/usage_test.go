package schema

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestUsage(t *testing.T) {
	cases := []struct {
		name, schema, want string
	}{
		{"weather", weatherSchema, `location=STRING [units=metric|imperial|kelvin]`},
		{"no properties", `{"type":"object"}`, ``},
		{"no arguments", `{"type":"object","additionalProperties":false}`, ``},
		{"scalar placeholders", `{"properties":{"s":{"type":"string"},"i":{"type":"integer"},"n":{"type":"number"},"b":{"type":"boolean"},"z":{"type":"null"},"v":{}}}`,
			`[s=STRING] [i=INT] [n=NUMBER] [b=true|false] [z=null] [v=VALUE]`},
		{"required first, each group in schema order", `{"properties":{"a":{"type":"string"},"b":{"type":"integer"},"c":{"type":"string"},"d":{"type":"boolean"}},"required":["d","b"]}`,
			`b=INT d=true|false [a=STRING] [c=STRING]`},
		{"arrays", `{"properties":{"tags":{"type":"array","items":{"type":"string"}},"ids":{"type":"array","items":{"type":"integer"}},"colors":{"type":"array","items":{"enum":["red","green"]}},"rows":{"type":"array","items":{"type":"object"}},"any":{"type":"array"},"grid":{"type":"array","items":{"type":"array"}}},"required":["tags"]}`,
			`tags[]=STRING… [ids[]=INT…] [colors[]=red|green…] [rows:=JSON] [any:=JSON] [grid:=JSON]`},
		{"objects", `{"properties":{"filter":{"type":"object","properties":{"max":{"type":"integer"}}},"implicit":{"properties":{"x":{}}}}}`,
			`[filter:=JSON] [implicit:=JSON]`},
		{"enums and const", `{"properties":{"level":{"enum":[1,2,3]},"mode":{"const":"fast"},"mixed":{"enum":["a",null,true]},"objs":{"enum":[{"a":1}]}}}`,
			`[level=1|2|3] [mode=fast] [mixed=a|null|true] [objs:=JSON]`},
		{"nullable", `{"properties":{"a":{"type":["integer","null"]},"b":{"anyOf":[{"type":"string"},{"type":"null"}]},"c":{"type":["string","integer"]}}}`,
			`[a=INT] [b=STRING] [c=STRING|INT]`},
		{"refs and allOf (pydantic)", `{"$defs":{"Unit":{"enum":["c","f"],"type":"string"},"Base":{"properties":{"city":{"type":"string"}},"required":["city"]}},"allOf":[{"$ref":"#/$defs/Base"}],"properties":{"unit":{"allOf":[{"$ref":"#/$defs/Unit"}],"default":"c"}}}`,
			`city=STRING [unit=c|f]`},
		{"root $ref", `{"$ref":"#/$defs/Args","$defs":{"Args":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}}}`,
			`q=STRING`},
		{"anyOf branches are optional", `{"properties":{"a":{"type":"string"}},"anyOf":[{"properties":{"b":{"type":"integer"}},"required":["b"]},{"properties":{"c":{"type":"integer"}},"required":["c"]}]}`,
			`[a=STRING] [b=INT] [c=INT]`},
		{"required but undeclared", `{"properties":{"a":{"type":"string"}},"required":["z"]}`,
			`z=VALUE [a=STRING]`},
		{"draft-07 ref siblings ignored", `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"n":{"type":"integer"}},"properties":{"a":{"$ref":"#/definitions/n","type":"string"}}}`,
			`[a=INT]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := mustCompile(t, tc.schema)
			if got := s.Usage(); got != tc.want {
				t.Errorf("Usage = %q\n   want %q", got, tc.want)
			}
		})
	}
}

func TestExample(t *testing.T) {
	cases := []struct {
		name, schema, want string
	}{
		{"weather", weatherSchema, `{"location":"example","units":"metric"}`},
		{"empty", `{"type":"object"}`, `{}`},
		{"placeholders", `{"properties":{"s":{"type":"string"},"i":{"type":"integer"},"n":{"type":"number"},"b":{"type":"boolean"},"z":{"type":"null"},"v":{},"opt":{"type":"string"}},"required":["s","i","n","b","z","v"]}`,
			`{"s":"example","i":0,"n":0,"b":false,"z":null,"v":"example"}`},
		{"first enum, const, examples, minimum", `{"properties":{"e":{"enum":["x","y"]},"c":{"const":3},"ex":{"type":"string","examples":["Berlin"]},"m":{"type":"integer","minimum":5}},"required":["e","c","ex","m"]}`,
			`{"e":"x","c":3,"ex":"Berlin","m":5}`},
		{"defaults of optional properties, exact numbers", `{"properties":{"limit":{"type":"integer","default":10},"ratio":{"type":"number","default":0.10000000000000000001},"q":{"type":"string"}}}`,
			`{"limit":10,"ratio":0.10000000000000000001}`},
		{"nested objects and arrays", `{"properties":{"f":{"type":"object","properties":{"max":{"type":"integer"},"x":{"type":"string"}},"required":["max"]},"tags":{"type":"array","items":{"type":"string"},"minItems":1},"l":{"type":"array"}},"required":["f","tags","l"]}`,
			`{"f":{"max":0},"tags":["example"],"l":[]}`},
		{"through refs", `{"$defs":{"U":{"enum":["c","f"]}},"properties":{"u":{"$ref":"#/$defs/U"}},"required":["u"]}`,
			`{"u":"c"}`},
		{"recursive required", `{"$defs":{"n":{"type":"object","properties":{"next":{"$ref":"#/$defs/n"}},"required":["next"]}},"$ref":"#/$defs/n"}`,
			`{"next":{"next":{}}}`}, // cut where the recursion repeats
		{"nullable prefers the real type", `{"properties":{"a":{"type":["null","integer"]}},"required":["a"]}`,
			`{"a":0}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := mustCompile(t, tc.schema)
			got := s.Example()
			if string(got) != tc.want {
				t.Errorf("Example = %s\n   want %s", got, tc.want)
			}
			if !json.Valid(got) {
				t.Errorf("invalid JSON %s", got)
			}
		})
	}
}

// The example for a plain schema is itself valid arguments.
func TestExampleValidates(t *testing.T) {
	for _, schema := range []string{
		weatherSchema,
		`{"properties":{"e":{"enum":["x","y"]},"n":{"type":"integer","minimum":3},"o":{"type":"object","properties":{"a":{"type":"boolean"}},"required":["a"]}},"required":["e","n","o"],"additionalProperties":false}`,
	} {
		s := mustCompile(t, schema)
		if err := s.Validate(s.Example()); err != nil {
			t.Errorf("%s: example %s invalid: %v", schema, s.Example(), err)
		}
	}
}

func TestProperties(t *testing.T) {
	cases := []struct{ schema, want string }{
		{weatherSchema, "location,units"},
		{`{"type":"object"}`, ""},
		{`{"properties":{"z":{},"a":{}},"allOf":[{"properties":{"m":{}}}],"anyOf":[{"properties":{"b":{}}}]}`, "z,a,m,b"},
		{`{"$ref":"#/$defs/A","$defs":{"A":{"properties":{"q":{},"r":{}}}}}`, "q,r"},
	}
	for _, tc := range cases {
		s := mustCompile(t, tc.schema)
		if got := strings.Join(s.Properties(), ","); got != tc.want {
			t.Errorf("%s: Properties = %q, want %q", tc.schema, got, tc.want)
		}
	}
}

func TestParams(t *testing.T) {
	s, err := Compile(json.RawMessage(`{"type":"object","required":["location"],"properties":{
		"location":{"type":"string","description":"City"},
		"units":{"$ref":"#/$defs/units"},
		"verbose":{"type":["boolean","null"]},
		"count":{"type":"integer"},
		"mode":{"const":"fast"}},
		"$defs":{"units":{"enum":["metric","imperial",null]}}}`), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	got := s.Params()
	want := []Param{
		{Name: "location", Spec: "=STRING", Required: true, Description: "City"},
		{Name: "units", Spec: "=metric|imperial|null", Values: []string{"metric", "imperial", "null"}},
		{Name: "verbose", Spec: "=true|false", Values: []string{"true", "false"}},
		{Name: "count", Spec: "=INT"},
		{Name: "mode", Spec: "=fast", Values: []string{"fast"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Params:\n got %+v\nwant %+v", got, want)
	}
}
