package interact

import (
	"net/url"
	"strings"
	"testing"
)

// FuzzPageURL: whatever a server writes, an accepted URL is handed to the
// browser as plain ASCII that net/url reads back as http(s), with no user
// name and with the very host the user was shown; and reading what is
// handed over again changes nothing.
func FuzzPageURL(f *testing.F) {
	for _, s := range []string{"https://example.com/connect?session=abc", "https:evil.example/login", "https://user:pw@evil.example/",
		"https://good.example@evil.example/", "javascript:alert(1)", "/login", "//evil.example/", `https:\\evil.example\`,
		"https://0x7f.1/", "https://\u0430pple.example/", "https://ｅvil。example/", "https://[::1]:8080/x?q='a'#f",
		"https://xn--pple-43d.example/", "http://127.0.0.1:9/", "https://evil.example./"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		p, err := parsePageURL(raw)
		if err != nil {
			return
		}
		if !isASCII(p.open) || strings.ContainsAny(p.open, " \t\r\n\\\"'<>") {
			t.Fatalf("%q is handed over as %q", raw, p.open)
		}
		u, err := url.Parse(p.open)
		if err != nil {
			t.Fatalf("%q is handed over as %q, which does not parse: %v", raw, p.open, err)
		}
		host := u.Hostname()
		if strings.Contains(u.Host, "[") {
			host = "[" + host + "]"
		}
		if (u.Scheme != "http" && u.Scheme != "https") || u.User != nil || u.Opaque != "" || host != p.host || p.host == "" {
			t.Fatalf("%q is handed over as %q (scheme %q, user %v, host %q) but shown with host %q", raw, p.open, u.Scheme, u.User, host, p.host)
		}
		again, err := parsePageURL(p.open)
		if err != nil || again.open != p.open || again.host != p.host {
			t.Fatalf("%q: %q read again gives %+v, %v", raw, p.open, again, err)
		}
	})
}
