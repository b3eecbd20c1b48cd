package tests

// Issue 17, items 3 and 4: the JWT-bearer grant with a workload's own JWT
// (--grant jwt-bearer) and enterprise-managed authorization (--grant
// id-jag: an ID token exchanged at the identity provider for an ID-JAG),
// run by the real mcpctl against tests/oauthserver, which verifies every
// JWT (signature, audience, expiry). Bad input ends in one line naming
// the problem: exit 2 for an unreadable @FILE, exit 5 for a JWT that has
// expired or is for another audience, or an identity provider that does
// not answer; a refused grant is never retried nor followed by another.

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/mcpctl/mcpctl/tests/oauthserver"
)

func ecKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// signJWT signs claims for aud, expiring in ttl (negative: expired).
func signJWT(t *testing.T, key *ecdsa.PrivateKey, iss, aud string, ttl time.Duration) string {
	t.Helper()
	now := time.Now()
	s, err := jwt.NewWithClaims(jwt.SigningMethodES256, jwt.MapClaims{"iss": iss, "sub": "workload-1", "aud": aud,
		"iat": now.Add(-time.Minute).Unix(), "exp": now.Add(ttl).Unix()}).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func grantRun(t *testing.T, state string, args ...string) *faultRun {
	t.Helper()
	return secMcpctl(t, []string{"MCPCTL_STATE_DIR=" + state}, append([]string{"--protocol-version", "2026-07-28"}, args...)...)
}

func TestOAuthGrantJWTBearer(t *testing.T) {
	workload := ecKey(t)
	newSite := func(scopes, allowed []string) *oauthSite {
		if allowed == nil {
			allowed = []string{"wl"}
		}
		return startOAuthSite(t, oauthserver.Options{PreRegistered: [2]string{"wl", ""}, ScopesSupported: scopes,
			GrantOptions: oauthserver.GrantOptions{TrustedKey: &workload.PublicKey, JWTBearerClients: allowed}})
	}
	site := newSite(nil, nil)
	issuer := strings.TrimSuffix(site.url, "/mcp") + "/as"
	dir := t.TempDir()
	good := filepath.Join(dir, "token.jwt")
	if err := os.WriteFile(good, []byte(signJWT(t, workload, "https://ci.example", issuer, time.Hour)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	// The workload's JWT from a file: a token, and nothing stored.
	state := t.TempDir()
	r := grantRun(t, state, "--url", site.url, "--grant", "jwt-bearer", "--client-id", "wl", "--assertion", "@"+good, "tools", "list")
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	if f := tokenFiles(state); len(f) != 0 {
		t.Errorf("the workload's token was stored (SEP-1933 says not to): %v", f)
	}
	// --trace shows the grant, never the assertion.
	r = grantRun(t, state, "--trace", "--url", site.url, "--grant", "jwt-bearer", "--client-id", "wl", "--assertion", "@"+good, "tools", "list")
	jwtText, _ := os.ReadFile(good)
	if r.code != 0 || !strings.Contains(r.stderr, "JWT-bearer grant (assertion)") || strings.Contains(r.stderr, strings.TrimSpace(string(jwtText))) {
		t.Errorf("--trace: exit %d:\n%s", r.code, r.stderr)
	}
	// auth login checks the assertion, and says the token is not kept.
	r = grantRun(t, state, "--url", site.url, "--grant", "jwt-bearer", "--client-id", "wl", "--assertion", "@"+good, "auth", "login")
	if r.code != 0 || !strings.Contains(r.stderr, "its token is not kept") || len(tokenFiles(state)) != 0 {
		t.Errorf("auth login: exit %d, token files %v:\n%s", r.code, tokenFiles(state), r.stderr)
	}
	// ... and from stdin (-), as a CI step pipes it in.
	cmd := exec.Command(filepath.Join(faultBinaries(t), "mcpctl"), "--protocol-version", "2026-07-28", "--url", site.url,
		"--grant", "jwt-bearer", "--client-id", "wl", "--assertion", "-", "tools", "list")
	cmd.Env = append(os.Environ(), "MCPCTL_STATE_DIR="+t.TempDir(), "MCPCTL_CACHE_DIR="+t.TempDir())
	cmd.Stdin = strings.NewReader(signJWT(t, workload, "https://ci.example", issuer, time.Hour) + "\n")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("--assertion -: %v\n%s", err, out)
	}
	if n := site.as.Count("/as/token"); n != 4 {
		t.Errorf("%d token requests for four commands: %q", n, site.as.Requests)
	}

	other := ecKey(t)
	signed := func(key *ecdsa.PrivateKey, aud string, ttl time.Duration) func(string) string {
		return func(iss string) string {
			if aud == "" {
				aud = iss
			}
			return signJWT(t, key, "https://ci.example", aud, ttl)
		}
	}
	fixed := func(s string) func(string) string { return func(string) string { return s } }
	for _, tc := range []struct {
		name      string
		assertion func(issuer string) string
		scopes    []string
		allowed   []string // clients the grant is for (nil: wl)
		code      int
		re        string // {issuer} is the site's issuer
		tokenReqs int
	}{
		{"expired", signed(workload, "", -time.Minute), nil, nil, 5,
			`^mcpctl: tools/list: HTTP 401: .*: the assertion expired at \S+ \(1m\d*s ago\): get a fresh one$`, 0},
		{"another audience", signed(workload, "https://wrong.example", time.Hour), nil, nil, 5,
			`^mcpctl: tools/list: HTTP 401: .*: the token endpoint refused: invalid_grant \(token has invalid claims: token has invalid audience\); the assertion's audience \(aud\) is https://wrong.example, not {issuer}$`, 1},
		{"untrusted signer", signed(other, "", time.Hour), nil, nil, 5,
			`^mcpctl: tools/list: HTTP 401: .*: the token endpoint refused: invalid_grant \(token signature is invalid: crypto/ecdsa: verification error\)$`, 1},
		{"client not allowed", signed(workload, "", time.Hour), nil, []string{"another"}, 5,
			`^mcpctl: tools/list: HTTP 401: .*: the token endpoint refused: unauthorized_client \(client wl may not use the JWT-bearer grant\)$`, 1},
		{"scope refused", signed(workload, "", time.Hour), []string{"forbidden"}, nil, 5,
			`^mcpctl: tools/list: HTTP 401: .*: the token endpoint refused: invalid_scope \(scope forbidden is not granted to workloads\)$`, 1},
		{"not a JWT", fixed("hello"), nil, nil, 5, `^mcpctl: tools/list: HTTP 401: .*: the assertion is not a JWT: token is malformed`, 0},
		{"file missing", fixed("@" + filepath.Join(dir, "nofile.jwt")), nil, nil, 2,
			`^mcpctl: --assertion @` + regexp.QuoteMeta(filepath.Join(dir, "nofile.jwt")) + `: open .*nofile.jwt: no such file or directory$`, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			site := newSite(tc.scopes, tc.allowed)
			iss := strings.TrimSuffix(site.url, "/mcp") + "/as"
			r := grantRun(t, t.TempDir(), "--url", site.url, "--grant", "jwt-bearer", "--client-id", "wl", "--assertion", tc.assertion(iss), "tools", "list")
			if r.code != tc.code {
				t.Errorf("exit %d, want %d:\n%s", r.code, tc.code, r.stderr)
			}
			oneErrorLine(t, r.stderr, strings.ReplaceAll(tc.re, "{issuer}", regexp.QuoteMeta(iss)))
			if n := site.as.Count("/as/token"); n != tc.tokenReqs {
				t.Errorf("%d token requests, want %d (no retry): %q", n, tc.tokenReqs, site.as.Requests)
			}
			if n := site.as.Count("/as/authorize") + site.as.Count("/as/register"); n != 0 {
				t.Errorf("fell back to another grant: %q", site.as.Requests)
			}
		})
	}
}

// idpSite is an enterprise identity provider: its token endpoint
// exchanges ID tokens it signed (audience: its client "idp-client") for
// ID-JAGs naming the MCP client "mcp-client".
func idpSite(t *testing.T, key *ecdsa.PrivateKey, hang bool) (as *oauthserver.Server, tokenURL string) {
	t.Helper()
	as = oauthserver.New(oauthserver.Options{IssuerPath: "/idp", PreRegistered: [2]string{"idp-client", ""},
		GrantOptions: oauthserver.GrantOptions{TrustedKey: &key.PublicKey, IDPKey: key, IDJAGClientID: "mcp-client", Hang: hang}})
	mux := http.NewServeMux()
	as.MountAS(mux)
	srv := httptest.NewUnstartedServer(mux)
	as.Base = "http://" + srv.Listener.Addr().String()
	srv.Start()
	t.Cleanup(srv.Close)
	return as, as.Issuer() + "/token"
}

func TestOAuthGrantIDJAG(t *testing.T) {
	key := ecKey(t)
	newSites := func(hang bool) (*oauthSite, *oauthserver.Server, []string) {
		idp, tokenURL := idpSite(t, key, hang)
		site := startOAuthSite(t, oauthserver.Options{PreRegistered: [2]string{"mcp-client", "mcp-s3cret"},
			GrantOptions: oauthserver.GrantOptions{TrustedKey: &key.PublicKey}})
		return site, idp, []string{"--url", site.url, "--grant", "id-jag", "--idp-token-endpoint", tokenURL, "--idp-client-id", "idp-client",
			"--client-id", "mcp-client", "--client-secret", "mcp-s3cret"}
	}
	dir := t.TempDir()
	idToken := filepath.Join(dir, "id.jwt")
	if err := os.WriteFile(idToken, []byte(signJWT(t, key, "https://idp.example", "idp-client", time.Hour)), 0o600); err != nil {
		t.Fatal(err)
	}

	// The whole flow, the ID token from a file: the exchange at the
	// identity provider, then the JWT-bearer grant; the token is kept.
	site, idp, args := newSites(false)
	state := t.TempDir()
	r := grantRun(t, state, append(args, "--id-token", "@"+idToken, "tools", "list")...)
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	if idp.Count("/idp/token") != 1 || site.as.Count("/as/token") != 1 || len(tokenFiles(state)) != 1 {
		t.Errorf("idp %q, as %q, token files %v", idp.Requests, site.as.Requests, tokenFiles(state))
	}

	// The same settings from a config entry (auth:), the ID token read
	// from its file at use.
	site, _, _ = newSites(false)
	_, tokenURL := idpSite(t, key, false)
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte("servers:\n  corp:\n    url: "+site.url+"\n    auth:\n      grant: id-jag\n      idpTokenEndpoint: "+tokenURL+
		"\n      idpClientId: idp-client\n      idToken: \"@"+idToken+"\"\n      clientId: mcp-client\n      clientSecret: mcp-s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r = secMcpctl(t, []string{"MCPCTL_STATE_DIR=" + t.TempDir(), "MCPCTL_CONFIG=" + cfg}, "-s", "corp", "--protocol-version", "2026-07-28", "tools", "list")
	if r.code != 0 {
		t.Fatalf("from the config: exit %d:\n%s", r.code, r.stderr)
	}

	for _, tc := range []struct {
		name    string
		idToken string
		hang    bool
		extra   []string
		code    int
		re      string
		asReqs  int
	}{
		{"ID token for another audience", signJWT(t, key, "https://idp.example", "someone-else", time.Hour), false, nil, 5,
			`^mcpctl: tools/list: HTTP 401: .*: the identity provider's token exchange failed: invalid_grant \(token has invalid claims: token has invalid audience\); the ID token's audience \(aud\) is someone-else, not idp-client$`, 0},
		{"ID token expired", signJWT(t, key, "https://idp.example", "idp-client", -2*time.Minute), false, nil, 5,
			`^mcpctl: tools/list: HTTP 401: .*: the ID token expired at \S+ \(2m\d*s ago\): get a fresh one$`, 0},
		{"ID token file missing", "@" + filepath.Join(dir, "none.jwt"), false, nil, 2,
			`^mcpctl: --id-token @` + regexp.QuoteMeta(filepath.Join(dir, "none.jwt")) + `: open .*none.jwt: no such file or directory$`, 0},
		{"identity provider silent", "@" + idToken, true, []string{"--timeout", "2s"}, 3,
			`^mcpctl: tools/list: tools/list timed out after 2s while authorizing: no answer from the identity provider.s token endpoint http://127.0.0.1:\d+/idp/token \(raise it with --timeout\)$`, 0},
		{"no identity provider client", "@" + idToken, false, []string{"--idp-client-id", ""}, 2,
			`^mcpctl: --grant id-jag needs --idp-token-endpoint, --idp-client-id and --id-token, and --client-id`, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			site, idp, args := newSites(tc.hang)
			start := time.Now()
			r := grantRun(t, t.TempDir(), append(append(args, tc.extra...), "--id-token", tc.idToken, "tools", "list")...)
			if r.code != tc.code {
				t.Errorf("exit %d, want %d:\n%s", r.code, tc.code, r.stderr)
			}
			oneErrorLine(t, r.stderr, tc.re)
			if n := site.as.Count("/as/token"); n != tc.asReqs {
				t.Errorf("%d token requests at the authorization server, want %d: %q", n, tc.asReqs, site.as.Requests)
			}
			if n := idp.Count("/idp/token"); n > 1 {
				t.Errorf("the exchange was tried %d times", n)
			}
			if tc.hang && time.Since(start) > 10*time.Second {
				t.Errorf("a silent identity provider held mcpctl for %s", time.Since(start))
			}
		})
	}
}
