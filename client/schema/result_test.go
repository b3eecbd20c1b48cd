package schema

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// The weather tool's outputSchema, with a forecast of readings below it.
const forecastOutput = `{"type":"object","properties":{
	"location":{"type":"string"},
	"humidity":{"type":"integer","minimum":0,"maximum":100},
	"forecast":{"type":"array","items":{"type":"object","properties":{"temp":{"type":"number"},"day":{"type":"string"}},"required":["temp"],"additionalProperties":false}}
},"required":["location","humidity"]}`

func TestValidateResultProblems(t *testing.T) {
	cases := []struct {
		name, schema, value string
		want                []Problem
	}{
		{"valid", forecastOutput, `{"location":"SF","humidity":40,"forecast":[{"temp":1.5}],"extra":true}`, nil},
		{"not an object", forecastOutput, `[{"location":"SF"}]`, []Problem{
			{"", KindType, "structuredContent: got array, want object"}}},
		{"a string, not an object", forecastOutput, `"SF, 20 degrees"`, []Problem{
			{"", KindType, "structuredContent: got string, want object"}}},
		{"missing required", forecastOutput, `{"location":"SF"}`, []Problem{
			{"/humidity", KindMissingRequired, "missing required field structuredContent.humidity (integer)"}}},
		{"wrong type deep inside", forecastOutput, `{"location":"SF","humidity":40,"forecast":[{"temp":1},{"temp":"warm"}]}`, []Problem{
			{"/forecast/1/temp", KindType, "structuredContent.forecast[1].temp: got string, want number"}}},
		{"an integer wanted: no advice on typing it", forecastOutput, `{"location":"SF","humidity":40.5}`, []Problem{
			{"/humidity", KindType, "structuredContent.humidity: got number, want integer"}}},
		{"a bound", forecastOutput, `{"location":"SF","humidity":140}`, []Problem{
			{"/humidity", "maximum", "structuredContent.humidity: must be <= 100, got 140"}}},
		{"a field the schema forbids", forecastOutput, `{"location":"SF","humidity":4,"forecast":[{"temp":1,"tmep":2}]}`, []Problem{
			{"/forecast/0/tmep", KindUnknownArgument, `unknown field "structuredContent.forecast[0].tmep"; did you mean "structuredContent.forecast[0].temp"?`}}},
		{"an array at the root", `{"type":"array","items":{"type":"integer"}}`, `[1,"2"]`, []Problem{
			{"/1", KindType, "structuredContent[1]: got string, want integer"}}},
		{"a ref not fetched", `{"type":"object","properties":{"a":{"$ref":"https://example.com/a.json"}}}`, `{"a":1}`, []Problem{
			{"/a", KindUnresolvedRef, "the field at /a could not be checked because the schema refers to https://example.com/a.json, which is not fetched"}}},
		{"not JSON", forecastOutput, `{"location":`, []Problem{
			{"", KindInvalidJSON, "structuredContent: invalid JSON: unexpected end of input"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := mustCompile(t, tc.schema).ValidateResult(json.RawMessage(tc.value))
			var got []Problem
			if err != nil {
				ve, ok := err.(*ValidationError)
				if !ok {
					t.Fatalf("ValidateResult = %T %v, want a *ValidationError", err, err)
				}
				got = ve.Problems
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("problems:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// The same schema checks arguments in their own words: a result's words
// do not leak into them.
func TestValidateArgumentsKeepTheirWords(t *testing.T) {
	err := mustCompile(t, forecastOutput).Validate(json.RawMessage(`{"location":"SF","humidity":4.5}`))
	if err == nil || !strings.Contains(err.Error(), "humidity: 4.5 is not an integer: give a whole number") {
		t.Errorf("Validate = %v, want the advice on typing a whole number", err)
	}
}

// A result may be far larger than any command line: the evaluations it
// may take grow with it, so a long list of rows is checked where the same
// value as arguments would be too complex to check.
func TestValidateResultBudgetGrowsWithTheResult(t *testing.T) {
	s, err := Compile(json.RawMessage(forecastOutput), Limits{MaxEvaluations: 1000})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(`{"location":"SF","humidity":40,"forecast":[`)
	for i := range 500 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"temp":%d,"day":"d%d"}`, i, i)
	}
	b.WriteString(`]}`)
	value := json.RawMessage(b.String())
	if err := s.Validate(value); err == nil || !strings.Contains(err.Error(), "could not be checked") {
		t.Fatalf("Validate = %v, want too complex (the test's premise)", err)
	}
	if err := s.ValidateResult(value); err != nil {
		t.Errorf("ValidateResult = %v, want nil", err)
	}
	bad := json.RawMessage(strings.Replace(string(value), `{"temp":499,`, `{"temp":"hot",`, 1))
	err = s.ValidateResult(bad)
	if err == nil || !strings.Contains(err.Error(), "structuredContent.forecast[499].temp: got string, want number") {
		t.Errorf("ValidateResult of a bad last row = %v", err)
	}
}

// A schema whose cost grows faster than the result is still bounded.
func TestValidateResultTooComplex(t *testing.T) {
	// Each level doubles the evaluations: 2^20 for a value nested 20 deep.
	s := mustCompile(t, `{"$defs":{"n":{"anyOf":[{"type":"object","properties":{"a":{"$ref":"#/$defs/n"}}},{"type":"object","properties":{"a":{"$ref":"#/$defs/n"}}}]}},"$ref":"#/$defs/n"}`)
	value := strings.Repeat(`{"a":`, 20) + "{}" + strings.Repeat("}", 20)
	err := s.ValidateResult(json.RawMessage(value))
	ve, ok := err.(*ValidationError)
	if !ok || len(ve.Problems) != 1 || ve.Problems[0].Kind != KindTooComplex {
		t.Fatalf("ValidateResult = %v, want too complex", err)
	}
	if want := "structuredContent could not be checked: validating it against this schema would take more than 100000 steps"; !strings.HasPrefix(ve.Problems[0].Message, want) {
		t.Errorf("message = %q, want it to start %q", ve.Problems[0].Message, want)
	}
}
