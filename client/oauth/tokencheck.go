package oauth

// What a token endpoint issues must be a token before it is kept: an
// access token goes into an Authorization header as RFC 6750's b64token,
// and a refresh token is visible ASCII (RFC 6749, appendix A.17). One with
// a control character or a space would be stored, refused by every HTTP
// request after it (a header cannot carry it) and written to the terminal
// by whoever prints it.

import (
	"fmt"
	"strings"

	"golang.org/x/oauth2"

	"github.com/mcpctl/mcpctl/client"
)

// issuedToken refuses tok, issued by the authorization server issuer,
// when it is not a token.
func issuedToken(issuer string, tok *oauth2.Token) error {
	if what := checkToken(tok.AccessToken, tok.RefreshToken); what != "" {
		return &Error{Msg: fmt.Sprintf("the authorization server %s issued %s; it was not kept", client.RedactURL(issuer), what)}
	}
	return nil
}

// checkToken says what is wrong with an access and a refresh token
// ("" for nothing).
func checkToken(access, refresh string) string {
	switch {
	case !isB64Token(access):
		return "an access token with characters a token cannot have (RFC 6750: letters, digits and -._~+/, then =)"
	case strings.IndexFunc(refresh, func(r rune) bool { return r < 0x20 || r > 0x7e }) >= 0:
		return "a refresh token with characters a token cannot have (RFC 6749: visible ASCII)"
	}
	return ""
}

// isB64Token: 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=".
func isB64Token(s string) bool {
	body := strings.TrimRight(s, "=")
	if body == "" {
		return false
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~+/", c) >= 0) {
			return false
		}
	}
	return true
}
