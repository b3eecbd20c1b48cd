package oauth

// Servers of the 2025-03-26 revision publish no protected resource
// metadata (RFC 9728 came with 2025-06-18). Their authorization base URL
// is the MCP server's origin (the URL with its path left out): the
// authorization server metadata (RFC 8414) is at
// /.well-known/oauth-authorization-server there, and without it the
// endpoints are the revision's defaults, /authorize, /token and /register
// at that origin. The issuer is the origin.

import (
	"context"
	"fmt"
	"net/url"

	"github.com/mcpctl/mcpctl/client"
)

// legacyResource stands in for the protected resource metadata of a
// 2025-03-26 server: the server itself, authorized by its origin.
func legacyResource(serverURL string) (*ResourceMeta, error) {
	u, err := url.Parse(serverURL)
	if err != nil || u.Host == "" {
		return nil, &Error{Msg: fmt.Sprintf("%q is not a valid server URL", serverURL)}
	}
	origin := u.Scheme + "://" + u.Host
	if plainHTTP(origin) {
		return nil, notHTTPS("server URL", "", "", serverURL, "")
	}
	return &ResourceMeta{Resource: serverURL, AuthorizationServers: []string{origin}, legacy: true}, nil
}

// serverMeta is the authorization server metadata for prm: discovered
// from the issuer it names, or for a 2025-03-26 server (no protected
// resource metadata) from its origin, else the revision's defaults.
func (m *Manager) serverMeta(ctx context.Context, prm *ResourceMeta) (*ServerMeta, error) {
	if !prm.legacy {
		return m.discoverServer(ctx, prm.AuthorizationServers[0])
	}
	origin := prm.AuthorizationServers[0]
	u := origin + "/.well-known/oauth-authorization-server"
	var as ServerMeta
	found, err := m.getJSON(ctx, "authorization server metadata", u, &as)
	if err != nil {
		return nil, err
	}
	if !found {
		m.logf("oauth: no authorization server metadata at %s: the 2025-03-26 default endpoints of %s", u, origin)
		return &ServerMeta{Issuer: origin, AuthorizationEndpoint: origin + "/authorize", TokenEndpoint: origin + "/token",
			RegistrationEndpoint: origin + "/register", CodeChallengeMethodsSupported: []string{"S256"}, defaults: true}, nil
	}
	if err := m.checkServerMeta(u, origin, &as); err != nil {
		return nil, err
	}
	return &as, nil
}

// defaultsNote says, in an error about endpoint, that no metadata
// advertised it: it is a 2025-03-26 default.
func (as *ServerMeta) defaultsNote(endpoint string) string {
	if !as.defaults {
		return ""
	}
	return " at " + client.RedactURL(endpoint) + " (the server publishes no OAuth metadata; that is the 2025-03-26 revision's default endpoint)"
}
