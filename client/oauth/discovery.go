package oauth

// Discovery: the protected resource metadata names the authorization
// servers; their metadata names the endpoints. Every document is checked
// before anything is sent to an authorization server, and a document that
// is missing, not JSON or inconsistent stops the flow with an *Error that
// names it.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// resourceMetaURLs lists where protected resource metadata may be: the
// challenge's resource_metadata, else the path-based well-known URL, then
// the root one (RFC 9728 §3.1).
func resourceMetaURLs(serverURL, fromChallenge string) ([]string, error) {
	if fromChallenge != "" {
		u, err := url.Parse(fromChallenge)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return nil, &Error{Doc: "WWW-Authenticate", Field: "resource_metadata", Msg: fmt.Sprintf("%q is not an http(s) URL", fromChallenge)}
		}
		// The resource's own origin is as safe as the server URL given;
		// a challenge may not send the client elsewhere over plain HTTP.
		if plainHTTP(fromChallenge) && !sameOrigin(fromChallenge, serverURL) {
			return nil, notHTTPS("WWW-Authenticate", "", "resource_metadata", fromChallenge, "")
		}
		return []string{fromChallenge}, nil
	}
	u, err := url.Parse(serverURL)
	if err != nil {
		return nil, err
	}
	root := u.Scheme + "://" + u.Host + "/.well-known/oauth-protected-resource"
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	if path == "" {
		return []string{root}, nil
	}
	return []string{root + path, root}, nil
}

// getJSON fetches a metadata document. found is false for a 404 (or any
// answer but 200 short of a server error): the next candidate may have it.
func (m *Manager) getJSON(ctx context.Context, doc, u string, v any) (found bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return false, &Error{Doc: doc, URL: u, Msg: "invalid URL", Err: err}
	}
	req.Header.Set("Accept", "application/json")
	m.logf("oauth: GET %s (%s)", u, doc)
	resp, err := m.cfg.HTTPClient.Do(req)
	if err != nil {
		return false, &Error{Doc: doc, URL: u, Msg: "cannot fetch it", Err: err}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return false, &Error{Doc: doc, URL: u, Msg: "reading it failed", Err: err}
	}
	if resp.StatusCode != http.StatusOK && resp.StatusCode < 500 {
		return false, nil // not here (404, a redirect, anything but the document)
	}
	if resp.StatusCode != http.StatusOK {
		return false, &Error{Doc: doc, URL: u, Msg: "HTTP " + resp.Status}
	}
	if err := json.Unmarshal(body, v); err != nil {
		return false, &Error{Doc: doc, URL: u, Msg: "not a JSON object", Err: err}
	}
	return true, nil
}

// discoverResource fetches the protected resource metadata and checks
// that it is for this server.
func (m *Manager) discoverResource(ctx context.Context, ch Challenge) (*ResourceMeta, error) {
	urls, err := resourceMetaURLs(m.cfg.ServerURL, ch.ResourceMetadata)
	if err != nil {
		return nil, err
	}
	for _, u := range urls {
		var prm ResourceMeta
		found, err := m.getJSON(ctx, "protected resource metadata", u, &prm)
		if err != nil {
			return nil, err
		}
		if !found {
			continue
		}
		if err := checkResource(m.cfg.ServerURL, prm.Resource); err != nil {
			return nil, &Error{Doc: "protected resource metadata", URL: u, Field: "resource", Msg: err.Error()}
		}
		if len(prm.AuthorizationServers) == 0 {
			return nil, &Error{Doc: "protected resource metadata", URL: u, Field: "authorization_servers", Msg: "names no authorization server"}
		}
		// Only the first is used; its metadata URLs share its origin.
		if as := prm.AuthorizationServers[0]; plainHTTP(as) {
			return nil, notHTTPS("protected resource metadata", u, "authorization_servers", as, "")
		}
		return &prm, nil
	}
	if ch.ResourceMetadata == "" {
		// A 2025-03-26 server: none to find, and none promised.
		m.logf("oauth: no protected resource metadata: authorizing as the 2025-03-26 revision says")
		return legacyResource(m.cfg.ServerURL)
	}
	return nil, &Error{Doc: "protected resource metadata", URL: strings.Join(urls, ", "), Msg: "not found (the server answered 401 but publishes no OAuth metadata)"}
}

// checkResource: the metadata's resource must be this server: the same
// origin, and a path the server URL's path starts with.
func checkResource(serverURL, resource string) error {
	if resource == "" {
		return fmt.Errorf("missing")
	}
	r, err := url.Parse(resource)
	if err != nil || r.Fragment != "" {
		return fmt.Errorf("%q is not a valid resource URI", resource)
	}
	s, _ := url.Parse(serverURL)
	if !strings.EqualFold(r.Scheme, s.Scheme) || !strings.EqualFold(r.Host, s.Host) {
		return fmt.Errorf("%q is not this server (%s)", resource, serverURL)
	}
	rp := strings.TrimSuffix(r.EscapedPath(), "/")
	sp := strings.TrimSuffix(s.EscapedPath(), "/")
	if rp != "" && sp != rp && !strings.HasPrefix(sp, rp+"/") {
		return fmt.Errorf("%q is not this server (%s)", resource, serverURL)
	}
	return nil
}

// serverMetaURLs is the order of RFC 8414 and OpenID discovery, with
// the path inserted for issuers that have one; never the root for those.
func serverMetaURLs(issuer string) ([]string, error) {
	u, err := url.Parse(issuer)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("%q is not a valid issuer", issuer)
	}
	origin := u.Scheme + "://" + u.Host
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	if path == "" {
		return []string{origin + "/.well-known/oauth-authorization-server", origin + "/.well-known/openid-configuration"}, nil
	}
	return []string{
		origin + "/.well-known/oauth-authorization-server" + path,
		origin + "/.well-known/openid-configuration" + path,
		origin + path + "/.well-known/openid-configuration",
	}, nil
}

// discoverServer fetches the authorization server's metadata; its issuer
// must be the one advertised, to the letter.
func (m *Manager) discoverServer(ctx context.Context, issuer string) (*ServerMeta, error) {
	urls, err := serverMetaURLs(issuer)
	if err != nil {
		return nil, &Error{Doc: "protected resource metadata", Field: "authorization_servers", Msg: err.Error()}
	}
	for _, u := range urls {
		var as ServerMeta
		found, err := m.getJSON(ctx, "authorization server metadata", u, &as)
		if err != nil {
			return nil, err
		}
		if !found {
			continue
		}
		if err := m.checkServerMeta(u, issuer, &as); err != nil {
			return nil, err
		}
		return &as, nil
	}
	return nil, &Error{Doc: "authorization server metadata", URL: strings.Join(urls, ", "), Msg: "not found"}
}

// checkServerMeta judges the whole authorization server metadata found at
// u before anything is sent to the server: its issuer, to the letter, and
// the endpoints a code, a verifier, a secret or a token may go to.
func (m *Manager) checkServerMeta(u, issuer string, as *ServerMeta) error {
	if as.Issuer != issuer {
		return &Error{Doc: "authorization server metadata", URL: u, Field: "issuer",
			Msg: fmt.Sprintf("%q is not the issuer advertised (%q); the metadata is not used", as.Issuer, issuer)}
	}
	for _, f := range []struct{ name, v string }{{"authorization_endpoint", as.AuthorizationEndpoint}, {"token_endpoint", as.TokenEndpoint}} {
		if pu, err := url.Parse(f.v); f.v == "" || err != nil || (pu.Scheme != "https" && pu.Scheme != "http") {
			return &Error{Doc: "authorization server metadata", URL: u, Field: f.name, Msg: fmt.Sprintf("%q is not an http(s) URL", f.v)}
		}
	}
	// The endpoints a code, a verifier, a secret or a token may go to
	// (registration only with DCR, but checked here with the rest, so
	// that the whole document is judged before anything is sent).
	for _, f := range []struct{ name, v string }{{"authorization_endpoint", as.AuthorizationEndpoint}, {"token_endpoint", as.TokenEndpoint}, {"registration_endpoint", as.RegistrationEndpoint}} {
		if plainHTTP(f.v) {
			return notHTTPS("authorization server metadata", u, f.name, f.v, "")
		}
	}
	if m.cfg.Grant == "" { // the authorization code flow
		if err := checkPKCE(as.CodeChallengeMethodsSupported); err != nil {
			return &Error{Doc: "authorization server metadata", URL: u, Field: "code_challenge_methods_supported", Msg: err.Error()}
		}
	}
	return nil
}

// checkPKCE: the authorization code flow needs S256 in the metadata's
// code_challenge_methods_supported. The spec (2026-07-28 and 2025-11-25,
// "Authorization Code Protection"): if the field is absent "the
// authorization server does not support PKCE and MCP clients MUST refuse
// to proceed", for OpenID discovery too ("MCP clients MUST verify the
// presence of code_challenge_methods_supported"); S256 is the method to
// use. The grants without a browser (client credentials, JWT-bearer,
// ID-JAG) have no PKCE and are not checked.
func checkPKCE(methods []string) error {
	switch {
	case methods == nil:
		return errors.New("absent: the authorization server does not support PKCE, which the authorization code flow requires (with S256)")
	case !contains(methods, "S256"):
		shown := methods
		if len(shown) > 5 {
			shown = append(shown[:5:5], "…")
		}
		return fmt.Errorf("%q lacks S256: the authorization code flow requires PKCE with S256", shown)
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
