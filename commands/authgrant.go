package commands

// The grants that need no browser: client credentials (the client as
// itself), the JWT-bearer grant with a workload's own JWT (workload
// identity federation), and enterprise-managed authorization (an ID token
// exchanged at the identity provider for an ID-JAG, presented to the MCP
// server's authorization server). Their settings come from flags, else
// from a configured server's auth: entry.

import (
	"strings"

	"github.com/mcpctl/mcpctl/client/oauth"
	"github.com/mcpctl/mcpctl/internal/argv"
)

// grantSetting is a grant flag's value, else the configured server's
// auth: setting for it (addAuthKeys); from says where it came from, for
// errors.
func (s *connection) grantSetting(flag, value string) (v, from string) {
	if s.g.IsSet(flag) {
		return value, "--" + flag
	}
	if s.ep != nil && s.ep.named != nil {
		for _, g := range addAuthKeys {
			if g.flag != flag {
				continue
			}
			for _, a := range s.ep.named.Auth {
				if a.Key == g.key {
					return a.Value, "auth " + g.key + " of server " + s.ep.named.Name
				}
			}
		}
	}
	return value, "--" + flag
}

// tokenSetting is a JWT setting (--assertion, --id-token): the token, or
// @FILE, or - for stdin; surrounding space is not part of it.
func (s *connection) tokenSetting(flag, value string) (string, error) {
	v, from := s.grantSetting(flag, value)
	if v == "" {
		return "", nil
	}
	b, err := argv.ReadJSONArg(from, v, s.ios.In)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(b)), nil
}

// setGrant puts the grant and its settings into cfg.
func (s *connection) setGrant(cfg *oauth.Config) error {
	g := s.g
	grant, from := s.grantSetting("grant", g.Grant)
	for _, f := range []struct{ flag, grant string }{{"assertion", "jwt-bearer"}, {"idp-token-endpoint", "id-jag"}, {"idp-client-id", "id-jag"}, {"idp-client-secret", "id-jag"}, {"id-token", "id-jag"}} {
		if g.IsSet(f.flag) && grant != f.grant {
			return usagef("--%s is for --grant %s (the grant is %s)", f.flag, f.grant, grant)
		}
	}
	switch grant {
	case "authorization-code":
	case "client-credentials":
		cfg.Grant, cfg.Browser = "client_credentials", nil
		if cfg.ClientID == "" || (cfg.ClientSecret == "" && g.ClientKey == "") {
			return usagef("--grant client-credentials needs --client-id, with --client-secret or --client-key")
		}
	case "jwt-bearer":
		cfg.Grant, cfg.Browser = oauth.GrantJWTBearer, nil
		a, err := s.tokenSetting("assertion", g.Assertion)
		if err != nil {
			return err
		}
		if a == "" {
			return usagef("--grant jwt-bearer needs --assertion: the workload's JWT (TOKEN, @FILE or -)")
		}
		cfg.Assertion = a
	case "id-jag":
		cfg.Grant, cfg.Browser = oauth.GrantIDJAG, nil
		idp := &cfg.IdentityProvider
		idp.TokenEndpoint, _ = s.grantSetting("idp-token-endpoint", g.IDPTokenEndpoint)
		idp.ClientID, _ = s.grantSetting("idp-client-id", g.IDPClientID)
		idp.ClientSecret, _ = s.grantSetting("idp-client-secret", g.IDPClientSecret)
		t, err := s.tokenSetting("id-token", g.IDToken)
		if err != nil {
			return err
		}
		idp.IDToken = t
		if idp.TokenEndpoint == "" || idp.ClientID == "" || idp.IDToken == "" || cfg.ClientID == "" {
			return usagef("--grant id-jag needs --idp-token-endpoint, --idp-client-id and --id-token, and --client-id (with --client-secret if the authorization server gave one)")
		}
	default:
		return usagef("invalid %s %q: use authorization-code, client-credentials, jwt-bearer or id-jag", from, grant)
	}
	return nil
}
