package oauth

// The JWT-bearer grant (RFC 7523 §2.1): a JWT issued by someone the
// authorization server trusts is traded for an access token. With a
// workload's own identity token (a CI job's OIDC token, a Kubernetes
// service-account token) it is workload identity federation (SEP-1933);
// with an ID-JAG from the user's identity provider it is the second step
// of enterprise-managed authorization (idjag.go). Its failures are the
// authorization server's, reported as they are: never retried, and never
// followed by another grant.

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/oauth2"
)

const (
	grantTypeJWTBearer = "urn:ietf:params:oauth:grant-type:jwt-bearer"
	// Grant values of Config.Grant for these grants.
	GrantJWTBearer = "jwt_bearer"
	GrantIDJAG     = "id_jag"
)

// jwtBearer gets a token for the assertion from the authorization server.
// m.mu is held.
func (m *Manager) jwtBearer(ctx context.Context, prm *ResourceMeta, as *ServerMeta, scopes []string, what, assertion string) (*oauth2.Token, error) {
	claims, err := readJWT(what, assertion, m.now())
	if err != nil {
		return nil, err
	}
	if plainHTTP(as.TokenEndpoint) {
		return nil, notHTTPS("authorization server metadata", "", "token_endpoint", as.TokenEndpoint, "")
	}
	form := url.Values{"grant_type": {grantTypeJWTBearer}, "assertion": {assertion}, "resource": {prm.Resource}}
	if len(scopes) > 0 {
		form.Set("scope", strings.Join(scopes, " "))
	}
	c := tokenClient{ID: m.cfg.ClientID, Secret: m.cfg.ClientSecret, Method: "none"}
	if c.Secret != "" {
		c.Method = secretMethod(as.TokenEndpointAuthMethodsSupported)
	}
	m.logf("oauth: JWT-bearer grant (%s) at %s", what, as.TokenEndpoint)
	a, err := m.postToken(ctx, as.TokenEndpoint, form, c, true)
	if err != nil {
		return nil, grantError(err, audienceHint(what, claims, as.Issuer, as.TokenEndpoint))
	}
	return a.token(m.now()), nil
}

// readJWT reads the claims of a JWT the client passes on but cannot
// verify (it is not its audience), to refuse one that is no JWT or has
// expired before it is sent anywhere.
func readJWT(what, token string, now time.Time) (*jwt.RegisteredClaims, error) {
	if token == "" {
		return nil, &Error{Msg: "no " + what + " to present"}
	}
	var claims jwt.RegisteredClaims
	if _, _, err := jwt.NewParser().ParseUnverified(token, &claims); err != nil {
		return nil, &Error{Msg: "the " + what + " is not a JWT", Err: err}
	}
	if claims.ExpiresAt != nil && !now.Before(claims.ExpiresAt.Time) {
		return nil, &Error{Msg: fmt.Sprintf("the %s expired at %s (%s ago): get a fresh one", what,
			claims.ExpiresAt.UTC().Format(time.RFC3339), now.Sub(claims.ExpiresAt.Time).Round(time.Second))}
	}
	return &claims, nil
}

// audienceHint is a note for a refusal when the JWT's aud names none of
// want (where the server most likely wants it to be), else "".
func audienceHint(what string, claims *jwt.RegisteredClaims, want ...string) string {
	for _, a := range claims.Audience {
		for _, w := range want {
			if a == w || a == strings.TrimSuffix(w, "/") || a == w+"/" {
				return ""
			}
		}
	}
	aud := strings.Join(claims.Audience, ", ")
	if aud == "" {
		aud = "none"
	}
	return fmt.Sprintf("; the %s's audience (aud) is %s, not %s", what, aud, want[0])
}

// grantError is a token endpoint's refusal (or the request's failure),
// with hint appended to an invalid_grant.
func grantError(err error, hint string) error {
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) {
		var oe *Error
		if errors.As(err, &oe) {
			return oe
		}
		return &Error{Msg: "the token request failed", Err: err}
	}
	e := tokenError(err).(*Error)
	if re.ErrorCode == "invalid_grant" {
		e.Msg += hint
	}
	return e
}

// grantToken runs the grant Config.Grant names, other than the
// authorization code flow's. m.mu is held.
func (m *Manager) grantToken(ctx context.Context, prm *ResourceMeta, as *ServerMeta, scopes []string) (*oauth2.Token, error) {
	switch m.cfg.Grant {
	case "client_credentials":
		return m.clientCredentials(ctx, prm, as, scopes)
	case GrantJWTBearer:
		return m.jwtBearer(ctx, prm, as, scopes, "assertion", m.cfg.Assertion)
	case GrantIDJAG:
		return m.idJAG(ctx, prm, as, scopes)
	}
	return nil, &Error{Msg: "unknown grant " + m.cfg.Grant}
}
