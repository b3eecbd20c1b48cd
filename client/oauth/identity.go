package oauth

// Client identity, in the order the spec prefers: a Client ID Metadata
// Document URL when the authorization server supports it, pre-registered
// credentials, a registration this mcpctl made earlier at the same issuer,
// else Dynamic Client Registration as a native application. Registrations
// are kept per issuer and never shown to another authorization server.

import (
	"context"
	"errors"
)

func (m *Manager) clientFor(ctx context.Context, as *ServerMeta, redirectURI string) (*ClientInfo, error) {
	if m.cfg.ClientMetadataURL != "" && as.ClientIDMetadataDocumentSupported {
		m.logf("oauth: client id is the metadata document %s", m.cfg.ClientMetadataURL)
		return &ClientInfo{Issuer: as.Issuer, ClientID: m.cfg.ClientMetadataURL, AuthMethod: "none", Source: "cimd"}, nil
	}
	if m.cfg.ClientID != "" {
		method := "none"
		if m.cfg.ClientSecret != "" {
			method = secretMethod(as.TokenEndpointAuthMethodsSupported)
		}
		m.logf("oauth: pre-registered client (token endpoint auth %s)", method)
		return &ClientInfo{Issuer: as.Issuer, ClientID: m.cfg.ClientID, ClientSecret: m.cfg.ClientSecret, AuthMethod: method, Source: "preregistered"}, nil
	}
	if c := m.cfg.Store.Client(as.Issuer); c != nil && c.Source == "dcr" {
		m.logf("oauth: client registered earlier at %s", as.Issuer)
		return c, nil
	}
	if as.RegistrationEndpoint == "" {
		return nil, &Error{Doc: "authorization server metadata", Field: "registration_endpoint",
			Msg: "absent: the server takes no registrations; configure a client id (and secret) or a client metadata URL", Needs: NeedClient}
	}
	meta := &clientMetadata{
		RedirectURIs:            []string{redirectURI},
		TokenEndpointAuthMethod: registrationMethod(as.TokenEndpointAuthMethodsSupported),
		GrantTypes:              []string{"authorization_code", "refresh_token"},
		ResponseTypes:           []string{"code"},
		ClientName:              m.cfg.ClientName,
		ApplicationType:         "native",
	}
	m.logf("oauth: registering a client at %s", as.RegistrationEndpoint)
	resp, err := register(ctx, m.cfg.HTTPClient, as.RegistrationEndpoint, meta)
	if err != nil {
		var re *registrationError
		if errors.As(err, &re) {
			return nil, &Error{Msg: "client registration refused: " + re.Code + " " + re.Description}
		}
		return nil, &Error{Msg: "client registration failed" + as.defaultsNote(as.RegistrationEndpoint), Err: err}
	}
	method := resp.TokenEndpointAuthMethod
	if method == "" {
		method = meta.TokenEndpointAuthMethod
	}
	c := &ClientInfo{Issuer: as.Issuer, ClientID: resp.ClientID, ClientSecret: resp.ClientSecret, AuthMethod: method,
		RedirectURI: resp.RedirectURIs, Source: "dcr"}
	if err := m.cfg.Store.SaveClient(c); err != nil {
		m.logf("oauth: cannot store the client registration: %v", err)
	}
	return c, nil
}

// registrationMethod asks for a public client ("none", a native app keeps
// no secret) unless the server takes only secrets.
func registrationMethod(supported []string) string {
	if len(supported) == 0 || contains(supported, "none") {
		return "none"
	}
	return secretMethod(supported)
}

// secretMethod is how to present a client secret: client_secret_basic,
// the default of RFC 8414, unless only client_secret_post is offered.
func secretMethod(supported []string) string {
	if contains(supported, "client_secret_post") && !contains(supported, "client_secret_basic") {
		return "client_secret_post"
	}
	return "client_secret_basic"
}
