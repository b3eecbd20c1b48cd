package commands

// --dpop and --no-dpop: whether OAuth tokens are DPoP-bound (RFC 9449).
// Without either, they are when the authorization server advertises
// DPoP or the MCP server challenges with it (client/oauth/dpop.go).

import (
	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client/oauth"
)

func dpopFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "dpop", Usage: "bind OAuth tokens to a key of mcpctl's (DPoP, RFC 9449) even where the authorization server does not advertise it, and refuse unbound ones", EnvVars: []string{"MCPCTL_DPOP"}, Category: catAuth},
		&cli.BoolFlag{Name: "no-dpop", Usage: "never bind OAuth tokens with DPoP: Bearer tokens only", Category: catAuth},
	}
}

// dpopMode reads --dpop and --no-dpop, else the configured server's auth
// setting dpop (true or false).
func (s *session) dpopMode(c *cli.Context) (oauth.DPoPMode, error) {
	on, off := c.Bool("dpop"), c.Bool("no-dpop")
	switch {
	case on && off:
		return 0, usagef("both --dpop and --no-dpop given: pass only one")
	case on:
		return oauth.DPoPRequire, nil
	case off:
		return oauth.DPoPRefuse, nil
	}
	if s.ep != nil && s.ep.named != nil {
		for _, a := range s.ep.named.Auth {
			if a.Key != "dpop" {
				continue
			}
			switch a.Value {
			case "true":
				return oauth.DPoPRequire, nil
			case "false":
				return oauth.DPoPRefuse, nil
			}
			return 0, usagef("invalid auth setting dpop %q of server %s: use true or false (or leave it out: DPoP where the servers offer it)", a.Value, s.ep.named.Name)
		}
	}
	return oauth.DPoPAuto, nil
}
