package main

// --auth: the demo behind OAuth, shaped like a real remote server. The
// MCP endpoint wants a bearer token (401 with resource_metadata without
// one); protected resource metadata and an authorization server (package
// tests/oauthserver: it approves every login at once) are served on the
// same origin, the server under /as.

import (
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/mcpctl/mcpctl/tests/oauthserver"
)

var (
	withAuth  bool
	tokenTTL  = time.Hour
	authFault string
	// authDPoP and authDPoPNonce: the authorization server's DPoP mode.
	authDPoP, authDPoPNonce string
)

func authHandler(mcp http.Handler, addr net.Addr) http.Handler {
	base := strings.TrimSuffix(endpointURL(addr), "/mcp")
	opts := oauthserver.Options{
		IssuerPath:      "/as",
		ScopesSupported: []string{"mcp:tools", "offline_access"},
		TokenTTL:        tokenTTL,
		Fault:           authFault,
		DPoPNonce:       authDPoPNonce,
	}
	if authDPoP != "" {
		opts.DPoPAlgs = strings.Split(authDPoP, ",")
	}
	as := oauthserver.New(opts)
	as.Base = base
	mux := http.NewServeMux()
	as.Mount(mux, "/mcp", mcp)
	return mux
}
