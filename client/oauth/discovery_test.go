package oauth

import (
	"net/http"
	"reflect"
	"testing"
)

func TestResourceMetaURLs(t *testing.T) {
	for _, tc := range []struct {
		server, hint string
		want         []string
	}{
		{"https://ex.com/public/mcp", "", []string{"https://ex.com/.well-known/oauth-protected-resource/public/mcp", "https://ex.com/.well-known/oauth-protected-resource"}},
		{"https://ex.com/", "", []string{"https://ex.com/.well-known/oauth-protected-resource"}},
		{"https://ex.com/mcp", "https://ex.com/custom/meta.json", []string{"https://ex.com/custom/meta.json"}},
	} {
		got, err := resourceMetaURLs(tc.server, tc.hint)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %s: %q %v", tc.server, tc.hint, got, err)
		}
	}
	if _, err := resourceMetaURLs("https://ex.com/mcp", "javascript:alert(1)"); err == nil {
		t.Error("a non-http resource_metadata was accepted")
	}
}

func TestServerMetaURLs(t *testing.T) {
	got, _ := serverMetaURLs("https://auth.ex.com")
	want := []string{"https://auth.ex.com/.well-known/oauth-authorization-server", "https://auth.ex.com/.well-known/openid-configuration"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("no path: %q", got)
	}
	got, _ = serverMetaURLs("https://auth.ex.com/tenant1")
	want = []string{"https://auth.ex.com/.well-known/oauth-authorization-server/tenant1",
		"https://auth.ex.com/.well-known/openid-configuration/tenant1", "https://auth.ex.com/tenant1/.well-known/openid-configuration"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("with a path (never the root): %q", got)
	}
	if _, err := serverMetaURLs("ftp://x"); err == nil {
		t.Error("an ftp issuer was accepted")
	}
}

func TestCheckResource(t *testing.T) {
	for _, tc := range []struct {
		server, resource string
		ok               bool
	}{
		{"https://ex.com/mcp", "https://ex.com/mcp", true},
		{"https://ex.com/mcp", "https://ex.com", true},
		{"https://ex.com/mcp", "https://ex.com/", true},
		{"https://ex.com/a/mcp", "https://ex.com/a", true},
		{"https://ex.com/mcp", "https://evil.example.com/mcp", false},
		{"https://ex.com/mcp", "http://ex.com/mcp", false},
		{"https://ex.com/mcp", "https://ex.com/other", false},
		{"https://ex.com/mcpx", "https://ex.com/mcp", false},
		{"https://ex.com/mcp", "", false},
		{"https://ex.com/mcp", "https://ex.com/mcp#frag", false},
	} {
		if err := checkResource(tc.server, tc.resource); (err == nil) != tc.ok {
			t.Errorf("checkResource(%q, %q) = %v", tc.server, tc.resource, err)
		}
	}
}

func TestParseChallenge(t *testing.T) {
	h := http.Header{"Www-Authenticate": {`Bearer error="insufficient_scope", scope="a b", resource_metadata="https://ex.com/m"`}}
	ch, ok := ParseChallenge(h)
	if !ok || ch.Error != "insufficient_scope" || ch.Scope != "a b" || ch.ResourceMetadata != "https://ex.com/m" {
		t.Errorf("%+v %v", ch, ok)
	}
	if _, ok := ParseChallenge(http.Header{"Www-Authenticate": {`Basic realm="x"`}}); ok {
		t.Error("a Basic challenge taken for Bearer")
	}
}
