package oauth

// A token request for the grants golang.org/x/oauth2 has no call for
// (the JWT-bearer grant of RFC 7523 and the token exchange of RFC 8693):
// a form POST, the client authenticated as its metadata prefers, and the
// answer read as RFC 6749 §5.1 and §5.2 say. Errors are the token
// endpoint's, in the words tokenError gives the other grants'.

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

// tokenClient is how a client authenticates at a token endpoint: id and
// secret (client_secret_basic or client_secret_post), or a public
// client's id in the form.
type tokenClient struct {
	ID, Secret string
	// Method is "client_secret_basic", "client_secret_post" or "none".
	Method string
}

// tokenAnswer is a successful token response.
type tokenAnswer struct {
	AccessToken     string `json:"access_token"`
	TokenType       string `json:"token_type"`
	ExpiresIn       int64  `json:"expires_in"`
	RefreshToken    string `json:"refresh_token"`
	Scope           string `json:"scope"`
	IssuedTokenType string `json:"issued_token_type"`
}

// postToken sends form to endpoint and returns its answer; proofs says the
// endpoint is the MCP server's authorization server, whose token requests
// carry DPoP proofs when tokens are bound (not an identity provider's).
func (m *Manager) postToken(ctx context.Context, endpoint string, form url.Values, c tokenClient, proofs bool) (*tokenAnswer, error) {
	form = cloneValues(form)
	if c.ID != "" && c.Method != "client_secret_basic" {
		form.Set("client_id", c.ID)
		if c.Method == "client_secret_post" {
			form.Set("client_secret", c.Secret)
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, &Error{Msg: "invalid token endpoint " + endpoint, Err: err}
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if c.Method == "client_secret_basic" {
		// RFC 6749 §2.3.1: each form-encoded first.
		req.SetBasicAuth(url.QueryEscape(c.ID), url.QueryEscape(c.Secret))
	}
	hc := m.cfg.HTTPClient
	if proofs {
		hc = m.tokenHTTPClient()
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		re := &oauth2.RetrieveError{Response: resp, Body: body}
		var e struct {
			Code        string `json:"error"`
			Description string `json:"error_description"`
		}
		if json.Unmarshal(body, &e) == nil {
			re.ErrorCode, re.ErrorDescription = e.Code, e.Description
		}
		return nil, re
	}
	var a tokenAnswer
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, &Error{Msg: "the token endpoint's answer is not a JSON object", Err: err}
	}
	if a.AccessToken == "" {
		return nil, &Error{Msg: "the token endpoint's answer has no access_token"}
	}
	return &a, nil
}

// token is a as the oauth2 package's token, for keep.
func (a *tokenAnswer) token(now time.Time) *oauth2.Token {
	t := &oauth2.Token{AccessToken: a.AccessToken, TokenType: a.TokenType, RefreshToken: a.RefreshToken}
	if a.ExpiresIn > 0 {
		t.Expiry = now.Add(time.Duration(a.ExpiresIn) * time.Second)
	}
	return t.WithExtra(map[string]any{"scope": a.Scope})
}

func cloneValues(v url.Values) url.Values {
	out := url.Values{}
	for k, vs := range v {
		out[k] = append([]string(nil), vs...)
	}
	return out
}
