package schema

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCoerceScalars(t *testing.T) {
	// One property per case: {"v": <schema>}; the value "v" is given as a
	// key=value string.
	cases := []struct {
		name, schema, in, want string
	}{
		// integer
		{"integer", `{"type":"integer"}`, `"42"`, `42`},
		{"negative integer", `{"type":"integer"}`, `"-7"`, `-7`},
		{"big integer exact", `{"type":"integer"}`, `"123456789012345678901234567890"`, `123456789012345678901234567890`},
		{"integer rejects decimal", `{"type":"integer"}`, `"1.5"`, `"1.5"`},
		{"integer rejects leading zero", `{"type":"integer"}`, `"012"`, `"012"`},
		{"integer rejects plus", `{"type":"integer"}`, `"+1"`, `"+1"`},
		{"integer rejects words", `{"type":"integer"}`, `"ten"`, `"ten"`},
		// number
		{"number", `{"type":"number"}`, `"3.14"`, `3.14`},
		{"number exact text", `{"type":"number"}`, `"0.10000000000000000000001"`, `0.10000000000000000000001`},
		{"number exponent", `{"type":"number"}`, `"1e3"`, `1e3`},
		{"number integer text", `{"type":"number"}`, `"5"`, `5`},
		{"number rejects NaN", `{"type":"number"}`, `"NaN"`, `"NaN"`},
		{"number rejects Infinity", `{"type":"number"}`, `"Infinity"`, `"Infinity"`},
		{"number rejects -Infinity", `{"type":"number"}`, `"-Infinity"`, `"-Infinity"`},
		{"number rejects hex", `{"type":"number"}`, `"0x10"`, `"0x10"`},
		{"number rejects leading dot", `{"type":"number"}`, `".5"`, `".5"`},
		{"number rejects trailing dot", `{"type":"number"}`, `"5."`, `"5."`},
		{"number rejects spaces", `{"type":"number"}`, `" 5"`, `" 5"`},
		// boolean
		{"true", `{"type":"boolean"}`, `"true"`, `true`},
		{"false", `{"type":"boolean"}`, `"false"`, `false`},
		{"boolean is exact", `{"type":"boolean"}`, `"True"`, `"True"`},
		{"boolean rejects 1", `{"type":"boolean"}`, `"1"`, `"1"`},
		{"boolean rejects yes", `{"type":"boolean"}`, `"yes"`, `"yes"`},
		// null
		{"null", `{"type":"null"}`, `"null"`, `null`},
		{"null is exact", `{"type":"null"}`, `"nil"`, `"nil"`},
		// string and untyped
		{"string keeps leading zero", `{"type":"string"}`, `"012"`, `"012"`},
		{"string keeps true", `{"type":"string"}`, `"true"`, `"true"`},
		{"no type stays string", `{}`, `"5"`, `"5"`},
		{"description only stays string", `{"description":"n"}`, `"true"`, `"true"`},
		// enums and const
		{"enum number member", `{"enum":[1,2,"x"]}`, `"1"`, `1`},
		{"enum string member", `{"enum":[1,2,"x"]}`, `"x"`, `"x"`},
		{"enum no member", `{"enum":[1,2,"x"]}`, `"3"`, `"3"`},
		{"enum string before number", `{"enum":["1",1]}`, `"1"`, `"1"`},
		{"enum numeric equality keeps member text", `{"enum":[1.0,2]}`, `"1"`, `1.0`},
		{"enum boolean and null", `{"enum":[true,null]}`, `"null"`, `null`},
		{"enum with string type", `{"type":"string","enum":["metric","imperial"]}`, `"metric"`, `"metric"`},
		{"const", `{"const":7}`, `"7"`, `7`},
		// type arrays: schema order
		{"integer or string: number text", `{"type":["integer","string"]}`, `"5"`, `5`},
		{"integer or string: word", `{"type":["integer","string"]}`, `"abc"`, `"abc"`},
		{"string or integer", `{"type":["string","integer"]}`, `"5"`, `"5"`},
		{"nullable integer", `{"type":["integer","null"]}`, `"null"`, `null`},
		{"boolean or number", `{"type":["boolean","number"]}`, `"2.5"`, `2.5`},
		// anyOf/oneOf: first branch that converts and accepts
		{"optional integer (pydantic)", `{"anyOf":[{"type":"integer"},{"type":"null"}]}`, `"5"`, `5`},
		{"anyOf first branch rejects", `{"anyOf":[{"type":"integer","minimum":10},{"type":"string"}]}`, `"5"`, `"5"`},
		{"anyOf first branch accepts", `{"anyOf":[{"type":"integer","minimum":10},{"type":"string"}]}`, `"15"`, `15`},
		{"oneOf pattern branch", `{"oneOf":[{"type":"string","pattern":"^u_"},{"type":"integer"}]}`, `"42"`, `42`},
		{"oneOf string branch", `{"oneOf":[{"type":"string","pattern":"^u_"},{"type":"integer"}]}`, `"u_1"`, `"u_1"`},
		{"oneOf enum branches", `{"oneOf":[{"enum":["auto"]},{"type":"integer","minimum":1}]}`, `"3"`, `3`},
		{"nothing fits", `{"anyOf":[{"type":"integer"},{"type":"boolean"}]}`, `"x"`, `"x"`},
		// allOf merged
		{"allOf merged accepts", `{"allOf":[{"type":"integer"},{"minimum":0}]}`, `"5"`, `5`},
		// A conversion no constraint accepts is still the value meant: the
		// first in schema order is kept, for Validate to name the bound.
		{"allOf merged out of bounds", `{"allOf":[{"type":"integer"},{"minimum":0}]}`, `"-1"`, `-1`},
		{"out of bounds stays a number", `{"type":"integer","maximum":3}`, `"9"`, `9`},
		{"not an enum member stays a number", `{"type":"integer","enum":[1,2]}`, `"3"`, `3`},
		{"no branch accepts: first conversion", `{"anyOf":[{"type":"integer","minimum":10},{"type":"boolean"}]}`, `"5"`, `5`},
		{"no branch accepts: string first", `{"type":["string","integer"],"minLength":3,"minimum":10}`, `"5"`, `"5"`},
		{"too short string stays", `{"type":"string","minLength":3}`, `"ab"`, `"ab"`},
		{"a number where only the text fits", `{"anyOf":[{"type":"integer","minimum":10},{"not":{"type":"integer"}}]}`, `"5"`, `"5"`},
		{"false schema", `false`, `"1"`, `"1"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := mustCompile(t, `{"type":"object","properties":{"v":`+tc.schema+`}}`)
			out, err := s.Coerce(json.RawMessage(`{"v":`+tc.in+`}`), [][]string{{"v"}})
			if err != nil {
				t.Fatal(err)
			}
			if want := `{"v":` + tc.want + `}`; string(out) != want {
				t.Errorf("got %s, want %s", out, want)
			}
		})
	}
}

func TestCoerceLocations(t *testing.T) {
	schema := `{
		"type": "object",
		"$defs": {
			"count": {"type": "integer"},
			"flag": {"$anchor": "flag", "type": "boolean"},
			"filter": {"type": "object", "properties": {"max": {"$ref": "#/$defs/count"}, "name": {"type": "string"}}}
		},
		"properties": {
			"count": {"$ref": "#/$defs/count"},
			"flag": {"$ref": "#flag"},
			"filter": {"$ref": "#/$defs/filter"},
			"tags": {"type": "array", "items": {"type": "integer"}},
			"pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "number"}], "items": {"type": "boolean"}},
			"matrix": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}},
			"opt": {"anyOf": [{"$ref": "#/$defs/filter"}, {"type": "null"}]},
			"labels": {"type": "object", "additionalProperties": {"type": "integer"}},
			"env": {"type": "object", "patternProperties": {"^n_": {"type": "number"}, "^b_": {"type": "boolean"}}}
		},
		"allOf": [{"properties": {"extra": {"type": "integer"}}}]
	}`
	s := mustCompile(t, schema)
	cases := []struct {
		name, in string
		paths    [][]string
		want     string
	}{
		{"local $ref", `{"count":"3"}`, [][]string{{"count"}}, `{"count":3}`},
		{"anchor $ref", `{"flag":"true"}`, [][]string{{"flag"}}, `{"flag":true}`},
		{"nested through $ref", `{"filter":{"max":"10","name":"10"}}`, [][]string{{"filter", "max"}, {"filter", "name"}}, `{"filter":{"max":10,"name":"10"}}`},
		{"array items", `{"tags":["1","2","x"]}`, [][]string{{"tags", "0"}, {"tags", "1"}, {"tags", "2"}}, `{"tags":[1,2,"x"]}`},
		{"prefixItems then items", `{"pair":["1","2","true"]}`, [][]string{{"pair", "0"}, {"pair", "1"}, {"pair", "2"}}, `{"pair":["1",2,true]}`},
		{"nested arrays", `{"matrix":[["1"],["2","3"]]}`, [][]string{{"matrix", "1", "1"}}, `{"matrix":[["1"],["2",3]]}`},
		{"into anyOf object branch", `{"opt":{"max":"4"}}`, [][]string{{"opt", "max"}}, `{"opt":{"max":4}}`},
		{"additionalProperties", `{"labels":{"a":"1","b":"x"}}`, [][]string{{"labels", "a"}, {"labels", "b"}}, `{"labels":{"a":1,"b":"x"}}`},
		{"patternProperties", `{"env":{"n_x":"1.5","b_y":"false","z":"1"}}`, [][]string{{"env", "n_x"}, {"env", "b_y"}, {"env", "z"}}, `{"env":{"n_x":1.5,"b_y":false,"z":"1"}}`},
		{"property from allOf", `{"extra":"8"}`, [][]string{{"extra"}}, `{"extra":8}`},
		{"undeclared property stays", `{"zzz":"8"}`, [][]string{{"zzz"}}, `{"zzz":"8"}`},
		{"unlisted path is never re-typed", `{"count":"3","tags":["1"]}`, [][]string{{"tags", "0"}}, `{"count":"3","tags":[1]}`},
		{"JSON value is left alone", `{"count":3,"flag":false}`, [][]string{{"count"}, {"flag"}}, `{"count":3,"flag":false}`},
		{"missing path ignored", `{"count":"3"}`, [][]string{{"nope"}, {"tags", "5"}, {"count", "x"}, {}}, `{"count":"3"}`},
		{"index out of range ignored", `{"tags":["1"]}`, [][]string{{"tags", "1"}, {"tags", "-1"}, {"tags", "01"}}, `{"tags":["1"]}`},
		{"key order preserved", `{"z":"1","count":"2","a":{"b":"c"}}`, [][]string{{"count"}}, `{"z":"1","count":2,"a":{"b":"c"}}`},
		{"other values untouched", `{"count":"2","n":1.50000000000000000001,"s":"<a&b>","u":"é\u00e9"}`, [][]string{{"count"}}, `{"count":2,"n":1.50000000000000000001,"s":"<a&b>","u":"éé"}`},
		{"empty args", ``, nil, `{}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := s.Coerce(json.RawMessage(tc.in), tc.paths)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tc.want {
				t.Errorf("got %s, want %s", out, tc.want)
			}
		})
	}
}

func TestCoerceDraft07Items(t *testing.T) {
	s := mustCompile(t, `{"$schema":"http://json-schema.org/draft-07/schema#","properties":{
		"t": {"type":"array","items":[{"type":"integer"},{"type":"string"}],"additionalItems":{"type":"boolean"}},
		"l": {"type":"array","items":{"type":"number"}}}}`)
	out, err := s.Coerce(json.RawMessage(`{"t":["1","2","true"],"l":["2.5"]}`), [][]string{{"t", "0"}, {"t", "1"}, {"t", "2"}, {"l", "0"}})
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != `{"t":[1,"2",true],"l":[2.5]}` {
		t.Errorf("got %s", out)
	}
}

func TestCoerceWeatherAndValidate(t *testing.T) {
	s := mustCompile(t, weatherSchema)
	out, err := s.Coerce(json.RawMessage(`{"location":"10115","units":"metric"}`), [][]string{{"location"}, {"units"}})
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != `{"location":"10115","units":"metric"}` {
		t.Errorf("got %s", out)
	}
	if err := s.Validate(out); err != nil {
		t.Error(err)
	}
}

func TestCoerceInvalidArgs(t *testing.T) {
	s := mustCompile(t, weatherSchema)
	for _, in := range []string{`{"a":`, `{"a":1} x`, `{'a':1}`} {
		if _, err := s.Coerce(json.RawMessage(in), nil); err == nil {
			t.Errorf("%s: want error", in)
		}
	}
}

// Coercion checks candidate values against subschemas, which must never
// trigger a fetch either.
func TestCoerceUnresolvedRefStaysString(t *testing.T) {
	c := newCanary(t)
	s := mustCompile(t, `{"properties":{"p":{"$ref":"`+c.srv.URL+`/p.json"},"q":{"anyOf":[{"$ref":"`+c.srv.URL+`/q.json"},{"type":"integer"}]}}}`)
	out, err := s.Coerce(json.RawMessage(`{"p":"5","q":"6"}`), [][]string{{"p"}, {"q"}})
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != `{"p":"5","q":6}` {
		t.Errorf("got %s", out)
	}
}

// Issue 25, item 5: a key=value number that parses but breaks a bound is
// reported by the bound, in the same words as the same number given as
// JSON (key:=0), at the top level and inside an object, never as a string
// where an integer was wanted.
func TestCoerceOutOfBoundsSaysTheBound(t *testing.T) {
	s := mustCompile(t, `{"type":"object","properties":{
		"totalThoughts":{"type":"integer","minimum":1},
		"opts":{"type":"object","properties":{"scale":{"type":"integer","minimum":1,"maximum":10}}},
		"mode":{"type":"integer","enum":[1,2]}}}`)
	cases := []struct {
		name, typed, asJSON string
		paths               [][]string
		want                string
	}{
		{"minimum", `{"totalThoughts":"0"}`, `{"totalThoughts":0}`, [][]string{{"totalThoughts"}}, "totalThoughts: must be >= 1, got 0"},
		{"nested maximum", `{"opts":{"scale":"11"}}`, `{"opts":{"scale":11}}`, [][]string{{"opts", "scale"}}, "opts.scale: must be <= 10, got 11"},
		{"enum", `{"mode":"3"}`, `{"mode":3}`, [][]string{{"mode"}}, "mode: 3 is not one of 1, 2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := s.Coerce(json.RawMessage(tc.typed), tc.paths)
			if err != nil {
				t.Fatal(err)
			}
			got, fromJSON := s.Validate(out), s.Validate(json.RawMessage(tc.asJSON))
			if got == nil || fromJSON == nil {
				t.Fatalf("Validate(%s) = %v, Validate(%s) = %v: want both refused", out, got, tc.asJSON, fromJSON)
			}
			if got.Error() != fromJSON.Error() || !strings.Contains(got.Error(), tc.want) {
				t.Errorf("typed: %v\nas JSON: %v\nwant both to say %q", got, fromJSON, tc.want)
			}
		})
	}
}
