package oauth

// Enterprise-managed authorization (SEP-990, the ID-JAG extension): the
// user's identity provider, not a browser login, decides. The client
// trades the user's ID token at the identity provider's token endpoint
// (a token exchange, RFC 8693) for an Identity Assertion JWT
// Authorization Grant whose audience is the MCP server's authorization
// server, then presents that in a JWT-bearer grant (jwtbearer.go),
// authenticated as its client there.

import (
	"context"
	"net/url"
	"strings"

	"golang.org/x/oauth2"

	"github.com/mcpctl/mcpctl/client"
)

const (
	grantTypeTokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange"
	tokenTypeIDToken       = "urn:ietf:params:oauth:token-type:id_token"
	tokenTypeIDJAG         = "urn:ietf:params:oauth:token-type:id-jag"
)

// IdentityProvider is the enterprise identity provider of Grant "id_jag".
type IdentityProvider struct {
	// TokenEndpoint is where the ID token is exchanged.
	TokenEndpoint string
	// ClientID and ClientSecret are this client at the identity
	// provider (the ID token's audience); the secret may be empty.
	ClientID, ClientSecret string
	// IDToken is the user's OpenID Connect ID token from it.
	IDToken string
}

// idJAG exchanges the ID token for an ID-JAG, then the ID-JAG for an
// access token. m.mu is held.
func (m *Manager) idJAG(ctx context.Context, prm *ResourceMeta, as *ServerMeta, scopes []string) (*oauth2.Token, error) {
	idp := m.cfg.IdentityProvider
	if idp.TokenEndpoint == "" || idp.ClientID == "" {
		return nil, &Error{Msg: "enterprise-managed authorization needs the identity provider's token endpoint and this client's id there"}
	}
	if u, err := url.Parse(idp.TokenEndpoint); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, &Error{Msg: "the identity provider's token endpoint " + idp.TokenEndpoint + " is not an http(s) URL"}
	}
	if plainHTTP(idp.TokenEndpoint) {
		return nil, notHTTPS("identity provider", "", "token endpoint", idp.TokenEndpoint, "")
	}
	claims, err := readJWT("ID token", idp.IDToken, m.now())
	if err != nil {
		return nil, err
	}
	form := url.Values{
		"grant_type":           {grantTypeTokenExchange},
		"requested_token_type": {tokenTypeIDJAG},
		"audience":             {as.Issuer},
		"resource":             {prm.Resource},
		"subject_token":        {idp.IDToken},
		"subject_token_type":   {tokenTypeIDToken},
	}
	if len(scopes) > 0 {
		form.Set("scope", strings.Join(scopes, " "))
	}
	c := tokenClient{ID: idp.ClientID, Secret: idp.ClientSecret, Method: "none"}
	if c.Secret != "" {
		c.Method = "client_secret_post"
	}
	m.logf("oauth: token exchange of the ID token for an ID-JAG at %s", idp.TokenEndpoint)
	a, err := m.postToken(ctx, idp.TokenEndpoint, form, c, false)
	if err != nil && ctx.Err() != nil {
		return nil, &Error{Msg: "no answer from the identity provider's token endpoint " + client.RedactURL(idp.TokenEndpoint)}
	}
	if err != nil {
		e := grantError(err, audienceHint("ID token", claims, idp.ClientID)).(*Error)
		e.Msg = "the identity provider's token exchange failed: " + strings.TrimPrefix(e.Msg, "the token endpoint refused: ")
		return nil, e
	}
	if a.IssuedTokenType != "" && a.IssuedTokenType != tokenTypeIDJAG {
		return nil, &Error{Msg: "the identity provider issued a " + a.IssuedTokenType + ", not an ID-JAG (" + tokenTypeIDJAG + ")"}
	}
	return m.jwtBearer(ctx, prm, as, scopes, "ID-JAG", a.AccessToken)
}
