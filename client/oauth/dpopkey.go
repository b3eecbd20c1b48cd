package oauth

// The DPoP key pair of one server (RFC 9449): an ECDSA P-256 key made at
// the first DPoP-bound token request and kept beside the server's tokens,
// in its own 0600 file written atomically, for as long as they are; the
// tokens are bound to it, so it goes when they go (Forget).

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
)

// dpopKeyFile is the stored key: the server it is for, and the JWK
// members of the private key (RFC 7518 §6.2).
type dpopKeyFile struct {
	Server string `json:"server"`
	Kty    string `json:"kty"`
	Crv    string `json:"crv"`
	D      string `json:"d"`
}

func dpopKeyName(server string) string { return hashName("dpop", server) }

// DPoPKey returns the stored DPoP key of server, or nil.
func (s *Store) DPoPKey(server string) *ecdsa.PrivateKey {
	var f dpopKeyFile
	if !s.read(dpopKeyName(server), &f) || f.Server != server || f.Kty != "EC" || f.Crv != "P-256" {
		return nil
	}
	d, err := base64.RawURLEncoding.DecodeString(f.D)
	if err != nil {
		return nil
	}
	k, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), d)
	if err != nil {
		return nil
	}
	return k
}

// SaveDPoPKey stores server's DPoP key.
func (s *Store) SaveDPoPKey(server string, k *ecdsa.PrivateKey) error {
	d, err := k.Bytes()
	if err != nil {
		return err
	}
	return s.write(dpopKeyName(server), dpopKeyFile{Server: server, Kty: "EC", Crv: "P-256", D: base64.RawURLEncoding.EncodeToString(d)})
}

// forgetDPoPKey removes server's DPoP key, if any.
func (s *Store) forgetDPoPKey(server string) {
	if s != nil {
		_, _ = s.forgetKeychain(dpopKeyName(server)) // where the key went with the tokens
		_ = os.Remove(filepath.Join(s.Dir, dpopKeyName(server)))
	}
}

// newDPoPKey makes a P-256 key pair.
func newDPoPKey() (*ecdsa.PrivateKey, error) {
	return ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
}

// publicJWK is the public half of k as a JWK (RFC 7517), the members of
// RFC 7638 §3.2 only.
func publicJWK(k *ecdsa.PrivateKey) (map[string]any, error) {
	p, err := k.PublicKey.Bytes() // 0x04 || X || Y
	if err != nil {
		return nil, err
	}
	if len(p) != 65 {
		return nil, fmt.Errorf("unexpected P-256 public key length %d", len(p))
	}
	enc := base64.RawURLEncoding.EncodeToString
	return map[string]any{"kty": "EC", "crv": "P-256", "x": enc(p[1:33]), "y": enc(p[33:])}, nil
}

// jwkThumbprint is the RFC 7638 SHA-256 thumbprint of k's public key:
// the required members in lexicographic order, no white space.
func jwkThumbprint(k *ecdsa.PrivateKey) (string, error) {
	j, err := publicJWK(k)
	if err != nil {
		return "", err
	}
	canon := fmt.Sprintf(`{"crv":"P-256","kty":"EC","x":%q,"y":%q}`, j["x"], j["y"])
	sum := sha256.Sum256([]byte(canon))
	return base64.RawURLEncoding.EncodeToString(sum[:]), nil
}
