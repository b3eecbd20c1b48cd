package output

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/itchyny/gojq"
)

func TestQueryRun(t *testing.T) {
	const raw = `{"z":1,"a":"x","big":9007199254740993,"f":1.0e+2,` +
		`"content":[{"type":"text","text":"line1\nline2"},{"type":"text","text":"b"}],"obj":{"y":1,"b":2}}`
	tests := []struct {
		name   string
		expr   string
		pretty bool
		want   string
	}{
		{"strings are raw", `.content[].text`, false, "line1\nline2\nb\n"},
		{"numbers passed through keep their text", `.big, .f`, false, "9007199254740993\n1.0e+2\n"},
		{"compact JSON, keys sorted", `.obj`, false, `{"b":2,"y":1}` + "\n"},
		{"pretty JSON", `.obj`, true, "{\n  \"b\": 2,\n  \"y\": 1\n}\n"},
		{"string inside an array is JSON", `[.a]`, false, `["x"]` + "\n"},
		{"no output", `empty`, false, ""},
		{"halt ends cleanly after earlier output", `.a, halt, "never"`, false, "x\n"},
		{"null", `.missing`, false, "null\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q, err := CompileQuery(tc.expr)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := q.Run(context.Background(), []byte(raw), &b, tc.pretty, false); err != nil {
				t.Fatalf("Run: %v", err)
			}
			if b.String() != tc.want {
				t.Errorf("got %q, want %q", b.String(), tc.want)
			}
		})
	}
}

func TestQueryRunErrors(t *testing.T) {
	tests := []struct {
		name     string
		expr     string
		wantOut  string
		wantMsg  string
		wantHalt bool
	}{
		{"runtime error stops after earlier output", `.a, (.a | keys), "never"`, "x\n", "keys cannot be applied to", false},
		{"explicit error", `error("boom")`, "", "boom", false},
		{"halt_error carries its value", `"bye" | halt_error`, "", "bye", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q, err := CompileQuery(tc.expr)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			err = q.Run(context.Background(), []byte(`{"a":"x"}`), &b, false, false)
			var qe *QueryError
			if !errors.As(err, &qe) || qe.Compile {
				t.Fatalf("want a run-time *QueryError, got %T %v", err, err)
			}
			if !strings.Contains(err.Error(), tc.wantMsg) {
				t.Errorf("error %q does not mention %q", err, tc.wantMsg)
			}
			var halt *gojq.HaltError
			if got := errors.As(err, &halt); got != tc.wantHalt {
				t.Errorf("errors.As HaltError = %v, want %v", got, tc.wantHalt)
			}
			if b.String() != tc.wantOut {
				t.Errorf("output %q, want %q", b.String(), tc.wantOut)
			}
		})
	}
}

func TestQueryRunCancelled(t *testing.T) {
	q, err := CompileQuery(`range(1e9)`)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = q.Run(ctx, []byte(`null`), &bytes.Buffer{}, false, false)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

func TestCompileQueryErrors(t *testing.T) {
	tests := []struct {
		expr string
		want string
	}{
		{`.foo |`, `invalid jq filter ".foo |": unexpected EOF`},
		{`.a | }`, `invalid jq filter ".a | }": unexpected token "}"`},
		{`nosuchfn(1)`, `invalid jq filter "nosuchfn(1)": function not defined: nosuchfn/1`},
		{`$undefined`, `invalid jq filter "$undefined": variable not defined: $undefined`},
	}
	for _, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			_, err := CompileQuery(tc.expr)
			var qe *QueryError
			if !errors.As(err, &qe) || !qe.Compile {
				t.Fatalf("want a compile *QueryError, got %T %v", err, err)
			}
			if err.Error() != tc.want {
				t.Errorf("got %q, want %q", err.Error(), tc.want)
			}
		})
	}
}

func TestRenderWithQuery(t *testing.T) {
	q, err := CompileQuery(`.text, .obj`)
	if err != nil {
		t.Fatal(err)
	}
	raw := `{"text":"\u001b]0;pwned\u0007hi\u202e","obj":{"z":9007199254740993,"a":"\u202e"}}`
	tests := []struct {
		tty  bool
		want string
	}{
		{false, "\x1b]0;pwned\x07hi\u202e\n" + `{"a":"` + "\u202e" + `","z":9007199254740993}` + "\n"},
		{true, "hi\\u202e\n{\n  \"a\": \"\\u202e\",\n  \"z\": 9007199254740993\n}\n"},
	}
	for _, tc := range tests {
		t.Run(mode(tc.tty), func(t *testing.T) {
			// The format is ignored when a query is given.
			got := render(t, tc.tty, Options{Format: FormatTable, Query: q}, KindToolCall, raw)
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
