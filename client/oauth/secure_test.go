package oauth

import (
	"errors"
	"strings"
	"testing"
)

func TestPlainHTTP(t *testing.T) {
	for _, tc := range []struct {
		url   string
		plain bool // refused: http to a host that is not loopback
	}{
		{"https://auth.example.com/token", false},
		{"HTTPS://auth.example.com/token", false},
		{"http://localhost/token", false},
		{"http://LocalHost:8080/token", false},
		{"http://127.0.0.1:9000/token", false},
		{"http://127.1.2.3/token", false},
		{"http://[::1]:9000/token", false},
		{"http://[::ffff:127.0.0.1]/token", false}, // an IPv4 loopback address, mapped
		{"http://auth.example.test/token", true},
		{"HTTP://auth.example.test/token", true},
		{"http://localhost.evil.example/token", true},
		{"http://app.localhost/token", true}, // only the name itself: a resolver need not keep subdomains local
		{"http://127.0.0.1.nip.io/token", true},
		{"http://0.0.0.0/token", true},
		{"http://[::]/token", true},
		{"http://10.0.0.1/token", true},
		{"http://2130706433/token", true}, // 127.0.0.1 as a number: not an IP literal, a name
		{"http://user:pw@auth.example.test/token", true},
		{"http://localhost@auth.example.test/token", true}, // userinfo, not the host
		// Not http at all: the callers' own checks refuse these.
		{"ftp://auth.example.test/token", false},
		{"", false},
		{"/token", false},
	} {
		if got := plainHTTP(tc.url); got != tc.plain {
			t.Errorf("plainHTTP(%q) = %v, want %v", tc.url, got, tc.plain)
		}
	}
}

func TestResourceMetaURLFromChallenge(t *testing.T) {
	for _, tc := range []struct {
		server, hint string
		ok           bool
	}{
		{"https://ex.com/mcp", "https://meta.example.com/prm", true},
		{"https://ex.com/mcp", "http://meta.example.com/prm", false},
		{"https://ex.com/mcp", "http://ex.com/prm", false}, // a downgrade of the server's origin
		{"http://ex.com/mcp", "http://ex.com/.well-known/oauth-protected-resource/mcp", true},
		{"http://ex.com/mcp", "http://ex.com:8080/prm", false}, // another origin
		{"http://127.0.0.1:8000/mcp", "http://localhost:9000/prm", true},
	} {
		_, err := resourceMetaURLs(tc.server, tc.hint)
		if (err == nil) != tc.ok || (err != nil && !errors.Is(err, ErrNotHTTPS)) {
			t.Errorf("server %s, resource_metadata %s: %v", tc.server, tc.hint, err)
		}
	}
}

func TestCheckPKCE(t *testing.T) {
	for _, tc := range []struct {
		methods []string
		want    string // "" for accepted
	}{
		{[]string{"S256"}, ""},
		{[]string{"plain", "S256"}, ""},
		{nil, "absent: the authorization server does not support PKCE"},
		{[]string{}, `[] lacks S256`},
		{[]string{"plain"}, `["plain"] lacks S256`},
		{[]string{"s256"}, `["s256"] lacks S256`}, // method names are case-sensitive
		{[]string{"a", "b", "c", "d", "e", "f", "g"}, `["a" "b" "c" "d" "e" "…"] lacks S256`},
	} {
		err := checkPKCE(tc.methods)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)) {
			t.Errorf("checkPKCE(%q) = %v, want %q", tc.methods, err, tc.want)
		}
	}
}

// Refusals show URLs with their credentials redacted: the endpoint's and
// the document's.
func TestNotHTTPSRedacts(t *testing.T) {
	err := notHTTPS("authorization server metadata", "https://ann:pa55@as.example.com/.well-known/oauth-authorization-server",
		"token_endpoint", "http://bob:s3cret@auth.example.test/token?client_secret=k3y", "")
	msg := err.Error()
	for _, secret := range []string{"pa55", "s3cret", "k3y"} {
		if strings.Contains(msg, secret) {
			t.Errorf("the message shows %q: %s", secret, msg)
		}
	}
	want := `authorization server metadata (https://ann:REDACTED@as.example.com/.well-known/oauth-authorization-server): field token_endpoint: "http://bob:REDACTED@auth.example.test/token?client_secret=REDACTED" is plain HTTP to a host that is not loopback`
	if !strings.HasPrefix(msg, want) || !errors.Is(err, ErrNotHTTPS) {
		t.Errorf("got  %s\nwant %s…", msg, want)
	}
}
