package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const weatherSchema = `{"type":"object","properties":{"location":{"type":"string","description":"City"},"units":{"type":"string","enum":["metric","imperial","kelvin"],"default":"metric"}},"required":["location"],"additionalProperties":false}`

func mustCompile(t *testing.T, raw string) *Schema {
	t.Helper()
	s, err := Compile(json.RawMessage(raw), DefaultLimits)
	if err != nil {
		t.Fatalf("Compile(%s): %v", raw, err)
	}
	return s
}

// canary is an HTTP server that counts every request it receives. Any
// request means mcpctl dereferenced a $ref (or $schema), which the MCP spec
// forbids and the conformance suite fails.
type canary struct {
	srv  *httptest.Server
	hits atomic.Int64
}

func newCanary(t *testing.T) *canary {
	c := &canary{}
	c.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.hits.Add(1)
		w.Header().Set("Content-Type", "application/schema+json")
		_, _ = w.Write([]byte(`{"type":"string"}`))
	}))
	t.Cleanup(func() {
		c.srv.Close()
		if n := c.hits.Load(); n != 0 {
			t.Errorf("canary server was contacted %d time(s); mcpctl must never fetch a $ref", n)
		}
	})
	return c
}

// exercise runs every method so that any lazy resolution would show up.
func exercise(t *testing.T, s *Schema, args string) error {
	t.Helper()
	var paths [][]string
	if obj, ok := mustParse(t, args).(*object); ok {
		for _, k := range obj.Keys() {
			paths = append(paths, []string{k})
		}
	}
	if _, err := s.Coerce(json.RawMessage(args), paths); err != nil {
		t.Fatalf("Coerce: %v", err)
	}
	_ = s.Usage()
	_ = s.Example()
	_ = s.Properties()
	return s.Validate(json.RawMessage(args))
}

func mustParse(t *testing.T, s string) any {
	t.Helper()
	v, err := parseJSON([]byte(s), 100)
	if err != nil {
		t.Fatalf("parse %s: %v", s, err)
	}
	return v
}

func problemsOf(t *testing.T, err error) []Problem {
	t.Helper()
	if err == nil {
		return nil
	}
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want *ValidationError, got %T: %v", err, err)
	}
	if len(ve.Problems) == 0 {
		t.Fatalf("ValidationError without problems")
	}
	return ve.Problems
}

func TestCompileWeather(t *testing.T) {
	s := mustCompile(t, weatherSchema)
	if got := s.Usage(); got != "location=STRING [units=metric|imperial|kelvin]" {
		t.Errorf("Usage = %q", got)
	}
	if got := s.Dialect(); got != "2020-12" {
		t.Errorf("Dialect = %q", got)
	}
	if err := s.Validate(json.RawMessage(`{"location":"Paris"}`)); err != nil {
		t.Errorf("Validate: %v", err)
	}
	if len(s.UnresolvedRefs()) != 0 || len(s.Warnings()) != 0 {
		t.Errorf("unexpected unresolved %v / warnings %v", s.UnresolvedRefs(), s.Warnings())
	}
}

// The json-schema-ref-no-deref conformance scenario: a local $defs ref and a
// network ref to a canary. Compile, Coerce, Validate, Usage and Example must
// all work without a single request.
func TestConformanceRefNoDeref(t *testing.T) {
	c := newCanary(t)
	canaryURL := c.srv.URL + "/canary/profile-schema.json"
	raw := `{"type":"object","$defs":{"userId":{"type":"string","pattern":"^u_"}},"properties":{"id":{"$ref":"#/$defs/userId"},"profile":{"$ref":"` + canaryURL + `"}}}`
	s := mustCompile(t, raw)

	if got := s.UnresolvedRefs(); len(got) != 1 || got[0] != canaryURL {
		t.Errorf("UnresolvedRefs = %v", got)
	}
	// The local ref is enforced...
	probs := problemsOf(t, exercise(t, s, `{"id":"x1"}`))
	if len(probs) != 1 || probs[0].Kind != "pattern" || probs[0].Path != "/id" {
		t.Errorf("local ref problems = %+v", probs)
	}
	if err := exercise(t, s, `{"id":"u_1"}`); err != nil {
		t.Errorf("valid id without profile: %v", err)
	}
	// ...and the network one is reported, not fetched and not ignored.
	probs = problemsOf(t, exercise(t, s, `{"id":"u_1","profile":{"name":"a"}}`))
	want := Problem{Path: "/profile", Kind: KindUnresolvedRef,
		Message: "the argument at /profile could not be checked because the schema refers to " + canaryURL + ", which is not fetched"}
	if len(probs) != 1 || probs[0] != want {
		t.Errorf("problems = %+v\nwant %+v", probs, want)
	}
	out, err := s.Coerce(json.RawMessage(`{"id":"u_1","profile":"5"}`), [][]string{{"id"}, {"profile"}})
	if err != nil || string(out) != `{"id":"u_1","profile":"5"}` {
		t.Errorf("Coerce = %s, %v", out, err)
	}
	if got := s.Usage(); got != "[id=STRING] [profile=VALUE]" {
		t.Errorf("Usage = %q", got)
	}
}

// Every way a schema can point outside the document must stay unfetched.
func TestNetworkReferencesNeverFetched(t *testing.T) {
	c := newCanary(t)
	u := c.srv.URL
	cases := []struct {
		name       string
		schema     string
		args       string
		wantKind   string // expected problem kind, "" for valid
		wantPath   string
		compileErr bool
	}{
		{"property ref", `{"properties":{"p":{"$ref":"` + u + `/p.json"}}}`, `{"p":1}`, KindUnresolvedRef, "/p", false},
		{"ref with pointer", `{"properties":{"p":{"$ref":"` + u + `/s.json#/$defs/x"}}}`, `{"p":1}`, KindUnresolvedRef, "/p", false},
		{"relative ref against network $id", `{"$id":"` + u + `/tools/x.json","properties":{"p":{"$ref":"other.json"}}}`, `{"p":1}`, KindUnresolvedRef, "/p", false},
		{"root ref", `{"$ref":"` + u + `/root.json"}`, `{}`, KindUnresolvedRef, "", false},
		{"unused $defs ref", `{"$defs":{"a":{"$ref":"` + u + `/a.json"}},"properties":{"q":{"type":"integer"}}}`, `{"q":1}`, "", "", false},
		{"items ref", `{"properties":{"l":{"type":"array","items":{"$ref":"` + u + `/i.json"}}}}`, `{"l":[1]}`, KindUnresolvedRef, "/l/0", false},
		{"dynamicRef", `{"properties":{"p":{"$dynamicRef":"` + u + `/d.json#meta"}}}`, `{"p":1}`, KindUnresolvedRef, "/p", false},
		{"draft-07 definitions", `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"a":{"$ref":"` + u + `/a.json"}},"properties":{"p":{"$ref":"#/definitions/a"}}}`, `{"p":1}`, KindUnresolvedRef, "/p", false},
		{"2019-09", `{"$schema":"https://json-schema.org/draft/2019-09/schema","properties":{"p":{"$ref":"` + u + `/p.json"}}}`, `{"p":1}`, KindUnresolvedRef, "/p", false},
		{"under not", `{"properties":{"p":{"not":{"$ref":"` + u + `/n.json"}}}}`, `{"p":1}`, KindUnresolvedRef, "/p", false},
		{"in if", `{"properties":{"p":{"if":{"$ref":"` + u + `/c.json"},"then":{"type":"string"}}}}`, `{"p":1}`, KindUnresolvedRef, "/p", false},
		{"anyOf other branch fits", `{"properties":{"p":{"anyOf":[{"$ref":"` + u + `/a.json"},{"type":"integer"}]}}}`, `{"p":1}`, "", "", false},
		{"anyOf no branch fits", `{"properties":{"p":{"anyOf":[{"$ref":"` + u + `/a.json"},{"type":"integer"}]}}}`, `{"p":"x"}`, KindUnresolvedRef, "/p", false},
		{"oneOf", `{"properties":{"p":{"oneOf":[{"$ref":"` + u + `/a.json"},{"type":"integer"}]}}}`, `{"p":1}`, KindUnresolvedRef, "/p", false},
		{"metaschema", `{"$schema":"` + u + `/meta.json","type":"object"}`, `{}`, "", "", true},
		{"embedded metaschema", `{"$defs":{"x":{"$id":"x.json","$schema":"` + u + `/meta.json"}}}`, `{}`, "", "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Compile(json.RawMessage(tc.schema), DefaultLimits)
			if tc.compileErr {
				var de *DialectError
				if !errors.As(err, &de) {
					t.Fatalf("want *DialectError, got %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			probs := problemsOf(t, exercise(t, s, tc.args))
			if tc.wantKind == "" {
				if probs != nil {
					t.Fatalf("want valid, got %+v", probs)
				}
				return
			}
			found := false
			for _, p := range probs {
				if p.Kind == tc.wantKind && p.Path == tc.wantPath {
					found = true
					if !strings.Contains(p.Message, u) || !strings.Contains(p.Message, "is not fetched") {
						t.Errorf("message %q should name the URL and say it is not fetched", p.Message)
					}
				}
			}
			if !found {
				t.Errorf("want %s at %q, got %+v", tc.wantKind, tc.wantPath, probs)
			}
		})
	}
}

// A $ref to a file: URL must not be read either: if it were, the file's
// schema ({"type":"string"}) would be enforced instead of being reported.
func TestFileReferenceNotRead(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "s.json")
	if err := os.WriteFile(f, []byte(`{"type":"string"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := mustCompile(t, `{"properties":{"p":{"$ref":"file://`+filepath.ToSlash(f)+`"}}}`)
	probs := problemsOf(t, s.Validate(json.RawMessage(`{"p":5}`)))
	if len(probs) != 1 || probs[0].Kind != KindUnresolvedRef {
		t.Errorf("problems = %+v", probs)
	}
}

// Refs to an `$id` of the document resolve locally even when the id is a
// network URL (here the canary's own URL).
func TestSameDocumentIDResolves(t *testing.T) {
	c := newCanary(t)
	id := c.srv.URL + "/tool.json"
	cases := []struct{ name, schema string }{
		{"absolute", `{"$id":"` + id + `","$defs":{"n":{"type":"integer"}},"properties":{"x":{"$ref":"` + id + `#/$defs/n"}}}`},
		{"relative", `{"$id":"` + id + `","$defs":{"n":{"type":"integer"}},"properties":{"x":{"$ref":"tool.json#/$defs/n"}}}`},
		{"anchor", `{"$id":"` + id + `","$defs":{"n":{"$anchor":"num","type":"integer"}},"properties":{"x":{"$ref":"#num"}}}`},
		{"embedded resource", `{"$defs":{"n":{"$id":"` + c.srv.URL + `/n.json","type":"integer"}},"properties":{"x":{"$ref":"` + c.srv.URL + `/n.json"}}}`},
		{"urn", `{"$id":"urn:example:tool","$defs":{"n":{"type":"integer"}},"properties":{"x":{"$ref":"urn:example:tool#/$defs/n"}}}`},
		{"draft-04 id anchor", `{"$schema":"http://json-schema.org/draft-04/schema#","definitions":{"n":{"id":"#num","type":"integer"}},"properties":{"x":{"$ref":"#num"}}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := mustCompile(t, tc.schema)
			if u := s.UnresolvedRefs(); len(u) != 0 {
				t.Fatalf("UnresolvedRefs = %v", u)
			}
			probs := problemsOf(t, exercise(t, s, `{"x":"a"}`))
			if len(probs) != 1 || probs[0].Message != "x: got string, want integer" {
				t.Errorf("problems = %+v", probs)
			}
			out, _ := s.Coerce(json.RawMessage(`{"x":"7"}`), [][]string{{"x"}})
			if string(out) != `{"x":7}` {
				t.Errorf("Coerce = %s", out)
			}
		})
	}
}

func TestUnresolvedURNAndDanglingPointer(t *testing.T) {
	s := mustCompile(t, `{"properties":{"u":{"$ref":"urn:example:other"},"d":{"$ref":"#/$defs/nope"},"a":{"$ref":"#nowhere"}}}`)
	want := map[string]string{
		"/u": "the argument at /u could not be checked because the schema refers to urn:example:other, which is not fetched",
		"/d": "the argument at /d could not be checked because the schema refers to #/$defs/nope, which does not exist in the schema",
		"/a": "the argument at /a could not be checked because the schema refers to #nowhere, which does not exist in the schema",
	}
	probs := problemsOf(t, s.Validate(json.RawMessage(`{"u":1,"d":2,"a":3}`)))
	if len(probs) != len(want) {
		t.Fatalf("problems = %+v", probs)
	}
	for _, p := range probs {
		if p.Kind != KindUnresolvedRef || want[p.Path] != p.Message {
			t.Errorf("problem %+v, want message %q", p, want[p.Path])
		}
	}
}

func TestDialects(t *testing.T) {
	cases := []struct {
		name, schema, good, bad, dialect string
	}{
		{"default 2020-12", `{"properties":{"a":{"type":"integer"}}}`, `{"a":1}`, `{"a":"x"}`, "2020-12"},
		{"2020-12 explicit", `{"$schema":"https://json-schema.org/draft/2020-12/schema","prefixItems":[{"type":"integer"}],"type":"array"}`, `[1]`, `["x"]`, "2020-12"},
		{"2019-09", `{"$schema":"https://json-schema.org/draft/2019-09/schema","$defs":{"n":{"type":"integer"}},"properties":{"a":{"$ref":"#/$defs/n","minimum":5}}}`, `{"a":7}`, `{"a":3}`, "2019-09"},
		{"draft-07", `{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"a":{"type":"integer"}},"if":{"required":["a"]},"then":{"required":["b"]}}`, `{"a":1,"b":2}`, `{"a":1}`, "draft-07"},
		{"draft-06", `{"$schema":"http://json-schema.org/draft-06/schema#","properties":{"a":{"type":"integer","exclusiveMinimum":0}}}`, `{"a":1}`, `{"a":0}`, "draft-06"},
		{"draft-04", `{"$schema":"http://json-schema.org/draft-04/schema#","properties":{"a":{"type":"integer","minimum":0,"exclusiveMinimum":true}}}`, `{"a":1}`, `{"a":0}`, "draft-04"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := mustCompile(t, tc.schema)
			if s.Dialect() != tc.dialect {
				t.Errorf("Dialect = %q", s.Dialect())
			}
			if err := s.Validate(json.RawMessage(tc.good)); err != nil {
				t.Errorf("good: %v", err)
			}
			if err := s.Validate(json.RawMessage(tc.bad)); err == nil {
				t.Errorf("bad %s accepted", tc.bad)
			}
		})
	}
}

// Draft-07: `definitions`, and $ref whose siblings are ignored.
func TestDraft07DefinitionsAndRefSiblings(t *testing.T) {
	s := mustCompile(t, `{
		"$schema": "http://json-schema.org/draft-07/schema#",
		"type": "object",
		"definitions": {
			"name": {"type": "string", "minLength": 2},
			"count": {"type": "integer"}
		},
		"properties": {
			"name": {"$ref": "#/definitions/name", "type": "integer", "description": "ignored siblings"},
			"count": {"$ref": "#/definitions/count"}
		},
		"required": ["name"],
		"additionalProperties": false
	}`)
	if err := s.Validate(json.RawMessage(`{"name":"ab","count":3}`)); err != nil {
		t.Errorf("valid args rejected (sibling type must be ignored): %v", err)
	}
	probs := problemsOf(t, s.Validate(json.RawMessage(`{"name":"a","count":"x"}`)))
	if len(probs) != 2 || probs[0].Path != "/count" || probs[1].Kind != "minLength" {
		t.Errorf("problems = %+v", probs)
	}
	out, _ := s.Coerce(json.RawMessage(`{"name":"12","count":"12"}`), [][]string{{"name"}, {"count"}})
	if string(out) != `{"name":"12","count":12}` {
		t.Errorf("Coerce = %s", out)
	}
	if got := s.Usage(); got != "name=STRING [count=INT]" {
		t.Errorf("Usage = %q", got)
	}
}

// The focal tool of json-schema-2020-12-preservation uses most 2020-12
// keywords at once.
func TestRich2020Schema(t *testing.T) {
	s := mustCompile(t, `{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"type": "object",
		"$defs": {"address": {"$anchor": "addr", "type": "object", "properties": {"street": {"type": "string"}, "zip": {"type": "string", "pattern": "^[0-9]{5}$"}}, "required": ["street"]}},
		"properties": {
			"name": {"type": "string"},
			"home": {"$ref": "#addr"},
			"contact": {"anyOf": [{"type": "string", "format": "email"}, {"type": "null"}]},
			"kind": {"enum": ["person", "company"]},
			"vat": {"type": "string"}
		},
		"allOf": [{"required": ["name"]}],
		"if": {"properties": {"kind": {"const": "company"}}, "required": ["kind"]},
		"then": {"required": ["vat"]},
		"additionalProperties": false
	}`)
	if err := s.Validate(json.RawMessage(`{"name":"a","home":{"street":"s","zip":"12345"},"contact":null,"kind":"person"}`)); err != nil {
		t.Errorf("valid: %v", err)
	}
	probs := problemsOf(t, s.Validate(json.RawMessage(`{"name":"a","kind":"company","home":{"zip":"1"}}`)))
	var msgs []string
	for _, p := range probs {
		msgs = append(msgs, p.Message)
	}
	want := []string{
		"missing required argument home.street (string)",
		"home.zip: '1' does not match pattern '^[0-9]{5}$'",
		"missing required argument vat (string)",
	}
	if strings.Join(msgs, "\n") != strings.Join(want, "\n") {
		t.Errorf("messages:\n%s\nwant:\n%s", strings.Join(msgs, "\n"), strings.Join(want, "\n"))
	}
	if got := s.Usage(); got != "name=STRING [home:=JSON] [contact=STRING] [kind=person|company] [vat=STRING]" {
		t.Errorf("Usage = %q", got)
	}
}

func TestUnsupportedDialect(t *testing.T) {
	for _, d := range []string{"http://json-schema.org/draft-03/schema#", "https://example.com/my-meta", "https://json-schema.org/draft/2020-12/schema#/foo"} {
		_, err := Compile(json.RawMessage(`{"$schema":"`+d+`","type":"object"}`), DefaultLimits)
		var de *DialectError
		if !errors.As(err, &de) || de.Dialect != d {
			t.Fatalf("%s: want *DialectError, got %v", d, err)
		}
		want := "unsupported JSON Schema dialect " + d + "; this validator supports 2020-12, 2019-09, draft-07, draft-06, draft-04"
		if err.Error() != want {
			t.Errorf("message %q\nwant %q", err.Error(), want)
		}
	}
}

func TestInvalidSchemas(t *testing.T) {
	cases := []struct{ name, schema, contains string }{
		{"not json", `{"type":`, "invalid JSON"},
		{"trailing data", `{} {}`, "unexpected data"},
		{"empty", ``, "empty"},
		{"null", `null`, "must be a JSON object"},
		{"array", `[]`, "must be a JSON object"},
		{"unknown type", `{"type":"strng"}`, "meta-schema"},
		{"minimum not a number", `{"properties":{"a":{"minimum":"x"}}}`, "/properties/a/minimum"},
		{"required not array", `{"required":"a"}`, "meta-schema"},
		{"bad regex", `{"properties":{"a":{"pattern":"(["}}}`, "meta-schema"},
		{"non-string $schema", `{"$schema":7}`, "$schema must be a string"},
		{"draft-04 boolean subschema", `{"$schema":"http://json-schema.org/draft-04/schema#","properties":{"a":true}}`, "meta-schema"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compile(json.RawMessage(tc.schema), DefaultLimits)
			var se *SchemaError
			if !errors.As(err, &se) {
				t.Fatalf("want *SchemaError, got %T %v", err, err)
			}
			if !strings.Contains(err.Error(), tc.contains) {
				t.Errorf("error %q should contain %q", err, tc.contains)
			}
		})
	}
}

func TestBooleanRootSchema(t *testing.T) {
	s := mustCompile(t, `true`)
	if err := s.Validate(json.RawMessage(`{"a":1}`)); err != nil {
		t.Error(err)
	}
	if s.Usage() != "" || string(s.Example()) != "{}" {
		t.Errorf("Usage %q Example %s", s.Usage(), s.Example())
	}
	s = mustCompile(t, `false`)
	if problemsOf(t, s.Validate(json.RawMessage(`{}`)))[0].Kind != KindNotAllowed {
		t.Error("false schema must reject")
	}
}

// Patterns are ECMA-262. RE2 lacks lookaround; such patterns are accepted
// with a warning rather than making the tool unusable. \u escapes work.
func TestECMARegexp(t *testing.T) {
	s := mustCompile(t, `{"properties":{"a":{"type":"string","pattern":"^(?!admin).+$"},"b":{"type":"string","pattern":"^[\\u0041-\\u005A]+$"}}}`)
	if w := s.Warnings(); len(w) != 1 || !strings.Contains(w[0], "(?!admin)") {
		t.Errorf("Warnings = %v", w)
	}
	if err := s.Validate(json.RawMessage(`{"a":"x","b":"ABC"}`)); err != nil {
		t.Error(err)
	}
	if err := s.Validate(json.RawMessage(`{"b":"abc"}`)); err == nil {
		t.Error(`\u range not enforced`)
	}
}

func deepSchema(levels int) string {
	return strings.Repeat(`{"properties":{"a":`, levels) + `{}` + strings.Repeat(`}}`, levels)
}

func refBomb(levels int) string {
	var defs []string
	for i := 0; i < levels; i++ {
		defs = append(defs, fmt.Sprintf(`"a%d":{"anyOf":[{"$ref":"#/$defs/a%d"},{"$ref":"#/$defs/a%d"}]}`, i, i+1, i+1))
	}
	defs = append(defs, fmt.Sprintf(`"a%d":{"type":"integer","minimum":5}`, levels))
	return `{"$defs":{` + strings.Join(defs, ",") + `},"properties":{"x":{"$ref":"#/$defs/a0"}}}`
}

func TestLimits(t *testing.T) {
	hugeAnyOf := `{"anyOf":[` + strings.TrimSuffix(strings.Repeat(`{"type":"string"},`, 20000), ",") + `]}`
	nestedAnyOf := strings.Repeat(`{"anyOf":[`, 40) + `{}` + strings.Repeat(`]}`, 40)
	cases := []struct {
		name, schema string
		limits       Limits
		limit        string
	}{
		{"bytes", `{"description":"` + strings.Repeat("x", 100) + `"}`, Limits{MaxBytes: 50}, "MaxBytes"},
		{"deep nesting", deepSchema(40), DefaultLimits, "MaxDepth"},
		{"nested anyOf", nestedAnyOf, DefaultLimits, "MaxDepth"},
		{"huge anyOf", hugeAnyOf, DefaultLimits, "MaxSubschemas"},
		{"ref anyOf bomb", refBomb(40), DefaultLimits, "MaxEvaluations"},
		{"small subschema limit", `{"properties":{"a":{},"b":{},"c":{}}}`, Limits{MaxSubschemas: 3}, "MaxSubschemas"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			_, err := Compile(json.RawMessage(tc.schema), tc.limits)
			var le *LimitError
			if !errors.As(err, &le) || le.Limit != tc.limit {
				t.Fatalf("want *LimitError %s, got %v", tc.limit, err)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
	// Just under the limits still compiles.
	if _, err := Compile(json.RawMessage(deepSchema(31)), DefaultLimits); err != nil {
		t.Errorf("depth 63: %v", err)
	}
	if _, err := Compile(json.RawMessage(refBomb(10)), DefaultLimits); err != nil {
		t.Errorf("small bomb: %v", err)
	}
}

// A recursive schema whose anyOf fans out at every level passes the static
// check (the recursion is counted once) but would take 2^depth steps on
// deep arguments. Validate must refuse quickly instead.
func TestValidationBoundedOnRecursiveBomb(t *testing.T) {
	s := mustCompile(t, `{"$defs":{"n":{"anyOf":[
		{"type":"object","properties":{"a":{"$ref":"#/$defs/n"}}},
		{"type":"object","properties":{"a":{"$ref":"#/$defs/n"}}},
		{"type":"object","properties":{"a":{"$ref":"#/$defs/n"}}}
	]}},"$ref":"#/$defs/n"}`)
	args := strings.Repeat(`{"a":`, 40) + `5` + strings.Repeat(`}`, 40)
	start := time.Now()
	probs := problemsOf(t, s.Validate(json.RawMessage(args)))
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
	if len(probs) != 1 || probs[0].Kind != KindTooComplex {
		t.Errorf("problems = %+v", probs)
	}
	// Shallow arguments are fine.
	if err := s.Validate(json.RawMessage(`{"a":{"a":{}}}`)); err != nil {
		t.Errorf("shallow: %v", err)
	}
}

// The static bound lets a moderate bomb compile; validation stays fast.
func TestModerateBombValidatesQuickly(t *testing.T) {
	s := mustCompile(t, refBomb(12))
	start := time.Now()
	probs := problemsOf(t, s.Validate(json.RawMessage(`{"x":1}`)))
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
	if len(probs) == 0 {
		t.Error("want problems")
	}
}

func TestConcurrentUse(t *testing.T) {
	s := mustCompile(t, `{"properties":{"n":{"anyOf":[{"type":"integer"},{"type":"null"}]},"m":{"type":"number"}},"required":["n"]}`)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				out, err := s.Coerce(json.RawMessage(fmt.Sprintf(`{"n":"%d","m":"1.5"}`, i)), [][]string{{"n"}, {"m"}})
				if err != nil || string(out) != fmt.Sprintf(`{"n":%d,"m":1.5}`, i) {
					t.Errorf("Coerce = %s, %v", out, err)
					return
				}
				if err := s.Validate(out); err != nil {
					t.Error(err)
					return
				}
				_ = s.Usage()
			}
		}(i)
	}
	wg.Wait()
}

func TestErrorMessages(t *testing.T) {
	le := &LimitError{Limit: "MaxDepth", Max: 64, What: "the schema nests deeper than 64 levels"}
	if le.Error() != "inputSchema is too large or complex: the schema nests deeper than 64 levels (limit MaxDepth=64)" {
		t.Errorf("LimitError: %q", le.Error())
	}
	ve := &ValidationError{Problems: []Problem{{Message: "a"}, {Message: "b"}}}
	if ve.Error() != "invalid arguments (2 problems): a; b" {
		t.Errorf("ValidationError: %q", ve.Error())
	}
	ve.Problems = ve.Problems[:1]
	if ve.Error() != "invalid arguments: a" {
		t.Errorf("ValidationError: %q", ve.Error())
	}
}
