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

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client/oauth"
	"github.com/mcpctl/mcpctl/internal/interact"
	"github.com/mcpctl/mcpctl/output"
)

const catAuth = "Authorization"

func authFlags() []cli.Flag {
	return append([]cli.Flag{
		&cli.StringFlag{Name: "bearer", Usage: "send `TOKEN` as Authorization: Bearer (no OAuth login)", EnvVars: []string{"MCPCTL_BEARER"}, Category: catAuth},
		&cli.StringFlag{Name: "client-id", Usage: "a pre-registered OAuth client `ID`", EnvVars: []string{"MCPCTL_CLIENT_ID"}, Category: catAuth},
		&cli.StringFlag{Name: "client-secret", Usage: "the pre-registered client's `SECRET`", EnvVars: []string{"MCPCTL_CLIENT_SECRET"}, Category: catAuth},
		&cli.StringFlag{Name: "client-metadata-url", Usage: "use the Client ID Metadata Document at `URL` as client id, where supported", EnvVars: []string{"MCPCTL_CLIENT_METADATA_URL"}, Category: catAuth},
		&cli.StringFlag{Name: "grant", Usage: "OAuth grant `TYPE`: authorization-code (a login in a browser), client-credentials (the client as itself: --client-id with --client-secret or --client-key), jwt-bearer (a workload's own JWT: --assertion) or id-jag (enterprise-managed: --id-token exchanged at --idp-token-endpoint)", Value: "authorization-code", EnvVars: []string{"MCPCTL_GRANT"}, Category: catAuth},
		&cli.StringFlag{Name: "client-key", Usage: "sign client assertions (private_key_jwt) with the PEM private key in `FILE`", EnvVars: []string{"MCPCTL_CLIENT_KEY"}, Category: catAuth},
		&cli.StringFlag{Name: "client-key-alg", Usage: "the assertion's signing `ALG` (default: ES256/384/512 by curve, RS256 for RSA)", Category: catAuth},
		&cli.IntFlag{Name: "callback-port", Usage: "listen for the authorization redirect on 127.0.0.1:`PORT` (default: any free port)", Category: catAuth},
		tokenStoreFlag(),
		&cli.BoolFlag{Name: "no-browser", Usage: "print the authorization URL and read the redirect URL pasted on stdin", Category: catAuth},
	}, grantFlags()...)
}

// oauthDir is where tokens and client registrations are kept.
func (f *Factory) oauthDir() (string, error) {
	d, err := f.stateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "oauth"), nil
}

// bearer puts --bearer into an HTTP session's headers.
func bearer(c *cli.Context, header map[string][]string) error {
	b := c.String("bearer")
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
func (s *session) oauthManager(c *cli.Context, url string) (*oauth.Manager, error) {
	dir, err := s.f.oauthDir()
	if err != nil {
		return nil, err
	}
	if p := c.Int("callback-port"); p < 0 || p > 65535 {
		return nil, usagef("invalid --callback-port %d: use 1-65535, or 0 for any free port", p)
	}
	store, err := s.tokenStore(c, dir)
	if err != nil {
		return nil, err
	}
	cfg := oauth.Config{
		ServerURL:         url,
		Store:             store,
		ClientID:          c.String("client-id"),
		ClientSecret:      c.String("client-secret"),
		ClientMetadataURL: c.String("client-metadata-url"),
		ClientName:        "mcpctl",
		Browser:           s.browser(c),
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
	if err := s.setGrant(c, &cfg); err != nil {
		return nil, err
	}
	if f := c.String("client-key"); f != "" {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, usagef("--client-key: %v", err)
		}
		key, err := oauth.ParseClientKey(data, c.String("client-key-alg"))
		if err != nil {
			return nil, usagef("--client-key %s: %v", f, err)
		}
		cfg.ClientKey = key
	}
	if cfg.DPoP, err = s.dpopMode(c); err != nil {
		return nil, err
	}
	if c.Bool("trace") {
		cfg.Log = func(msg string) { fmt.Fprintln(s.ios.ErrOut, "# "+output.SanitizeLine(msg)) }
	}
	return oauth.New(cfg), nil
}

// browser is the user's side of a login, or nil when there is none: no
// $BROWSER, no terminal and no --no-browser.
func (s *session) browser(c *cli.Context) oauth.Browser {
	notice := func(u string) {
		s.progress.Clear()
		fmt.Fprintln(s.ios.ErrOut, "mcpctl: to authorize mcpctl, open this URL in a browser:\n  "+output.SanitizeLine(u))
	}
	l := &oauth.Loopback{Port: c.Int("callback-port"), Notice: notice, Name: "mcpctl"}
	switch {
	case c.Bool("no-browser"):
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
