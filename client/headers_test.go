package client

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

func TestEncodeHeaderValue(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		// The "Encoding examples" table of the Streamable HTTP binding.
		{"plain ASCII", "us-west1", "us-west1"},
		{"non-ASCII", "Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="},
		{"leading and trailing spaces", " padded ", "=?base64?IHBhZGRlZCA=?="},
		{"newline", "line1\nline2", "=?base64?bGluZTEKbGluZTI=?="},
		{"matches the sentinel", "=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="},
		// More.
		{"empty stays empty", "", ""},
		{"internal spaces stay plain", "a b  c", "a b  c"},
		{"internal tab is a control character", "a\tb", "=?base64?YQli?="},
		{"leading tab", "\tx", "=?base64?CXg=?="},
		{"trailing space only", "x ", "=?base64?eCA=?="},
		{"leading space only", " x", "=?base64?IHg=?="},
		{"single space", " ", "=?base64?IA==?="},
		{"CR LF injection", "a\r\nX-Evil: 1", "=?base64?YQ0KWC1FdmlsOiAx?="},
		{"DEL", "a\x7f", "=?base64?YX8=?="},
		{"NUL", "a\x00", "=?base64?YQA=?="},
		{"visible ASCII punctuation", `!"#$%&'()*+,-./:;<>?@[\]^_{|}~`, `!"#$%&'()*+,-./:;<>?@[\]^_{|}~`},
		{"sentinel prefix only stays plain", "=?base64?abc", "=?base64?abc"},
		{"sentinel suffix only stays plain", "abc?=", "abc?="},
		{"URI", "file:///projects/myapp/config.json", "file:///projects/myapp/config.json"},
		{"invalid UTF-8", "\xff", "=?base64?/w==?="},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := EncodeHeaderValue(tc.in)
			if got != tc.want {
				t.Errorf("EncodeHeaderValue(%q) = %q, want %q", tc.in, got, tc.want)
			}
			back, err := DecodeHeaderValue(got)
			if err != nil || back != tc.in {
				t.Errorf("DecodeHeaderValue(%q) = %q, %v; want %q", got, back, err, tc.in)
			}
		})
	}
}

func TestDecodeHeaderValue(t *testing.T) {
	tests := []struct {
		in, want string
		wantErr  bool
	}{
		{"us-west1", "us-west1", false},
		{"=?base64?SGVsbG8sIOS4lueVjA==?=", "Hello, 世界", false},
		{"=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=", "=?base64?literal?=", false},
		{"=?base64??=", "", false},
		{"=?base64?=", "=?base64?=", false},           // prefix and suffix overlap: not the sentinel
		{"=?BASE64?SGk=?=", "=?BASE64?SGk=?=", false}, // the markers are case-sensitive
		{"", "", false},
		{"=?base64?not base64!?=", "", true},
	}
	for _, tc := range tests {
		got, err := DecodeHeaderValue(tc.in)
		if (err != nil) != tc.wantErr || (!tc.wantErr && got != tc.want) {
			t.Errorf("DecodeHeaderValue(%q) = %q, %v; want %q, error %v", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
}

func TestToolHeaderParamsValid(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		want   []HeaderParam
	}{
		{"no schema", ``, nil},
		{"no annotations", `{"type":"object","properties":{"a":{"type":"string"}}}`, nil},
		{"spec example", `{
			"type": "object",
			"properties": {
				"region": {"type": "string", "description": "The region", "x-mcp-header": "Region"},
				"query": {"type": "string"}
			},
			"required": ["region", "query"]
		}`, []HeaderParam{{Path: []string{"region"}, Header: "Region"}}},
		{"all primitive types, sorted by path", `{"type":"object","properties":{
			"verbose":{"type":"boolean","x-mcp-header":"Verbose"},
			"priority":{"type":"integer","x-mcp-header":"Priority"},
			"a":{"type":"string","x-mcp-header":"A"}}}`,
			[]HeaderParam{{[]string{"a"}, "A"}, {[]string{"priority"}, "Priority"}, {[]string{"verbose"}, "Verbose"}}},
		{"nested properties chain", `{"type":"object","properties":{
			"opts":{"type":"object","properties":{
				"deep":{"type":"object","properties":{"mode":{"type":"string","x-mcp-header":"Mode"}}},
				"tenant":{"type":"string","x-mcp-header":"Tenant"}}},
			"region":{"type":"string","x-mcp-header":"Region"}}}`,
			[]HeaderParam{{[]string{"opts", "deep", "mode"}, "Mode"}, {[]string{"opts", "tenant"}, "Tenant"}, {[]string{"region"}, "Region"}}},
		{"type array with null", `{"properties":{"r":{"type":["string","null"],"x-mcp-header":"R"}}}`,
			[]HeaderParam{{[]string{"r"}, "R"}}},
		{"type array of primitives", `{"properties":{"r":{"type":["integer","string"],"x-mcp-header":"R"}}}`,
			[]HeaderParam{{[]string{"r"}, "R"}}},
		{"all tchar punctuation", `{"properties":{"r":{"type":"string","x-mcp-header":"A!#$%&'*+-.^_` + "`" + `|~9"}}}`,
			[]HeaderParam{{[]string{"r"}, "A!#$%&'*+-.^_`|~9"}}},
		{"a property named x-mcp-header is not an annotation", `{"type":"object","properties":{
			"x-mcp-header":{"type":"object","properties":{"inner":{"type":"string"}}}}}`, nil},
		{"a property named x-mcp-header next to a real annotation", `{"type":"object","properties":{
			"x-mcp-header":{"type":"string"},
			"r":{"type":"string","x-mcp-header":"R"}}}`, []HeaderParam{{[]string{"r"}, "R"}}},
		{"a property named x-mcp-header carrying one", `{"type":"object","properties":{
			"x-mcp-header":{"type":"string","x-mcp-header":"Odd"}}}`, []HeaderParam{{[]string{"x-mcp-header"}, "Odd"}}},
		{"x-mcp-header inside data keywords is data", `{"type":"object","properties":{
			"a":{"type":"object","default":{"x-mcp-header":"X"},"examples":[{"x-mcp-header":"Y"}],"const":{"x-mcp-header":"Z"},"enum":[{"x-mcp-header":"W"}]}}}`, nil},
		{"unannotated properties under $defs and items are fine", `{"type":"object","$defs":{"d":{"type":"object"}},
			"properties":{"list":{"type":"array","items":{"type":"string"}},"r":{"type":"string","x-mcp-header":"R"}}}`,
			[]HeaderParam{{[]string{"r"}, "R"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { checkHeaderParams(t, tc.schema, tc.want) })
	}
}

func TestToolHeaderParamsInvalid(t *testing.T) {
	prop := func(typ, name string) string {
		return `{"type":"object","properties":{"p":{"type":` + typ + `,"x-mcp-header":` + name + `}}}`
	}
	tests := []struct {
		name    string
		schema  string
		errPart string // a word the reason must contain
	}{
		// The invalid tools of the conformance scenario http-invalid-tool-headers.
		{"empty name", prop(`"string"`, `""`), "empty"},
		{"on an object", prop(`"object"`, `"Obj"`), "type"},
		{"on an array", prop(`"array"`, `"Arr"`), "type"},
		{"on null", prop(`"null"`, `"Nul"`), "type"},
		{"on a number", prop(`"number"`, `"Num"`), "type"},
		{"duplicate, same case", `{"type":"object","properties":{
			"a":{"type":"string","x-mcp-header":"Region"},
			"b":{"type":"string","x-mcp-header":"Region"}}}`, "twice"},
		{"duplicate, differing in case", `{"type":"object","properties":{
			"a":{"type":"string","x-mcp-header":"Region"},
			"b":{"type":"string","x-mcp-header":"REGION"}}}`, "twice"},
		{"duplicate at different depths", `{"type":"object","properties":{
			"a":{"type":"string","x-mcp-header":"region"},
			"o":{"type":"object","properties":{"b":{"type":"string","x-mcp-header":"Region"}}}}}`, "twice"},
		{"space in name", prop(`"string"`, `"My Region"`), "character"},
		{"colon in name", prop(`"string"`, `"Region:"`), "character"},
		{"non-ASCII name", prop(`"string"`, `"Régión"`), "character"},
		{"control character in name", prop(`"string"`, `"Reg\u0001ion"`), "character"},
		{"CR LF in name", prop(`"string"`, `"Region\r\nX-Evil"`), "character"},
		{"slash in name", prop(`"string"`, `"a/b"`), "character"},
		// More constraints.
		{"not a string", prop(`"string"`, `42`), "not a string"},
		{"type array with a number", prop(`["string","number"]`, `"R"`), "type"},
		{"type array of null only", prop(`["null"]`, `"R"`), "type"},
		{"no type", `{"type":"object","properties":{"p":{"x-mcp-header":"P"}}}`, "type"},
		{"at the schema root", `{"type":"string","x-mcp-header":"Root"}`, "reachable"},
		// Not statically reachable through properties alone.
		{"under items", `{"type":"object","properties":{"list":{"type":"array","items":{"type":"string","x-mcp-header":"Item"}}}}`, "reachable"},
		{"under items properties", `{"type":"object","properties":{"list":{"type":"array","items":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A"}}}}}}`, "reachable"},
		{"under prefixItems", `{"type":"object","properties":{"t":{"type":"array","prefixItems":[{"type":"string","x-mcp-header":"T"}]}}}`, "reachable"},
		{"under anyOf", `{"type":"object","properties":{"a":{"anyOf":[{"type":"string","x-mcp-header":"A"},{"type":"integer"}]}}}`, "reachable"},
		{"under oneOf at the root", `{"type":"object","oneOf":[{"properties":{"a":{"type":"string","x-mcp-header":"A"}}}]}`, "reachable"},
		{"under allOf", `{"allOf":[{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A"}}}]}`, "reachable"},
		{"under not", `{"type":"object","properties":{"a":{"not":{"type":"string","x-mcp-header":"A"}}}}`, "reachable"},
		{"under $defs", `{"type":"object","$defs":{"r":{"type":"string","x-mcp-header":"R"}},"properties":{"r":{"$ref":"#/$defs/r"}}}`, "reachable"},
		{"under definitions", `{"type":"object","definitions":{"r":{"type":"string","x-mcp-header":"R"}}}`, "reachable"},
		{"under if/then", `{"type":"object","if":{"properties":{"a":{"const":1}}},"then":{"properties":{"b":{"type":"string","x-mcp-header":"B"}}}}`, "reachable"},
		{"under additionalProperties", `{"type":"object","additionalProperties":{"type":"string","x-mcp-header":"A"}}`, "reachable"},
		{"under patternProperties", `{"type":"object","patternProperties":{"^a":{"type":"string","x-mcp-header":"A"}}}`, "reachable"},
		{"invalid JSON", `{"type":`, "JSON"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ToolHeaderParams(json.RawMessage(tc.schema))
			if err == nil {
				t.Fatalf("no error; got %+v", got)
			}
			if !strings.Contains(err.Error(), tc.errPart) {
				t.Errorf("error %q does not mention %q", err, tc.errPart)
			}
		})
	}
}

func TestParamHeaders(t *testing.T) {
	params := []HeaderParam{
		{[]string{"region"}, "Region"},
		{[]string{"priority"}, "Priority"},
		{[]string{"verbose"}, "Verbose"},
		{[]string{"debug"}, "Debug"},
		{[]string{"empty"}, "EmptyVal"},
		{[]string{"greeting"}, "Greeting"},
		{[]string{"nullv"}, "NullVal"},
		{[]string{"absent"}, "Absent"},
		{[]string{"opts", "mode"}, "Mode"},
		{[]string{"opts", "missing"}, "Missing"},
		{[]string{"str", "below"}, "Below"},
	}
	args := `{"region":"us-west1","priority":42,"verbose":false,"debug":true,"empty":"",
		"greeting":"Hello, 世界","nullv":null,"opts":{"mode":"fast"},"str":"not an object","query":"SELECT 1"}`
	got, err := ParamHeaders(params, json.RawMessage(args))
	if err != nil {
		t.Fatal(err)
	}
	want := http.Header{
		"Mcp-Param-Region":   {"us-west1"},
		"Mcp-Param-Priority": {"42"},
		"Mcp-Param-Verbose":  {"false"},
		"Mcp-Param-Debug":    {"true"},
		"Mcp-Param-EmptyVal": {""},
		"Mcp-Param-Greeting": {"=?base64?SGVsbG8sIOS4lueVjA==?="},
		"Mcp-Param-Mode":     {"fast"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParamHeaders\n got %v\nwant %v", got, want)
	}
}

func TestParamHeadersValues(t *testing.T) {
	p := []HeaderParam{{[]string{"v"}, "V"}}
	tests := []struct {
		name    string
		args    string
		want    []string // nil: no header
		wantErr bool
	}{
		{"string", `{"v":"x"}`, []string{"x"}, false},
		{"negative integer", `{"v":-7}`, []string{"-7"}, false},
		{"largest safe integer kept exact", `{"v":9007199254740991}`, []string{"9007199254740991"}, false},
		{"smallest safe integer", `{"v":-9007199254740991}`, []string{"-9007199254740991"}, false},
		{"zero", `{"v":0}`, []string{"0"}, false},
		{"integer above the safe range", `{"v":9007199254740992}`, nil, true},
		{"integer below the safe range", `{"v":-9007199254740992}`, nil, true},
		{"huge integer", `{"v":123456789012345678901234567890}`, nil, true},
		{"fraction", `{"v":1.5}`, nil, true},
		{"true", `{"v":true}`, []string{"true"}, false},
		{"false", `{"v":false}`, []string{"false"}, false},
		{"empty string", `{"v":""}`, []string{""}, false},
		{"padded string", `{"v":" padded "}`, []string{"=?base64?IHBhZGRlZCA=?="}, false},
		{"null", `{"v":null}`, nil, false},
		{"absent", `{"w":1}`, nil, false},
		{"no arguments", ``, nil, false},
		{"empty arguments", `{}`, nil, false},
		{"object value", `{"v":{"a":1}}`, nil, true},
		{"array value", `{"v":[1]}`, nil, true},
		{"invalid JSON", `{"v":`, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, err := ParamHeaders(p, json.RawMessage(tc.args))
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if tc.wantErr {
				return
			}
			got, ok := h["Mcp-Param-V"]
			if tc.want == nil {
				if ok || len(h) != 0 {
					t.Errorf("got headers %v, want none", h)
				}
				return
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Mcp-Param-V = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestParamHeadersErrorNamesHeader(t *testing.T) {
	_, err := ParamHeaders([]HeaderParam{{[]string{"o", "v"}, "Val"}}, json.RawMessage(`{"o":{"v":{"x":1}}}`))
	if err == nil || !strings.Contains(err.Error(), "o.v") || !strings.Contains(err.Error(), "Mcp-Param-Val") {
		t.Errorf("err = %v, want one naming o.v and Mcp-Param-Val", err)
	}
}

// No params: no work and no parsing, whatever the arguments are.
func TestParamHeadersNoParams(t *testing.T) {
	h, err := ParamHeaders(nil, json.RawMessage(`not json`))
	if err != nil || len(h) != 0 {
		t.Errorf("got %v, %v; want an empty header and no error", h, err)
	}
}

// Issue 14 item 4 (one schema walker): the annotations are found by
// client/schema's reader, which resolves a parameter's declared type as
// the validator does. Before, headers.go walked the schema itself: it read
// only the annotated property's own "type", so a parameter typed through
// $ref or a union of primitive branches was refused although its type is
// string, integer or boolean; and it took an object under an unknown
// keyword (data, not a schema, in JSON Schema) for a subschema whose
// annotation made the tool invalid.
func TestToolHeaderParamsTypesAsTheSchemaReaderSees(t *testing.T) {
	valid := []struct {
		name, schema string
		want         []HeaderParam
	}{
		{"type through $ref", `{"type":"object","$defs":{"region":{"type":"string"}},
			"properties":{"r":{"$ref":"#/$defs/region","x-mcp-header":"Region"}}}`, []HeaderParam{{[]string{"r"}, "Region"}}},
		{"nullable through anyOf", `{"type":"object","properties":{"r":{"anyOf":[{"type":"integer"},{"type":"null"}],"x-mcp-header":"R"}}}`,
			[]HeaderParam{{[]string{"r"}, "R"}}},
		{"type through allOf", `{"type":"object","properties":{"r":{"allOf":[{"type":"boolean"}],"x-mcp-header":"R"}}}`,
			[]HeaderParam{{[]string{"r"}, "R"}}},
		{"an unknown keyword's value is data", `{"type":"object","properties":{"r":{"type":"string","x-ui":{"x-mcp-header":"Nope"}}}}`, nil},
		{"a $schema mcpctl cannot validate with is still read", `{"$schema":"https://example.com/my-dialect","type":"object",
			"properties":{"r":{"type":"string","x-mcp-header":"R"}}}`, []HeaderParam{{[]string{"r"}, "R"}}},
	}
	for _, tc := range valid {
		t.Run(tc.name, func(t *testing.T) { checkHeaderParams(t, tc.schema, tc.want) })
	}
	invalid := []struct{ name, schema, errPart string }{
		{"number through $ref", `{"type":"object","$defs":{"n":{"type":"number"}},"properties":{"r":{"$ref":"#/$defs/n","x-mcp-header":"R"}}}`, "type"},
		{"a union with a number", `{"type":"object","properties":{"r":{"anyOf":[{"type":"string"},{"type":"number"}],"x-mcp-header":"R"}}}`, "type"},
		{"an object only implied", `{"type":"object","properties":{"r":{"properties":{"a":{}},"x-mcp-header":"R"}}}`, "type"},
		{"a dangling $ref", `{"type":"object","properties":{"r":{"$ref":"#/$defs/none","x-mcp-header":"R"}}}`, "type"},
		{"under a $ref target only", `{"type":"object","$defs":{"o":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A"}}}},
			"properties":{"o":{"$ref":"#/$defs/o"}}}`, "#/$defs/o/properties/a is not reachable"},
	}
	for _, tc := range invalid {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ToolHeaderParams(json.RawMessage(tc.schema))
			if err == nil {
				t.Fatalf("no error; got %+v", got)
			}
			if !strings.Contains(err.Error(), tc.errPart) {
				t.Errorf("error %q does not mention %q", err, tc.errPart)
			}
		})
	}
}

// checkHeaderParams: schema's x-mcp-header annotations are valid and give
// exactly want.
func checkHeaderParams(t *testing.T, schema string, want []HeaderParam) {
	t.Helper()
	got, err := ToolHeaderParams(json.RawMessage(schema))
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}
