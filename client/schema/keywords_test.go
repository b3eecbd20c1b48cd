package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

var draftURLs = map[string]string{
	"2020-12":  "https://json-schema.org/draft/2020-12/schema",
	"2019-09":  "https://json-schema.org/draft/2019-09/schema",
	"draft-07": "http://json-schema.org/draft-07/schema#",
	"draft-06": "http://json-schema.org/draft-06/schema#",
	"draft-04": "http://json-schema.org/draft-04/schema#",
}

// Every dialect checks schemas against its meta-schema's rules and
// validates with its own keywords.
func TestMetaSchemaPerDraft(t *testing.T) {
	for _, d := range SupportedDialects {
		t.Run(d, func(t *testing.T) {
			u := draftURLs[d]
			s := mustCompile(t, `{"$schema":"`+u+`","type":"object","minProperties":1}`)
			if s.Dialect() != d {
				t.Errorf("Dialect = %q", s.Dialect())
			}
			if err := s.Validate(json.RawMessage(`{"a":1}`)); err != nil {
				t.Errorf("valid arguments refused: %v", err)
			}
			if err := s.Validate(json.RawMessage(`{}`)); err == nil {
				t.Error("invalid arguments accepted")
			}
			_, err := Compile(json.RawMessage(`{"$schema":"`+u+`","type":5}`), DefaultLimits)
			var se *SchemaError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), `meta-schema: at "#/type"`) {
				t.Errorf(`{"type": 5}: got %v, want a meta-schema *SchemaError at #/type`, err)
			}
		})
	}
}

// The rules that differ between drafts.
func TestMetaSchemaRulesByDraft(t *testing.T) {
	cases := []struct {
		dialect, schema string
		ok              bool
		problem         string // part of the message when refused
	}{
		{"draft-04", `{"properties":{"a":{"additionalProperties":false}}}`, true, ""},
		{"draft-04", `{"properties":{"a":true}}`, false, `at "#/properties/a": got boolean, want object`},
		{"draft-04", `{"maximum":3,"exclusiveMaximum":true}`, true, ""},
		{"draft-04", `{"exclusiveMaximum":true}`, false, `at "#/exclusiveMaximum": needs maximum beside it`},
		{"draft-04", `{"exclusiveMaximum":3}`, false, `got number, want boolean`},
		{"draft-06", `{"exclusiveMaximum":true}`, false, `got boolean, want number`},
		{"draft-04", `{"required":[]}`, false, `at "#/required": must not be empty`},
		{"draft-07", `{"required":[]}`, true, ""},
		{"draft-07", `{"enum":[]}`, false, `at "#/enum": must not be empty`},
		{"2020-12", `{"enum":[]}`, true, ""},
		{"draft-07", `{"enum":[1,1.0]}`, false, `items at 0 and 1 are equal`},
		{"2020-12", `{"items":[{}]}`, false, `at "#/items": got array, want a schema`},
		{"2019-09", `{"items":[{}],"additionalItems":false}`, true, ""},
		{"2020-12", `{"prefixItems":[]}`, false, `at "#/prefixItems": must not be empty`},
		{"2020-12", `{"minLength":-1}`, false, `at "#/minLength": must be >= 0, got -1`},
		{"2020-12", `{"minLength":1.5}`, false, `at "#/minLength": got number, want integer`},
		{"2020-12", `{"minLength":2.0}`, true, ""},
		{"2020-12", `{"multipleOf":0}`, false, `at "#/multipleOf": must be greater than 0, got 0`},
		{"2020-12", `{"type":["string","string"]}`, false, `items at 0 and 1 are equal`},
		{"2020-12", `{"type":[]}`, false, `at "#/type": must not be empty`},
		{"2020-12", `{"patternProperties":{"([":{}}}`, false, `at "#/patternProperties/([": "([" is not a valid regular expression`},
		{"2020-12", `{"patternProperties":{"^(?!x)":{}}}`, true, ""},
		{"2020-12", `{"$anchor":"1a"}`, false, `at "#/$anchor": "1a" is not a valid anchor name`},
		{"2020-12", `{"$anchor":"_a.b-c"}`, true, ""},
		{"2019-09", `{"$anchor":"_a"}`, false, `is not a valid anchor name`},
		{"2019-09", `{"$anchor":"a:b"}`, true, ""},
		{"2020-12", `{"$defs":{"x":{"$id":"https://example.com/x.json#frag"}}}`, false, `has a fragment`},
		{"draft-07", `{"definitions":{"x":{"$id":"#frag"}}}`, true, ""},
		{"2020-12", `{"$vocabulary":{"relative":true}}`, false, `is not an absolute URI`},
		{"2020-12", `{"dependentRequired":{"a":["b","b"]}}`, false, `at "#/dependentRequired/a": items at 0 and 1 are equal`},
		{"draft-07", `{"dependencies":{"a":["b"],"c":{"type":"string"}}}`, true, ""},
		{"draft-07", `{"dependencies":{"a":5}}`, false, `at "#/dependencies/a": got number, want a schema`},
		{"2020-12", `{"title":5}`, false, `at "#/title": got number, want string`},
		{"2020-12", `{"x-vendor":{"minimum":"x"}}`, true, ""},     // unknown keywords are not schemas
		{"draft-07", `{"$defs":{"a":{"minimum":"x"}}}`, true, ""}, // not a draft-07 keyword
		{"draft-07", `{"$defs":{"a":{"minimum":"x"}},"properties":{"p":{"$ref":"#/$defs/a"}}}`, false, `at "#/$defs/a/minimum"`},
		{"2020-12", `{"not":{"required":"a"},"allOf":[{"type":"strng"}]}`, false, `at "#/allOf/0/type": "strng" is not a JSON Schema type`},
	}
	for _, tc := range cases {
		t.Run(tc.dialect+" "+tc.schema, func(t *testing.T) {
			raw := strings.Replace(tc.schema, "{", `{"$schema":"`+draftURLs[tc.dialect]+`",`, 1)
			_, err := Compile(json.RawMessage(raw), DefaultLimits)
			if tc.ok {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var se *SchemaError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.problem) {
				t.Fatalf("got %v, want a *SchemaError with %q", err, tc.problem)
			}
		})
	}
}

// Several problems are listed, at most five and a count.
func TestMetaSchemaProblemsListed(t *testing.T) {
	var props []string
	for i := 0; i < 7; i++ {
		props = append(props, fmt.Sprintf(`"p%d":{"minimum":"x"}`, i))
	}
	_, err := Compile(json.RawMessage(`{"properties":{`+strings.Join(props, ",")+`}}`), DefaultLimits)
	if err == nil || !strings.Contains(err.Error(), `at "#/properties/p0/minimum": got string, want number; `) || !strings.HasSuffix(err.Error(), "; and 2 more") {
		t.Errorf("got %v", err)
	}
}

// Compile from several goroutines at once, every dialect. Run with -race.
func TestConcurrentCompileAllDrafts(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := 0; i < 8; i++ {
		for _, d := range SupportedDialects {
			wg.Add(1)
			go func(d string) {
				defer wg.Done()
				s, err := Compile(json.RawMessage(`{"$schema":"`+draftURLs[d]+`","type":"string"}`), DefaultLimits)
				if err != nil {
					errs <- err
					return
				}
				if err := s.Validate(json.RawMessage(`1`)); err == nil {
					errs <- fmt.Errorf("%s: 1 accepted as a string", d)
				}
				if _, err := Compile(json.RawMessage(`{"$schema":"`+draftURLs[d]+`","type":5}`), DefaultLimits); err == nil {
					errs <- fmt.Errorf("%s: {\"type\": 5} accepted", d)
				}
			}(d)
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
