package oauth

// Tokens and client registrations on disk: one 0600 file per server (its
// tokens, by issuer) and one per issuer (the client registered there), in
// a 0700 directory, each written to a temporary file and renamed into
// place, so dozens of concurrent mcpctl processes never see half a file.
// A file that cannot be read or parsed is treated as absent and replaced
// after the next login.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/mcpctl/mcpctl/client/atomicfile"
)

// Store keeps tokens and client registrations in Dir, or in Keychain when
// set (store_keychain.go).
type Store struct {
	Dir      string
	Keychain Keychain
}

// Token is a stored access token.
type Token struct {
	AccessToken  string    `json:"access_token"`
	TokenType    string    `json:"token_type,omitempty"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	Expiry       time.Time `json:"expiry,omitempty"`
	Scope        []string  `json:"scope,omitempty"`
	// Issuer and Resource say what the token is for.
	Issuer   string    `json:"issuer"`
	Resource string    `json:"resource"`
	Obtained time.Time `json:"obtained"`
	// TokenURL is where to refresh it.
	TokenURL string `json:"token_url,omitempty"`
}

// ClientInfo is a client identity at one authorization server.
type ClientInfo struct {
	Issuer       string `json:"issuer"`
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret,omitempty"`
	// AuthMethod is the token endpoint authentication method.
	AuthMethod  string   `json:"token_endpoint_auth_method,omitempty"`
	RedirectURI []string `json:"redirect_uris,omitempty"`
	// Source is "cimd", "preregistered" or "dcr".
	Source string `json:"source"`
}

type serverFile struct {
	Server string `json:"server"`
	// Current is the issuer the server named last.
	Current string            `json:"current"`
	Tokens  map[string]*Token `json:"tokens"`
}

func hashName(prefix, s string) string {
	sum := sha256.Sum256([]byte(s))
	return prefix + "-" + hex.EncodeToString(sum[:12]) + ".json"
}

func (s *Store) read(name string, v any) bool {
	if s == nil {
		return false
	}
	data, err := s.load(name)
	if err != nil {
		return false
	}
	return json.Unmarshal(data, v) == nil
}

func (s *Store) write(name string, v any) error {
	if s == nil {
		return nil
	}
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if keychain, err := s.save(name, data); keychain {
		return err
	}
	return atomicfile.Write(filepath.Join(s.Dir, name), data)
}

func (s *Store) server(server string) *serverFile {
	var f serverFile
	if !s.read(hashName("tokens", server), &f) || f.Server != server {
		f = serverFile{Server: server}
	}
	if f.Tokens == nil {
		f.Tokens = map[string]*Token{}
	}
	return &f
}

// Token returns the stored token for server: the one of the issuer the
// server named last, or of issuer when given.
func (s *Store) Token(server, issuer string) *Token {
	f := s.server(server)
	if issuer == "" {
		issuer = f.Current
	}
	t := f.Tokens[issuer]
	if t == nil || t.AccessToken == "" {
		return nil
	}
	return t
}

// SaveToken stores t for server (under t.Issuer, now the current one).
func (s *Store) SaveToken(server string, t *Token) error {
	f := s.server(server)
	f.Tokens[t.Issuer] = t
	f.Current = t.Issuer
	return s.write(hashName("tokens", server), f)
}

// Forget removes every token of server, from the keychain too, and returns
// whether there was one.
func (s *Store) Forget(server string) (bool, error) {
	if s == nil {
		return false, nil
	}
	inKeychain, kerr := s.forgetKeychain(hashName("tokens", server))
	err := os.Remove(filepath.Join(s.Dir, hashName("tokens", server)))
	_ = os.Remove(filepath.Join(s.Dir, hashName("tokens", server)+".lock"))
	s.forgetDPoPKey(server)
	return inKeychain || err == nil, kerr
}

// lockServer holds the lock beside server's tokens until unlock is called,
// waiting while another process holds it (bounded by ctx), so that
// concurrent processes refresh a token one at a time. Where the system
// has no file locks, it goes on without one.
func (s *Store) lockServer(ctx context.Context, server string) (unlock func(), err error) {
	if s == nil {
		return func() {}, nil
	}
	f, err := atomicfile.Lock(ctx, filepath.Join(s.Dir, hashName("tokens", server)+".lock"))
	if errors.Is(err, atomicfile.ErrNoLocks) {
		return func() {}, nil
	}
	if err != nil {
		return nil, err
	}
	return func() { f.Close() }, nil
}

// Client returns the client registered at issuer, if any.
func (s *Store) Client(issuer string) *ClientInfo {
	var c ClientInfo
	if !s.read(hashName("client", issuer), &c) || c.Issuer != issuer || c.ClientID == "" {
		return nil
	}
	return &c
}

// SaveClient stores a registration, keyed by its issuer alone: it is never
// shown to another authorization server.
func (s *Store) SaveClient(c *ClientInfo) error {
	return s.write(hashName("client", c.Issuer), c)
}
