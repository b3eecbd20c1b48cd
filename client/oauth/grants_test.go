package oauth_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/mcpctl/mcpctl/client/oauth"
	"github.com/mcpctl/mcpctl/tests/oauthserver"
)

func signed(t *testing.T, key *ecdsa.PrivateKey, aud string, ttl time.Duration) string {
	t.Helper()
	s, err := jwt.NewWithClaims(jwt.SigningMethodES256, jwt.MapClaims{"iss": "https://issuer.example", "sub": "w",
		"aud": aud, "exp": time.Now().Add(ttl).Unix()}).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The JWT-bearer grant: one token request, no browser, no registration,
// and the token not stored; an expired assertion is never sent.
func TestGrantJWTBearer(t *testing.T) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	e := newEnv(t, oauthserver.Options{PreRegistered: [2]string{"wl", ""}, GrantOptions: oauthserver.GrantOptions{TrustedKey: &key.PublicKey}})
	m := e.manager(oauth.Config{Grant: oauth.GrantJWTBearer, ClientID: "wl", Assertion: signed(t, key, e.srv.URL, time.Hour)})
	if code, err := e.call(t, m, "tools/list"); err != nil || code != 200 {
		t.Fatalf("call: %d %v", code, err)
	}
	if e.as.Count("/token") != 1 || e.as.Count("/register") != 0 || e.opened != 0 {
		t.Errorf("requests %q, browser opened %d times", e.as.Requests, e.opened)
	}
	if _, ok := m.Stored(); ok {
		t.Error("the workload's token was stored")
	}

	e = newEnv(t, oauthserver.Options{PreRegistered: [2]string{"wl", ""}, GrantOptions: oauthserver.GrantOptions{TrustedKey: &key.PublicKey}})
	m = e.manager(oauth.Config{Grant: oauth.GrantJWTBearer, ClientID: "wl", Assertion: signed(t, key, e.srv.URL, -time.Minute)})
	_, err := e.call(t, m, "tools/list")
	var oe *oauth.Error
	if !errors.As(err, &oe) || !strings.Contains(err.Error(), "the assertion expired at") || e.as.Count("/token") != 0 {
		t.Errorf("expired: %v; requests %q", err, e.as.Requests)
	}
}

// Enterprise-managed authorization: the ID token exchanged at the
// identity provider, the ID-JAG at the authorization server.
func TestGrantIDJAG(t *testing.T) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	idp := oauthserver.New(oauthserver.Options{PreRegistered: [2]string{"idp-client", ""},
		GrantOptions: oauthserver.GrantOptions{TrustedKey: &key.PublicKey, IDPKey: key, IDJAGClientID: "mcp-client"}})
	mux := http.NewServeMux()
	idp.MountAS(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	idp.Base = srv.URL

	e := newEnv(t, oauthserver.Options{PreRegistered: [2]string{"mcp-client", "s3cret"}, GrantOptions: oauthserver.GrantOptions{TrustedKey: &key.PublicKey}})
	m := e.manager(oauth.Config{Grant: oauth.GrantIDJAG, ClientID: "mcp-client", ClientSecret: "s3cret",
		IdentityProvider: oauth.IdentityProvider{TokenEndpoint: srv.URL + "/token", ClientID: "idp-client", IDToken: signed(t, key, "idp-client", time.Hour)}})
	if code, err := e.call(t, m, "tools/list"); err != nil || code != 200 {
		t.Fatalf("call: %d %v", code, err)
	}
	if idp.Count("/token") != 1 || e.as.Count("/token") != 1 {
		t.Errorf("idp %q, as %q", idp.Requests, e.as.Requests)
	}
	if _, ok := m.Stored(); !ok {
		t.Error("the token was not stored")
	}

	// An ID-JAG issued to another client is refused by the authorization
	// server, and the refusal is reported as it is.
	e = newEnv(t, oauthserver.Options{PreRegistered: [2]string{"other", ""}, GrantOptions: oauthserver.GrantOptions{TrustedKey: &key.PublicKey}})
	m = e.manager(oauth.Config{Grant: oauth.GrantIDJAG, ClientID: "other",
		IdentityProvider: oauth.IdentityProvider{TokenEndpoint: srv.URL + "/token", ClientID: "idp-client", IDToken: signed(t, key, "idp-client", time.Hour)}})
	_, err := e.call(t, m, "tools/list")
	if err == nil || err.Error() != "the token endpoint refused: invalid_grant (the ID-JAG is for client mcp-client)" {
		t.Errorf("another client's ID-JAG: %v", err)
	}
}
