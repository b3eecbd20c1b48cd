package oauth_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpctl/mcpctl/client/oauth"
	"github.com/mcpctl/mcpctl/tests/oauthserver"
)

// keyFile is the one DPoP key file in the store, or "".
func (e *env) keyFile(t *testing.T) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(e.store.Dir, "dpop-*.json"))
	if len(m) > 1 {
		t.Fatalf("%d key files", len(m))
	}
	if len(m) == 0 {
		return ""
	}
	return m[0]
}

func TestDPoPBindsTokensRefreshesWithProofsAndLogoutForgetsTheKey(t *testing.T) {
	e := newEnv(t, oauthserver.Options{DPoPAlgs: []string{"ES256"}, TokenTTL: time.Second})
	m := e.manager(oauth.Config{})
	if code, err := e.call(t, m, "tools/list"); err != nil || code != 200 {
		t.Fatalf("call: %d %v", code, err)
	}
	if tok := e.store.Token(e.url, ""); tok == nil || tok.TokenType != "DPoP" {
		t.Fatalf("stored token %+v, want token_type DPoP", tok)
	}
	f := e.keyFile(t)
	if f == "" {
		t.Fatal("no DPoP key stored beside the token")
	}
	if fi, err := os.Stat(f); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file %v %v, want mode 0600", fi, err)
	}
	if jkt, ok := m.DPoPBound(); !ok || len(jkt) != 43 {
		t.Errorf("DPoPBound = %q %v", jkt, ok)
	}
	// The token expires: the refresh carries a proof of the same key (the
	// server refuses a bound refresh token otherwise), and so does a new
	// manager's request with the stored token and key.
	time.Sleep(1100 * time.Millisecond)
	if code, err := e.call(t, m, "tools/list"); err != nil || code != 200 {
		t.Fatalf("call after expiry: %d %v", code, err)
	}
	if code, err := e.call(t, e.manager(oauth.Config{}), "tools/list"); err != nil || code != 200 {
		t.Fatalf("call from a new manager: %d %v", code, err)
	}
	if n := e.as.Count("/authorize"); n != 1 {
		t.Errorf("%d authorizations, want 1 (the refresh and the stored key should do)", n)
	}
	if n := e.as.Count("/token"); n != 2 {
		t.Errorf("%d token requests, want 2 (code, refresh)", n)
	}
	if ok, err := m.Logout(); !ok || err != nil || e.keyFile(t) != "" {
		t.Error("logout left the DPoP key behind")
	}
}

func TestDPoPNoncesFromBothServersAreAnswered(t *testing.T) {
	e := newEnv(t, oauthserver.Options{DPoPAlgs: []string{"ES256"}, DPoPNonce: "required"})
	m := e.manager(oauth.Config{})
	if code, err := e.call(t, m, "tools/list"); err != nil || code != 200 {
		t.Fatalf("call: %d %v", code, err)
	}
	if n := e.as.Count("/token"); n != 2 {
		t.Errorf("%d token requests, want 2 (refused for the nonce, then with it)", n)
	}
}

func TestDPoPNonceChallengeRepeatedAtTheTokenEndpointFailsAfterOneRetry(t *testing.T) {
	e := newEnv(t, oauthserver.Options{DPoPAlgs: []string{"ES256"}, DPoPNonce: "as-forever"})
	_, err := e.call(t, e.manager(oauth.Config{}), "tools/list")
	if err == nil || !strings.Contains(err.Error(), "asked for a new DPoP nonce again after a retry") {
		t.Fatalf("err = %v", err)
	}
	if n := e.as.Count("/token"); n != 2 {
		t.Errorf("%d token requests, want 2", n)
	}
}

func TestDPoPRefusals(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts oauthserver.Options
		mode oauth.DPoPMode
		msg  string
	}{
		{"only algorithms not made here", oauthserver.Options{DPoPAlgs: []string{"RS256", "EdDSA"}}, oauth.DPoPAuto,
			"dpop_signing_alg_values_supported: DPoP proofs are taken signed with RS256, EdDSA only"},
		{"required, and a Bearer token issued", oauthserver.Options{}, oauth.DPoPRequire,
			"issued a Bearer token, not a DPoP-bound one"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, tc.opts)
			_, err := e.call(t, e.manager(oauth.Config{DPoP: tc.mode}), "tools/list")
			var oe *oauth.Error
			if !errors.As(err, &oe) || oe.Needs != oauth.NeedNoDPoP || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v, want an oauth.Error needing no DPoP, saying %q", err, tc.msg)
			}
		})
	}
}

func TestDPoPRefusedGivesBearerTokens(t *testing.T) {
	e := newEnv(t, oauthserver.Options{DPoPAlgs: []string{"ES256"}})
	if code, err := e.call(t, e.manager(oauth.Config{DPoP: oauth.DPoPRefuse}), "tools/list"); err != nil || code != 200 {
		t.Fatalf("call: %d %v", code, err)
	}
	if tok := e.store.Token(e.url, ""); tok == nil || tok.TokenType != "Bearer" || e.keyFile(t) != "" {
		t.Errorf("token %+v, key file %q; want a Bearer token and no key", tok, e.keyFile(t))
	}
}

// The JWT-bearer grant at an authorization server that binds tokens: its
// token request carries a proof too, and the token comes back bound.
func TestDPoPJWTBearerGrant(t *testing.T) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	e := newEnv(t, oauthserver.Options{DPoPAlgs: []string{"ES256"}, PreRegistered: [2]string{"wl", ""},
		GrantOptions: oauthserver.GrantOptions{TrustedKey: &key.PublicKey}})
	m := e.manager(oauth.Config{Grant: oauth.GrantJWTBearer, ClientID: "wl", Assertion: signed(t, key, e.srv.URL, time.Hour)})
	if code, err := e.call(t, m, "tools/list"); err != nil || code != 200 {
		t.Fatalf("call: %d %v", code, err)
	}
	// The token is not stored (SEP-1933), so ask for the next request's
	// credentials: a bound token goes with the DPoP scheme and a proof.
	h := http.Header{}
	if err := m.AuthorizeRequest(context.Background(), http.MethodPost, e.url, h); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h.Get("Authorization"), "DPoP ") || h.Get("DPoP") == "" {
		t.Errorf("the JWT-bearer grant's token is not DPoP-bound: Authorization %q, DPoP %q", h.Get("Authorization"), h.Get("DPoP"))
	}
}
