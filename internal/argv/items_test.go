package argv

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpctl/mcpctl/internal/exitcode"
)

// arguments is the arguments object ParseItems builds, as prompts get
// sends it.
func arguments(jsonFlag string, items []string, stdin io.Reader) (json.RawMessage, error) {
	args, _, err := ParseItems(jsonFlag, items, stdin)
	return args, err
}

func TestBuildArguments(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		json  string
		items []string
		stdin string
		want  string
	}{
		{"nothing", "", nil, "", `{}`},
		{"key=value is a string", "", []string{"text=hello"}, "", `{"text":"hello"}`},
		{"numbers stay strings with =", "", []string{"n=42", "b=true", "z=null"}, "", `{"n":"42","b":"true","z":"null"}`},
		{"empty value", "", []string{"e="}, "", `{"e":""}`},
		{"value with = and :", "", []string{"url=http://x/?a=b", "t=12:00", "op=b:=c"}, "", `{"url":"http://x/?a=b","t":"12:00","op":"b:=c"}`},
		{"key with a colon inside", "", []string{"a:b=c"}, "", `{"a:b":"c"}`},
		{"value with quotes and unicode", "", []string{`q=say "hi" 世界`}, "", `{"q":"say \"hi\" 世界"}`},
		{"no HTML escaping", "", []string{"h=<b>&</b>"}, "", `{"h":"<b>&</b>"}`},
		{"control characters escaped", "", []string{"c=a\tb\nc"}, "", `{"c":"a\tb\nc"}`},
		{":= number kept exactly", "", []string{"price:=1.50", "big:=9007199254740993", "e:=1e3"}, "", `{"price":1.50,"big":9007199254740993,"e":1e3}`},
		{":= object", "", []string{`o:={"b":1, "a":[1,2]}`}, "", `{"o":{"b":1, "a":[1,2]}}`},
		{":= array, bool, null, string", "", []string{"a:=[1,2]", "t:=true", "n:=null", `s:="x"`}, "", `{"a":[1,2],"t":true,"n":null,"s":"x"}`},
		{":= with surrounding spaces", "", []string{"n:= 7 "}, "", `{"n":7}`},
		{":= value containing =", "", []string{`s:="a=b"`}, "", `{"s":"a=b"}`},
		{"key order as written", "", []string{"z=1", "a=2", "m=3"}, "", `{"z":"1","a":"2","m":"3"}`},
		{"later item overrides in place", "", []string{"a=1", "b=2", "a:=3"}, "", `{"a":3,"b":"2"}`},
		{"--json alone keeps order and numbers", `{"z":1.50,"a":{"y":1,"x":2}}`, nil, "", `{"z":1.50,"a":{"y":1,"x":2}}`},
		{"items override --json keys in place", `{"a":1,"b":2,"c":3}`, []string{"b=two", "d:=4"}, "", `{"a":1,"b":"two","c":3,"d":4}`},
		{"--json nobody touches stays raw", " \n{ \"a\" : 1 }\n", nil, "", `{ "a" : 1 }`},
		{"--json with whitespace, overridden", " \n{ \"a\" : 1 , \"b\": [1, 2] }\n", []string{"a=x"}, "", `{"a":"x","b":[1, 2]}`},
		{"--json empty object", `{}`, []string{"a=1"}, "", `{"a":"1"}`},
		{"nested objects", "", []string{"a[b][c]:=1", "a[b][d]=x", "a[e]=y"}, "", `{"a":{"b":{"c":1,"d":"x"},"e":"y"}}`},
		{"appends", "", []string{"tags[]=x", "tags[]:=2", "tags[]:={}"}, "", `{"tags":["x",2,{}]}`},
		{"indexes", "", []string{"arr[0]=a", "arr[1]=b", "arr[0]=A"}, "", `{"arr":["A","b"]}`},
		{"objects in arrays", "", []string{"l[0][k]=v", "l[1][k]=w"}, "", `{"l":[{"k":"v"},{"k":"w"}]}`},
		{"non-numeric bracket is a key", "", []string{"o[x]=1", "o[-1]=z", "o[1a]=w"}, "", `{"o":{"x":"1","-1":"z","1a":"w"}}`},
		{"escapes in keys", "", []string{`a\=b=c`, `k\[0\]=v`, `c\:=d`, `back\\slash=e`}, "", `{"a=b":"c","k[0]":"v","c:":"d","back\\slash":"e"}`},
		{"escaped @ is a literal", "", []string{`x=\@alice`}, "", `{"x":"@alice"}`},
		{"null replaced by a nested value", "", []string{"a:=null", "a[b]=1"}, "", `{"a":{"b":"1"}}`},
		{"nested override of --json keeps untouched parts raw", `{"n":1.50,"o":{"k":1.0,"z":[ 1 ]},"t":true}`, []string{"o[j]:=2", "o[k]:=3"}, "",
			`{"n":1.50,"o":{"k":3,"z":[ 1 ],"j":2},"t":true}`},
		{"append to a --json array", `{"l":[1, 2]}`, []string{"l[]:=3"}, "", `{"l":[1,2,3]}`},
		{"item from stdin as text", "", []string{"text=@-"}, "line1\n<two>\n", `{"text":"line1\n<two>\n"}`},
		{"item from stdin as JSON", "", []string{"obj:=@-"}, ` {"b":1.50} `, `{"obj":{"b":1.50}}`},
		{"--json - reads stdin", "-", []string{"b=2"}, `{"a":null,"s":"","c":"\u0001"}` + "\n", `{"a":null,"s":"","c":"\u0001","b":"2"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := arguments(tc.json, tc.items, strings.NewReader(tc.stdin))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("arguments(%q, %q)\n got %s\nwant %s", tc.json, tc.items, got, tc.want)
			}
		})
	}
}

func TestBuildArgumentsJSONFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "args.json")
	if err := os.WriteFile(path, []byte(`{"region":"us-west1","n":1.0}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := arguments("@"+path, []string{"n:=2"}, strings.NewReader("not read"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != `{"region":"us-west1","n":2}` {
		t.Errorf("got %s", got)
	}

	_, err = arguments("@"+filepath.Join(t.TempDir(), "missing.json"), nil, nil)
	var ue *exitcode.UsageError
	if !errors.As(err, &ue) || !strings.Contains(ue.Msg, "missing.json") {
		t.Errorf("missing file: err = %v, want *exitcode.UsageError naming the file", err)
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("stdin broken") }

func TestBuildArgumentsErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		json  string
		items []string
		stdin io.Reader
		msg   string // part of the message
	}{
		{"--json array", `[1]`, nil, nil, "an array"},
		{"--json string", `"x"`, nil, nil, "a string"},
		{"--json number", `1`, nil, nil, "a number"},
		{"--json null", `null`, nil, nil, "null"},
		{"--json invalid", `{"a":`, nil, nil, "not valid JSON"},
		{"--json unterminated", `{"a":1`, nil, nil, "not valid JSON"},
		{"--json not JSON", `a=1`, nil, nil, "not valid JSON"},
		{"--json empty stdin", "-", nil, strings.NewReader(""), "not valid JSON"},
		{"--json trailing data", `{"a":1} {"b":2}`, nil, nil, "extra data"},
		{"--json trailing garbage", `{"a":1}x`, nil, nil, "extra data"},
		{"--json trailing brace", `{"a":1}}`, nil, nil, ""},
		{"--json stdin fails", "-", nil, failingReader{}, "stdin"},
		{"item without =", "", []string{"novalue"}, nil, "key=value"},
		{"empty key", "", []string{"=v"}, nil, "the key is empty"},
		{"empty key with :=", "", []string{":=1"}, nil, "the key is empty"},
		{"empty key before a bracket", "", []string{"[a]=1"}, nil, "the key is empty"},
		{"unterminated bracket", "", []string{"a[b=1"}, nil, "unterminated ["},
		{"text after a bracket", "", []string{"a[b]c=1"}, nil, "after ]"},
		{"index past the end", "", []string{"arr[1]=x"}, nil, "past the end"},
		{"string used as an object", "", []string{"a=1", "a[b]=2"}, nil, "a is a string, not an object"},
		{"--json number used as an array", `{"n":5}`, []string{"n[]=x"}, nil, "n is a number, not an array"},
		{"@ without a file name", "", []string{"x=@"}, nil, "name a file"},
		{"missing @file", "", []string{"x=@/nonexistent/mcpctl-test"}, nil, "/nonexistent/mcpctl-test"},
		{":=@file without JSON", "", []string{"x:=@" + os.DevNull}, nil, "valid JSON"},
		{"stdin used twice", "", []string{"a=@-", "b=@-"}, strings.NewReader("x"), "stdin is already used"},
		{"stdin used by --json and an item", "-", []string{"b=@-"}, strings.NewReader("{}"), "stdin is already used"},
		{":= invalid JSON", "", []string{"n:=abc"}, nil, "must be JSON"},
		{":= empty", "", []string{"n:="}, nil, "must be JSON"},
		{":= two values", "", []string{"n:=1 2"}, nil, "must be JSON"},
		{":= unquoted string", "", []string{"s:=hello"}, nil, "must be JSON"},
		// Regression (fixed): once wrong, now pinned:
		//   json.Decoder.More reports false before a closing bracket, so a stray
		//   "}" or "]" after the value is silently dropped.
		{":= trailing brace", "", []string{"n:=1}"}, nil, "must be JSON"},
		{":= trailing bracket", "", []string{"a:=[1]]"}, nil, "must be JSON"},
		// Regression (fixed): once wrong, now pinned:
		//   the item setter (then jnode.set) erred when a scalar was used as a container, but an object
		//   indexed like an array (or an array used like an object) was silently
		//   replaced by an empty container of the other kind, losing what the
		//   earlier items or --json put there.
		{"object indexed as an array", "", []string{"o[x]=1", "o[0]=z"}, nil, "not an array"},
		{"array used as an object", "", []string{"tags[]=x", "tags[k]=y"}, nil, "not an object"},
		{"--json object indexed as an array", `{"o":{"a":1}}`, []string{"o[0]=z"}, nil, "not an array"},
		{"--json array used as an object", `{"l":[1,2]}`, []string{"l[k]=v"}, nil, "not an object"},
		{"a bad item after good ones", "", []string{"a=1", "bad"}, nil, "bad"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdin := tc.stdin
			if stdin == nil {
				stdin = strings.NewReader("")
			}
			got, err := arguments(tc.json, tc.items, stdin)
			var ue *exitcode.UsageError
			if !errors.As(err, &ue) {
				t.Fatalf("arguments(%q, %q) = %s, %v; want *exitcode.UsageError", tc.json, tc.items, got, err)
			}
			if !strings.Contains(ue.Msg, tc.msg) {
				t.Errorf("message %q does not contain %q", ue.Msg, tc.msg)
			}
			if c, ok := err.(exitcode.Coder); !ok || c.ExitCode() != exitcode.Usage {
				t.Errorf("exit code of %v is not %d", err, exitcode.Usage)
			}
		})
	}
}

func TestParseObjectKeepsOrderAndLastDuplicate(t *testing.T) {
	t.Parallel()
	o, err := ParseObject("params", []byte(`{"b":1,"a":2,"b":3}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(o.JSON()); got != `{"b":3,"a":2}` {
		t.Errorf("got %s", got)
	}
}

func TestBuildArgumentsItemFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	text := filepath.Join(dir, "note.txt")
	data := filepath.Join(dir, "data.json")
	if err := os.WriteFile(text, []byte("héllo <b>\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(data, []byte(`{"z":1.50,"a":[true,null]}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := arguments("", []string{"note=@" + text, "data:=@" + data}, strings.NewReader(""))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"note":"héllo <b>\n","data":{"z":1.50,"a":[true,null]}}`; string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
