package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// registrar answers every registration with status and body, and keeps
// what was sent.
func registrar(t *testing.T, status int, body string, got *map[string]any) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s with Content-Type %q", r.Method, r.Header.Get("Content-Type"))
		}
		b, _ := io.ReadAll(r.Body)
		if got != nil {
			if err := json.Unmarshal(b, got); err != nil {
				t.Errorf("request body %q: %v", b, err)
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/register"
}

func TestRegister(t *testing.T) {
	meta := &clientMetadata{RedirectURIs: []string{"http://127.0.0.1:5000/callback"}, TokenEndpointAuthMethod: "none",
		GrantTypes: []string{"authorization_code", "refresh_token"}, ResponseTypes: []string{"code"}, ClientName: "mcpctl", ApplicationType: "native"}
	var sent map[string]any
	u := registrar(t, 201, `{"client_id":"c1","client_secret":"s1","redirect_uris":["http://127.0.0.1:5000/callback"],"token_endpoint_auth_method":"client_secret_basic","client_id_issued_at":1700000000}`, &sent)
	r, err := register(context.Background(), nil, u, meta)
	if err != nil || r.ClientID != "c1" || r.ClientSecret != "s1" || r.TokenEndpointAuthMethod != "client_secret_basic" || len(r.RedirectURIs) != 1 {
		t.Fatalf("register = %+v, %v", r, err)
	}
	if sent["application_type"] != "native" || sent["client_name"] != "mcpctl" || sent["token_endpoint_auth_method"] != "none" {
		t.Errorf("sent %v", sent)
	}

	for _, tc := range []struct {
		name          string
		status        int
		body          string
		refused, want string // refused: the RFC 7591 error code expected
	}{
		{"refused with a description", 400, `{"error":"invalid_redirect_uri","error_description":"loopback only"}`, "invalid_redirect_uri", "invalid_redirect_uri loopback only"},
		{"refused without a description", 400, `{"error":"invalid_client_metadata"}`, "invalid_client_metadata", "invalid_client_metadata"},
		{"400 that is not an RFC 7591 error", 400, `<html>nope</html>`, "", "HTTP 400 Bad Request without an RFC 7591 error"},
		{"400 without an error code", 400, `{"error_description":"x"}`, "", "without an RFC 7591 error"},
		{"no client_id", 201, `{"client_secret":"s"}`, "", "no client_id"},
		{"not JSON", 201, `client_id=c1`, "", "not a JSON object"},
		{"another status", 503, `{"error":"temporarily_unavailable"}`, "", "HTTP 503 Service Unavailable"},
		{"a redirect", 302, ``, "", "HTTP 302 Found"},
	} {
		r, err := register(context.Background(), nil, registrar(t, tc.status, tc.body, nil), meta)
		if err == nil {
			t.Errorf("%s: registered %+v", tc.name, r)
			continue
		}
		var re *registrationError
		if isRE := errors.As(err, &re); isRE != (tc.refused != "") || (isRE && re.Code != tc.refused) {
			t.Errorf("%s: %T %v, want the RFC 7591 error %q", tc.name, err, err, tc.refused)
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %q does not say %q", tc.name, err, tc.want)
		}
		if strings.Contains(err.Error(), "<html>") || strings.Contains(err.Error(), "temporarily_unavailable") {
			t.Errorf("%s: the server's text is repeated: %q", tc.name, err)
		}
	}
}

// TestRegistrationRefusedIsAnError: a refusal reaches the caller as an
// *Error that gives the server's error code; any other failure says the
// registration failed.
func TestRegistrationRefusedIsAnError(t *testing.T) {
	for _, tc := range []struct {
		status     int
		body, want string
	}{
		{400, `{"error":"invalid_client_metadata","error_description":"no"}`, "client registration refused: invalid_client_metadata no"},
		{500, `{}`, "client registration failed: HTTP 500 Internal Server Error"},
	} {
		m := New(Config{Store: &Store{Dir: t.TempDir()}})
		as := &ServerMeta{Issuer: "https://as.example", RegistrationEndpoint: registrar(t, tc.status, tc.body, nil)}
		c, err := m.clientFor(context.Background(), as, "http://127.0.0.1:5000/callback")
		var oe *Error
		if !errors.As(err, &oe) || err.Error() != tc.want {
			t.Errorf("clientFor = %+v, %v; want an *Error %q", c, err, tc.want)
		}
		if m.cfg.Store.Client(as.Issuer) != nil {
			t.Error("a failed registration was stored")
		}
	}
}
