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
	"os"
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
	newSite := func(scopes ...string) *oauthSite {
		return startOAuthSite(t, oauthserver.Options{PreRegistered: [2]string{"wl", ""}, ScopesSupported: scopes,
			GrantOptions: oauthserver.GrantOptions{TrustedKey: &workload.PublicKey}})
	}
	site := newSite()
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
		code      int
		re        string // {issuer} is the site's issuer
		tokenReqs int
	}{
		{"expired", signed(workload, "", -time.Minute), nil, 5,
			`^mcpctl: tools/list: HTTP 401: .*: the assertion expired at \S+ \(1m\d*s ago\): get a fresh one$`, 0},
		{"another audience", signed(workload, "https://wrong.example", time.Hour), nil, 5,
			`^mcpctl: tools/list: HTTP 401: .*: the token endpoint refused: invalid_grant \(token has invalid claims: token has invalid audience\); the assertion's audience \(aud\) is https://wrong.example, not {issuer}$`, 1},
		{"untrusted signer", signed(other, "", time.Hour), nil, 5,
			`^mcpctl: tools/list: HTTP 401: .*: the token endpoint refused: invalid_grant \(token signature is invalid: crypto/ecdsa: verification error\)$`, 1},
		{"scope refused", signed(workload, "", time.Hour), []string{"forbidden"}, 5,
			`^mcpctl: tools/list: HTTP 401: .*: the token endpoint refused: invalid_scope \(scope forbidden is not granted to workloads\)$`, 1},
		{"not a JWT", fixed("hello"), nil, 5, `^mcpctl: tools/list: HTTP 401: .*: the assertion is not a JWT: token is malformed`, 0},
		{"file missing", fixed("@" + filepath.Join(dir, "nofile.jwt")), nil, 2,
			`^mcpctl: --assertion @` + regexp.QuoteMeta(filepath.Join(dir, "nofile.jwt")) + `: open .*nofile.jwt: no such file or directory$`, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			site := newSite(tc.scopes...)
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
