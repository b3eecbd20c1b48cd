package oauth_test

import (
	"context"
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

// boundCall is call with per-request credentials, as the HTTP transport
// sends them to a client.BoundAuthenticator: a proof per request, and the
// request sent again on a nonce challenge (the transport bounds that).
func (e *env) boundCall(t *testing.T, m *oauth.Manager) (int, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i := 0; i < 5; i++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, e.url, strings.NewReader(`{}`))
		req.Header.Set("Mcp-Method", "tools/list")
		if err := m.AuthorizeRequest(ctx, req.Method, e.url, req.Header); err != nil {
			return 0, err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, err
		}
		resp.Body.Close()
		if m.Nonce(e.url, resp.StatusCode, resp.Header) {
			continue
		}
		if resp.StatusCode != 401 && resp.StatusCode != 403 {
			return resp.StatusCode, nil
		}
		retry, err := m.Challenge(ctx, resp.StatusCode, resp.Header)
		if err != nil || !retry {
			return resp.StatusCode, err
		}
	}
	return 0, errors.New("too many retries")
}

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
	if code, err := e.boundCall(t, m); err != nil || code != 200 {
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
	if code, err := e.boundCall(t, m); err != nil || code != 200 {
		t.Fatalf("call after expiry: %d %v", code, err)
	}
	if code, err := e.boundCall(t, e.manager(oauth.Config{})); err != nil || code != 200 {
		t.Fatalf("call from a new manager: %d %v", code, err)
	}
	if n := e.as.Count("/authorize"); n != 1 {
		t.Errorf("%d authorizations, want 1 (the refresh and the stored key should do)", n)
	}
	if n := e.as.Count("/token"); n != 2 {
		t.Errorf("%d token requests, want 2 (code, refresh)", n)
	}
	if !m.Logout() || e.keyFile(t) != "" {
		t.Error("logout left the DPoP key behind")
	}
}

func TestDPoPNoncesFromBothServersAreAnswered(t *testing.T) {
	e := newEnv(t, oauthserver.Options{DPoPAlgs: []string{"ES256"}, DPoPNonce: "required"})
	m := e.manager(oauth.Config{})
	if code, err := e.boundCall(t, m); err != nil || code != 200 {
		t.Fatalf("call: %d %v", code, err)
	}
	if n := e.as.Count("/token"); n != 2 {
		t.Errorf("%d token requests, want 2 (refused for the nonce, then with it)", n)
	}
}

func TestDPoPNonceChallengeRepeatedAtTheTokenEndpointFailsAfterOneRetry(t *testing.T) {
	e := newEnv(t, oauthserver.Options{DPoPAlgs: []string{"ES256"}, DPoPNonce: "as-forever"})
	_, err := e.boundCall(t, e.manager(oauth.Config{}))
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
			_, err := e.boundCall(t, e.manager(oauth.Config{DPoP: tc.mode}))
			var oe *oauth.Error
			if !errors.As(err, &oe) || oe.Needs != oauth.NeedNoDPoP || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v, want an oauth.Error needing no DPoP, saying %q", err, tc.msg)
			}
		})
	}
}

func TestDPoPRefusedGivesBearerTokens(t *testing.T) {
	e := newEnv(t, oauthserver.Options{DPoPAlgs: []string{"ES256"}})
	if code, err := e.boundCall(t, e.manager(oauth.Config{DPoP: oauth.DPoPRefuse})); err != nil || code != 200 {
		t.Fatalf("call: %d %v", code, err)
	}
	if tok := e.store.Token(e.url, ""); tok == nil || tok.TokenType != "Bearer" || e.keyFile(t) != "" {
		t.Errorf("token %+v, key file %q; want a Bearer token and no key", tok, e.keyFile(t))
	}
}
