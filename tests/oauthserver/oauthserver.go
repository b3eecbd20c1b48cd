// Package oauthserver is a local OAuth 2.1 authorization server and the
// bearer-token guard of an MCP endpoint, for mcpctl's tests and the demo
// server's --auth mode. It approves every authorization without a login
// page (redirecting straight back with a code), checks PKCE, state echo,
// the RFC 8707 resource and the client's token endpoint authentication,
// issues expiring access tokens with refresh tokens, and can be told to
// misbehave in the ways the tests need (bad metadata, a wrong iss, token
// errors, scope step-up).
package oauthserver

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Options shape the server.
type Options struct {
	// IssuerPath is the issuer's path ("" or e.g. "/tenant1").
	IssuerPath string
	// OIDC serves the metadata at openid-configuration instead of
	// oauth-authorization-server.
	OIDC bool
	// PRMAtRoot serves the protected resource metadata at the root
	// well-known URL (resource = the origin) instead of the path-based one.
	PRMAtRoot bool
	// HidePRM leaves resource_metadata out of WWW-Authenticate.
	HidePRM bool
	// Scopes the MCP endpoint requires: method → scope ("" for any token).
	Scopes map[string]string
	// ScopesSupported goes in the PRM and the AS metadata.
	ScopesSupported []string
	// CIMD advertises client_id_metadata_document_supported.
	CIMD bool
	// NoDCR leaves out the registration endpoint.
	NoDCR bool
	// NoASMeta serves no authorization server metadata: with HidePRM and
	// Fault "prm-missing", a 2025-03-26 server whose endpoints are the
	// defaults (/authorize, /token, /register at the origin).
	NoASMeta bool
	// PreRegistered is a client id and secret (client_secret_basic).
	PreRegistered [2]string
	// TokenTTL is how long access tokens live (1h if 0).
	TokenTTL time.Duration
	// Fault: "" or one of "prm-notjson", "prm-missing", "resource-mismatch",
	// "issuer-mismatch", "iss-wrong", "iss-missing", "state-wrong",
	// "token-error", "token-escape" (an access token with an escape
	// sequence in it); or (issue 13, item 11) one that names a plain-HTTP
	// URL on a host that is not loopback (PlainHTTPOrigin) for a metadata
	// field: "http-prm" (WWW-Authenticate resource_metadata), "http-issuer"
	// (the PRM's authorization_servers), "http-authorize", "http-token",
	// "http-register"; or PKCE metadata mcpctl must refuse: "pkce-absent"
	// (no code_challenge_methods_supported), "pkce-plain" (["plain"]).
	Fault string
	GrantOptions
	// DPoPAlgs, when set, is advertised as dpop_signing_alg_values_supported
	// and tokens asked for with a proof are DPoP-bound (dpop.go).
	DPoPAlgs []string
	// DPoPNonce: "", "required", "as-forever" or "rs-forever" (dpop.go).
	DPoPNonce string
}

// PlainHTTPOrigin is where the http-* faults point: a host that is not
// loopback (and does not resolve), so that nothing can be sent there.
const PlainHTTPOrigin = "http://auth.example.test"

// Server is the authorization server plus the MCP guard.
type Server struct {
	opts Options
	// Base is the origin ("http://127.0.0.1:PORT") once mounted.
	Base string

	mu       sync.Mutex
	codes    map[string]grant // code → what it grants
	tokens   map[string]grant // access token → grant
	refresh  map[string]grant
	clients  map[string]string // client id → secret ("" for public)
	n        int
	Requests []string        // "METHOD /path" of every AS request, for tests
	jtis     map[string]bool // DPoP proof ids seen
	// moved, once set, is the authorization server the resource has moved
	// to: its issuer is named in the metadata and only its tokens count.
	moved *Server
}

// MoveTo makes the protected resource trust other from now on (an
// authorization server migration); other must be mounted with MountAS.
func (s *Server) MoveTo(other *Server) {
	s.mu.Lock()
	s.moved = other
	s.mu.Unlock()
}

// authority is the server whose issuer and tokens the resource trusts.
func (s *Server) authority() *Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.moved != nil {
		return s.moved
	}
	return s
}

type grant struct {
	client, scope, resource, challenge string
	jkt                                string // DPoP key thumbprint
	expiry                             time.Time
}

// New returns a server; Mount it on a mux and set Base.
func New(opts Options) *Server {
	if opts.TokenTTL == 0 {
		opts.TokenTTL = time.Hour
	}
	s := &Server{opts: opts, codes: map[string]grant{}, tokens: map[string]grant{}, refresh: map[string]grant{}, clients: map[string]string{}}
	if id := opts.PreRegistered[0]; id != "" {
		s.clients[id] = opts.PreRegistered[1]
	}
	return s
}

// Issuer is the authorization server's issuer identifier.
func (s *Server) Issuer() string { return s.Base + s.opts.IssuerPath }

// Resource is the MCP endpoint's resource identifier.
func (s *Server) Resource(mcpPath string) string {
	if s.opts.PRMAtRoot {
		return s.Base
	}
	return s.Base + mcpPath
}

// Mount adds the authorization server's and the metadata's routes to mux,
// and guards mcp (served at mcpPath) with bearer tokens.
func (s *Server) Mount(mux *http.ServeMux, mcpPath string, mcp http.Handler) {
	prmPath := "/.well-known/oauth-protected-resource" + mcpPath
	if s.opts.PRMAtRoot {
		prmPath = "/.well-known/oauth-protected-resource"
	}
	mux.HandleFunc(prmPath, func(w http.ResponseWriter, r *http.Request) {
		s.note(r)
		switch s.opts.Fault {
		case "prm-missing":
			http.NotFound(w, r)
			return
		case "prm-notjson":
			fmt.Fprint(w, "<html>not metadata</html>")
			return
		}
		resource := s.Resource(mcpPath)
		if s.opts.Fault == "resource-mismatch" {
			resource = "https://evil.example.com/mcp"
		}
		issuer := s.authority().Issuer()
		if s.opts.Fault == "http-issuer" {
			issuer = PlainHTTPOrigin + s.opts.IssuerPath
		}
		writeJSON(w, 200, map[string]any{"resource": resource, "authorization_servers": []string{issuer}, "scopes_supported": s.opts.ScopesSupported})
	})
	s.MountAS(mux)
	mux.Handle(mcpPath, s.guard(mcpPath, mcp))
}

// MountAS adds only the authorization server's routes (its metadata and
// endpoints, under its IssuerPath).
func (s *Server) MountAS(mux *http.ServeMux) {
	metaName := "oauth-authorization-server"
	if s.opts.OIDC {
		metaName = "openid-configuration"
	}
	mux.HandleFunc("/.well-known/"+metaName+s.opts.IssuerPath, func(w http.ResponseWriter, r *http.Request) {
		s.note(r)
		if s.opts.NoASMeta {
			http.NotFound(w, r)
			return
		}
		issuer := s.Issuer()
		if s.opts.Fault == "issuer-mismatch" {
			issuer = "https://attacker.example.com"
		}
		meta := map[string]any{
			"issuer": issuer, "authorization_endpoint": s.Issuer() + "/authorize", "token_endpoint": s.Issuer() + "/token",
			"response_types_supported": []string{"code"}, "grant_types_supported": []string{"authorization_code", "refresh_token"},
			"code_challenge_methods_supported": []string{"S256"}, "authorization_response_iss_parameter_supported": true,
			"token_endpoint_auth_methods_supported": []string{"none", "client_secret_basic"},
			"client_id_metadata_document_supported": s.opts.CIMD,
		}
		if !s.opts.NoDCR {
			meta["registration_endpoint"] = s.Issuer() + "/register"
		}
		switch s.opts.Fault {
		case "http-authorize", "http-token", "http-register":
			field := map[string]string{"http-authorize": "authorization_endpoint", "http-token": "token_endpoint", "http-register": "registration_endpoint"}[s.opts.Fault]
			meta[field] = PlainHTTPOrigin + s.opts.IssuerPath + "/" + strings.TrimPrefix(s.opts.Fault, "http-")
		case "pkce-absent":
			delete(meta, "code_challenge_methods_supported")
		case "pkce-plain":
			meta["code_challenge_methods_supported"] = []string{"plain"}
		}
		if len(s.opts.ScopesSupported) > 0 {
			meta["scopes_supported"] = s.opts.ScopesSupported
		}
		if len(s.opts.DPoPAlgs) > 0 {
			meta["dpop_signing_alg_values_supported"] = s.opts.DPoPAlgs
		}
		writeJSON(w, 200, meta)
	})
	mux.HandleFunc(s.opts.IssuerPath+"/register", s.register)
	mux.HandleFunc(s.opts.IssuerPath+"/authorize", s.authorize)
	mux.HandleFunc(s.opts.IssuerPath+"/token", s.token)
}

func (s *Server) note(r *http.Request) {
	s.mu.Lock()
	s.Requests = append(s.Requests, r.Method+" "+r.URL.Path)
	s.mu.Unlock()
}

// Count reports how many requests went to path.
func (s *Server) Count(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.Requests {
		if strings.HasSuffix(r, " "+path) {
			n++
		}
	}
	return n
}

func (s *Server) next(prefix string) string {
	s.n++
	return fmt.Sprintf("%s-%d-%d", prefix, s.n, time.Now().UnixNano()%1e6)
}

func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	s.note(r)
	var meta struct {
		RedirectURIs    []string `json:"redirect_uris"`
		AuthMethod      string   `json:"token_endpoint_auth_method"`
		ApplicationType string   `json:"application_type"`
	}
	if err := json.NewDecoder(r.Body).Decode(&meta); err != nil || len(meta.RedirectURIs) == 0 {
		writeJSON(w, 400, map[string]string{"error": "invalid_client_metadata"})
		return
	}
	s.mu.Lock()
	id := s.next("client")
	secret := ""
	if meta.AuthMethod == "client_secret_basic" {
		secret = s.next("secret")
	}
	s.clients[id] = secret
	s.mu.Unlock()
	if meta.AuthMethod == "" {
		meta.AuthMethod = "none"
	}
	writeJSON(w, 201, map[string]any{"client_id": id, "client_secret": secret, "redirect_uris": meta.RedirectURIs, "token_endpoint_auth_method": meta.AuthMethod})
}

// authorize approves at once: back to redirect_uri with a code, the state
// and iss (unless a fault says otherwise).
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	s.note(r)
	q := r.URL.Query()
	redirect, err := url.Parse(q.Get("redirect_uri"))
	if err != nil || redirect.Scheme == "" || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" {
		http.Error(w, "bad authorization request (redirect_uri, PKCE S256)", 400)
		return
	}
	s.mu.Lock()
	_, known := s.clients[q.Get("client_id")]
	if !known && s.opts.CIMD && strings.HasPrefix(q.Get("client_id"), "https://") {
		known = true
	}
	code := s.next("code")
	s.codes[code] = grant{client: q.Get("client_id"), scope: q.Get("scope"), resource: q.Get("resource"), challenge: q.Get("code_challenge")}
	s.mu.Unlock()
	if !known {
		http.Error(w, "unknown client", 400)
		return
	}
	back := redirect.Query()
	back.Set("code", code)
	back.Set("state", q.Get("state"))
	switch s.opts.Fault {
	case "state-wrong":
		back.Set("state", "not-your-state")
		back.Set("iss", s.Issuer())
	case "iss-wrong":
		back.Set("iss", "https://evil.example.com")
	case "iss-missing":
	default:
		back.Set("iss", s.Issuer())
	}
	redirect.RawQuery = back.Encode()
	http.Redirect(w, r, redirect.String(), http.StatusFound)
}

func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	s.note(r)
	if s.opts.Hang {
		// Read the body first: only then does the request's context end
		// when the client goes away. A minute at most, whatever happens.
		_ = r.ParseForm()
		select {
		case <-r.Context().Done():
		case <-time.After(time.Minute):
		}
		return
	}
	if err := r.ParseForm(); err != nil {
		writeJSON(w, 400, map[string]string{"error": "invalid_request"})
		return
	}
	if s.opts.Fault == "token-error" {
		writeJSON(w, 400, map[string]string{"error": "invalid_grant", "error_description": "the code has expired"})
		return
	}
	jkt, ok := s.dpopToken(w, r)
	if !ok {
		return
	}
	id, secret, basic := r.BasicAuth()
	if !basic {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	want, known := s.clients[id]
	if !known && !(s.opts.CIMD && strings.HasPrefix(id, "https://")) || known && want != secret {
		writeJSON(w, 401, map[string]string{"error": "invalid_client"})
		return
	}
	var g grant
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		c, ok := s.codes[r.PostForm.Get("code")]
		delete(s.codes, r.PostForm.Get("code"))
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		switch {
		case !ok || c.client != id:
			writeJSON(w, 400, map[string]string{"error": "invalid_grant", "error_description": "unknown code"})
			return
		case base64.RawURLEncoding.EncodeToString(sum[:]) != c.challenge:
			writeJSON(w, 400, map[string]string{"error": "invalid_grant", "error_description": "PKCE verification failed"})
			return
		case r.PostForm.Get("resource") != c.resource:
			writeJSON(w, 400, map[string]string{"error": "invalid_target", "error_description": "resource differs from the authorization request's"})
			return
		}
		g = c
	case "refresh_token":
		rt, ok := s.refresh[r.PostForm.Get("refresh_token")]
		delete(s.refresh, r.PostForm.Get("refresh_token"))
		if !ok || rt.client != id {
			writeJSON(w, 400, map[string]string{"error": "invalid_grant", "error_description": "unknown refresh token"})
			return
		}
		if rt.jkt != "" && rt.jkt != jkt {
			writeJSON(w, 400, map[string]string{"error": "invalid_grant", "error_description": "the refresh token is DPoP-bound to another key"})
			return
		}
		g = rt
	case "client_credentials":
		g = grant{client: id, scope: r.PostForm.Get("scope"), resource: r.PostForm.Get("resource")}
	default:
		var done bool
		if g, done = s.otherGrant(w, r, id); done {
			return
		}
	}
	access, refresh := s.next("access"), s.next("refresh")
	if s.opts.Fault == "token-escape" {
		access += "\x1b]0;pwned\x07"
	}
	g.expiry, g.jkt = time.Now().Add(s.opts.TokenTTL), jkt
	s.tokens[access], s.refresh[refresh] = g, g
	tokenType := "Bearer"
	if jkt != "" {
		tokenType = "DPoP"
	}
	writeJSON(w, 200, map[string]any{"access_token": access, "token_type": tokenType, "expires_in": int(s.opts.TokenTTL.Seconds()),
		"refresh_token": refresh, "scope": g.scope})
}

// guard lets through requests with a live token that has the scope the
// JSON-RPC method needs; others get 401, or 403 insufficient_scope.
func (s *Server) guard(mcpPath string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		challenge := `Bearer error="invalid_token"`
		if !s.opts.HidePRM {
			prm := s.Base + "/.well-known/oauth-protected-resource" + mcpPath
			if s.opts.PRMAtRoot {
				prm = s.Base + "/.well-known/oauth-protected-resource"
			}
			if s.opts.Fault == "http-prm" {
				prm = PlainHTTPOrigin + "/.well-known/oauth-protected-resource" + mcpPath
			}
			challenge += `, resource_metadata="` + prm + `"`
		}
		_, tok, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		a := s.authority()
		a.mu.Lock()
		g, ok := a.tokens[tok]
		a.mu.Unlock()
		if !ok || time.Now().After(g.expiry) {
			w.Header().Set("WWW-Authenticate", challenge)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		if !s.dpopGuard(w, r, tok, g) {
			return
		}
		if need := s.opts.Scopes[r.Header.Get("Mcp-Method")]; need != "" && !strings.Contains(" "+g.scope+" ", " "+need+" ") {
			w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="`+need+`"`)
			http.Error(w, "insufficient scope", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
