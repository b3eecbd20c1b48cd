package oauth

// The authorization code flow and what drives it: a request answered 401
// (no token, or one the server no longer takes) or 403 insufficient_scope
// (step-up: the union of the scopes granted and those asked for).

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

// ErrNoBrowser means a login is needed but this Manager cannot run one.
var ErrNoBrowser = errors.New("a login is needed, and there is no browser to do it in")

// Authorization returns the Authorization header for the next request:
// the stored token, refreshed first when it has expired and can be, or ""
// when there is none yet.
func (m *Manager) Authorization(ctx context.Context) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.tok == nil {
		if t := m.cfg.Store.Token(m.cfg.ServerURL, ""); t != nil && checkToken(t.AccessToken, t.RefreshToken) == "" {
			// (one that is not a token, stored by an older mcpctl, is
			// no use: a new authorization replaces it)
			m.tok, m.granted = t, t.Scope
			m.told()
		}
	}
	if m.tok == nil {
		return "", nil
	}
	if m.expiring() && m.tok.RefreshToken != "" {
		if err := m.refresh(ctx); errors.Is(err, ErrNotHTTPS) {
			return "", err
		} else if err != nil {
			m.logf("oauth: refresh failed (%v); a new authorization will be needed", err)
		}
	}
	return m.scheme() + " " + m.tok.AccessToken, nil
}

// expiring: the token has expired, or is about to (within a tenth of its
// life, at most 10s), so that a request does not carry it past its end.
func (m *Manager) expiring() bool {
	if m.tok.Expiry.IsZero() {
		return false
	}
	margin := min(10*time.Second, m.tok.Expiry.Sub(m.tok.Obtained)/10)
	return m.now().After(m.tok.Expiry.Add(-margin))
}

// Challenge handles a 401 or 403 answer. retry says to send the request
// again (with Authorization); an error stops the command.
func (m *Manager) Challenge(ctx context.Context, status int, h http.Header) (retry bool, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ch, bearer := m.parseChallenge(h)
	switch {
	case status == http.StatusForbidden && ch.Error == "insufficient_scope":
		m.logf("oauth: the server wants more scope (%s)", ch.Scope)
		ch.Scope = strings.Join(union(m.granted, scopeList(ch.Scope)), " ")
		return true, m.authorize(ctx, ch)
	case status == http.StatusForbidden:
		return false, nil // refused for good: the caller reports it
	}
	if !bearer && ch.ResourceMetadata == "" {
		// Still try the well-known locations: the header may just be absent.
		m.logf("oauth: 401 without a Bearer challenge (%s)", ch.Raw)
	}
	// Discover again even with a token in hand: the server may have moved
	// to another authorization server, whose clients and tokens are its own.
	prm, err := m.discoverResource(ctx, ch)
	if err != nil {
		return false, err
	}
	if t := m.tok; t != nil {
		m.tok = nil
		if t.Issuer == prm.AuthorizationServers[0] && t.RefreshToken != "" && t.TokenURL != "" && !m.refreshed {
			// The same authorization server: a refreshed token may do, once.
			m.refreshed, m.tok = true, t
			err := m.refresh(ctx)
			if err == nil {
				return true, nil
			}
			m.tok = nil
			if errors.Is(err, ErrNotHTTPS) {
				return false, err
			}
		} else if t.Issuer != prm.AuthorizationServers[0] {
			m.logf("oauth: the server now names another authorization server (%s)", prm.AuthorizationServers[0])
		}
	}
	return true, m.authorizeWith(ctx, ch, prm)
}

// Login authorizes now: it asks the server (no token) for its challenge,
// then runs the flow.
func (m *Manager) Login(ctx context.Context) error {
	body := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, m.cfg.ServerURL, body)
	if err != nil {
		return &Error{Msg: "invalid server URL", Err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "server/discover")
	resp, err := m.cfg.HTTPClient.Do(req)
	if err != nil {
		return &Error{Msg: "cannot reach " + m.cfg.ServerURL, Err: err}
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		return &Error{Msg: fmt.Sprintf("the server does not ask for authorization (it answered HTTP %d without a token)", resp.StatusCode)}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	ch, _ := ParseChallenge(resp.Header)
	return m.authorize(ctx, ch)
}

// authorize runs the whole flow for challenge ch. m.mu is held.
func (m *Manager) authorize(ctx context.Context, ch Challenge) error {
	return m.authorizeWith(ctx, ch, nil)
}

// authorizeWith is authorize with the resource metadata already fetched
// (nil: fetch it).
func (m *Manager) authorizeWith(ctx context.Context, ch Challenge, prm *ResourceMeta) error {
	if m.authorizations >= m.cfg.MaxAuthorizations {
		return &Error{Msg: fmt.Sprintf("gave up after %d authorizations: the server keeps refusing the token (last challenge: %s)", m.authorizations, ch.Raw)}
	}
	if prm == nil {
		var err error
		if prm, err = m.discoverResource(ctx, ch); err != nil {
			return err
		}
	}
	as, err := m.serverMeta(ctx, prm)
	if err != nil {
		return err
	}
	if err := m.dpopFor(as); err != nil {
		return err
	}
	scopes := scopeList(ch.Scope)
	if len(scopes) == 0 {
		scopes = prm.ScopesSupported
	}
	if m.cfg.Grant != "" {
		m.authorizations++
		tok, err := m.grantToken(ctx, prm, as, scopes)
		if err != nil {
			return err
		}
		return m.keep(tok, scopes, prm, as)
	}
	if m.cfg.Browser == nil {
		return &Error{Msg: "the server needs you to log in, and no browser is configured", Err: ErrNoBrowser, Needs: NeedLogin, Server: m.cfg.ServerURL}
	}
	if contains(as.ScopesSupported, "offline_access") && !contains(scopes, "offline_access") {
		scopes = append(append([]string(nil), scopes...), "offline_access")
	}
	redirect, err := m.cfg.Browser.Start(ctx)
	if err != nil {
		return &Error{Msg: "cannot listen for the authorization's redirect", Err: err}
	}
	defer m.cfg.Browser.Close()
	client, err := m.clientFor(ctx, as, redirect)
	if err != nil {
		return err
	}
	conf := oauthConfig(as, client, redirect, scopes)
	verifier := oauth2.GenerateVerifier()
	state := randomString()
	authURL := conf.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("resource", prm.Resource))
	m.authorizations++
	m.logf("oauth: authorization %d at %s (scopes: %s)", m.authorizations, as.AuthorizationEndpoint, strings.Join(scopes, " "))
	q, err := m.cfg.Browser.Authorize(ctx, authURL)
	if err != nil {
		return err
	}
	if err := checkResponse(q, as, state); err != nil {
		return err
	}
	tctx := context.WithValue(ctx, oauth2.HTTPClient, m.tokenHTTPClient())
	tok, err := conf.Exchange(tctx, q.Get("code"), oauth2.VerifierOption(verifier), oauth2.SetAuthURLParam("resource", prm.Resource))
	if err != nil {
		return tokenError(err)
	}
	return m.keep(tok, scopes, prm, as)
}

// keep makes tok the current token and stores it. m.mu is held.
func (m *Manager) keep(tok *oauth2.Token, scopes []string, prm *ResourceMeta, as *ServerMeta) error {
	if err := issuedToken(as.Issuer, tok); err != nil {
		return err
	}
	if err := m.dpopIssued(tok.TokenType); err != nil {
		return err
	}
	t := &Token{AccessToken: tok.AccessToken, TokenType: tok.TokenType, RefreshToken: tok.RefreshToken, Expiry: tok.Expiry,
		Scope: scopes, Issuer: as.Issuer, Resource: prm.Resource, Obtained: m.now().UTC(), TokenURL: as.TokenEndpoint}
	if s, ok := tok.Extra("scope").(string); ok && s != "" {
		t.Scope = scopeList(s)
	}
	m.tok, m.granted, m.prm, m.as = t, t.Scope, prm, as
	m.told()
	if m.cfg.Grant == GrantJWTBearer {
		return nil // the workload presents its JWT again next time (SEP-1933: not persisted)
	}
	if err := m.cfg.Store.SaveToken(m.cfg.ServerURL, t); err != nil {
		m.logf("oauth: cannot store the token: %v", err)
	}
	return nil
}

// checkResponse validates the authorization response before anything in
// it is used: the issuer (RFC 9207) by exact string comparison, then the
// state; on a mismatch nothing of the response is shown or used.
func checkResponse(q url.Values, as *ServerMeta, state string) error {
	iss, hasIss := q["iss"]
	switch {
	case hasIss && (len(iss) != 1 || iss[0] != as.Issuer):
		return &Error{Msg: "the authorization response names another issuer than the authorization server's (RFC 9207); it was rejected and nothing in it was used"}
	case !hasIss && as.AuthorizationResponseIssParameterSupported:
		return &Error{Msg: "the authorization response has no iss, which the authorization server promised (RFC 9207); it was rejected"}
	case q.Get("state") != state:
		return &Error{Msg: "the authorization response's state does not match this login's; it was rejected"}
	case q.Get("error") != "":
		msg := "the authorization was refused: " + q.Get("error")
		if d := q.Get("error_description"); d != "" {
			msg += " (" + d + ")"
		}
		return &Error{Msg: msg}
	case q.Get("code") == "":
		return &Error{Msg: "the authorization response has no code"}
	}
	return nil
}

func oauthConfig(as *ServerMeta, c *ClientInfo, redirect string, scopes []string) *oauth2.Config {
	style := oauth2.AuthStyleInParams // "none" and client_secret_post
	if c.AuthMethod == "client_secret_basic" {
		style = oauth2.AuthStyleInHeader
	}
	secret := c.ClientSecret
	if c.AuthMethod == "none" {
		secret = ""
	}
	return &oauth2.Config{
		ClientID: c.ClientID, ClientSecret: secret, RedirectURL: redirect, Scopes: scopes,
		Endpoint: oauth2.Endpoint{AuthURL: as.AuthorizationEndpoint, TokenURL: as.TokenEndpoint, AuthStyle: style},
	}
}

// refresh trades the refresh token for a new access token. m.mu is held.
// The token endpoint is the one stored with the token, checked again: the
// file may come from an older mcpctl, or have been edited.
func (m *Manager) refresh(ctx context.Context) error {
	if plainHTTP(m.tok.TokenURL) {
		return notHTTPS("stored token", m.cfg.ServerURL, "token_url", m.tok.TokenURL, "log in again to replace the token")
	}
	c := m.cfg.Store.Client(m.tok.Issuer)
	if c == nil {
		if m.cfg.ClientID == "" {
			return errors.New("no client registration for " + m.tok.Issuer)
		}
		c = &ClientInfo{Issuer: m.tok.Issuer, ClientID: m.cfg.ClientID, ClientSecret: m.cfg.ClientSecret, AuthMethod: "client_secret_basic"}
		if m.cfg.ClientSecret == "" {
			c.AuthMethod = "none"
		}
	}
	// Another mcpctl may be refreshing the same token right now, and a
	// rotating refresh token works once: hold the server's lock, then
	// look again; the token stored meanwhile is the one to use.
	unlock, err := m.cfg.Store.lockServer(ctx, m.cfg.ServerURL)
	if err != nil {
		return &Error{Msg: "cannot lock the stored token to refresh it", Err: err}
	}
	defer unlock()
	if cur := m.cfg.Store.Token(m.cfg.ServerURL, m.tok.Issuer); cur != nil && cur.AccessToken != m.tok.AccessToken && checkToken(cur.AccessToken, cur.RefreshToken) == "" {
		m.tok = cur
		m.told()
		if !m.expiring() {
			m.logf("oauth: using the token another process refreshed meanwhile")
			return nil
		}
	}
	conf := oauthConfig(&ServerMeta{Issuer: m.tok.Issuer, TokenEndpoint: m.tok.TokenURL}, c, "", nil)
	if err := m.dpopForRefresh(); err != nil {
		return err
	}
	tctx := context.WithValue(ctx, oauth2.HTTPClient, m.tokenHTTPClient())
	m.logf("oauth: refreshing the token at %s", m.tok.TokenURL)
	tok, err := conf.TokenSource(tctx, &oauth2.Token{RefreshToken: m.tok.RefreshToken, Expiry: time.Unix(1, 0)}).Token()
	if err != nil {
		return tokenError(err)
	}
	if err := issuedToken(m.tok.Issuer, tok); err != nil {
		return err
	}
	t := *m.tok
	t.AccessToken, t.TokenType, t.Expiry, t.Obtained = tok.AccessToken, tok.TokenType, tok.Expiry, m.now().UTC()
	if tok.RefreshToken != "" {
		t.RefreshToken = tok.RefreshToken
	}
	m.tok = &t
	m.told()
	return m.cfg.Store.SaveToken(m.cfg.ServerURL, &t)
}

// tokenError shows the token endpoint's error and error_description.
func tokenError(err error) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		msg := "the token endpoint refused: "
		if re.ErrorCode != "" {
			msg += re.ErrorCode
			if re.ErrorDescription != "" {
				msg += " (" + re.ErrorDescription + ")"
			}
		} else {
			msg += "HTTP " + re.Response.Status
		}
		return &Error{Msg: msg}
	}
	return &Error{Msg: "the token request failed", Err: err}
}

func randomString() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Status describes the stored authorization for the server.
type Status struct {
	Issuer, Resource string
	Scope            []string
	Expiry           time.Time
	Refreshable      bool
	Obtained         time.Time
	// Store is where the token is kept: "keychain" or "file".
	Store string
}

// Stored returns what is stored for the server, if anything.
func (m *Manager) Stored() (*Status, bool) {
	t := m.cfg.Store.Token(m.cfg.ServerURL, "")
	if t == nil {
		return nil, false
	}
	return &Status{Issuer: t.Issuer, Resource: t.Resource, Scope: t.Scope, Expiry: t.Expiry, Refreshable: t.RefreshToken != "", Obtained: t.Obtained,
		Store: m.cfg.Store.Where(m.cfg.ServerURL)}, true
}

// Logout forgets the server's tokens and says whether there were any.
func (m *Manager) Logout() (bool, error) {
	m.mu.Lock()
	m.tok = nil
	m.mu.Unlock()
	return m.cfg.Store.Forget(m.cfg.ServerURL)
}

// KeepsTokens reports whether a login stores its token: every grant's
// does but the JWT-bearer grant's, which presents its assertion again for
// each token (SEP-1933).
func (m *Manager) KeepsTokens() bool { return m.cfg.Grant != GrantJWTBearer }

// told tells Config.OnSecret of the current token's values. m.mu is held.
func (m *Manager) told() {
	if m.cfg.OnSecret == nil || m.tok == nil {
		return
	}
	for _, v := range []string{m.tok.AccessToken, m.tok.RefreshToken} {
		if v != "" {
			m.cfg.OnSecret(v)
		}
	}
}
