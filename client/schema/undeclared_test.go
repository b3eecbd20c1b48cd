package schema

import (
	"encoding/json"
	"strings"
	"testing"
)

// Issue 15 item 2: a key the schema does not declare is refused whatever
// additionalProperties says, with the closest declared names; where
// nothing is declared, nothing can be called misspelt.
func TestUndeclared(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, schema, args string
		want               []string // messages, in order; none means accepted
	}{
		{"misspelt top-level key (npm servers' schemas)",
			`{"type":"object","properties":{"duration":{"type":"number","default":10},"steps":{"type":"number"}}}`,
			`{"durtion":1}`, []string{`unknown argument "durtion"; did you mean "duration"?`}},
		{"declared keys pass", `{"type":"object","properties":{"a":{"type":"string"}}}`, `{"a":"x"}`, nil},
		{"additionalProperties true still checks",
			`{"type":"object","properties":{"name":{"type":"string"}},"additionalProperties":true}`,
			`{"nmae":"x"}`, []string{`unknown argument "nmae"; did you mean "name"?`}},
		{"nothing close: the known names",
			`{"type":"object","properties":{"alpha":{},"beta":{}}}`, `{"zzz":1}`,
			[]string{`unknown argument "zzz"; known arguments: alpha, beta`}},
		{"properties {} means no arguments", `{"type":"object","properties":{}}`, `{"x":1}`,
			[]string{`unknown argument "x"; this tool takes no arguments`}},
		{"no properties at all: nothing is misspelt", `{"type":"object"}`, `{"anything":1}`, nil},
		{"a map: nothing is misspelt", `{"type":"object","additionalProperties":{"type":"string"}}`, `{"k":"v"}`, nil},
		{"a map with fixed keys too", `{"type":"object","properties":{"id":{}},"additionalProperties":{"type":"string"}}`, `{"k":"v"}`, nil},
		{"patternProperties declare what they match",
			`{"type":"object","properties":{"id":{}},"patternProperties":{"^x-":{}}}`, `{"x-trace":"1","idd":2}`,
			[]string{`unknown argument "idd"; did you mean "id"?`}},
		{"nested object with declared properties",
			`{"type":"object","properties":{"limits":{"type":"object","properties":{"max":{"type":"integer"}}}}}`,
			`{"limits":{"mx":1}}`, []string{`unknown argument "limits.mx"; did you mean "limits.max"?`}},
		{"nested object without properties", `{"type":"object","properties":{"meta":{"type":"object"}}}`, `{"meta":{"a":1}}`, nil},
		{"objects in arrays",
			`{"type":"object","properties":{"rows":{"type":"array","items":{"type":"object","properties":{"id":{}}}}}}`,
			`{"rows":[{"id":1},{"di":2}]}`, []string{`unknown argument "rows[1].di"; did you mean "rows[1].id"?`}},
		{"declared through $ref and allOf",
			`{"$defs":{"b":{"properties":{"beta":{}}}},"allOf":[{"$ref":"#/$defs/b"},{"properties":{"alpha":{}}}]}`,
			`{"alpha":1,"beta":2}`, nil},
		{"declared in one anyOf branch", `{"anyOf":[{"properties":{"a":{}}},{"properties":{"b":{}}}]}`, `{"b":1}`, nil},
		{"declared in then", `{"properties":{"kind":{}},"if":{"properties":{"kind":{"const":"x"}}},"then":{"properties":{"vat":{}}}}`, `{"kind":"x","vat":1}`, nil},
		{"forbidden keys are reported once, as Validate does",
			`{"type":"object","properties":{"count":{}},"additionalProperties":false}`, `{"cuont":1}`,
			[]string{`unknown argument "cuont"; did you mean "count"?`}},
	}
	for _, c := range cases {
		sch, err := Compile(json.RawMessage(c.schema), DefaultLimits)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		err = sch.ValidateDeclared(json.RawMessage(c.args))
		var got []string
		if ve, ok := err.(*ValidationError); ok {
			for _, p := range ve.Problems {
				got = append(got, p.Message)
			}
		} else if err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
		if len(c.want) > 0 && !strings.Contains(c.name, "forbidden") {
			// The schema allows the key: Validate alone accepts it.
			if err := sch.Validate(json.RawMessage(c.args)); err != nil {
				t.Errorf("%s: Validate refused what the schema allows: %v", c.name, err)
			}
		}
	}
}

// What a schema behind an unfetched $ref declares is unknown: its keys
// are not called misspelt (Validate says the ref could not be checked).
func TestUndeclaredBehindUnresolvedRef(t *testing.T) {
	t.Parallel()
	sch, err := Compile(json.RawMessage(`{"allOf":[{"$ref":"https://example.com/s.json"}],"properties":{"a":{}}}`), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if p := sch.Undeclared(json.RawMessage(`{"b":1}`)); len(p) != 0 {
		t.Errorf("got %v", p)
	}
}

// The kinds tell mcpctl which way out to offer: an undeclared key
// (--allow-extra) from one the schema forbids (--no-validate).
func TestUndeclaredKinds(t *testing.T) {
	t.Parallel()
	sch, err := Compile(json.RawMessage(`{"properties":{"a":{},"o":{"properties":{"x":{}},"additionalProperties":false}}}`), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	ve, _ := sch.ValidateDeclared(json.RawMessage(`{"b":1,"o":{"y":2}}`)).(*ValidationError)
	if ve == nil || len(ve.Problems) != 2 {
		t.Fatalf("got %v", ve)
	}
	if p := ve.Problems[0]; p.Path != "/b" || p.Kind != KindUndeclared {
		t.Errorf("first: %+v", p)
	}
	if p := ve.Problems[1]; p.Path != "/o/y" || p.Kind != KindUnknownArgument {
		t.Errorf("second: %+v", p)
	}
}

// Issue 15 item 2: type errors teach the syntax that works.
func TestTypeHints(t *testing.T) {
	t.Parallel()
	cases := []struct{ schema, args, want string }{
		{`{"properties":{"names":{"type":"array","items":{"type":"string"}}}}`, `{"names":"Ada"}`,
			`names: got string, want array: give each item as names[]=Ada`},
		{`{"properties":{"f":{"properties":{"tags":{"type":"array"}}}}}`, `{"f":{"tags":"a b"}}`,
			`f.tags: got string, want array: give each item as f[tags][]=ITEM`},
		{`{"properties":{"n":{"type":"integer"}}}`, `{"n":"3.5"}`,
			`n: 3.5 is not an integer: give a whole number, such as 3 or 4`},
		{`{"properties":{"n":{"type":"integer"}}}`, `{"n":-2.5}`,
			`n: -2.5 is not an integer: give a whole number, such as -3 or -2`},
		{`{"properties":{"n":{"type":"integer","minimum":1,"maximum":10}}}`, `{"n":"0.5"}`,
			`n: 0.5 is not an integer: give a whole number from 1 to 10, such as 1`},
		{`{"properties":{"n":{"type":"integer","exclusiveMinimum":0}}}`, `{"n":"0.25"}`,
			`n: 0.25 is not an integer: give a whole number of at least 1, such as 1`},
		{`{"properties":{"n":{"type":"integer","maximum":9.5}}}`, `{"n":"9.75"}`,
			`n: 9.75 is not an integer: give a whole number of at most 9, such as 9`},
		{`{"properties":{"n":{"type":"integer","minimum":20}}}`, `{"n":"2.5"}`,
			`n: 2.5 is not an integer: give a whole number of at least 20`},
		{`{"properties":{"n":{"type":["integer","null"]}}}`, `{"n":"1e-1"}`,
			`n: 1e-1 is not an integer: give a whole number, such as 0 or 1`},
		{`{"properties":{"n":{"anyOf":[{"type":"integer"},{"type":"null"}]}}}`, `{"n":"7.5"}`,
			`n: 7.5 is not an integer: give a whole number, such as 7 or 8`},
		{`{"properties":{"n":{"type":"integer"}}}`, `{"n":"many"}`, `n: got string, want integer`},
		{`{"properties":{"n":{"type":"integer"}}}`, `{"n":"5"}`, `n: got string, want integer`}, // n:='"5"'
		{`{"properties":{"o":{"type":"object"}}}`, `{"o":"x"}`,
			`o: got string, want object: give its keys as o[KEY]=VALUE, or the object as o:=JSON`},
	}
	for _, c := range cases {
		sch, err := Compile(json.RawMessage(c.schema), DefaultLimits)
		if err != nil {
			t.Fatalf("%s: %v", c.schema, err)
		}
		err = sch.Validate(json.RawMessage(c.args))
		ve, ok := err.(*ValidationError)
		if !ok || len(ve.Problems) != 1 || ve.Problems[0].Message != c.want {
			t.Errorf("%s %s:\n got %v\nwant %s", c.schema, c.args, err, c.want)
		}
	}
}

func TestItemKey(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		toks []string
		want string
	}{
		{[]string{"a"}, "a"},
		{[]string{"a", "b", "c"}, "a[b][c]"},
		{[]string{"k=v", "x[0]"}, `k\=v[x\[0\]]`},
		{[]string{"edits", "0", "oldText"}, "edits[0][oldText]"},
		{[]string{"tags", ""}, "tags[]"},
	} {
		if got := ItemKey(c.toks); got != c.want {
			t.Errorf("ItemKey(%q) = %q, want %q", c.toks, got, c.want)
		}
	}
}
