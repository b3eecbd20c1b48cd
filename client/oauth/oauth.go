// Package oauth is the client side of MCP authorization (2026-07-28
// basic/authorization): on a 401 it discovers the protected resource
// metadata (RFC 9728) and the authorization server's metadata (RFC 8414 or
// OpenID discovery), finds a client identity (a Client ID Metadata Document
// URL, pre-registered credentials, or Dynamic Client Registration), runs
// the authorization code flow with PKCE, state, RFC 8707 resource and RFC
// 9207 issuer checks, and keeps the tokens per server and issuer, on disk
// or in the OS keychain (Store), refreshing them when they expire.
//
// The package is a library: it prints nothing; the browser step is the
// caller's (Opener, Callback). golang.org/x/oauth2 does the token exchange,
// PKCE and refresh; challenges, metadata and client registration are
// this package's own (challenge.go, metadata.go, register.go).
package oauth

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/mcpctl/mcpctl/client"
)

// Config says how to authorize against one MCP server.
type Config struct {
	// ServerURL is the MCP endpoint the tokens are for.
	ServerURL string
	// HTTPClient makes the metadata, registration and token requests; it
	// must not follow redirects silently (nil: such a client).
	HTTPClient *http.Client
	Store      *Store

	// Client identity, tried in this order: a Client ID Metadata Document
	// URL (used when the authorization server supports it), pre-registered
	// credentials, else Dynamic Client Registration.
	ClientMetadataURL string
	ClientID          string
	ClientSecret      string
	// ClientName is sent in Dynamic Client Registration.
	ClientName string
	// Grant is "client_credentials" for the client credentials extension
	// (no browser: ClientID with ClientSecret or ClientKey); "" is the
	// authorization code flow. GrantJWTBearer presents Assertion, and
	// GrantIDJAG an ID-JAG from IdentityProvider (jwtbearer.go, idjag.go).
	Grant     string
	ClientKey *ClientKey
	// Assertion is the JWT of GrantJWTBearer: the workload's own.
	Assertion string
	// IdentityProvider is where GrantIDJAG gets its ID-JAG.
	IdentityProvider IdentityProvider
	// DPoP says when tokens are DPoP-bound (dpop.go).
	DPoP DPoPMode

	// Browser runs the user's part of the authorization code flow; nil
	// means no login can happen here (only stored tokens are used).
	Browser Browser
	// MaxAuthorizations bounds authorizations per Manager (3 if 0).
	MaxAuthorizations int
	// Log receives progress notes for --trace; never a secret.
	Log func(string)
	// OnSecret, when set, is told each credential the manager comes to
	// hold and may send: the access and refresh tokens, from the store or
	// a token endpoint. A program that prints what servers say can keep
	// them out of it (a server may echo the token it was sent).
	OnSecret func(value string)
	// Now replaces time.Now in tests.
	Now func() time.Time
}

// Browser is the user's side of an authorization: it shows authURL (a
// browser, or printed for pasting) and returns the query of the redirect
// that came back to the RedirectURI it gave.
type Browser interface {
	// Start prepares to receive the redirect and returns its URI.
	Start(ctx context.Context) (redirectURI string, err error)
	// Authorize opens authURL and waits for the redirect's query.
	Authorize(ctx context.Context, authURL string) (url.Values, error)
	// Close stops listening.
	Close()
}

// Error is an authorization failure. Doc and Field name the document and
// field at fault, when one is; Needs says what the caller could supply to
// get past it, when something could.
type Error struct {
	Doc   string // "protected resource metadata", "authorization server metadata", …
	URL   string
	Field string
	Msg   string
	Err   error
	// Needs is one of the Need constants, or "".
	Needs string
	// Server is the MCP server's URL, for NeedLogin.
	Server string
}

// What an authorization needs that the Config did not give (Error.Needs).
const (
	// NeedLogin: an interactive login, and Config.Browser is nil.
	NeedLogin = "login"
	// NeedClientID: the client credentials grant needs ClientID, and
	// ClientSecret or ClientKey.
	NeedClientID = "client-id"
	// NeedClientSecret: the client credentials grant needs ClientSecret
	// or ClientKey.
	NeedClientSecret = "client-secret"
	// NeedClient: the authorization server takes no registrations, so
	// ClientID (and ClientSecret) or ClientMetadataURL must be given.
	NeedClient = "client"
)

func (e *Error) Error() string { return e.Describe(e.Msg) }

// Describe is the error's message with msg in place of Msg, so that a
// caller can say what is needed in its own words (the flag or command
// that supplies it) and keep the rest: the document, the URL, the field,
// the cause.
func (e *Error) Describe(msg string) string {
	s := msg
	if e.Doc != "" {
		s = e.Doc
		if e.URL != "" {
			urls := strings.Split(e.URL, ", ")
			for i, u := range urls {
				urls[i] = client.RedactURL(u)
			}
			s += " (" + strings.Join(urls, ", ") + ")"
		}
		if e.Field != "" {
			s += ": field " + e.Field
		}
		s += ": " + msg
	}
	if e.Err != nil && e.Err != ErrNoBrowser && e.Err != ErrNotHTTPS { // Msg says it all
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// Manager authorizes requests to one server. It is safe for concurrent
// use; concurrent challenges are answered by one authorization.
type Manager struct {
	cfg Config

	mu             sync.Mutex
	tok            *Token
	granted        []string // scopes of the current token
	authorizations int
	refreshed      bool // a 401 was answered with a refresh already
	prm            *ResourceMeta
	as             *ServerMeta
	dpop           dpopState
}

// New returns a manager; nothing is fetched yet.
func New(cfg Config) *Manager {
	if cfg.MaxAuthorizations == 0 {
		cfg.MaxAuthorizations = 3
	}
	if cfg.HTTPClient == nil {
		// A fresh connection per request: a handful of them per login, and
		// a POST to /token on a kept-alive connection the server is closing
		// would fail for good (a code cannot be sent twice).
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.DisableKeepAlives = true
		cfg.HTTPClient = &http.Client{Timeout: 30 * time.Second, Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		}}
	}
	return &Manager{cfg: cfg}
}

func (m *Manager) logf(format string, a ...any) {
	if m.cfg.Log != nil {
		m.cfg.Log(fmt.Sprintf(format, a...))
	}
}

func (m *Manager) now() time.Time {
	if m.cfg.Now != nil {
		return m.cfg.Now()
	}
	return time.Now()
}

// scopeList splits a space-separated scope string.
func scopeList(s string) []string { return strings.Fields(s) }

// union is a ∪ b, in order, without duplicates.
func union(a, b []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range append(append([]string(nil), a...), b...) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
