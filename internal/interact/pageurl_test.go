package interact

import (
	"strings"
	"testing"
)

func TestPunycode(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ unicode, puny string }{
		{"bücher", "bcher-kva"},
		{"münchen", "mnchen-3ya"},
		{"\u0430pple", "pple-43d"},                      // Cyrillic а
		{"3年B組金八先生", "3B-ww4c5e180e575a65lsy2b"},        // RFC 3492 7.1 (L)
		{"ليهمابتكلموشعربي؟", "egbpdaj6bu4bxfgehfvwxn"}, // RFC 3492 7.1 (A)
		{"他们为什么不说中文", "ihqwcrb4cv8a8dqg056pqjye"},       // RFC 3492 7.1 (B)
	} {
		if got := punyEncode(c.unicode); got != c.puny {
			t.Errorf("punyEncode(%q) = %q, want %q", c.unicode, got, c.puny)
		}
		if got, err := punyDecode(c.puny); err != nil || got != c.unicode {
			t.Errorf("punyDecode(%q) = %q, %v; want %q", c.puny, got, err, c.unicode)
		}
	}
	for _, bad := range []string{"a-", "999999999999", "-", "é-abc", "zzzzzzzzzzzzzzzzzzzzzzzz"} {
		if got, err := punyDecode(bad); err == nil && bad != "a-" {
			t.Errorf("punyDecode(%q) = %q, want an error", bad, got)
		}
	}
}

// A URL is accepted only when a browser and mcpctl read the same host in
// it; what the browser is handed is what the user was shown.
func TestParsePageURL(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ raw, open, host, line string }{
		{"https://example.com/connect?session=abc", "https://example.com/connect?session=abc", "example.com", "example.com"},
		{"HTTPS://Evil.Example:8443/x", "https://evil.example:8443/x", "evil.example", "evil.example"},
		{"http://127.0.0.1:9/cb", "http://127.0.0.1:9/cb", "127.0.0.1", "127.0.0.1"},
		{"https://[::1]:8080/", "https://[::1]:8080/", "[::1]", "[::1]"},
		{"https://evil.example./", "https://evil.example./", "evil.example.", "evil.example."},
		{"https://\u0430pple.example/login", "https://xn--pple-43d.example/login", "xn--pple-43d.example",
			"xn--pple-43d.example (\u0430pple.example: an internationalised name, which can imitate another; check it letter by letter)"},
		{"https://xn--pple-43d.example/", "https://xn--pple-43d.example/", "xn--pple-43d.example", "xn--pple-43d.example (\u0430pple.example: an internationalised name"},
		{"https://ｅvil。example/", "https://evil.example/", "evil.example", "evil.example (written ｅvil。example)"},
		{"https://good.example/?q=a'b\"c<d>é", "https://good.example/?q=a%27b%22c%3Cd%3E%C3%A9", "good.example", "good.example"},
		{"https://good.example/é#ü", "https://good.example/%C3%A9#%C3%BC", "good.example", "good.example"},
	} {
		p, err := parsePageURL(c.raw)
		if err != nil {
			t.Errorf("%q refused: %v", c.raw, err)
			continue
		}
		if p.open != c.open || p.host != c.host || !strings.HasPrefix(p.hostLine(), c.line) {
			t.Errorf("%q: open %q host %q line %q; want %q, %q, %q", c.raw, p.open, p.host, p.hostLine(), c.open, c.host, c.line)
		}
	}
	for _, c := range []struct{ raw, why string }{
		{"https:evil.example/login", `no "//" after "https:"`},
		{"https:/evil.example/login", `no "//" after "https:"`},
		{"https://user:pw@evil.example/", `user name before "@", which can disguise the host (the host is "evil.example")`},
		{"https://good.example@evil.example/login", `(the host is "evil.example")`},
		{"javascript:alert(document.cookie)", `its scheme is "javascript"`},
		{"file:///etc/passwd", `its scheme is "file"`},
		{"/login?next=/", "not an absolute URL"},
		{"//evil.example/login", "not an absolute URL"},
		{"evil.example/login", "not an absolute URL"},
		{`https:\\evil.example\login`, "backslash"},
		{`https://good.example\@evil.example/`, "backslash"},
		{"https://0x7f.1/admin", `"0x7f.1" is an IP address in disguise (a browser loads 127.0.0.1)`},
		{"https://2130706433/", "a browser loads 127.0.0.1"},
		{"https://0177.0.0.1/", "a browser loads 127.0.0.1"},
		{"https://1.2.3.4.5/", "ends in a number but is no IPv4 address"},
		{"https://evil.256/", "ends in a number but is no IPv4 address"},
		{"https://good.example/\x1b[2K\rhttps://safe.example", "control characters"},
		{"https://good.example /@evil.example", "spaces"},
		{"https://good.example/\u202eelpmaxe", "invisible formatting characters"},
		{"https://evil.example:99999/", "port"},
		{"https://[fe80::1%25en0]/", "IPv6"},
		{"https://:443/", "no host"},
		{"https:///path", "no host"},
		{"https://evil..example/", "empty label"},
		{"https://ev!l.example/", "characters a browser refuses"},
		{"https://xn--zzzzzzzzzzzzzzzzzzzz.example/", "invalid punycode"},
		{"https://xn--abc-.example/", "punycode"},
		{"", "not an absolute URL"},
	} {
		p, err := parsePageURL(c.raw)
		if err == nil {
			t.Errorf("%q accepted as %+v", c.raw, p)
			continue
		}
		if !strings.Contains(err.Error(), c.why) {
			t.Errorf("%q: %v; want it to say %q", c.raw, err, c.why)
		}
	}
}
