package ojson

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"runtime"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		in  string
		off int64
		msg string
	}{
		{`{"a":[1,2.5e-3,true,false,null,"x\u00e9\n"]}`, -1, ""},
		{`  [] `, -1, ""},
		{``, 0, "unexpected end of JSON input"},
		{`{"a":1`, 6, "unexpected end of JSON input"},
		{`{"a":x}`, 5, "invalid character 'x' looking for beginning of value"},
		{`{"a":1,}`, 7, "invalid character '}'"},
		{`{"a":1 "b":2}`, 7, `invalid character '"' after object key:value pair`},
		{`{"a" 1}`, 5, "invalid character '1' after object key"},
		{`[1 2]`, 3, "invalid character '2' after array element"},
		{`{} x`, 3, "invalid character 'x' after top-level value"},
		{`"a` + "\x01" + `"`, 2, `invalid character '\x01' in string literal`},
		{`"\q"`, 2, "invalid character 'q' in string escape code"},
		{`"\u12x4"`, 5, `invalid character 'x' in \u hexadecimal character escape`},
		{`tru`, 3, "unexpected end of JSON input"},
		{`nul1`, 3, "invalid character '1' in literal null (expecting 'l')"},
		{`-`, 1, "unexpected end of JSON input"},
		{`1.`, 2, "unexpected end of JSON input"},
		{`1.e5`, 2, "invalid character 'e' after decimal point in numeric literal"},
		{`01`, 1, "invalid character '1' after top-level value"},
		{strings.Repeat("[", 100000) + strings.Repeat("]", 100000), -1, ""},
	} {
		err := Check([]byte(c.in))
		switch {
		case c.off < 0 && err != nil:
			t.Errorf("Check(%.40q) = %v, want nil", c.in, err)
		case c.off >= 0 && (err == nil || err.Offset != c.off || err.Msg != c.msg):
			t.Errorf("Check(%.40q) = %+v, want offset %d %q", c.in, err, c.off, c.msg)
		}
	}
}

// Check agrees with encoding/json on what is valid, over random texts
// made of JSON's own characters.
func TestCheckAgreesWithValid(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	pieces := []string{"{", "}", "[", "]", ",", ":", `"a"`, `"\u00e9"`, `"\x"`, "1", "-0.5e+3", "01", "true", "nul", " ", "\n", "x", `"`}
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for n := rng.Intn(12); n >= 0; n-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		in := []byte(b.String())
		if got, want := Check(in) == nil, json.Valid(in); got != want {
			t.Fatalf("Check(%q) valid=%v, json.Valid=%v", in, got, want)
		}
	}
}

// Compact elides the white space between tokens, keeps every other byte
// (escapes, number text, key order), refuses what is not one JSON value,
// and allocates nothing of its own.
func TestCompact(t *testing.T) {
	for in, want := range map[string]string{
		" {\n  \"a\" : [1, 2.50 ,\t\"x y\\\" \\\\\"],\r\n \"b\": {} } ": `{"a":[1,2.50,"x y\" \\"],"b":{}}`,
		`"\u00e9 <&>"`: `"\u00e9 <&>"`,
		"[ ]":          `[]`,
	} {
		var b bytes.Buffer
		if err := Compact(&b, []byte(in)); err != nil || b.String() != want {
			t.Errorf("Compact(%q) = %q, %v; want %q", in, b.String(), err, want)
		}
	}
	for _, in := range []string{`{"a":`, `{} {}`, ``, `x`} {
		var b bytes.Buffer
		if err := Compact(&b, []byte(in)); err == nil {
			t.Errorf("Compact(%q) accepted it", in)
		}
	}
	big := []byte(`{"text": "` + strings.Repeat("x", 1<<20) + `"}`)
	b := bytes.NewBuffer(make([]byte, 0, len(big)))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_ = Compact(b, big)
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
		t.Errorf("compacting 1 MiB into a buffer large enough allocated %d bytes", n)
	}
}
