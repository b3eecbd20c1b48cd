package tests

// Issue 13, item 11 (OAuth over plain HTTP): the pieces of the security
// tests TestOAuthPlainHTTPRefused, TestOAuthRefreshStaysOnHTTPS and
// TestOAuthNeedsS256. The authorization server (tests/oauthserver) runs
// in this process so that the tests see every request it got; a proxy
// that counts connections stands in for the plain-HTTP host: mcpctl's
// HTTP client sends requests for a host that is not loopback through
// $HTTP_PROXY, so an endpoint on auth.example.test that was contacted at
// all (there is no such host to reach) shows up there.

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpctl/mcpctl/tests/oauthserver"
)

// oauthSite is an MCP endpoint (url) behind the authorization server as,
// whose issuer is under /as, as the demo's --auth has it.
type oauthSite struct {
	as  *oauthserver.Server
	url string
}

func startOAuthSite(t *testing.T, opts oauthserver.Options) *oauthSite {
	t.Helper()
	opts.IssuerPath = "/as"
	as := oauthserver.New(opts)
	mux := http.NewServeMux()
	// Reached only with a token, i.e. after a login mcpctl should have
	// refused: an answer of any kind will do.
	as.Mount(mux, "/mcp", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`)
	}))
	// Base is set before the server starts, so that its handlers read it
	// after the write (the race detector cannot see that the requests
	// come later, from another process).
	srv := httptest.NewUnstartedServer(mux) // 127.0.0.1
	as.Base = "http://" + srv.Listener.Addr().String()
	srv.Start()
	t.Cleanup(srv.Close)
	return &oauthSite{as: as, url: srv.URL + "/mcp"}
}

// sent is how many requests reached the authorization server's own
// endpoints (registration, authorization, token): the metadata aside.
func (s *oauthSite) sent() int {
	return s.as.Count("/as/register") + s.as.Count("/as/authorize") + s.as.Count("/as/token")
}

// countingProxy listens on loopback and counts the connections made to
// it, answering none; proxyEnv points mcpctl (and the browser it starts)
// at it for every host that is not loopback.
func countingProxy(t *testing.T) (env []string, connections func() int) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	var n atomic.Int32
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			c.Close()
		}
	}()
	u := "http://" + l.Addr().String()
	return []string{"HTTP_PROXY=" + u, "HTTPS_PROXY=" + u, "http_proxy=" + u, "https_proxy=" + u, "NO_PROXY=", "no_proxy="},
		func() int { return int(n.Load()) }
}

// oauthEnv is the environment of an mcpctl run against a site: its own
// state folder, the headless browser, the counting proxy. The tokens stay
// in files, which the tests read (never in the keychain of whoever runs
// them).
func oauthEnv(t *testing.T, state string, proxy []string) []string {
	return append([]string{"MCPCTL_STATE_DIR=" + state, "MCPCTL_TOKEN_STORE=file", "BROWSER=" + filepath.Join(buildDemo(t), "browser")}, proxy...)
}

// oneErrorLine checks that stderr is one "mcpctl: …" line matching re.
func oneErrorLine(t *testing.T, stderr string, re string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if len(lines) != 1 || !regexp.MustCompile(re).MatchString(lines[0]) {
		t.Errorf("stderr is not one line matching %s:\n%s", re, stderr)
	}
}

// tokenFiles lists the token files in a state folder.
func tokenFiles(state string) []string {
	files, _ := filepath.Glob(filepath.Join(state, "oauth", "tokens-*"))
	return files
}
