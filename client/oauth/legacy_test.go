package oauth_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpctl/mcpctl/client/oauth"
	"github.com/mcpctl/mcpctl/tests/oauthserver"
)

// A 2025-03-26 server publishes no protected resource metadata: the
// authorization server metadata at its origin, else the default endpoints.
func TestLegacyServer(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts oauthserver.Options
	}{
		{"metadata at the origin", oauthserver.Options{HidePRM: true, Fault: "prm-missing"}},
		{"default endpoints", oauthserver.Options{HidePRM: true, Fault: "prm-missing", NoASMeta: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, tc.opts)
			if code, err := e.call(t, e.manager(oauth.Config{}), "tools/list"); err != nil || code != 200 {
				t.Fatalf("call: %d %v", code, err)
			}
			want := []string{"GET /.well-known/oauth-authorization-server", "POST /register", "GET /authorize", "POST /token"}
			if !hasInOrder(e.as.Requests, want) {
				t.Errorf("requests %q, want %q in order", e.as.Requests, want)
			}
			st, ok := e.manager(oauth.Config{}).Stored()
			if !ok || st.Issuer != e.srv.URL {
				t.Errorf("stored %+v, want a token from issuer %s", st, e.srv.URL)
			}
		})
	}
}

// A server with no OAuth metadata and nothing at the default endpoints:
// the error names the endpoint as the 2025-03-26 default it is.
func TestLegacyDefaultsNamed(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/mcp" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="x"`)
			w.WriteHeader(401)
			return
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()
	m := oauth.New(oauth.Config{ServerURL: srv.URL + "/mcp", Store: &oauth.Store{Dir: t.TempDir()},
		Browser: &oauth.Loopback{Open: func(string) error { return nil }}})
	h := http.Header{}
	h.Set("WWW-Authenticate", `Bearer realm="x"`)
	_, err := m.Challenge(context.Background(), 401, h)
	want := "client registration failed at " + srv.URL + "/register (the server publishes no OAuth metadata; that is the 2025-03-26 revision's default endpoint): HTTP 404 Not Found"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
}

// A 401 whose challenge names resource metadata that is not there is a
// broken newer server, not a 2025-03-26 one: no fallback.
func TestNoLegacyFallbackWhenPromised(t *testing.T) {
	e := newEnv(t, oauthserver.Options{Fault: "prm-missing"})
	_, err := e.call(t, e.manager(oauth.Config{}), "tools/list")
	if err == nil || !strings.Contains(err.Error(), "protected resource metadata") {
		t.Fatalf("err = %v", err)
	}
	if e.as.Count("/.well-known/oauth-authorization-server") != 0 {
		t.Errorf("fell back: %q", e.as.Requests)
	}
}
