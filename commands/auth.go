package commands

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client/oauth"
	"github.com/mcpctl/mcpctl/internal/interact"
	"github.com/mcpctl/mcpctl/output"
)

func authCommand(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "auth",
		Usage: "log in to a server with OAuth, and manage the stored tokens",
		Description: "Servers behind OAuth answer 401 until you log in. Any command logs in when that happens\n" +
			"(in a browser: $BROWSER, else the platform's opener at a terminal; --no-browser to paste the\n" +
			"redirect instead); 'auth login' does it up front. Tokens are kept per server and issuer in\n" +
			"the OS keychain where there is one, else in $MCPCTL_STATE_DIR/oauth (0600) (--token-store\n" +
			"auto|keychain|file; 'auth status' says which), refreshed when they expire; later commands need\n" +
			"no flags.\n" +
			"Authorization servers must use https (plain http only on localhost, 127.0.0.0/8 or ::1) and,\n" +
			"for a login in a browser, PKCE with S256; others are refused (exit 5) before anything is sent.\n" +
			"Without a browser: --grant client-credentials (the client as itself), --grant jwt-bearer\n" +
			"--assertion JWT (a workload's own token; not kept) or --grant id-jag (an ID token exchanged\n" +
			"at --idp-token-endpoint for an ID-JAG). A server with no protected resource metadata is taken\n" +
			"for a 2025-03-26 one: its origin's metadata, else /authorize, /token and /register there.",
		Subcommands: []*cli.Command{
			newCmdAuth(f, nil, "login", "authorize mcpctl now (discovery, client registration, the browser, the token)", runAuthLogin),
			newCmdAuth(f, nil, "status", "show the stored authorization for the server and where it is kept (never the token)", runAuthStatus),
			newCmdAuth(f, nil, "logout", "forget the server's tokens (from the keychain too)", runAuthLogout),
			newCmdAuth(f, nil, "token", "print the access token (refreshed if it has expired), for use with other tools", runAuthToken),
		},
	}
}

// newCmdAuth is an auth subcommand: it runs with the OAuth manager of
// the server the global options name, and sends nothing to the server
// itself.
func newCmdAuth(f *Factory, runF func(*noOptions) error, name, usage string, run func(*noOptions, *connection, *oauth.Manager) error) *cli.Command {
	return &cli.Command{
		Name: name, Usage: usage, ArgsUsage: " ",
		Action: actionOf(parseNone(f), runF, func(o *noOptions) error {
			s, err := o.authConnection()
			if err != nil {
				return err
			}
			defer s.Close()
			return s.Explain(run(o, s, s.oauth))
		}),
	}
}

// authConnection is the connection's settings and OAuth manager for the
// server the global options name, without a transport.
func (o *noOptions) authConnection() (*connection, error) {
	st, err := resolve(o.f, o.Globals, ConnectOptions{})
	if err != nil {
		return nil, err
	}
	if !st.http {
		return nil, usagef("auth works with HTTP servers: pass --url URL")
	}
	s := &connection{connSettings: st, f: o.f, ios: o.IO}
	if s.progress, err = interact.NewProgress(st.g.Progress, o.IO); err != nil {
		return nil, err
	}
	if _, fixed := st.header["Authorization"]; fixed {
		return nil, usagef("auth manages OAuth logins; --bearer and -H 'Authorization: …' need none")
	}
	if s.oauth, err = s.oauthManager(st.ep.url); err != nil {
		return nil, err
	}
	return s, nil
}

func runAuthLogin(o *noOptions, s *connection, m *oauth.Manager) error {
	if err := m.Login(o.ctx()); err != nil {
		return err
	}
	st, ok := m.Stored()
	if !ok {
		if !m.KeepsTokens() {
			// --grant jwt-bearer: the token is not kept (SEP-1933).
			notef(s.ios, "the assertion was accepted by %s; its token is not kept: each command presents the assertion again", output.SanitizeLine(s.target))
			return nil
		}
		// The login worked, but the token could not be kept (a keychain
		// that refused it, a folder that cannot be written): --trace says why.
		return &oauth.Error{Msg: "logged in to " + s.target + ", but the token could not be stored (--trace says why)"}
	}
	notef(s.ios, "logged in to %s (issuer %s)", output.SanitizeLine(s.target), output.SanitizeLine(st.Issuer))
	return nil
}

func runAuthStatus(o *noOptions, s *connection, m *oauth.Manager) error {
	st, ok := m.Stored()
	if !ok {
		return &oauth.Error{Msg: "not logged in to " + s.target + ": run 'mcpctl --url " + s.target + " auth login'"}
	}
	v := statusJSON(s.target, st)
	if jkt, bound := m.DPoPBound(); bound {
		// A DPoP-bound token (RFC 9449), with its key's thumbprint.
		v["tokenType"], v["dpopJkt"] = "DPoP", jkt
	}
	b, _ := json.Marshal(v)
	return s.Print(o.ctx(), output.KindGeneric, b)
}

func runAuthLogout(_ *noOptions, s *connection, m *oauth.Manager) error {
	forgot, err := m.Logout()
	if err != nil {
		return keychainHint(err)
	}
	if forgot {
		notef(s.ios, "forgot the tokens for %s", output.SanitizeLine(s.target))
	} else {
		notef(s.ios, "no tokens stored for %s", output.SanitizeLine(s.target))
	}
	return nil
}

func runAuthToken(o *noOptions, s *connection, m *oauth.Manager) error {
	h, err := m.Authorization(o.ctx())
	if err != nil {
		return err
	}
	if h == "" {
		return &oauth.Error{Msg: "not logged in to " + s.target + ": run 'mcpctl --url " + s.target + " auth login'"}
	}
	_, tok, _ := strings.Cut(h, " ") // "Bearer <token>" or "DPoP <token>"
	fmt.Fprintln(s.ios.Out, tok)
	return nil
}

func statusJSON(server string, st *oauth.Status) map[string]any {
	v := map[string]any{
		"server": server, "issuer": st.Issuer, "resource": st.Resource, "scope": st.Scope,
		"refreshable": st.Refreshable, "obtained": st.Obtained.Format(time.RFC3339), "store": st.Store,
	}
	if !st.Expiry.IsZero() {
		v["expires"] = st.Expiry.UTC().Format(time.RFC3339)
		v["expired"] = time.Now().After(st.Expiry)
	}
	return v
}
