package client

// Credentials bound to each request: a DPoP proof (RFC 9449) is signed
// for one method and URL, so the Authenticator must see both, and a server
// may ask for a nonce in the proof, which the request answers by being
// sent again once with it.

import (
	"context"
	"errors"
	"net/http"
)

// BoundAuthenticator is an Authenticator whose credentials are made for
// each request (DPoP). When Auth implements it, its methods are used
// instead of Authorization.
type BoundAuthenticator interface {
	Authenticator
	// AuthorizeRequest sets the Authorization header, and any proof, for
	// one request to method url.
	AuthorizeRequest(ctx context.Context, method, url string, hd http.Header) error
	// Nonce is shown every response to a request to url; it keeps a nonce
	// the server hands out and says whether the response asks for the
	// request to be sent again with it (use_dpop_nonce).
	Nonce(url string, status int, h http.Header) (retry bool)
}

// ErrNonceRepeated: the server asked again for a nonce after the request
// was sent again with the one it gave; a request is sent again once only.
var ErrNonceRepeated = errors.New("the server asked for a new DPoP nonce again after a retry with the one it gave (use_dpop_nonce); its nonces are not being accepted")
