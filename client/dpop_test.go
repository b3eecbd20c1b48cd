package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"testing"
)

// boundAuth is a BoundAuthenticator that records the proofs it makes
// (numbered) and the nonces it is given.
type boundAuth struct {
	mu     sync.Mutex
	n      int
	nonces []string
}

func (a *boundAuth) Authorization(context.Context) (string, error) { return "", nil }
func (a *boundAuth) Challenge(context.Context, int, http.Header) (bool, error) {
	return false, nil
}
func (a *boundAuth) AuthorizeRequest(_ context.Context, method, url string, hd http.Header) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.n++
	hd.Set("Authorization", "DPoP tok")
	hd.Set("DPoP", method+" "+url+" "+string(rune('0'+a.n)))
	return nil
}
func (a *boundAuth) Nonce(_ string, status int, h http.Header) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.nonces = append(a.nonces, h.Get("DPoP-Nonce"))
	return status == 401 && h.Get("DPoP-Nonce") != ""
}

func TestHTTPNonceChallenge(t *testing.T) {
	for _, tc := range []struct {
		name    string
		forever bool
	}{{"answered once", false}, {"repeated forever: one retry, then an error", true}} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			calls := 0
			srv := newMCPServer(t, func(w http.ResponseWriter, r *http.Request, in seen) {
				mu.Lock()
				calls++
				first := calls == 1
				mu.Unlock()
				if first || tc.forever {
					w.Header().Set("DPoP-Nonce", "n")
					w.Header().Set("WWW-Authenticate", `DPoP error="use_dpop_nonce"`)
					w.WriteHeader(401)
					return
				}
				writeJSON(w, 200, `{"jsonrpc":"2.0","id":`+string(in.ID)+`,"result":{}}`)
			})
			auth := &boundAuth{}
			tr := newTestHTTP(t, HTTPOptions{URL: srv.URL + "/mcp", Auth: auth})
			_, err := New(tr, testOptions()).Call(context.Background(), "tools/list", json.RawMessage(`{}`), nil)
			got := srv.received()
			if tc.forever {
				var ae *AuthError
				if !errors.As(err, &ae) || !errors.Is(err, ErrNonceRepeated) {
					t.Fatalf("err = %v, want an AuthError for a repeated nonce challenge", err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if len(got) != 2 {
				t.Fatalf("%d requests, want 2", len(got))
			}
			if got[0].Header.Get("DPoP") == got[1].Header.Get("DPoP") {
				t.Error("the retry carried the same proof")
			}
		})
	}
}
