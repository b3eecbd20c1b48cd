package oauthserver

// The grants of the OAuth extensions mcpctl speaks besides the
// authorization code and client credentials: the JWT-bearer grant (RFC
// 7523: a workload's own JWT, or an ID-JAG) and, when the server plays an
// enterprise identity provider, the token exchange (RFC 8693) of an ID
// token for an ID-JAG. JWTs are verified for real: signature, audience,
// expiry.

import (
	"crypto"
	"crypto/ecdsa"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Grant options, part of Options.
type GrantOptions struct {
	// TrustedKey verifies JWT-bearer assertions (a workload's JWT or an
	// ID-JAG) and, for an identity provider, the ID tokens it exchanges.
	TrustedKey crypto.PublicKey
	// IDPKey makes the server an identity provider: it signs the ID-JAGs
	// its token exchange issues, naming IDJAGClientID as their client.
	IDPKey        *ecdsa.PrivateKey
	IDJAGClientID string
	// JWTBearerClients, if any, are the only clients the JWT-bearer grant
	// is for; others get unauthorized_client.
	JWTBearerClients []string
	// Hang makes the token endpoint never answer (an identity provider
	// that does not respond).
	Hang bool
}

const (
	jwtBearerGrant     = "urn:ietf:params:oauth:grant-type:jwt-bearer"
	tokenExchangeGrant = "urn:ietf:params:oauth:grant-type:token-exchange"
)

// otherGrant handles the extension grants for an authenticated client id.
// done: the answer was written (an error, or an exchanged token).
func (s *Server) otherGrant(w http.ResponseWriter, r *http.Request, id string) (g grant, done bool) {
	switch r.PostForm.Get("grant_type") {
	case jwtBearerGrant:
		if len(s.opts.JWTBearerClients) > 0 && !slices.Contains(s.opts.JWTBearerClients, id) {
			writeJSON(w, 400, map[string]string{"error": "unauthorized_client", "error_description": "client " + id + " may not use the JWT-bearer grant"})
			return g, true
		}
		claims, err := s.verify(r.PostForm.Get("assertion"), s.Issuer())
		if err != nil {
			writeJSON(w, 400, map[string]string{"error": "invalid_grant", "error_description": err.Error()})
			return g, true
		}
		if c, ok := claims["client_id"].(string); ok && c != id {
			writeJSON(w, 400, map[string]string{"error": "invalid_grant", "error_description": "the ID-JAG is for client " + c})
			return g, true
		}
		scope := r.PostForm.Get("scope")
		if strings.Contains(" "+scope+" ", " forbidden ") {
			writeJSON(w, 400, map[string]string{"error": "invalid_scope", "error_description": "scope forbidden is not granted to workloads"})
			return g, true
		}
		return grant{client: id, scope: scope, resource: r.PostForm.Get("resource")}, false
	case tokenExchangeGrant:
		if s.opts.IDPKey == nil {
			break
		}
		f := r.PostForm
		if f.Get("subject_token_type") != "urn:ietf:params:oauth:token-type:id_token" || f.Get("requested_token_type") != "urn:ietf:params:oauth:token-type:id-jag" ||
			f.Get("audience") == "" || f.Get("resource") == "" {
			writeJSON(w, 400, map[string]string{"error": "invalid_request", "error_description": "token types, audience and resource are required"})
			return g, true
		}
		claims, err := s.verify(f.Get("subject_token"), id)
		if err != nil {
			writeJSON(w, 400, map[string]string{"error": "invalid_grant", "error_description": err.Error()})
			return g, true
		}
		sub, _ := claims.GetSubject()
		tok := jwt.NewWithClaims(jwt.SigningMethodES256, jwt.MapClaims{"iss": s.Issuer(), "sub": sub, "aud": f.Get("audience"),
			"resource": f.Get("resource"), "client_id": s.opts.IDJAGClientID, "jti": s.next("jag"),
			"iat": time.Now().Unix(), "exp": time.Now().Add(5 * time.Minute).Unix()})
		tok.Header["typ"] = "oauth-id-jag+jwt"
		jag, err := tok.SignedString(s.opts.IDPKey)
		if err != nil {
			writeJSON(w, 500, map[string]string{"error": "server_error"})
			return g, true
		}
		writeJSON(w, 200, map[string]any{"access_token": jag, "issued_token_type": "urn:ietf:params:oauth:token-type:id-jag", "token_type": "N_A", "expires_in": 300})
		return g, true
	}
	writeJSON(w, 400, map[string]string{"error": "unsupported_grant_type"})
	return g, true
}

// verify checks a JWT's signature with TrustedKey, its audience and expiry.
func (s *Server) verify(token, audience string) (jwt.MapClaims, error) {
	if s.opts.TrustedKey == nil {
		return nil, fmt.Errorf("no trusted issuer")
	}
	claims := jwt.MapClaims{}
	_, err := jwt.ParseWithClaims(token, claims, func(*jwt.Token) (any, error) { return s.opts.TrustedKey, nil },
		jwt.WithAudience(audience), jwt.WithExpirationRequired(), jwt.WithValidMethods([]string{"ES256"}))
	if err != nil {
		return nil, err
	}
	return claims, nil
}
