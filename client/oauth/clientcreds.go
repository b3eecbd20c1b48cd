package oauth

// The OAuth client credentials extension: no user and no browser; the
// client authenticates with its secret or with a private-key JWT
// assertion (RFC 7523), for scripts and services acting as themselves.

import (
	"context"
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net/url"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// ClientKey is a private key for private_key_jwt client authentication.
type ClientKey struct {
	Key    any // *ecdsa.PrivateKey or *rsa.PrivateKey
	Method jwt.SigningMethod
}

// ParseClientKey reads a PEM private key (PKCS#8, EC or PKCS#1) and picks
// its signing algorithm: ES256/384/512 by curve, RS256 for RSA, unless alg
// names one.
func ParseClientKey(pemData []byte, alg string) (*ClientKey, error) {
	block, _ := pem.Decode(pemData)
	if block == nil {
		return nil, fmt.Errorf("no PEM block found")
	}
	var key any
	var err error
	switch block.Type {
	case "EC PRIVATE KEY":
		key, err = x509.ParseECPrivateKey(block.Bytes)
	case "RSA PRIVATE KEY":
		key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
	default:
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	}
	if err != nil {
		return nil, err
	}
	if alg == "" {
		switch k := key.(type) {
		case *ecdsa.PrivateKey:
			alg = map[int]string{256: "ES256", 384: "ES384", 521: "ES512"}[k.Curve.Params().BitSize]
		case *rsa.PrivateKey:
			alg = "RS256"
		}
	}
	m := jwt.GetSigningMethod(alg)
	if m == nil {
		return nil, fmt.Errorf("unknown signing algorithm %q", alg)
	}
	return &ClientKey{Key: key, Method: m}, nil
}

// clientCredentials gets a token for the client itself. m.mu is held.
func (m *Manager) clientCredentials(ctx context.Context, prm *ResourceMeta, as *ServerMeta, scopes []string) (*oauth2.Token, error) {
	if m.cfg.ClientID == "" {
		return nil, &Error{Msg: "the client credentials grant needs a client id, with a client secret or key", Needs: NeedClientID}
	}
	cc := &clientcredentials.Config{ClientID: m.cfg.ClientID, TokenURL: as.TokenEndpoint, Scopes: scopes,
		EndpointParams: url.Values{"resource": {prm.Resource}}}
	switch {
	case m.cfg.ClientKey != nil:
		now := m.now()
		claims := jwt.RegisteredClaims{Issuer: m.cfg.ClientID, Subject: m.cfg.ClientID, Audience: jwt.ClaimStrings{as.Issuer},
			IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(now.Add(5 * time.Minute)), ID: randomString()}
		assertion, err := jwt.NewWithClaims(m.cfg.ClientKey.Method, claims).SignedString(m.cfg.ClientKey.Key)
		if err != nil {
			return nil, &Error{Msg: "cannot sign the client assertion", Err: err}
		}
		cc.EndpointParams.Set("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
		cc.EndpointParams.Set("client_assertion", assertion)
		cc.AuthStyle = oauth2.AuthStyleInParams
	case m.cfg.ClientSecret != "":
		cc.ClientSecret = m.cfg.ClientSecret
		cc.AuthStyle = oauth2.AuthStyleInHeader
		if secretMethod(as.TokenEndpointAuthMethodsSupported) == "client_secret_post" {
			cc.AuthStyle = oauth2.AuthStyleInParams
		}
	default:
		return nil, &Error{Msg: "the client credentials grant needs a client secret or key", Needs: NeedClientSecret}
	}
	m.logf("oauth: client credentials grant at %s", as.TokenEndpoint)
	tok, err := cc.Token(context.WithValue(ctx, oauth2.HTTPClient, m.tokenHTTPClient()))
	if err != nil {
		return nil, tokenError(err)
	}
	return tok, nil
}
