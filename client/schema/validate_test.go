package schema

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestValidateProblems(t *testing.T) {
	nested := `{
		"type": "object",
		"properties": {
			"filter": {"type": "object", "properties": {"max": {"type": "integer", "minimum": 1}, "name": {"type": "string"}}, "required": ["max"], "additionalProperties": false},
			"tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
			"n": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
			"code": {"anyOf": [{"type": "string", "minLength": 3}, {"type": "integer"}]},
			"shape": {"oneOf": [{"type": "integer"}, {"type": "number"}]},
			"pick": {"anyOf": [{"enum": ["a", "b"]}, {"type": "integer"}]},
			"mode": {"const": "fast"},
			"id": {"type": "string", "pattern": "^u_"},
			"never": false,
			"alt": {"anyOf": [
				{"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
				{"type": "object", "properties": {"b": {"type": "integer"}}, "required": ["b"]}
			]}
		}
	}`
	cases := []struct {
		name, schema, args string
		want               []Problem
	}{
		{"valid", weatherSchema, `{"location":"Paris","units":"imperial"}`, nil},
		{"unknown with suggestion", weatherSchema, `{"location":"Paris","locaton":"x"}`, []Problem{
			{"/locaton", KindUnknownArgument, `unknown argument "locaton"; did you mean "location"?`}}},
		{"unknown case-insensitive", weatherSchema, `{"location":"Paris","Units":"metric"}`, []Problem{
			{"/Units", KindUnknownArgument, `unknown argument "Units"; did you mean "units"?`}}},
		{"unknown prefix", weatherSchema, `{"loc":"Paris"}`, []Problem{
			{"/loc", KindUnknownArgument, `unknown argument "loc"; did you mean "location"?`},
			{"/location", KindMissingRequired, `missing required argument location (string)`}}},
		{"unknown without close name", weatherSchema, `{"location":"Paris","temperature":1}`, []Problem{
			{"/temperature", KindUnknownArgument, `unknown argument "temperature"; known arguments: location, units`}}},
		{"unknown on tool without arguments", `{"type":"object","additionalProperties":false}`, `{"x":1}`, []Problem{
			{"/x", KindUnknownArgument, `unknown argument "x"; this tool takes no arguments`}}},
		{"missing required", weatherSchema, `{"units":"metric"}`, []Problem{
			{"/location", KindMissingRequired, `missing required argument location (string)`}}},
		{"missing required several", `{"properties":{"a":{"type":"integer"},"b":{"type":["string","null"]},"c":{"enum":["x","y"]}},"required":["a","b","c","d"]}`, `{}`, []Problem{
			{"/a", KindMissingRequired, `missing required argument a (integer)`},
			{"/b", KindMissingRequired, `missing required argument b (string or null)`},
			{"/c", KindMissingRequired, `missing required argument c (one of "x", "y")`},
			{"/d", KindMissingRequired, `missing required argument d`}}},
		{"empty args are {}", weatherSchema, ``, []Problem{
			{"/location", KindMissingRequired, `missing required argument location (string)`}}},
		{"type mismatch", weatherSchema, `{"location":"Paris","units":3}`, []Problem{
			{"/units", KindType, `units: got integer, want string`}}},
		{"type mismatch number", weatherSchema, `{"location":2.5}`, []Problem{
			{"/location", KindType, `location: got number, want string`}}},
		{"enum mismatch", weatherSchema, `{"location":"Paris","units":"celsius"}`, []Problem{
			{"/units", KindEnum, `units: "celsius" is not one of "metric", "imperial", "kelvin"`}}},
		{"several at once", weatherSchema, `{"locaton":"x","units":"celsius"}`, []Problem{
			{"/location", KindMissingRequired, `missing required argument location (string)`},
			{"/locaton", KindUnknownArgument, `unknown argument "locaton"; did you mean "location"?`},
			{"/units", KindEnum, `units: "celsius" is not one of "metric", "imperial", "kelvin"`}}},
		{"nested type", nested, `{"filter":{"max":"5"}}`, []Problem{
			{"/filter/max", KindType, `filter.max: got string, want integer`}}},
		{"nested missing", nested, `{"filter":{}}`, []Problem{
			{"/filter/max", KindMissingRequired, `missing required argument filter.max (integer)`}}},
		{"nested unknown", nested, `{"filter":{"max":2,"nmae":"x"}}`, []Problem{
			{"/filter/nmae", KindUnknownArgument, `unknown argument "filter.nmae"; did you mean "filter.name"?`}}},
		{"keyword message with path", nested, `{"filter":{"max":0}}`, []Problem{
			{"/filter/max", "minimum", `filter.max: must be >= 1, got 0`}}},
		{"pattern", nested, `{"id":"x"}`, []Problem{
			{"/id", "pattern", `id: 'x' does not match pattern '^u_'`}}},
		{"array item", nested, `{"tags":["a",2]}`, []Problem{
			{"/tags/1", KindType, `tags[1]: got integer, want string`}}},
		{"array size", nested, `{"tags":["a","b","c","d"]}`, []Problem{
			{"/tags", "maxItems", `tags: must have at most 3 items, got 4`}}},
		{"nullable", nested, `{"n":"x"}`, []Problem{
			{"/n", KindType, `n: got string, want integer or null`}}},
		{"anyOf right-typed branch explains", nested, `{"code":"ab"}`, []Problem{
			{"/code", "minLength", `code: must have at least 3 characters, got 2`}}},
		{"anyOf enum or type", nested, `{"pick":"c"}`, []Problem{
			{"/pick", KindNoMatch, `pick: got string "c", want one of "a", "b" or integer`}}},
		{"anyOf of shapes", nested, `{"alt":{"c":1}}`, []Problem{
			{"/alt", KindNoMatch, `alt: matches none of the allowed alternatives: missing required argument alt.a (integer); or missing required argument alt.b (integer)`}}},
		{"oneOf ambiguous", nested, `{"shape":1}`, []Problem{
			{"/shape", KindOneOfAmbiguous, `shape: matches more than one of the allowed alternatives (oneOf 0 and 1) but must match exactly one`}}},
		{"const", nested, `{"mode":"slow"}`, []Problem{
			{"/mode", KindConst, `mode: must be "fast", got "slow"`}}},
		{"false schema", nested, `{"never":1}`, []Problem{
			{"/never", KindNotAllowed, `never: no value is allowed here`}}},
		{"not", `{"properties":{"a":{"not":{"type":"string"}}}}`, `{"a":"x"}`, []Problem{
			{"/a", KindNotAllowed, `a: value matches a schema it must not match`}}},
		{"arguments not an object", weatherSchema, `[1]`, []Problem{
			{"", KindType, `arguments: got array, want object`}}},
		{"invalid json", weatherSchema, `{"a":`, []Problem{
			{"", KindInvalidJSON, `arguments are not valid JSON: invalid JSON: unexpected end of input`}}},
		{"unevaluatedProperties", `{"allOf":[{"properties":{"location":{"type":"string"}}}],"properties":{"units":{"type":"string"}},"unevaluatedProperties":false}`, `{"location":"a","unitz":"b"}`, []Problem{
			{"/unitz", KindUnknownArgument, `unknown argument "unitz"; did you mean "units"?`}}},
		{"big numbers exact", `{"properties":{"n":{"type":"integer","maximum":123456789012345678901234567890}}}`, `{"n":123456789012345678901234567891}`, []Problem{
			{"/n", "maximum", `n: must be <= 123456789012345678901234567890, got 123456789012345678901234567891`}}},
		{"exclusive bound", `{"properties":{"n":{"exclusiveMinimum":0.5}}}`, `{"n":0.5}`, []Problem{
			{"/n", "exclusiveMinimum", `n: must be > 0.5, got 0.5`}}},
		{"draft-04 exclusive bound", `{"$schema":"http://json-schema.org/draft-04/schema#","properties":{"n":{"maximum":10,"exclusiveMaximum":true}}}`, `{"n":10}`, []Problem{
			{"/n", "exclusiveMaximum", `n: must be < 10, got 10`}}},
		{"multipleOf", `{"properties":{"n":{"multipleOf":0.01}}}`, `{"n":0.015}`, []Problem{
			{"/n", "multipleOf", `n: must be a multiple of 0.01, got 0.015`}}},
		{"minProperties", `{"properties":{"o":{"minProperties":2}}}`, `{"o":{"a":1}}`, []Problem{
			{"/o", "minProperties", `o: must have at least 2 properties, got 1`}}},
		{"big numbers exact ok", `{"properties":{"n":{"type":"integer","maximum":123456789012345678901234567890}}}`, `{"n":123456789012345678901234567890}`, nil},
		{"integer-valued decimal is integer", `{"properties":{"n":{"type":"integer"}}}`, `{"n":2.0}`, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := mustCompile(t, tc.schema)
			got := problemsOf(t, s.Validate(json.RawMessage(tc.args)))
			if len(got) != len(tc.want) {
				t.Fatalf("got %d problems %+v\nwant %+v", len(got), got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("problem %d:\n got %+v\nwant %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// An unresolved ref is only reported when an argument actually needs it.
func TestValidateUnresolvedOnlyWhenNeeded(t *testing.T) {
	s := mustCompile(t, `{"properties":{"a":{"type":"integer"},"p":{"$ref":"https://example.invalid/p.json"}},"required":["a"]}`)
	if err := s.Validate(json.RawMessage(`{"a":1}`)); err != nil {
		t.Errorf("p absent: %v", err)
	}
	probs := problemsOf(t, s.Validate(json.RawMessage(`{"p":1}`)))
	if len(probs) != 2 || probs[0].Kind != KindMissingRequired || probs[1].Kind != KindUnresolvedRef {
		t.Errorf("problems = %+v", probs)
	}
	// The whole root refers away: no argument can be checked.
	s = mustCompile(t, `{"$ref":"https://example.invalid/root.json"}`)
	probs = problemsOf(t, s.Validate(json.RawMessage(`{}`)))
	if len(probs) != 1 || probs[0].Path != "" || !strings.HasPrefix(probs[0].Message, "the arguments could not be checked because the schema refers to https://example.invalid/root.json") {
		t.Errorf("problems = %+v", probs)
	}
}

func TestValidateRefCycle(t *testing.T) {
	// A tree schema: legitimate recursion through properties.
	s := mustCompile(t, `{"$defs":{"node":{"type":"object","properties":{"v":{"type":"integer"},"kids":{"type":"array","items":{"$ref":"#/$defs/node"}}}}},"$ref":"#/$defs/node"}`)
	if err := s.Validate(json.RawMessage(`{"v":1,"kids":[{"v":2,"kids":[{"v":3}]}]}`)); err != nil {
		t.Error(err)
	}
	probs := problemsOf(t, s.Validate(json.RawMessage(`{"v":1,"kids":[{"v":2,"kids":[{"v":"x"}]}]}`)))
	if len(probs) != 1 || probs[0].Path != "/kids/0/kids/0/v" || probs[0].Message != "kids[0].kids[0].v: got string, want integer" {
		t.Errorf("problems = %+v", probs)
	}
	// An in-place cycle ($ref to itself) must terminate.
	s = mustCompile(t, `{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"properties":{"x":{"$ref":"#/$defs/a"}}}`)
	if err := s.Validate(json.RawMessage(`{"x":1}`)); err == nil {
		t.Error("ref cycle should be reported")
	}
	if _, err := s.Coerce(json.RawMessage(`{"x":"1"}`), [][]string{{"x"}}); err != nil {
		t.Error(err)
	}
	_ = s.Usage()
	_ = s.Example()
}

func TestClosest(t *testing.T) {
	cases := []struct {
		name     string
		declared []string
		want     string
	}{
		{"locaton", []string{"location", "units"}, "location"},
		{"unit", []string{"location", "units"}, "units"},
		{"xyz", []string{"location", "units"}, ""},
		{"id", []string{"ix", "id2"}, "ix,id2"},
		{"LOCATION", []string{"location"}, "location"},
		{"a", nil, ""},
	}
	for _, tc := range cases {
		if got := strings.Join(closest(tc.name, tc.declared), ","); got != tc.want {
			t.Errorf("closest(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// Property names that need escaping in JSON pointers and URL fragments.
func TestSpecialPropertyNames(t *testing.T) {
	s := mustCompile(t, `{"properties":{"a/b":{"type":"integer"},"c~d":{"type":"integer"},"e f%":{"type":"integer"},"$ref":{"type":"integer"}},"required":["g/h"],"additionalProperties":false}`)
	out, err := s.Coerce(json.RawMessage(`{"a/b":"1","c~d":"2","e f%":"3","$ref":"4"}`), [][]string{{"a/b"}, {"c~d"}, {"e f%"}, {"$ref"}})
	if err != nil || string(out) != `{"a/b":1,"c~d":2,"e f%":3,"$ref":4}` {
		t.Fatalf("Coerce = %s, %v", out, err)
	}
	probs := problemsOf(t, s.Validate(json.RawMessage(`{"a/b":"x","c~d":"y","e f%":"z","$ref":"w"}`)))
	want := []Problem{
		{"/$ref", KindType, "$ref: got string, want integer"},
		{"/a~1b", KindType, "a/b: got string, want integer"},
		{"/c~0d", KindType, "c~d: got string, want integer"},
		{"/e f%", KindType, "e f%: got string, want integer"},
		{"/g~1h", KindMissingRequired, "missing required argument g/h"},
	}
	if len(probs) != len(want) {
		t.Fatalf("problems = %+v", probs)
	}
	for i := range want {
		if probs[i] != want[i] {
			t.Errorf("got %+v, want %+v", probs[i], want[i])
		}
	}
}

func TestDraft04UnresolvedRef(t *testing.T) {
	s := mustCompile(t, `{"$schema":"http://json-schema.org/draft-04/schema#","properties":{"p":{"$ref":"https://example.invalid/p.json"},"q":{"type":"integer"}}}`)
	probs := problemsOf(t, s.Validate(json.RawMessage(`{"p":1,"q":"x"}`)))
	if len(probs) != 2 || probs[0].Kind != KindUnresolvedRef || probs[1].Kind != KindType {
		t.Errorf("problems = %+v", probs)
	}
}
