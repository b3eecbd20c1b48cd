package schema

import (
	"encoding/json"
	"strings"
	"testing"
)

// The evaluator's keywords, one case each way, beyond what
// validate_test.go's message cases cover.
func TestEvaluatorKeywords(t *testing.T) {
	d7 := `"$schema":"http://json-schema.org/draft-07/schema#",`
	d19 := `"$schema":"https://json-schema.org/draft/2019-09/schema",`
	cases := []struct {
		name, schema, args string
		want               []Problem // nil: valid
	}{
		// Numbers are exact.
		{"integer past 2^53 over maximum", `{"properties":{"n":{"type":"integer","maximum":9007199254740992}}}`, `{"n":9007199254740993}`, []Problem{
			{"/n", "maximum", "n: must be <= 9007199254740992, got 9007199254740993"}}},
		{"const past 2^53", `{"properties":{"n":{"const":9007199254740993}}}`, `{"n":9007199254740992}`, []Problem{
			{"/n", KindConst, "n: must be 9007199254740993, got 9007199254740992"}}},
		{"const equal by value", `{"properties":{"n":{"const":1.0}}}`, `{"n":1}`, nil},
		{"enum past 2^53", `{"properties":{"n":{"enum":[9007199254740993]}}}`, `{"n":9007199254740992}`, []Problem{
			{"/n", KindEnum, "n: 9007199254740992 is not one of 9007199254740993"}}},
		{"multipleOf past 2^53", `{"properties":{"n":{"multipleOf":3}}}`, `{"n":9007199254740993}`, nil},
		{"multipleOf decimal", `{"properties":{"n":{"multipleOf":0.1}}}`, `{"n":0.3}`, nil},
		{"huge exponent", `{"properties":{"n":{"type":"integer","maximum":1e400}}}`, `{"n":1e999999999}`, []Problem{
			{"/n", "maximum", "n: must be <= 1e400, got 1e999999999"}}},
		// Objects.
		{"enum of objects, any key order", `{"properties":{"o":{"enum":[{"a":1,"b":2}]}}}`, `{"o":{"b":2,"a":1}}`, nil},
		{"dependentRequired", `{"dependentRequired":{"card":["cvv"]}}`, `{"card":"x"}`, []Problem{
			{"/cvv", "dependentRequired", "missing required argument cvv, needed when card is given"}}},
		{"dependencies (draft-07)", `{` + d7 + `"properties":{"cvv":{"type":"string"}},"dependencies":{"card":["cvv"]}}`, `{"card":"x"}`, []Problem{
			{"/cvv", "dependencies", "missing required argument cvv (string), needed when card is given"}}},
		{"dependentSchemas", `{"dependentSchemas":{"a":{"required":["b"]}}}`, `{"a":1}`, []Problem{
			{"/b", KindMissingRequired, "missing required argument b"}}},
		{"propertyNames", `{"propertyNames":{"pattern":"^[a-z]+$"}}`, `{"ok":1,"Bad":2}`, []Problem{
			{"", "propertyNames", `arguments: the property name "Bad" is not allowed (propertyNames)`}}},
		{"unevaluatedProperties sees allOf and $ref", `{"$defs":{"b":{"properties":{"b":true}}},"allOf":[{"properties":{"a":true}}],"$ref":"#/$defs/b","unevaluatedProperties":false}`, `{"a":1,"b":2,"c":3}`, []Problem{
			{"/c", KindUnknownArgument, `unknown argument "c"; did you mean "b" or "a"?`}}},
		{"unevaluatedProperties ignores failed branches", `{"anyOf":[{"properties":{"a":{"type":"string"}},"required":["a"]},{"properties":{"b":true},"required":["b"]}],"unevaluatedProperties":false}`, `{"a":"x","b":1}`, nil},
		{"unevaluatedProperties ignores not", `{"not":{"properties":{"a":{"type":"string"}}},"unevaluatedProperties":false}`, `{"a":1}`, []Problem{
			{"/a", KindUnknownArgument, `unknown argument "a"; this tool takes no arguments`}}},
		{"unevaluatedProperties sees if/then", `{"if":{"properties":{"kind":{"const":"x"}}},"then":{"properties":{"x":true}},"unevaluatedProperties":false}`, `{"kind":"x","x":1}`, nil},
		{"patternProperties", `{"patternProperties":{"^n_":{"type":"integer"}},"additionalProperties":false}`, `{"n_a":"x","z":1}`, []Problem{
			{"/n_a", KindType, "n_a: got string, want integer"},
			{"/z", KindUnknownArgument, `unknown argument "z"; this tool takes no arguments`}}},
		// A pattern mcpctl cannot run refuses nothing it might not govern.
		{"patternProperties lookahead", `{"patternProperties":{"^(?!x_)":{"type":"integer"}},"additionalProperties":false}`, `{"x_a":"s","b":"s"}`, nil},
		// Arrays.
		{"prefixItems and items", `{"prefixItems":[{"type":"string"}],"items":{"type":"integer"}}`, `["a",1,"b"]`, []Problem{
			{"/2", KindType, "[2]: got string, want integer"}}},
		{"items false", `{"prefixItems":[true],"items":false}`, `[1,2]`, []Problem{
			{"/1", KindNotAllowed, "[1]: no value is allowed here"}}},
		{"additionalItems false (2019-09)", `{` + d19 + `"items":[true],"additionalItems":false}`, `[1,2,3]`, []Problem{
			{"", "additionalItems", "arguments: has 2 more items than the schema allows"}}},
		{"uniqueItems by value", `{"uniqueItems":true}`, `[1,{"a":1},1.0]`, []Problem{
			{"", "uniqueItems", "arguments: items 0 and 2 are equal, but items must be unique"}}},
		{"contains", `{"contains":{"type":"integer"}}`, `["a"]`, []Problem{
			{"", "contains", "arguments: no item matches the schema's contains"}}},
		{"minContains", `{"contains":{"type":"integer"},"minContains":2}`, `[1,"a"]`, []Problem{
			{"", "minContains", "arguments: must have at least 2 items matching the schema's contains, got 1"}}},
		{"maxContains", `{"contains":{"type":"integer"},"maxContains":1}`, `[1,2]`, []Problem{
			{"", "maxContains", "arguments: must have at most 1 items matching the schema's contains, got 2"}}},
		{"unevaluatedItems sees contains (2020-12)", `{"prefixItems":[true],"contains":{"type":"string"},"unevaluatedItems":false}`, `[1,"a"]`, nil},
		{"unevaluatedItems (2020-12)", `{"prefixItems":[true],"unevaluatedItems":false}`, `[1,2]`, []Problem{
			{"/1", KindNotAllowed, "[1]: no value is allowed here"}}},
		// Drafts.
		{"$ref siblings ignored (draft-07), const too", `{` + d7 + `"definitions":{"n":{"type":"integer"}},"properties":{"a":{"$ref":"#/definitions/n","const":5}}}`, `{"a":1}`, nil},
		{"$ref siblings apply (2020-12)", `{"$defs":{"n":{"type":"integer"}},"properties":{"a":{"$ref":"#/$defs/n","const":5}}}`, `{"a":1}`, []Problem{
			{"/a", KindConst, "a: must be 5, got 1"}}},
		{"format is an annotation (draft-07)", `{` + d7 + `"properties":{"m":{"type":"string","format":"email"}}}`, `{"m":"not an address"}`, nil},
		{"format is an annotation (2020-12)", `{"properties":{"d":{"format":"date"}}}`, `{"d":"soon"}`, nil},
		{"if without then or else", `{"if":{"required":["a"]}}`, `{}`, nil},
		{"boolean if", `{"if":false,"else":{"required":["a"]}}`, `{}`, []Problem{
			{"/a", KindMissingRequired, "missing required argument a"}}},
		// Dynamic references.
		{"$dynamicRef to the outermost $dynamicAnchor", `{"$id":"https://example.com/root","$dynamicAnchor":"node","type":"object","properties":{"kids":{"type":"array","items":{"$dynamicRef":"#node"}},"v":{"type":"integer"}},` +
			`"$defs":{"other":{"$id":"other","$dynamicAnchor":"node","properties":{"x":false}}}}`, `{"kids":[{"v":"s"}]}`, []Problem{
			{"/kids/0/v", KindType, "kids[0].v: got string, want integer"}}},
		{"$dynamicRef extended by the outer resource", `{"$id":"https://example.com/strict","$ref":"list","$defs":{"item":{"$dynamicAnchor":"item","type":"integer"},` +
			`"list":{"$id":"list","type":"array","items":{"$dynamicRef":"#item"},"$defs":{"any":{"$dynamicAnchor":"item"}}}}}`, `["x"]`, []Problem{
			{"/0", KindType, "[0]: got string, want integer"}}},
		{"$recursiveRef (2019-09)", `{` + d19 + `"$id":"https://example.com/tree","$recursiveAnchor":true,"type":"object","properties":{"v":{"type":"integer"},"kids":{"type":"array","items":{"$recursiveRef":"#"}}}}`, `{"kids":[{"v":"s"}]}`, []Problem{
			{"/kids/0/v", KindType, "kids[0].v: got string, want integer"}}},
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

// The lookahead pattern is listed as not enforced, once, and only where
// it can apply.
func TestWarningsOnlyWhereApplied(t *testing.T) {
	s := mustCompile(t, `{"properties":{"a":{"pattern":"^(?!x)"},"b":{"pattern":"^(?!x)"}},"$defs":{"unused":{"pattern":"(?<=y)z"}}}`)
	if w := s.Warnings(); len(w) != 1 || !strings.Contains(w[0], `"^(?!x)"`) {
		t.Errorf("Warnings = %q", w)
	}
	s = mustCompile(t, `{"properties":{"a":{"$ref":"#/$defs/used"}},"$defs":{"used":{"pattern":"(?<=y)z"}}}`)
	if w := s.Warnings(); len(w) != 1 || !strings.Contains(w[0], "(?<=y)z") {
		t.Errorf("Warnings = %q", w)
	}
}

// A schema whose dynamic references fan out is stopped by the evaluator's
// own budget, which the static counts cannot see.
func TestEvaluatorBudget(t *testing.T) {
	s, err := Compile(json.RawMessage(`{"$id":"https://example.com/r","$dynamicAnchor":"n","anyOf":[{"type":"string"},{"properties":{"a":{"$dynamicRef":"#n"},"b":{"$dynamicRef":"#n"}}}]}`), Limits{MaxEvaluations: 40})
	if err != nil {
		t.Fatal(err)
	}
	deep := strings.Repeat(`{"a":`, 12) + `1` + strings.Repeat(`}`, 12)
	probs := problemsOf(t, s.Validate(json.RawMessage(deep)))
	if len(probs) != 1 || probs[0].Kind != KindTooComplex {
		t.Errorf("problems = %+v", probs)
	}
}
