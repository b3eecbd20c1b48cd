package oauth

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/golang-jwt/jwt/v5"
)

func TestProofHasTheClaimsOfRFC9449(t *testing.T) {
	m := New(Config{ServerURL: "https://mcp.example/mcp", Store: &Store{Dir: t.TempDir()}})
	if err := m.dpopKeyLocked(true); err != nil {
		t.Fatal(err)
	}
	m.keepNonce("https://mcp.example/other", map[string][]string{"Dpop-Nonce": {"n1"}})
	p1, err := m.proof("POST", "https://mcp.example/mcp?x=1#frag", "tok")
	if err != nil {
		t.Fatal(err)
	}
	p2, _ := m.proof("POST", "https://mcp.example/mcp", "tok")
	var c1, c2 jwt.MapClaims
	t1, _, err := jwt.NewParser().ParseUnverified(p1, &c1)
	if err != nil {
		t.Fatal(err)
	}
	_, _, _ = jwt.NewParser().ParseUnverified(p2, &c2)
	sum := sha256.Sum256([]byte("tok"))
	for k, want := range map[string]any{"htm": "POST", "htu": "https://mcp.example/mcp", "nonce": "n1", "ath": base64.RawURLEncoding.EncodeToString(sum[:])} {
		if c1[k] != want {
			t.Errorf("claim %s = %v, want %v", k, c1[k], want)
		}
	}
	if c1["iat"] == nil || c1["jti"] == nil || c1["jti"] == c2["jti"] {
		t.Errorf("iat %v, jti %v and %v: want both, and a fresh jti per proof", c1["iat"], c1["jti"], c2["jti"])
	}
	jwk, _ := t1.Header["jwk"].(map[string]any)
	if t1.Header["typ"] != "dpop+jwt" || t1.Header["alg"] != "ES256" || jwk == nil || jwk["d"] != nil {
		t.Errorf("header %v", t1.Header)
	}
	// The thumbprint is SHA-256 over the required members, sorted (RFC 7638).
	canon, _ := json.Marshal(struct {
		Crv string `json:"crv"`
		Kty string `json:"kty"`
		X   string `json:"x"`
		Y   string `json:"y"`
	}{"P-256", "EC", jwk["x"].(string), jwk["y"].(string)})
	want := sha256.Sum256(canon)
	if got, _ := jwkThumbprint(m.dpop.key); got != base64.RawURLEncoding.EncodeToString(want[:]) {
		t.Errorf("thumbprint %s", got)
	}
}
