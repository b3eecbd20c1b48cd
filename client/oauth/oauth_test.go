package oauth_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpctl/mcpctl/client/oauth"
	"github.com/mcpctl/mcpctl/tests/oauthserver"
)

// env is an MCP endpoint behind a local authorization server.
type env struct {
	as      *oauthserver.Server
	srv     *httptest.Server
	url     string
	store   *oauth.Store
	opened  int
	browser *oauth.Loopback
}

func newEnv(t *testing.T, opts oauthserver.Options) *env {
	t.Helper()
	e := &env{as: oauthserver.New(opts)}
	mux := http.NewServeMux()
	e.as.Mount(mux, "/mcp", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"ok":true}}`)
	}))
	e.srv = httptest.NewServer(mux)
	t.Cleanup(e.srv.Close)
	e.as.Base = e.srv.URL
	e.url = e.srv.URL + "/mcp"
	e.store = &oauth.Store{Dir: filepath.Join(t.TempDir(), "oauth")}
	// The "browser" loads the authorization URL and follows the redirect
	// into the manager's loopback listener, as a real one would.
	e.browser = &oauth.Loopback{Open: func(u string) error {
		e.opened++
		go func() {
			resp, err := http.Get(u)
			if err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
		return nil
	}}
	return e
}

func (e *env) manager(cfg oauth.Config) *oauth.Manager {
	cfg.ServerURL, cfg.Store = e.url, e.store
	if cfg.Browser == nil {
		cfg.Browser = e.browser
	}
	return oauth.New(cfg)
}

// call sends one request with the manager's credentials, as the HTTP
// transport does: on 401/403 the manager is asked, and the request sent
// again if it says so; so is it on a DPoP nonce challenge (the transport
// bounds that).
func (e *env) call(t *testing.T, m *oauth.Manager, method string) (int, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i := 0; i < 5; i++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, e.url, strings.NewReader(`{}`))
		req.Header.Set("Mcp-Method", method)
		if err := m.AuthorizeRequest(ctx, req.Method, e.url, req.Header); err != nil {
			return 0, err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, err
		}
		resp.Body.Close()
		if m.Nonce(e.url, resp.StatusCode, resp.Header) {
			continue
		}
		if resp.StatusCode != 401 && resp.StatusCode != 403 {
			return resp.StatusCode, nil
		}
		retry, err := m.Challenge(ctx, resp.StatusCode, resp.Header)
		if err != nil || !retry {
			return resp.StatusCode, err
		}
	}
	return 0, errors.New("too many retries")
}

func TestDiscoveryPaths(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts oauthserver.Options
		want []string // metadata requests, in order
	}{
		{"PRM from WWW-Authenticate, RFC 8414 at the root", oauthserver.Options{},
			[]string{"GET /.well-known/oauth-protected-resource/mcp", "GET /.well-known/oauth-authorization-server"}},
		{"PRM path-based without a hint, OpenID configuration", oauthserver.Options{HidePRM: true, OIDC: true},
			[]string{"GET /.well-known/oauth-protected-resource/mcp", "GET /.well-known/openid-configuration"}},
		{"PRM at the root, issuer with a path (path insertion)", oauthserver.Options{HidePRM: true, PRMAtRoot: true, IssuerPath: "/tenant1"},
			[]string{"GET /.well-known/oauth-protected-resource", "GET /.well-known/oauth-authorization-server/tenant1"}},
		{"issuer with a path, OpenID with path insertion", oauthserver.Options{IssuerPath: "/tenant1", OIDC: true},
			[]string{"GET /.well-known/oauth-protected-resource/mcp", "GET /.well-known/openid-configuration/tenant1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, tc.opts)
			m := e.manager(oauth.Config{})
			if code, err := e.call(t, m, "tools/list"); err != nil || code != 200 {
				t.Fatalf("call: %d %v", code, err)
			}
			var meta []string
			for _, r := range e.as.Requests {
				if strings.Contains(r, "/.well-known/") {
					meta = append(meta, r)
				}
			}
			// Misses (404s) before the hit are fine; the hits must be these,
			// in this order, and the root never tried first.
			if !hasInOrder(meta, tc.want) {
				t.Errorf("metadata requests %q, want %q in order", meta, tc.want)
			}
		})
	}
}

func hasInOrder(got, want []string) bool {
	i := 0
	for _, g := range got {
		if i < len(want) && g == want[i] {
			i++
		}
	}
	return i == len(want)
}

func TestClientIdentity(t *testing.T) {
	// DCR, then the same registration reused by the next login.
	e := newEnv(t, oauthserver.Options{})
	m := e.manager(oauth.Config{})
	if code, err := e.call(t, m, "tools/list"); err != nil || code != 200 {
		t.Fatalf("DCR: %d %v", code, err)
	}
	if e.as.Count("/register") != 1 {
		t.Fatalf("%d registrations", e.as.Count("/register"))
	}
	m.Logout()
	m2 := e.manager(oauth.Config{})
	if code, err := e.call(t, m2, "tools/list"); err != nil || code != 200 {
		t.Fatalf("second login: %d %v", code, err)
	}
	if e.as.Count("/register") != 1 {
		t.Errorf("registered again (%d) instead of reusing the issuer's client", e.as.Count("/register"))
	}

	// Pre-registered credentials: no registration.
	e = newEnv(t, oauthserver.Options{NoDCR: true, PreRegistered: [2]string{"pre-id", "pre-secret"}})
	if code, err := e.call(t, e.manager(oauth.Config{ClientID: "pre-id", ClientSecret: "pre-secret"}), "tools/list"); err != nil || code != 200 {
		t.Fatalf("pre-registered: %d %v", code, err)
	}
	// ... and a wrong secret is the token endpoint's error, shown.
	e = newEnv(t, oauthserver.Options{NoDCR: true, PreRegistered: [2]string{"pre-id", "pre-secret"}})
	_, err := e.call(t, e.manager(oauth.Config{ClientID: "pre-id", ClientSecret: "wrong"}), "tools/list")
	if err == nil || !strings.Contains(err.Error(), "invalid_client") {
		t.Errorf("wrong secret: %v", err)
	}
	// No registration endpoint and no client id: say what to pass.
	e = newEnv(t, oauthserver.Options{NoDCR: true})
	_, err = e.call(t, e.manager(oauth.Config{}), "tools/list")
	var oe *oauth.Error
	if !errors.As(err, &oe) || oe.Needs != oauth.NeedClient || !strings.Contains(err.Error(), "registration_endpoint") || !strings.Contains(err.Error(), "client id") {
		t.Errorf("no DCR: %v", err)
	}

	// CIMD when the server supports it: the URL is the client id.
	e = newEnv(t, oauthserver.Options{CIMD: true})
	if code, err := e.call(t, e.manager(oauth.Config{ClientMetadataURL: "https://client.example/mcpctl.json"}), "tools/list"); err != nil || code != 200 {
		t.Fatalf("CIMD: %d %v", code, err)
	}
	if e.as.Count("/register") != 0 {
		t.Error("registered although the metadata document was usable")
	}
}

func TestBadMetadataStopsBeforeAuthorization(t *testing.T) {
	for _, tc := range []struct{ fault, want string }{
		{"prm-notjson", "protected resource metadata"},
		{"prm-missing", "not found"},
		{"resource-mismatch", "field resource"},
		{"issuer-mismatch", "field issuer"},
	} {
		t.Run(tc.fault, func(t *testing.T) {
			e := newEnv(t, oauthserver.Options{Fault: tc.fault})
			_, err := e.call(t, e.manager(oauth.Config{}), "tools/list")
			var oe *oauth.Error
			if !errors.As(err, &oe) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want an *oauth.Error mentioning %q", err, tc.want)
			}
			if e.as.Count("/authorize") != 0 || e.as.Count("/register") != 0 || e.opened != 0 {
				t.Errorf("went on after bad metadata: %q", e.as.Requests)
			}
		})
	}
}

func TestAuthorizationResponseChecks(t *testing.T) {
	for _, tc := range []struct{ fault, want string }{
		{"iss-wrong", "another issuer"},
		{"iss-missing", "has no iss"},
		{"token-error", "invalid_grant (the code has expired)"},
	} {
		t.Run(tc.fault, func(t *testing.T) {
			e := newEnv(t, oauthserver.Options{Fault: tc.fault})
			_, err := e.call(t, e.manager(oauth.Config{}), "tools/list")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if tc.fault != "token-error" && e.as.Count("/token") != 0 {
				t.Error("the code was used after a rejected response")
			}
			if strings.Contains(err.Error(), "evil.example.com") {
				t.Error("the rejected response's content was shown")
			}
			if _, ok := e.manager(oauth.Config{}).Stored(); ok {
				t.Error("a token was stored")
			}
		})
	}
}

// The loopback listener takes only a redirect with this login's state
// (issue 24, item 9): any local user can send it a request, and one that
// does not carry the state is answered 400 and ignored while the login
// waits on for the real redirect. It used to take the first request it
// got, so another user could make a login fail.
func TestLoopbackIgnoresOtherState(t *testing.T) {
	e := newEnv(t, oauthserver.Options{})
	statuses := make(chan int, 3)
	e.browser.Open = func(authURL string) error {
		u, err := url.Parse(authURL)
		if err != nil {
			return err
		}
		redirect := u.Query().Get("redirect_uri")
		go func() {
			for _, q := range []string{"?code=forged&state=not-yours", "?code=forged", "?error=access_denied"} {
				resp, err := http.Get(redirect + q)
				if err != nil {
					statuses <- 0
					continue
				}
				resp.Body.Close()
				statuses <- resp.StatusCode
			}
			resp, err := http.Get(authURL) // then the user's browser
			if err == nil {
				resp.Body.Close()
			}
		}()
		return nil
	}
	if code, err := e.call(t, e.manager(oauth.Config{}), "tools/list"); err != nil || code != 200 {
		t.Fatalf("login: %d %v", code, err)
	}
	for range 3 {
		if got := <-statuses; got != http.StatusBadRequest {
			t.Errorf("a request without this login's state got %d, want 400", got)
		}
	}
	if _, ok := e.manager(oauth.Config{}).Stored(); !ok {
		t.Error("no token was stored")
	}
}

// A redirect pasted by hand is the user's own: one with another state is
// refused at once, nothing in it used.
func TestPastedRedirectStateChecked(t *testing.T) {
	e := newEnv(t, oauthserver.Options{Fault: "state-wrong"})
	pr, pw := io.Pipe()
	defer pw.Close()
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	lb := &oauth.Loopback{Paste: pr, Open: func(authURL string) error {
		go func() {
			resp, err := noFollow.Get(authURL)
			if err != nil {
				return
			}
			resp.Body.Close()
			io.WriteString(pw, resp.Header.Get("Location")+"\n")
		}()
		return nil
	}}
	_, err := e.call(t, e.manager(oauth.Config{Browser: lb}), "tools/list")
	if err == nil || !strings.Contains(err.Error(), "state does not match") {
		t.Fatalf("err = %v, want the state refused", err)
	}
	if e.as.Count("/token") != 0 {
		t.Error("the code was used after a rejected response")
	}
}

// What a token endpoint issues must be a token (issue 24, item 9): an
// access token with an escape sequence is refused, naming the
// authorization server, and not stored. It used to be stored; every
// request after it failed (no header can carry it).
func TestIssuedTokenMustBeAToken(t *testing.T) {
	e := newEnv(t, oauthserver.Options{Fault: "token-escape"})
	_, err := e.call(t, e.manager(oauth.Config{}), "tools/list")
	var oe *oauth.Error
	if !errors.As(err, &oe) || !strings.Contains(err.Error(), "the authorization server "+e.as.Issuer()+" issued an access token with characters a token cannot have") {
		t.Fatalf("err = %v, want an oauth.Error naming the authorization server", err)
	}
	if _, ok := e.manager(oauth.Config{}).Stored(); ok {
		t.Error("the token was stored")
	}
}

// A stored token that is not a token (kept by an older mcpctl) is no
// use: the manager logs in again instead of sending it.
func TestStoredTokenNotATokenReplaced(t *testing.T) {
	e := newEnv(t, oauthserver.Options{})
	if code, err := e.call(t, e.manager(oauth.Config{}), "tools/list"); err != nil || code != 200 {
		t.Fatalf("login: %d %v", code, err)
	}
	tok := e.store.Token(e.url, "")
	tok.AccessToken += "\x1b[2J"
	if err := e.store.SaveToken(e.url, tok); err != nil {
		t.Fatal(err)
	}
	m := e.manager(oauth.Config{})
	if h, err := m.Authorization(context.Background()); err != nil || h != "" {
		t.Fatalf("Authorization = %q, %v: want none", h, err)
	}
	if code, err := e.call(t, m, "tools/list"); err != nil || code != 200 {
		t.Fatalf("after it: %d %v", code, err)
	}
	if got := e.store.Token(e.url, "").AccessToken; strings.ContainsRune(got, 0x1b) {
		t.Errorf("the bad token is still stored: %q", got)
	}
}

// OnSecret hears of every token the manager holds, so that a program
// can keep them out of what it prints.
func TestOnSecretTold(t *testing.T) {
	e := newEnv(t, oauthserver.Options{})
	told := map[string]bool{}
	var mu sync.Mutex
	cfg := oauth.Config{OnSecret: func(v string) { mu.Lock(); told[v] = true; mu.Unlock() }}
	if code, err := e.call(t, e.manager(cfg), "tools/list"); err != nil || code != 200 {
		t.Fatalf("login: %d %v", code, err)
	}
	tok := e.store.Token(e.url, "")
	mu.Lock()
	if !told[tok.AccessToken] || !told[tok.RefreshToken] {
		t.Errorf("told %v; want the access and the refresh token", told)
	}
	clear(told)
	mu.Unlock()
	if _, err := e.manager(cfg).Authorization(context.Background()); err != nil { // from the store
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !told[tok.AccessToken] || !told[tok.RefreshToken] {
		t.Errorf("a stored token: told %v", told)
	}
}

func TestRefresh(t *testing.T) {
	e := newEnv(t, oauthserver.Options{TokenTTL: 1500 * time.Millisecond})
	m := e.manager(oauth.Config{})
	if code, err := e.call(t, m, "tools/list"); err != nil || code != 200 {
		t.Fatalf("login: %d %v", code, err)
	}
	// A new process (manager) with the stored, expired token refreshes it
	// instead of logging in again.
	refreshAfter(t, e, 1600*time.Millisecond)
}

func TestStepUp(t *testing.T) {
	e := newEnv(t, oauthserver.Options{ScopesSupported: []string{"read"}, Scopes: map[string]string{"tools/call": "write"}})
	m := e.manager(oauth.Config{})
	if code, err := e.call(t, m, "tools/list"); err != nil || code != 200 {
		t.Fatalf("list: %d %v", code, err)
	}
	if code, err := e.call(t, m, "tools/call"); err != nil || code != 200 {
		t.Fatalf("call: %d %v", code, err)
	}
	st, _ := m.Stored()
	if strings.Join(st.Scope, " ") != "read write" {
		t.Errorf("scopes after step-up %q, want the union \"read write\"", st.Scope)
	}
	// A server that always wants more: at most 3 authorizations.
	e = newEnv(t, oauthserver.Options{Scopes: map[string]string{"tools/call": "never-granted"}})
	// The AS grants what is asked, so ask for something it then drops.
	m = e.manager(oauth.Config{MaxAuthorizations: 3})
	for i := 0; i < 5; i++ {
		if _, err := e.call(t, m, "tools/list"); err != nil {
			t.Fatal(err)
		}
	}
	if n := e.as.Count("/authorize"); n > 3 {
		t.Errorf("%d authorizations, want at most 3", n)
	}
}

func TestASMigration(t *testing.T) {
	// The resource moves from one authorization server to another: the
	// second gets a registration of its own, never the first's client id.
	e := newEnv(t, oauthserver.Options{IssuerPath: "/as1"})
	m := e.manager(oauth.Config{})
	if code, err := e.call(t, m, "tools/list"); err != nil || code != 200 {
		t.Fatalf("first AS: %d %v", code, err)
	}
	first := e.store.Client(e.as.Issuer())
	as2 := oauthserver.New(oauthserver.Options{IssuerPath: "/as2"})
	as2.Base = e.as.Base
	mux := http.NewServeMux()
	as2.MountAS(mux)
	old := e.srv.Config.Handler
	e.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/as2") || strings.HasSuffix(r.URL.Path, "/as2") {
			mux.ServeHTTP(w, r)
			return
		}
		old.ServeHTTP(w, r)
	})
	e.as.MoveTo(as2)
	if code, err := e.call(t, m, "tools/list"); err != nil || code != 200 {
		t.Fatalf("after the move: %d %v", code, err)
	}
	second := e.store.Client(as2.Issuer())
	if first == nil || second == nil || second.ClientID == first.ClientID || as2.Count("/as2/register") != 1 {
		t.Errorf("no new registration at the new AS (first %+v, second %+v)", first, second)
	}
	for _, r := range as2.Requests {
		if strings.Contains(r, first.ClientID) {
			t.Errorf("the first AS's client id reached the second: %s", r)
		}
	}
}

func TestCorruptTokenFileAndInterruptedLogin(t *testing.T) {
	e := newEnv(t, oauthserver.Options{})
	os.MkdirAll(e.store.Dir, 0o700)
	m := e.manager(oauth.Config{})
	if code, err := e.call(t, m, "tools/list"); err != nil || code != 200 {
		t.Fatalf("login: %d %v", code, err)
	}
	files, _ := filepath.Glob(filepath.Join(e.store.Dir, "tokens-*.json"))
	if len(files) != 1 {
		t.Fatalf("token files %q", files)
	}
	if fi, _ := os.Stat(files[0]); fi.Mode().Perm() != 0o600 {
		t.Errorf("token file mode %v", fi.Mode().Perm())
	}
	if fi, _ := os.Stat(e.store.Dir); fi.Mode().Perm() != 0o700 {
		t.Errorf("token dir mode %v", fi.Mode().Perm())
	}
	os.WriteFile(files[0], []byte("{garbage"), 0o600)
	if code, err := e.call(t, e.manager(oauth.Config{}), "tools/list"); err != nil || code != 200 {
		t.Fatalf("with a corrupt token file: %d %v", code, err)
	}

	// Interrupted while waiting for the browser: nothing stored, and the
	// listener is gone.
	e = newEnv(t, oauthserver.Options{})
	var redirect string
	lb := &oauth.Loopback{Open: func(string) error { return nil }} // a browser that never comes back
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	m = e.manager(oauth.Config{Browser: recordStart(lb, &redirect)})
	err := m.Login(ctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	if _, ok := m.Stored(); ok {
		t.Error("a token was stored")
	}
	if resp, err := http.Get(redirect); err == nil {
		resp.Body.Close()
		t.Error("the loopback listener still answers after the login was interrupted")
	}
}

type startRecorder struct {
	*oauth.Loopback
	got *string
}

func (r startRecorder) Start(ctx context.Context) (string, error) {
	u, err := r.Loopback.Start(ctx)
	*r.got = u
	return u, err
}

func recordStart(l *oauth.Loopback, got *string) oauth.Browser { return startRecorder{l, got} }

// Issue 13, item 11: plain-HTTP OAuth endpoints on hosts that are not
// loopback are refused before anything is sent to the authorization
// server (the metadata aside) or a browser is opened.
func TestPlainHTTPEndpointsRefused(t *testing.T) {
	pre := oauth.Config{ClientID: "pre-id", ClientSecret: "pre-secret"}
	cc := oauth.Config{Grant: "client_credentials", ClientID: "pre-id", ClientSecret: "pre-secret"}
	for _, tc := range []struct {
		name, fault, field string
		cfg                oauth.Config
	}{
		{"resource metadata from the challenge", "http-prm", "field resource_metadata", oauth.Config{}},
		{"issuer", "http-issuer", "field authorization_servers", oauth.Config{}},
		{"authorization endpoint", "http-authorize", "field authorization_endpoint", oauth.Config{}},
		{"token endpoint", "http-token", "field token_endpoint", oauth.Config{}},
		{"registration endpoint", "http-register", "field registration_endpoint", oauth.Config{}},
		{"registration endpoint, pre-registered client", "http-register", "field registration_endpoint", pre},
		{"token endpoint, client credentials", "http-token", "field token_endpoint", cc},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, oauthserver.Options{Fault: tc.fault, PreRegistered: [2]string{"pre-id", "pre-secret"}})
			_, err := e.call(t, e.manager(tc.cfg), "tools/list")
			if !errors.Is(err, oauth.ErrNotHTTPS) || !strings.Contains(err.Error(), tc.field+": \""+oauthserver.PlainHTTPOrigin) {
				t.Fatalf("err = %v, want ErrNotHTTPS naming %s", err, tc.field)
			}
			if n := e.as.Count("/register") + e.as.Count("/authorize") + e.as.Count("/token"); n != 0 || e.opened != 0 {
				t.Errorf("went on: %q, browser opened %d times", e.as.Requests, e.opened)
			}
		})
	}
	// Loopback names and addresses are plain HTTP too, and fine: every
	// other test here runs on http://127.0.0.1.
}

// A stored token whose token endpoint is plain HTTP on a host that is not
// loopback is not refreshed, whether it expired (Authorization) or the
// server refused it (Challenge): the refresh token stays here.
func TestRefreshStaysOnHTTPS(t *testing.T) {
	e := newEnv(t, oauthserver.Options{})
	if code, err := e.call(t, e.manager(oauth.Config{}), "tools/list"); err != nil || code != 200 {
		t.Fatalf("login: %d %v", code, err)
	}
	tok := e.store.Token(e.url, "")
	tok.TokenURL = oauthserver.PlainHTTPOrigin + "/token"
	for _, tc := range []struct {
		name   string
		access string
		expiry time.Time
	}{
		{"expired", tok.AccessToken, time.Now().Add(-time.Minute)},
		{"refused by the server", "revoked", time.Now().Add(time.Hour)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tok.AccessToken, tok.Expiry = tc.access, tc.expiry
			if err := e.store.SaveToken(e.url, tok); err != nil {
				t.Fatal(err)
			}
			before := e.as.Count("/token") + e.as.Count("/authorize")
			_, err := e.call(t, e.manager(oauth.Config{}), "tools/list")
			if !errors.Is(err, oauth.ErrNotHTTPS) || !strings.Contains(err.Error(), `stored token (`+e.url+`): field token_url: "http://auth.example.test/token"`) {
				t.Fatalf("err = %v, want ErrNotHTTPS naming the stored token_url", err)
			}
			if n := e.as.Count("/token") + e.as.Count("/authorize") - before; n != 0 {
				t.Errorf("%d token or authorization requests after the refusal", n)
			}
		})
	}
}

// The authorization code flow needs S256 in code_challenge_methods_supported
// (absent: refused, as the spec says, for OpenID discovery too); the
// client credentials grant has no PKCE.
func TestPKCERequired(t *testing.T) {
	for _, tc := range []struct {
		fault string
		oidc  bool
		want  string
	}{
		{"pkce-absent", false, "field code_challenge_methods_supported: absent"},
		{"pkce-absent", true, "field code_challenge_methods_supported: absent"},
		{"pkce-plain", false, `field code_challenge_methods_supported: ["plain"] lacks S256`},
	} {
		t.Run(fmt.Sprintf("%s/oidc=%v", tc.fault, tc.oidc), func(t *testing.T) {
			e := newEnv(t, oauthserver.Options{Fault: tc.fault, OIDC: tc.oidc, PreRegistered: [2]string{"pre-id", "pre-secret"}})
			_, err := e.call(t, e.manager(oauth.Config{}), "tools/list")
			var oe *oauth.Error
			if !errors.As(err, &oe) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if n := e.as.Count("/register") + e.as.Count("/authorize") + e.as.Count("/token"); n != 0 || e.opened != 0 {
				t.Errorf("went on: %q, browser opened %d times", e.as.Requests, e.opened)
			}
			m := e.manager(oauth.Config{Grant: "client_credentials", ClientID: "pre-id", ClientSecret: "pre-secret"})
			if code, err := e.call(t, m, "tools/list"); err != nil || code != 200 {
				t.Errorf("client credentials: %d %v", code, err)
			}
		})
	}
}
