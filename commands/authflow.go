package commands

// How a session authorizes to an HTTP server: --bearer or -H
// 'Authorization: …' send a fixed credential; otherwise an OAuth manager
// (package client/oauth) logs in when the server answers 401, with the
// user's browser: $BROWSER if set, else the platform opener at a terminal;
// --no-browser prints the URL and takes the redirect pasted on stdin. The
// authorization URL is always printed on stderr.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpctl/mcpctl/client/oauth"
	"github.com/mcpctl/mcpctl/internal/interact"
	"github.com/mcpctl/mcpctl/output"
)

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
