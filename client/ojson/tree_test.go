package ojson

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestParseKeepsOrderNumbersAndLastDuplicate(t *testing.T) {
	v, err := Parse([]byte(`{"z":9007199254740993,"a":[0.10,true,null,"<b>"],"z":1e400,"m":{}}`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := v.(*Object)
	if got := strings.Join(o.Keys(), ","); got != "z,a,m" {
		t.Errorf("keys %s", got)
	}
	if got := string(Encode(v)); got != `{"z":1e400,"a":[0.10,true,null,"<b>"],"m":{}}` {
		t.Errorf("Encode = %s", got)
	}
	if n, ok := o.Get("z").(json.Number); !ok || n != "1e400" {
		t.Errorf("z = %#v", o.Get("z"))
	}
	if _, ok := o.Lookup("nope"); ok {
		t.Error("Lookup of an absent key")
	}
	a := o.Get("a").(*Array)
	if a.Len() != 4 || a.Items()[2] != nil {
		t.Errorf("a = %#v", a.Items())
	}
}

func TestParseDepth(t *testing.T) {
	if _, err := Parse([]byte(`[[1]]`), Options{MaxDepth: 2}); err != nil {
		t.Errorf("depth 2 refused: %v", err)
	}
	if _, err := Parse([]byte(`[[[1]]]`), Options{MaxDepth: 2}); !errors.Is(err, ErrDepth) {
		t.Errorf("depth 3 = %v, want ErrDepth", err)
	}
	if _, err := Parse([]byte(strings.Repeat("[", 200)+strings.Repeat("]", 200)), Options{}); err != nil {
		t.Errorf("no MaxDepth: %v", err)
	}
}

func TestParseErrors(t *testing.T) {
	for in, want := range map[string]string{
		``:        "unexpected end of input",
		`{"a":`:   "",
		`{} {}`:   "unexpected data after the top-level value",
		`[1,]`:    "",
		`{"a" 1}`: "",
	} {
		_, err := Parse([]byte(in), Options{})
		if err == nil || (want != "" && err.Error() != want) {
			t.Errorf("Parse(%q) = %v, want %q", in, err, want)
		}
	}
}

// With KeepText every member and item knows the text it came from,
// white space inside it and string escapes included.
func TestParseKeepText(t *testing.T) {
	v, err := Parse([]byte(` { "a" : [ 1 , {"b": 2.50} ] , "c":"\u00e9" } `), Options{KeepText: true})
	if err != nil {
		t.Fatal(err)
	}
	o := v.(*Object)
	if got := string(o.Text("a")); got != `[ 1 , {"b": 2.50} ]` {
		t.Errorf("text of a = %q", got)
	}
	a := o.Get("a").(*Array)
	if got := string(a.Text(1)); got != `{"b": 2.50}` {
		t.Errorf("text of a[1] = %q", got)
	}
	if got := string(o.Text("c")); got != `"\u00e9"` {
		t.Errorf("text of c = %q", got)
	}
	o.Set("c", "x")
	if o.Text("c") != nil {
		t.Error("Set kept the old text")
	}
	if plain, _ := Parse([]byte(`{"a":1}`), Options{}); plain.(*Object).Text("a") != nil {
		t.Error("text kept without KeepText")
	}
}

func TestString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `""`},
		{"plain", `"plain"`},
		{"<script>&'", `"<script>&'"`},
		{`"quoted" \ back`, `"\"quoted\" \\ back"`},
		{"line\nbreak\ttab\r", `"line\nbreak\ttab\r"`},
		{"\x00\x1f", `"\u0000\u001f"`},
		{"世界 ✓", `"世界 ✓"`},
		{"\u2028", `"\u2028"`},
		{"\xff", `"\ufffd"`},
	}
	for _, tc := range tests {
		if got := string(String(tc.in)); got != tc.want {
			t.Errorf("String(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// A tree built over raw input writes its raw leaves as they were given.
func TestEncodeRawLeaves(t *testing.T) {
	o := NewObject()
	o.Set("kept", json.RawMessage(`{ "b" : 1.50 }`))
	o.Set("none", json.RawMessage(nil))
	o.Set("list", NewArray(json.RawMessage(`[ 1 ]`), "x"))
	if got := string(Encode(o)); got != `{"kept":{ "b" : 1.50 },"none":null,"list":[[ 1 ],"x"]}` {
		t.Errorf("Encode = %s", got)
	}
}
