package output

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestRenderJSON(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		tty  bool
		want string
	}{
		{
			name: "pipe keeps key order and number text, compacts to one line",
			raw:  `{ "z": 1, "a": 2, "big": 9007199254740993, "f": 1.0e+2, "neg": -0.000 }`,
			want: `{"z":1,"a":2,"big":9007199254740993,"f":1.0e+2,"neg":-0.000}` + "\n",
		},
		{
			name: "terminal indents without reordering",
			raw:  `{"z":1,"a":{"y":[1,2],"b":9007199254740993}}`,
			tty:  true,
			want: "{\n  \"z\": 1,\n  \"a\": {\n    \"y\": [\n      1,\n      2\n    ],\n    \"b\": 9007199254740993\n  }\n}\n",
		},
		{
			name: "HTML characters and escapes are left as sent",
			raw:  `{"html":"<b>&amp;</b>","esc":"\u001b[31m","u":"\u00e9"}`,
			want: `{"html":"<b>&amp;</b>","esc":"\u001b[31m","u":"\u00e9"}` + "\n",
		},
		{
			name: "unknown fields and vendor _meta pass through",
			raw:  `{"content":[{"type":"hologram","x-vendor":{"k":true}}],"_meta":{"com.example/trace":"t1"}}`,
			want: `{"content":[{"type":"hologram","x-vendor":{"k":true}}],"_meta":{"com.example/trace":"t1"}}` + "\n",
		},
		{
			name: "pipe leaves raw bidi characters alone",
			raw:  "{\"s\":\"a\u202eb\"}",
			want: "{\"s\":\"a\u202eb\"}\n",
		},
		{
			name: "terminal writes bidi and C1 characters as escapes",
			raw:  "{\"s\":\"a\u202eb\u009bc\"}",
			tty:  true,
			want: "{\n  \"s\": \"a\\u202eb\\u009bc\"\n}\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := render(t, tc.tty, Options{Format: FormatJSON}, KindGeneric, tc.raw)
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestRenderRejectsInvalidJSON(t *testing.T) {
	for _, f := range Formats() {
		for _, tty := range []bool{false, true} {
			t.Run(string(f)+"/"+mode(tty), func(t *testing.T) {
				ios, _, out, _ := Test()
				ios.SetStdoutTTY(tty)
				err := Render(context.Background(), ios, Options{Format: f}, KindGeneric, []byte(`{"a":`))
				if err == nil {
					t.Fatal("want an error for truncated JSON")
				}
				if out.Len() != 0 {
					t.Errorf("wrote %q despite the error", out.String())
				}
			})
		}
	}
}

func TestParseValueKeepsRawSpans(t *testing.T) {
	v, err := parseValue([]byte(` { "a" : [ 1 , {"b": 2.50} ] , "c":"x" } `))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(v.get("a").raw); got != `[ 1 , {"b": 2.50} ]` {
		t.Errorf("raw of a = %q", got)
	}
	if got := v.get("a").items()[1].compact(); got != `{"b":2.50}` {
		t.Errorf("compact of a[1] = %q", got)
	}
	if got := string(v.get("c").raw); got != `"x"` {
		t.Errorf("raw of c = %q", got)
	}
	if _, err := parseValue([]byte(`{} {}`)); err == nil {
		t.Error("want an error for trailing data")
	}
}

func TestWriteJSONLine(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSONLine(&b, []byte("{\n \"z\": 1,\n \"a\": 1e400\n}"), true); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), `{"z":1,"a":1e400}`+"\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if strings.Count(b.String(), "\n") != 1 {
		t.Error("not exactly one line")
	}
}

// A JSON line at a terminal is spelled as JSON is there: what a terminal
// would act on or not show, and invalid UTF-8, as escapes (issue 24,
// item 9: batch printed them raw); to a pipe the bytes are the server's.
func TestWriteJSONLineAtTerminal(t *testing.T) {
	raw := []byte("{\"text\":\"c1\u009b31m bidi\u202e zw\u200b tag\U000e0041 bad\xff\"}")
	var tty, pipe bytes.Buffer
	if err := WriteJSONLine(&tty, raw, true); err != nil {
		t.Fatal(err)
	}
	if got, want := tty.String(), `{"text":"c1\u009b31m bidi\u202e zw\u200b tag\udb40\udc41 bad\ufffd"}`+"\n"; got != want {
		t.Errorf("terminal: got %q, want %q", got, want)
	}
	if err := WriteJSONLine(&pipe, raw, false); err != nil {
		t.Fatal(err)
	}
	if got := pipe.String(); got != string(raw)+"\n" {
		t.Errorf("pipe: got %q, want the bytes as sent", got)
	}
}
