package output

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestRenderYAML(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want string
	}{
		{
			name: "key order and exact numbers",
			raw:  `{"z":1,"a":2,"big":9007199254740993,"f":1.0e+2,"neg":-1.5E-3}`,
			want: "z: 1\na: 2\nbig: 9007199254740993\nf: 1.0e+2\nneg: -1.5E-3\n",
		},
		{
			name: "integers too big for int64 stay exact",
			raw:  `{"big":100000000000000000000000}`,
			want: "big: !!int 100000000000000000000000\n",
		},
		{
			name: "strings that look like other types are quoted",
			raw:  `{"a":"012","b":"true","c":"null","d":"","e":"1.5","f":"yes","g":"1:20","h":"~","i":"plain","j":"n","k":"yEs"}`,
			want: "a: \"012\"\nb: \"true\"\nc: \"null\"\nd: \"\"\ne: \"1.5\"\nf: \"yes\"\ng: \"1:20\"\nh: \"~\"\ni: plain\nj: \"n\"\nk: yEs\n",
		},
		{
			name: "real scalars are not quoted",
			raw:  `{"t":true,"f":false,"nil":null}`,
			want: "t: true\nf: false\nnil: null\n",
		},
		{
			name: "keys that look like other types are quoted",
			raw:  `{"1":"one","true":"yes"}`,
			want: "\"1\": one\n\"true\": \"yes\"\n",
		},
		{
			name: "control characters are escaped, never raw",
			raw:  `{"s":"a\u001b[31mb\u0007"}`,
			want: "s: \"a\\e[31mb\\a\"\n",
		},
		{
			name: "C1 and bidi characters are escaped",
			raw:  "{\"s\":\"a\u009bb\u202ec\"}",
			want: "s: \"a\\x9Bb\\u202Ec\"\n",
		},
		{
			name: "multi-line text uses a literal block",
			raw:  `{"text":"line 1\nline 2"}`,
			want: "text: |-\n  line 1\n  line 2\n",
		},
		{
			name: "nesting, empty containers, 2-space indent",
			raw:  `{"list":[{"k":[]},{}],"obj":{}}`,
			want: "list:\n  - k: []\n  - {}\nobj: {}\n",
		},
		{
			name: "emoji and other astral characters stay readable",
			raw:  "{\"title\":\"\U0001F4C1 Project Files\",\"\U0001F600\":\"\uE000 pua \U0001F4C1\"}",
			want: "title: \U0001F4C1 Project Files\n\U0001F600: \uE000 pua \U0001F4C1\n",
		},
		{
			name: "invisible tag characters stay escaped",
			raw:  "{\"s\":\"hi\U000E0041\"}",
			want: "s: \"hi\\U000E0041\"\n",
		},
		{
			name: "top-level array",
			raw:  `[1,"2"]`,
			want: "- 1\n- \"2\"\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, tty := range []bool{false, true} {
				got := render(t, tty, Options{Format: FormatYAML}, KindGeneric, tc.raw)
				if got != tc.want {
					t.Errorf("%s: got\n%s\nwant\n%s", mode(tty), got, tc.want)
				}
			}
		})
	}
}

// TestYAMLRoundTrip checks the escaping tricks produce YAML that reads back
// as the same strings.
func TestYAMLRoundTrip(t *testing.T) {
	raw := "{\"s\":\"a\u202eb\u009bc\\u001bd\",\"k\u2066\":\"012\",\"m\":\"x\\ny\\tz\",\"e\":\"\U0001F4C1\uE000\U000E0041\"}"
	out := render(t, false, Options{Format: FormatYAML}, KindGeneric, raw)
	var got map[string]string
	if err := yaml.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output is not YAML: %v\n%s", err, out)
	}
	want := map[string]string{"s": "a\u202eb\u009bc\u001bd", "k\u2066": "012", "m": "x\ny\tz", "e": "\U0001F4C1\uE000\U000E0041"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%q: got %q, want %q", k, got[k], v)
		}
	}
}
