package commands

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpctl/mcpctl/client/oauth"
	"github.com/mcpctl/mcpctl/internal/argv"
	"github.com/mcpctl/mcpctl/internal/interact"
	"github.com/mcpctl/mcpctl/output"
)

// How a connection authorizes to an HTTP server: --bearer or -H
// 'Authorization: …' send a fixed credential; otherwise an OAuth manager
// (package client/oauth) logs in when the server answers 401, with the
// user's browser: $BROWSER if set, else the platform opener at a terminal;
// --no-browser prints the URL and takes the redirect pasted on stdin. The
// authorization URL is always printed on stderr. The grants that need no
// browser (client credentials, the JWT-bearer grant with a workload's own
// JWT, enterprise-managed authorization) take their settings from flags,
// else from a configured server's auth: entry; --dpop and --no-dpop say
// whether tokens are DPoP-bound (RFC 9449); --token-store where they are
// kept.

// oauthDir is where tokens and client registrations are kept.
func (f *Factory) oauthDir() (string, error) {
	d, err := f.stateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "oauth"), nil
}

// bearer puts --bearer into an HTTP connection's headers.
func bearer(b string, header map[string][]string) error {
	if b == "" {
		return nil
	}
	if _, ok := header["Authorization"]; ok {
		return usagef("both --bearer and -H 'Authorization: …' given: pass only one")
	}
	if strings.ContainsAny(b, "\r\n") {
		return usagef("invalid --bearer: the token contains a line break")
	}
	header["Authorization"] = []string{"Bearer " + b}
	return nil
}

// oauthManager logs in to an HTTP server that sends no fixed credential
// (--bearer, -H 'Authorization: …').
func (s *connection) oauthManager(url string) (*oauth.Manager, error) {
	dir, err := s.f.oauthDir()
	if err != nil {
		return nil, err
	}
	if p := s.g.CallbackPort; p < 0 || p > 65535 {
		return nil, usagef("invalid --callback-port %d: use 1-65535, or 0 for any free port", p)
	}
	store, err := s.tokenStore(dir)
	if err != nil {
		return nil, err
	}
	cfg := oauth.Config{
		ServerURL:         url,
		Store:             store,
		ClientID:          s.g.ClientID,
		ClientSecret:      s.g.ClientSecret,
		ClientMetadataURL: s.g.ClientMetadataURL,
		ClientName:        "mcpctl",
		Browser:           s.browser(),
	}
	if s.ep != nil && s.ep.named != nil {
		// A configured server's auth settings, where no flag says otherwise.
		for _, a := range s.ep.named.Auth {
			switch {
			case a.Key == "clientId" && cfg.ClientID == "":
				cfg.ClientID = a.Value
			case a.Key == "clientSecret" && cfg.ClientSecret == "":
				cfg.ClientSecret = a.Value
			case a.Key == "clientMetadataUrl" && cfg.ClientMetadataURL == "":
				cfg.ClientMetadataURL = a.Value
			}
		}
	}
	if cfg.ClientSecret != "" && cfg.ClientID == "" {
		return nil, usagef("--client-secret needs --client-id")
	}
	if err := s.setGrant(&cfg); err != nil {
		return nil, err
	}
	if f := s.g.ClientKey; f != "" {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, usagef("--client-key: %v", err)
		}
		key, err := oauth.ParseClientKey(data, s.g.ClientKeyAlg)
		if err != nil {
			return nil, usagef("--client-key %s: %v", f, err)
		}
		cfg.ClientKey = key
	}
	if cfg.DPoP, err = s.dpopMode(); err != nil {
		return nil, err
	}
	if s.g.Trace {
		cfg.Log = func(msg string) { fmt.Fprintln(s.ios.ErrOut, "# "+output.SanitizeLine(msg)) }
	}
	// What is sent to the authorization server, and the tokens got from it.
	s.f.secrets.Add(cfg.ClientSecret, cfg.Assertion, cfg.IdentityProvider.ClientSecret, cfg.IdentityProvider.IDToken)
	cfg.OnSecret = func(v string) { s.f.secrets.Add(v) }
	return oauth.New(cfg), nil
}

// browser is the user's side of a login, or nil when there is none: no
// $BROWSER, no terminal and no --no-browser.
func (s *connection) browser() oauth.Browser {
	notice := func(u string) {
		s.progress.Clear()
		fmt.Fprintln(s.ios.ErrOut, "mcpctl: to authorize mcpctl, open this URL in a browser:\n  "+output.SanitizeLine(u))
	}
	l := &oauth.Loopback{Port: s.g.CallbackPort, Notice: notice, Name: "mcpctl"}
	switch {
	case s.g.NoBrowser:
		fmt.Fprintln(s.ios.ErrOut, "mcpctl: --no-browser: after authorizing, paste the address the browser was sent to here")
		l.Paste = s.ios.In
	case s.f.Getenv("BROWSER") != "", s.ios.IsStderrTTY():
		l.Open = s.f.openURL
	default:
		return nil
	}
	return l
}

// openURL opens a URL in the user's browser, for a login and for a URL
// elicitation alike: $BROWSER if set, else the platform's opener.
func (f *Factory) openURL(u string) error { return interact.OpenURL(u, f.Getenv) }

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

// keychainWayOut is the hint for a keychain that cannot be used.
const keychainWayOut = "to keep tokens in 0600 files instead, use --token-store file"

// tokenStore is where tokens and client registrations are kept, as
// --token-store says: the OS keychain, or files in dir. Under auto, a
// keychain the system lacks means files, quietly (a --trace line); one
// that is there but refuses means files with a note.
func (s *connection) tokenStore(dir string) (*oauth.Store, error) {
	mode := s.g.TokenStore
	store := &oauth.Store{Dir: dir}
	switch mode {
	case "file":
		return store, nil
	case "auto", "keychain":
	default:
		return nil, usagef("invalid --token-store %q: use one of auto, keychain, file", mode)
	}
	k, err := oauth.OpenKeychain(oauth.OSKeychain("mcpctl"))
	if err == nil {
		store.Keychain = k
		return store, nil
	}
	var kerr *oauth.KeychainError
	switch {
	case mode == "keychain":
		return nil, keychainHint(err)
	case errors.As(err, &kerr) && kerr.Absent:
		if s.g.Trace {
			fmt.Fprintln(s.ios.ErrOut, "# "+output.SanitizeLine("oauth: tokens in files under "+dir+": "+err.Error()))
		}
	default:
		notef(s.ios, "note: %s; tokens are kept in files under %s", output.SanitizeLine(err.Error()), output.SanitizeLine(dir))
	}
	return store, nil
}

// keychainHint adds the way out to a keychain's error.
func keychainHint(err error) error {
	var kerr *oauth.KeychainError
	if errors.As(err, &kerr) {
		return &hintError{err: err, hint: keychainWayOut}
	}
	return err
}

// tokenStoreProblem says what fits a token-store setting ("" when it does).
func tokenStoreProblem(value string) string {
	if !contains(tokenStores, value) {
		return "use one of auto, keychain, file"
	}
	return ""
}
