package oauth

import (
	"net/http"
	"reflect"
	"testing"
)

func TestParseChallenges(t *testing.T) {
	type ch = authChallenge
	p := func(kv ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	for _, tc := range []struct {
		name, in string
		want     []authChallenge
	}{
		{"empty", ``, nil},
		{"scheme alone", `Bearer`, []ch{{scheme: "bearer", params: p()}}},
		{"scheme case-insensitive, names lower-cased", `BEARER Realm="x", SCOPE=read`,
			[]ch{{scheme: "bearer", params: p("realm", "x", "scope", "read")}}},
		{"quoted strings with escapes", `Bearer error_description="say \"no\", \\ then", scope="a b"`,
			[]ch{{scheme: "bearer", params: p("error_description", `say "no", \ then`, "scope", "a b")}}},
		{"a comma and '=' inside quotes", `Bearer resource_metadata="https://ex.com/m?a=1,b=2"`,
			[]ch{{scheme: "bearer", params: p("resource_metadata", "https://ex.com/m?a=1,b=2")}}},
		{"BWS around '='", "Bearer realm = \"x\" ,\tscope\t=\tr",
			[]ch{{scheme: "bearer", params: p("realm", "x", "scope", "r")}}},
		{"several challenges", `Basic realm="a", Bearer realm="b", error="invalid_token", Newauth`,
			[]ch{{scheme: "basic", params: p("realm", "a")}, {scheme: "bearer", params: p("realm", "b", "error", "invalid_token")}, {scheme: "newauth", params: p()}}},
		{"token68 with padding, then another challenge", `Negotiate YII+/a==, Bearer scope="s"`,
			[]ch{{scheme: "negotiate", token68: "YII+/a==", params: p()}, {scheme: "bearer", params: p("scope", "s")}}},
		{"empty list elements", ` , Basic realm=a ,, , Bearer ,`,
			[]ch{{scheme: "basic", params: p("realm", "a")}, {scheme: "bearer", params: p()}}},
		{"'name=' alone is a token68 by the grammar", `Bearer realm=`, []ch{{scheme: "bearer", token68: "realm=", params: p()}}},
		{"an empty quoted value", `Bearer realm=""`, []ch{{scheme: "bearer", params: p("realm", "")}}},
	} {
		got, err := parseChallenges(tc.in)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: parseChallenges(%q) = %+v, %v; want %+v", tc.name, tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{
		`Bearer realm="x`,                           // not closed
		`Bearer realm="x\`,                          // a backslash at the end
		"Bearer realm=\"a\x01b\"",                   // a control character
		"Bearer realm=\"a\\\x01\"",                  // an escaped control character
		`Bearer realm=, scope=x`,                    // no value before the comma
		`Bearer realm="x" scope="y"`,                // no comma between parameters
		`Bearer realm="x", realm="y"`,               // a parameter twice
		`Bearer abc def`,                            // neither token68 nor parameters
		`="x"`,                                      // no scheme
		`Bearer realm=x y`,                          // a token value with a space
		`Bearer@ realm=x`,                           // no space after the scheme
		`Bearer error="a", "b"`,                     // a quoted string where a name belongs
		"Bearer realm=\"x\", \x00Basic",             // a NUL where a scheme belongs
		`Bearer resource_metadata=https://ex.com/m`, // ':' and '/' are not token characters
	} {
		if got, err := parseChallenges(bad); err == nil {
			t.Errorf("parseChallenges(%q) = %+v, want an error", bad, got)
		}
	}
}

func TestParseChallengeHeaders(t *testing.T) {
	// Two field lines are one list; the Bearer one is taken, wherever it is.
	h := http.Header{"Www-Authenticate": {`Basic realm="a"`, `bearer resource_metadata="https://ex.com/.well-known/oauth-protected-resource", scope="files:read"`}}
	ch, ok := ParseChallenge(h)
	if !ok || ch.ResourceMetadata != "https://ex.com/.well-known/oauth-protected-resource" || ch.Scope != "files:read" {
		t.Errorf("%+v %v", ch, ok)
	}
	if want := h.Values("Www-Authenticate")[0] + ", " + h.Values("Www-Authenticate")[1]; ch.Raw != want {
		t.Errorf("Raw = %q, want %q", ch.Raw, want)
	}
	// A header that breaks the grammar gives no challenge (discovery then
	// tries the well-known locations), but keeps the text for messages.
	h = http.Header{"Www-Authenticate": {`Bearer scope="unclosed`}}
	if ch, ok := ParseChallenge(h); ok || ch.Raw != `Bearer scope="unclosed` || ch.Scope != "" {
		t.Errorf("bad header: %+v %v", ch, ok)
	}
	if ch, ok := ParseChallenge(http.Header{}); ok || ch.Raw != "" {
		t.Errorf("no header: %+v %v", ch, ok)
	}
}
