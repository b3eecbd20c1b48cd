package commands

// --dpop and --no-dpop: whether OAuth tokens are DPoP-bound (RFC 9449).
// Without either, they are when the authorization server advertises
// DPoP or the MCP server challenges with it (client/oauth/dpop.go).

import (
	"github.com/mcpctl/mcpctl/client/oauth"
)

// dpopMode reads --dpop and --no-dpop, else the configured server's auth
// setting dpop (true or false).
func (s *connection) dpopMode() (oauth.DPoPMode, error) {
	on, off := s.g.DPoP, s.g.NoDPoP
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
