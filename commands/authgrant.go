package commands

// The grants that need no browser: client credentials (the client as
// itself), the JWT-bearer grant with a workload's own JWT (workload
// identity federation), and enterprise-managed authorization (an ID token
// exchanged at the identity provider for an ID-JAG, presented to the MCP
// server's authorization server). Their settings come from flags, else
// from a configured server's auth: entry.

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client/oauth"
	"github.com/mcpctl/mcpctl/internal/argv"
)

func grantFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "assertion", Usage: "--grant jwt-bearer: the workload's JWT (`TOKEN`, @FILE, or - for stdin)", EnvVars: []string{"MCPCTL_ASSERTION"}, Category: catAuth},
		&cli.StringFlag{Name: "idp-token-endpoint", Usage: "--grant id-jag: the identity provider's token endpoint `URL`", EnvVars: []string{"MCPCTL_IDP_TOKEN_ENDPOINT"}, Category: catAuth},
		&cli.StringFlag{Name: "idp-client-id", Usage: "--grant id-jag: this client's `ID` at the identity provider", EnvVars: []string{"MCPCTL_IDP_CLIENT_ID"}, Category: catAuth},
		&cli.StringFlag{Name: "idp-client-secret", Usage: "--grant id-jag: this client's `SECRET` at the identity provider, if it has one", EnvVars: []string{"MCPCTL_IDP_CLIENT_SECRET"}, Category: catAuth},
		&cli.StringFlag{Name: "id-token", Usage: "--grant id-jag: the user's ID token from the identity provider (`TOKEN`, @FILE, or - for stdin)", EnvVars: []string{"MCPCTL_ID_TOKEN"}, Category: catAuth},
	}
}

// grantSetting is a grant flag's value, else the configured server's
// auth: setting for it (addAuthKeys); from says where it came from, for
// errors.
func (s *session) grantSetting(c *cli.Context, flag string) (v, from string) {
	if c.IsSet(flag) {
		return c.String(flag), "--" + flag
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
	return c.String(flag), "--" + flag
}

// tokenSetting is a JWT setting (--assertion, --id-token): the token, or
// @FILE, or - for stdin; surrounding space is not part of it.
func (s *session) tokenSetting(c *cli.Context, flag string) (string, error) {
	v, from := s.grantSetting(c, flag)
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
func (s *session) setGrant(c *cli.Context, cfg *oauth.Config) error {
	grant, from := s.grantSetting(c, "grant")
	for _, f := range []struct{ flag, grant string }{{"assertion", "jwt-bearer"}, {"idp-token-endpoint", "id-jag"}, {"idp-client-id", "id-jag"}, {"idp-client-secret", "id-jag"}, {"id-token", "id-jag"}} {
		if c.IsSet(f.flag) && grant != f.grant {
			return usagef("--%s is for --grant %s (the grant is %s)", f.flag, f.grant, grant)
		}
	}
	switch grant {
	case "authorization-code":
	case "client-credentials":
		cfg.Grant, cfg.Browser = "client_credentials", nil
		if cfg.ClientID == "" || (cfg.ClientSecret == "" && c.String("client-key") == "") {
			return usagef("--grant client-credentials needs --client-id, with --client-secret or --client-key")
		}
	case "jwt-bearer":
		cfg.Grant, cfg.Browser = oauth.GrantJWTBearer, nil
		a, err := s.tokenSetting(c, "assertion")
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
		idp.TokenEndpoint, _ = s.grantSetting(c, "idp-token-endpoint")
		idp.ClientID, _ = s.grantSetting(c, "idp-client-id")
		idp.ClientSecret, _ = s.grantSetting(c, "idp-client-secret")
		t, err := s.tokenSetting(c, "id-token")
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
