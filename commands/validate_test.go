package commands

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestResultProblem(t *testing.T) {
	weather := `{"type":"object","properties":{"temp":{"type":"number"},"sky":{"type":"string"}},"required":["temp","sky"]}`
	def := func(out string) string {
		return `{"name":"w","inputSchema":{"type":"object"},"outputSchema":` + out + `}`
	}
	cases := []struct {
		name, tool, res string
		bad, unchecked  string
		traces          []string
	}{
		{name: "matches", tool: def(weather), res: `{"content":[],"structuredContent":{"temp":1,"sky":"fog"}}`},
		{name: "no outputSchema", tool: `{"name":"w","inputSchema":{}}`, res: `{"content":[]}`},
		{name: "isError is not checked", tool: def(weather), res: `{"content":[],"structuredContent":7,"isError":true}`},
		{name: "a task handle is not a result", tool: def(weather), res: `{"resultType":"task","taskId":"t1","status":"working"}`},
		{name: "first problem, and how many more", tool: def(weather), res: `{"structuredContent":{"temp":"hot"}}`,
			bad: "missing required field structuredContent.sky (string) (and 1 more problem)"},
		{name: "three problems", tool: def(`{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["c"]}`), res: `{"structuredContent":{"a":"x","b":"y"}}`,
			bad: "structuredContent.a: got string, want integer (and 2 more problems)"},
		{name: "null is a value, and not an object", tool: def(weather), res: `{"structuredContent":null}`,
			bad: "structuredContent: got null, want object"},
		{name: "missing", tool: def(weather), res: `{"content":[{"type":"text","text":"1 degree"}]}`,
			bad: "there is no structuredContent (a tool with an outputSchema must send one)"},
		{name: "a dialect mcpctl does not support", tool: def(`{"$schema":"http://json-schema.org/draft-03/schema#"}`), res: `{"structuredContent":{}}`,
			unchecked: "its outputSchema has an unsupported JSON Schema dialect http://json-schema.org/draft-03/schema#; mcpctl supports 2020-12, 2019-09, draft-07, draft-06, draft-04"},
		{name: "past the schema limits", tool: def(strings.Repeat(`{"items":`, 70) + `{}` + strings.Repeat(`}`, 70)), res: `{"structuredContent":[]}`,
			unchecked: "its outputSchema is too large or complex: "},
		{name: "a ref not fetched decides", tool: def(`{"type":"object","properties":{"a":{"$ref":"https://example.com/a.json"}}}`), res: `{"structuredContent":{"a":1}}`,
			unchecked: "the field at /a could not be checked because the schema refers to https://example.com/a.json, which mcpctl does not fetch"},
		{name: "a real problem beside a ref not fetched", tool: def(`{"type":"object","properties":{"a":{"$ref":"https://example.com/a.json"},"b":{"type":"string"}}}`), res: `{"structuredContent":{"a":1,"b":2}}`,
			bad: "structuredContent.b: got integer, want string"},
		{name: "a pattern not enforced gets a trace line", tool: def(`{"type":"object","properties":{"a":{"type":"string","pattern":"(?<=x)y"}}}`), res: `{"structuredContent":{"a":"q"}}`,
			traces: []string{"tools/call w: outputSchema "}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var traces []string
			bad, unchecked := resultProblem(json.RawMessage(tc.tool), json.RawMessage(tc.res), func(s string) { traces = append(traces, s) }, "tools/call w")
			if bad != tc.bad {
				t.Errorf("bad = %q, want %q", bad, tc.bad)
			}
			if !strings.HasPrefix(unchecked, tc.unchecked) || (tc.unchecked == "") != (unchecked == "") {
				t.Errorf("unchecked = %q, want %q", unchecked, tc.unchecked)
			}
			if len(traces) != len(tc.traces) {
				t.Fatalf("traces = %q, want %d", traces, len(tc.traces))
			}
			for i, want := range tc.traces {
				if !strings.HasPrefix(traces[i], want) {
					t.Errorf("trace %q, want it to start %q", traces[i], want)
				}
			}
		})
	}
}

// What checking a warm tools call's result adds (BENCHMARKS.md, "outputSchema
// validation"): the demo's weather_current definition and result, as the demo
// sends them; the definition's outputSchema compiled once, the
// structuredContent validated.
func BenchmarkResultProblem(b *testing.B) {
	tool := json.RawMessage(`{"name":"weather_current","title":"Current Weather","inputSchema":{"type":"object","properties":{"location":{"type":"string"},` +
		`"units":{"type":"string","enum":["metric","imperial","kelvin"],"default":"metric"}},"required":["location"],"additionalProperties":false},` +
		`"outputSchema":{"type":"object","properties":{"location":{"type":"string","description":"Location the reading is for, as requested"},` +
		`"temperature":{"type":"number","description":"Air temperature in the requested units"},"units":{"type":"string","enum":["metric","imperial","kelvin"],"description":"Unit system of temperature"},` +
		`"conditions":{"type":"string","description":"Short description of the sky and precipitation"},"humidity":{"type":"integer","minimum":0,"maximum":100,"description":"Relative humidity in percent"}},` +
		`"required":["location","temperature","units","conditions","humidity"]}}`)
	res := json.RawMessage(`{"resultType":"complete","content":[{"type":"text","text":"Current weather in SF: 26.8 °C, fog, humidity 23%"}],` +
		`"structuredContent":{"conditions":"fog","humidity":23,"location":"SF","temperature":26.8,"units":"metric"}}`)
	b.ReportAllocs()
	for b.Loop() {
		if bad, unchecked := resultProblem(tool, res, func(string) {}, "tools/call weather_current"); bad != "" || unchecked != "" {
			b.Fatal(bad, unchecked)
		}
	}
}
