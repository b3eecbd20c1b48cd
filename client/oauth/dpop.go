package oauth

// DPoP (RFC 9449, the MCP DPoP extension SEP-1932): tokens bound to a key
// pair of this client. Each request to the token endpoint and to the MCP
// server carries a fresh proof signed with the key (typ dpop+jwt, the
// public key as jwk; htm, htu, iat, jti; ath, the access token's hash, for
// the MCP server), the token goes as "Authorization: DPoP <token>", and a
// server that wants a nonce in the proofs (use_dpop_nonce, with the nonce
// in DPoP-Nonce) gets the request once more with it, and no more.

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/golang-jwt/jwt/v5"
	"github.com/mcpctl/mcpctl/client"
)

// DPoPMode says when tokens are DPoP-bound.
type DPoPMode int

const (
	// DPoPAuto binds tokens when the authorization server advertises
	// dpop_signing_alg_values_supported or the MCP server challenges with
	// the DPoP scheme; otherwise they are Bearer tokens.
	DPoPAuto DPoPMode = iota
	// DPoPRequire always sends proofs to the token endpoint and refuses
	// a token that comes back unbound.
	DPoPRequire
	// DPoPRefuse never sends a proof: Bearer tokens only.
	DPoPRefuse
)

// dpopAlg is the one proof algorithm made here.
const dpopAlg = "ES256"

// NeedNoDPoP (Error.Needs): DPoP cannot be used with this authorization
// server; a Bearer token could be asked for instead.
const NeedNoDPoP = "no-dpop"

// dpopState is a Manager's DPoP state. It has its own lock: token
// requests are made with Manager.mu held.
type dpopState struct {
	mu     sync.Mutex
	key    *ecdsa.PrivateKey
	use    bool              // the token requests being made carry proofs
	asked  bool              // the MCP server challenged with the DPoP scheme
	nonces map[string]string // the last nonce of each origin
}

// parseChallenge reads a 401 or 403's challenge: Bearer, else DPoP (which
// a server that wants DPoP-bound tokens may send alone).
func (m *Manager) parseChallenge(h http.Header) (Challenge, bool) {
	ch, ok := ParseChallenge(h)
	if ok {
		return ch, true
	}
	raw := strings.Join(h.Values("WWW-Authenticate"), ", ")
	cs, err := parseChallenges(raw)
	if err != nil {
		return ch, false
	}
	for _, c := range cs {
		if c.scheme == "dpop" {
			m.dpop.mu.Lock()
			m.dpop.asked = true
			m.dpop.mu.Unlock()
			return Challenge{ResourceMetadata: c.params["resource_metadata"], Scope: c.params["scope"],
				Error: c.params["error"], Description: c.params["error_description"], Raw: raw}, true
		}
	}
	return ch, false
}

// dpopFor decides whether the token request about to be made at as
// carries proofs, and makes the key when it does. m.mu is held.
func (m *Manager) dpopFor(as *ServerMeta) error {
	m.dpop.mu.Lock()
	defer m.dpop.mu.Unlock()
	m.dpop.use = false
	algs := as.DPoPSigningAlgValuesSupported
	switch m.cfg.DPoP {
	case DPoPRefuse:
		return nil
	case DPoPAuto:
		if len(algs) == 0 && !m.dpop.asked {
			return nil
		}
	}
	if len(algs) > 0 && !contains(algs, dpopAlg) {
		return &Error{Doc: "authorization server metadata", URL: as.Issuer, Field: "dpop_signing_alg_values_supported",
			Msg: "DPoP proofs are taken signed with " + strings.Join(algs, ", ") + " only, and this client signs them with " + dpopAlg, Needs: NeedNoDPoP}
	}
	if err := m.dpopKeyLocked(true); err != nil {
		return err
	}
	m.dpop.use = true
	m.logf("oauth: DPoP: token requests at %s carry proofs (%s)", as.Issuer, dpopAlg)
	return nil
}

// dpopForRefresh: a refresh carries proofs when the token is DPoP-bound
// (so is its refresh token, for a public client) or DPoP is required.
func (m *Manager) dpopForRefresh() error {
	m.dpop.mu.Lock()
	defer m.dpop.mu.Unlock()
	m.dpop.use = m.cfg.DPoP != DPoPRefuse && (isDPoP(m.tok.TokenType) || m.cfg.DPoP == DPoPRequire)
	if m.dpop.use {
		return m.dpopKeyLocked(m.cfg.DPoP == DPoPRequire && !isDPoP(m.tok.TokenType))
	}
	return nil
}

// dpopIssued checks the token type the token endpoint gave (RFC 9449 §5:
// DPoP for a bound token); with DPoP required, an unbound one is refused.
func (m *Manager) dpopIssued(tokenType string) error {
	m.dpop.mu.Lock()
	used := m.dpop.use
	m.dpop.mu.Unlock()
	switch {
	case !used || isDPoP(tokenType):
		return nil
	case m.cfg.DPoP == DPoPRequire:
		return &Error{Msg: "the authorization server issued a " + tokenType + " token, not a DPoP-bound one, although DPoP was required", Needs: NeedNoDPoP}
	}
	m.logf("oauth: DPoP: the authorization server issued a %s token; it is used as such", tokenType)
	return nil
}

func isDPoP(tokenType string) bool { return strings.EqualFold(tokenType, "DPoP") }

// scheme is the Authorization scheme of the current token. m.mu is held.
func (m *Manager) scheme() string {
	if isDPoP(m.tok.TokenType) {
		return "DPoP"
	}
	return "Bearer"
}

// dpopKeyLocked loads the server's key, or makes and stores one when
// create is set. m.dpop.mu is held.
func (m *Manager) dpopKeyLocked(create bool) error {
	if m.dpop.key != nil {
		return nil
	}
	if k := m.cfg.Store.DPoPKey(m.cfg.ServerURL); k != nil {
		m.dpop.key = k
		return nil
	}
	if !create {
		return &Error{Msg: "the token is DPoP-bound and its key is missing from the token store; log in again", Needs: NeedLogin, Server: m.cfg.ServerURL}
	}
	k, err := newDPoPKey()
	if err != nil {
		return &Error{Msg: "cannot make a DPoP key", Err: err}
	}
	if err := m.cfg.Store.SaveDPoPKey(m.cfg.ServerURL, k); err != nil {
		return &Error{Msg: "cannot store the DPoP key", Err: err}
	}
	m.dpop.key = k
	return nil
}

// proof is a DPoP proof for one request (RFC 9449 §4.2); accessToken is
// hashed into ath when given (requests to the MCP server).
func (m *Manager) proof(method, rawURL, accessToken string) (string, error) {
	m.dpop.mu.Lock()
	defer m.dpop.mu.Unlock()
	if err := m.dpopKeyLocked(false); err != nil {
		return "", err
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", &Error{Msg: "cannot make a DPoP proof for " + client.RedactURL(rawURL), Err: err}
	}
	nonce := m.dpop.nonces[origin(u)]
	u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = "", false, "", ""
	jwk, err := publicJWK(m.dpop.key)
	if err != nil {
		return "", &Error{Msg: "cannot make a DPoP proof", Err: err}
	}
	claims := jwt.MapClaims{"jti": randomString(), "htm": method, "htu": u.String(), "iat": m.now().Unix()}
	if accessToken != "" {
		sum := sha256.Sum256([]byte(accessToken))
		claims["ath"] = base64.RawURLEncoding.EncodeToString(sum[:])
	}
	if nonce != "" {
		claims["nonce"] = nonce
	}
	t := jwt.NewWithClaims(jwt.SigningMethodES256, claims)
	t.Header["typ"] = "dpop+jwt"
	t.Header["jwk"] = jwk
	s, err := t.SignedString(m.dpop.key)
	if err != nil {
		return "", &Error{Msg: "cannot sign a DPoP proof", Err: err}
	}
	return s, nil
}

func origin(u *url.URL) string { return strings.ToLower(u.Scheme + "://" + u.Host) }

// keepNonce keeps a nonce the server at rawURL gave in DPoP-Nonce and
// returns it ("" when none).
func (m *Manager) keepNonce(rawURL string, h http.Header) string {
	n := h.Get("DPoP-Nonce")
	u, err := url.Parse(rawURL)
	if n == "" || err != nil {
		return ""
	}
	m.dpop.mu.Lock()
	defer m.dpop.mu.Unlock()
	if m.dpop.nonces == nil {
		m.dpop.nonces = map[string]string{}
	}
	m.dpop.nonces[origin(u)] = n
	return n
}

// AuthorizeRequest sets Authorization for a request to method url and,
// for a DPoP-bound token, the DPoP proof (client.BoundAuthenticator).
func (m *Manager) AuthorizeRequest(ctx context.Context, method, rawURL string, hd http.Header) error {
	v, err := m.Authorization(ctx)
	if err != nil || v == "" {
		return err
	}
	hd.Set("Authorization", v)
	hd.Del("DPoP")
	if tok, ok := strings.CutPrefix(v, "DPoP "); ok {
		p, err := m.proof(method, rawURL, tok)
		if err != nil {
			return err
		}
		hd.Set("DPoP", p)
	}
	return nil
}

// Nonce keeps the nonce of a response from the MCP server and says
// whether it was a use_dpop_nonce challenge (client.BoundAuthenticator).
func (m *Manager) Nonce(rawURL string, status int, h http.Header) bool {
	if m.keepNonce(rawURL, h) == "" || status != http.StatusUnauthorized {
		return false
	}
	cs, err := parseChallenges(strings.Join(h.Values("WWW-Authenticate"), ", "))
	if err != nil {
		return false
	}
	for _, c := range cs {
		if c.scheme == "dpop" && c.params["error"] == "use_dpop_nonce" {
			m.logf("oauth: DPoP: the MCP server asks for a nonce; sending the request again with it")
			return true
		}
	}
	return false
}

// DPoPBound says whether the stored token is DPoP-bound and gives its
// key's JWK thumbprint (RFC 7638).
func (m *Manager) DPoPBound() (thumbprint string, ok bool) {
	t := m.cfg.Store.Token(m.cfg.ServerURL, "")
	if t == nil || !isDPoP(t.TokenType) {
		return "", false
	}
	if k := m.cfg.Store.DPoPKey(m.cfg.ServerURL); k != nil {
		thumbprint, _ = jwkThumbprint(k)
	}
	return thumbprint, true
}

// tokenHTTPClient is the client for token requests: the Config's, with
// proofs added when they are in use.
func (m *Manager) tokenHTTPClient() *http.Client {
	m.dpop.mu.Lock()
	use := m.dpop.use
	m.dpop.mu.Unlock()
	if !use {
		return m.cfg.HTTPClient
	}
	c := *m.cfg.HTTPClient
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	c.Transport = &dpopTransport{m: m, base: base}
	return &c
}

// errASNonceRepeated: the token endpoint asked for a nonce again after
// the request was sent again with the one it gave.
var errASNonceRepeated = errors.New("the authorization server asked for a new DPoP nonce again after a retry with the one it gave (use_dpop_nonce); its nonces are not being accepted")

// dpopTransport adds a proof to each token request and answers one
// use_dpop_nonce challenge per request (RFC 9449 §8).
type dpopTransport struct {
	m    *Manager
	base http.RoundTripper
}

func (t *dpopTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	for retried := false; ; retried = true {
		r := req.Clone(req.Context())
		if retried {
			if req.GetBody == nil {
				return nil, errASNonceRepeated
			}
			b, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			r.Body = b
		}
		p, err := t.m.proof(req.Method, req.URL.String(), "")
		if err != nil {
			return nil, err
		}
		r.Header.Set("DPoP", p)
		resp, err := t.base.RoundTrip(r)
		if err != nil {
			return nil, err
		}
		if t.m.keepNonce(req.URL.String(), resp.Header) == "" || resp.StatusCode != http.StatusBadRequest {
			return resp, nil
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		var e struct {
			Error string `json:"error"`
		}
		if json.Unmarshal(body, &e) != nil || e.Error != "use_dpop_nonce" {
			resp.Body = io.NopCloser(bytes.NewReader(body))
			return resp, nil
		}
		if retried {
			return nil, errASNonceRepeated
		}
		t.m.logf("oauth: DPoP: the token endpoint asks for a nonce; sending the request again with it")
	}
}
