package oauthserver

// DPoP (RFC 9449) on the test servers: the token endpoint checks a proof
// when one comes and binds the token to its key (token_type DPoP); the
// MCP guard then wants "Authorization: DPoP" with a proof of the same key
// for the request and token (ath). DPoPNonce makes either side want a
// nonce: "required" answers a proof without the current one with
// use_dpop_nonce; "as-forever" and "rs-forever" answer every proof so,
// each time with a new nonce.

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// dpopProof checks the request's DPoP proof for the request to
// s.Base+path (and accessToken, when given) and returns its key's RFC 7638
// thumbprint; "" with no proof. A bad proof is an error.
func (s *Server) dpopProof(r *http.Request, accessToken string) (jkt, nonce string, err error) {
	proofs := r.Header.Values("DPoP")
	if len(proofs) == 0 {
		return "", "", nil
	}
	if len(proofs) > 1 {
		return "", "", fmt.Errorf("more than one DPoP header")
	}
	var x, y string
	tok, err := jwt.Parse(proofs[0], func(t *jwt.Token) (any, error) {
		if t.Header["typ"] != "dpop+jwt" {
			return nil, fmt.Errorf("typ is not dpop+jwt")
		}
		jwk, _ := t.Header["jwk"].(map[string]any)
		if jwk["kty"] != "EC" || jwk["crv"] != "P-256" || jwk["d"] != nil {
			return nil, fmt.Errorf("jwk is not a P-256 public key")
		}
		x, _ = jwk["x"].(string)
		y, _ = jwk["y"].(string)
		xb, err1 := base64.RawURLEncoding.DecodeString(x)
		yb, err2 := base64.RawURLEncoding.DecodeString(y)
		if err1 != nil || err2 != nil || len(xb) != 32 || len(yb) != 32 {
			return nil, fmt.Errorf("bad jwk coordinates")
		}
		return ecdsa.ParseUncompressedPublicKey(elliptic.P256(), append(append([]byte{4}, xb...), yb...))
	}, jwt.WithValidMethods([]string{"ES256"}))
	if err != nil {
		return "", "", err
	}
	c := tok.Claims.(jwt.MapClaims)
	iat, _ := c["iat"].(float64)
	jti, _ := c["jti"].(string)
	nonce, _ = c["nonce"].(string)
	switch {
	case c["htm"] != r.Method:
		return "", "", fmt.Errorf("htm %v is not %s", c["htm"], r.Method)
	case c["htu"] != s.Base+r.URL.Path:
		return "", "", fmt.Errorf("htu %v is not %s", c["htu"], s.Base+r.URL.Path)
	case time.Since(time.Unix(int64(iat), 0)).Abs() > time.Minute:
		return "", "", fmt.Errorf("iat out of range")
	case jti == "":
		return "", "", fmt.Errorf("no jti")
	}
	if accessToken != "" {
		sum := sha256.Sum256([]byte(accessToken))
		if c["ath"] != base64.RawURLEncoding.EncodeToString(sum[:]) {
			return "", "", fmt.Errorf("ath does not match the token")
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.jtis == nil {
		s.jtis = map[string]bool{}
	}
	if s.jtis[jti] {
		return "", "", fmt.Errorf("jti replayed")
	}
	s.jtis[jti] = true
	sum := sha256.Sum256([]byte(`{"crv":"P-256","kty":"EC","x":"` + x + `","y":"` + y + `"}`))
	return base64.RawURLEncoding.EncodeToString(sum[:]), nonce, nil
}

// dpopNonceOK says whether nonce is the one wanted at side ("as" or
// "rs"); when it is not, it gives the one to send.
func (s *Server) dpopNonceOK(side, nonce string) (bool, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch s.opts.DPoPNonce {
	case "required":
		return nonce == "nonce-"+side, "nonce-" + side
	case side + "-forever":
		return false, s.next("nonce-" + side)
	}
	return true, ""
}

// dpopToken checks a token request's proof; ok false means the answer
// (an error) was written.
func (s *Server) dpopToken(w http.ResponseWriter, r *http.Request) (jkt string, ok bool) {
	if len(s.opts.DPoPAlgs) == 0 {
		return "", true // no DPoP here: a proof is ignored (RFC 9449 §5)
	}
	jkt, nonce, err := s.dpopProof(r, "")
	if err != nil {
		writeJSON(w, 400, map[string]string{"error": "invalid_dpop_proof", "error_description": err.Error()})
		return "", false
	}
	if jkt == "" {
		return "", true
	}
	if good, want := s.dpopNonceOK("as", nonce); !good {
		w.Header().Set("DPoP-Nonce", want)
		writeJSON(w, 400, map[string]string{"error": "use_dpop_nonce", "error_description": "a DPoP nonce is required"})
		return "", false
	}
	return jkt, true
}

// dpopGuard checks a request's DPoP-bound token g (tok) at the MCP
// endpoint; ok false means the answer (a 401) was written.
func (s *Server) dpopGuard(w http.ResponseWriter, r *http.Request, tok string, g grant) bool {
	scheme, _, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if g.jkt == "" {
		return strings.EqualFold(scheme, "Bearer") || s.refuse(w, `Bearer error="invalid_token"`)
	}
	if !strings.EqualFold(scheme, "DPoP") {
		return s.refuse(w, `DPoP error="invalid_token", error_description="the token is DPoP-bound"`)
	}
	jkt, nonce, err := s.dpopProof(r, tok)
	if err != nil || jkt != g.jkt {
		return s.refuse(w, `DPoP error="invalid_dpop_proof"`)
	}
	if good, want := s.dpopNonceOK("rs", nonce); !good {
		w.Header().Set("DPoP-Nonce", want)
		return s.refuse(w, `DPoP error="use_dpop_nonce", error_description="a DPoP nonce is required"`)
	}
	return true
}

func (s *Server) refuse(w http.ResponseWriter, challenge string) bool {
	w.Header().Set("WWW-Authenticate", challenge)
	http.Error(w, "unauthorized", http.StatusUnauthorized)
	return false
}
