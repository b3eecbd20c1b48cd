package output

import (
	"errors"
	"testing"
)

// TestQueryYAML: --jq with -o yaml writes each filter result as a YAML
// document, "---" between several and none before a lone one, strings
// included (quoted where YAML would read them as another type); -o json,
// text and the default keep jq -r's lines (issue 15 item 6).
func TestQueryYAML(t *testing.T) {
	const raw = `{"big":9007199254740993,"obj":{"y":1,"b":[true,null]},"s":"yes","t":"plain","hidden":"a\u200bb",` +
		`"tools":[{"name":"x"},{"name":"y"}]}`
	tests := []struct {
		name string
		expr string
		opts Options
		want string
	}{
		{"object as a document", `.obj`, Options{Format: FormatYAML}, "b:\n  - true\n  - null\n\"y\": 1\n"},
		{"several results are separated", `.tools[]`, Options{Format: FormatYAML}, "name: x\n---\nname: \"y\"\n"},
		{"strings are YAML scalars", `.t, .s`, Options{Format: FormatYAML}, "plain\n---\n\"yes\"\n"},
		{"numbers keep their digits", `.big`, Options{Format: FormatYAML}, "9007199254740993\n"},
		{"invisible characters are escaped", `.hidden`, Options{Format: FormatYAML}, "\"a\\u200Bb\"\n"},
		{"no results, no output", `empty`, Options{Format: FormatYAML}, ""},
		{"json keeps jq -r lines", `.tools[].name`, Options{Format: FormatJSON}, "x\ny\n"},
		{"text keeps jq -r lines", `.tools[].name, .obj`, Options{Format: FormatText}, "x\ny\n" + `{"b":[true,null],"y":1}` + "\n"},
		{"default keeps jq -r lines", `.obj.y`, Options{}, "1\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q, err := CompileQuery(tc.expr)
			if err != nil {
				t.Fatal(err)
			}
			tc.opts.Query = q
			if got := render(t, false, tc.opts, KindGeneric, raw); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestQueryYAMLError: a filter that fails part-way keeps the documents
// already written and reports a QueryError.
func TestQueryYAMLError(t *testing.T) {
	q, err := CompileQuery(`.a, error("boom")`)
	if err != nil {
		t.Fatal(err)
	}
	ios, _, out, _ := Test()
	err = Render(t.Context(), ios, Options{Format: FormatYAML, Query: q}, KindGeneric, []byte(`{"a":{"k":"v"}}`))
	var qe *QueryError
	if !errors.As(err, &qe) || qe.Compile {
		t.Fatalf("err = %v, want a run-time QueryError", err)
	}
	if out.String() != "k: v\n" {
		t.Errorf("out = %q", out.String())
	}
}
