package oauth_test

import (
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"github.com/mcpctl/mcpctl/client/oauth"
	"github.com/mcpctl/mcpctl/tests/oauthserver"
)

// fakeKeychain is a keychain in memory that refuses items longer than
// limit bytes (as Windows' does past 2,560), or everything with err.
type fakeKeychain struct {
	mu    sync.Mutex
	items map[string]string
	limit int
	err   error
}

func newFakeKeychain() *fakeKeychain { return &fakeKeychain{items: map[string]string{}, limit: 2560} }

func (k *fakeKeychain) Get(name string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.err != nil {
		return "", k.err
	}
	v, ok := k.items[name]
	if !ok {
		return "", oauth.ErrKeychainItemNotFound
	}
	return v, nil
}

func (k *fakeKeychain) Set(name, secret string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.err != nil {
		return k.err
	}
	if len(secret) > k.limit {
		return errors.New("too big")
	}
	k.items[name] = secret
	return nil
}

func (k *fakeKeychain) Delete(name string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.err != nil {
		return k.err
	}
	if _, ok := k.items[name]; !ok {
		return oauth.ErrKeychainItemNotFound
	}
	delete(k.items, name)
	return nil
}

func (k *fakeKeychain) names() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	var out []string
	for n := range k.items {
		out = append(out, n)
	}
	return out
}

// files lists what is in dir but lock files.
func files(t *testing.T, dir string) []string {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".lock") {
			out = append(out, e.Name())
		}
	}
	return out
}

// A login and a refresh with the tokens in the keychain: no file but the
// lock is written, and a new process finds the tokens there.
func TestKeychainStoreLoginAndRefresh(t *testing.T) {
	e := newEnv(t, oauthserver.Options{TokenTTL: 1500 * time.Millisecond})
	k := newFakeKeychain()
	e.store.Keychain = k
	m := e.manager(oauth.Config{})
	if code, err := e.call(t, m, "tools/list"); err != nil || code != 200 {
		t.Fatalf("login: %d %v", code, err)
	}
	if f := files(t, e.store.Dir); len(f) != 0 {
		t.Errorf("files written beside the keychain: %v", f)
	}
	if len(k.names()) != 2 { // the tokens and the client registration
		t.Errorf("keychain items: %v", k.names())
	}
	if st, ok := m.Stored(); !ok || st.Store != "keychain" {
		t.Errorf("stored: %+v %v, want in the keychain", st, ok)
	}
	m2 := refreshAfter(t, e, 1600*time.Millisecond)
	if f := files(t, e.store.Dir); len(f) != 0 {
		t.Errorf("files written beside the keychain: %v", f)
	}
	forgot, err := m2.Logout()
	if !forgot || err != nil {
		t.Fatalf("logout: %v %v", forgot, err)
	}
	if len(k.names()) != 1 { // the client registration stays, as in files
		t.Errorf("keychain items after logout: %v", k.names())
	}
	if _, ok := m2.Stored(); ok {
		t.Error("a token is still stored after logout")
	}
}

// refreshAfter waits for the token of the login e had to expire, then
// has a new process (manager) use it: it must refresh the stored token
// rather than log in again.
func refreshAfter(t *testing.T, e *env, wait time.Duration) *oauth.Manager {
	t.Helper()
	time.Sleep(wait)
	m := e.manager(oauth.Config{})
	if code, err := e.call(t, m, "tools/list"); err != nil || code != 200 {
		t.Fatalf("after expiry: %d %v", code, err)
	}
	if e.as.Count("/authorize") != 1 || e.as.Count("/token") != 2 {
		t.Errorf("authorize %d, token %d: want one login and one refresh", e.as.Count("/authorize"), e.as.Count("/token"))
	}
	return m
}

// A value past one item's size is split into parts no larger than an
// item may be, read back whole; a shorter one later leaves no stale part;
// a part that does not match its head is not used; Forget removes them all.
func TestKeychainLargeTokensSplit(t *testing.T) {
	k := newFakeKeychain()
	s := &oauth.Store{Dir: t.TempDir(), Keychain: k}
	big := &oauth.Token{AccessToken: strings.Repeat("a", 6000), RefreshToken: strings.Repeat("r", 3000), Issuer: "https://as"}
	if err := s.SaveToken("https://mcp", big); err != nil {
		t.Fatal(err)
	}
	if n := len(k.names()); n < 6 {
		t.Fatalf("%d keychain items for a 9 KB token, want it split", n)
	}
	for name, v := range k.items {
		if len(v) > 1800 {
			t.Errorf("item %s holds %d bytes", name, len(v))
		}
	}
	if got := s.Token("https://mcp", ""); got == nil || got.AccessToken != big.AccessToken || got.RefreshToken != big.RefreshToken {
		t.Fatal("the split token does not read back whole")
	}
	// A part changed under the head (a writer midway): not used.
	var part string
	for name := range k.items {
		if strings.HasSuffix(name, "#2") {
			part = name
		}
	}
	saved := k.items[part]
	k.items[part] = strings.Repeat("x", len(saved))
	if s.Token("https://mcp", "") != nil {
		t.Error("a token with a mismatched part was used")
	}
	k.items[part] = saved

	small := &oauth.Token{AccessToken: "short", Issuer: "https://as"}
	if err := s.SaveToken("https://mcp", small); err != nil {
		t.Fatal(err)
	}
	if n := len(k.names()); n != 1 {
		t.Errorf("%d keychain items after a short token replaced a long one: %v", n, k.names())
	}
	if got := s.Token("https://mcp", ""); got == nil || got.AccessToken != "short" {
		t.Errorf("read back %+v", got)
	}
	if err := s.SaveToken("https://mcp", big); err != nil {
		t.Fatal(err)
	}
	if forgot, err := s.Forget("https://mcp"); !forgot || err != nil {
		t.Fatalf("forget: %v %v", forgot, err)
	}
	if n := len(k.names()); n != 0 {
		t.Errorf("left in the keychain after Forget: %v", k.names())
	}
}

// Tokens in a file from before the keychain are used, and move to the
// keychain at the next save.
func TestKeychainTakesOverFiles(t *testing.T) {
	dir := t.TempDir()
	files0 := &oauth.Store{Dir: dir}
	if err := files0.SaveToken("https://mcp", &oauth.Token{AccessToken: "from-file", Issuer: "https://as"}); err != nil {
		t.Fatal(err)
	}
	k := newFakeKeychain()
	s := &oauth.Store{Dir: dir, Keychain: k}
	if got := s.Token("https://mcp", ""); got == nil || got.AccessToken != "from-file" {
		t.Fatalf("the file's token was not read: %+v", got)
	}
	if w := s.Where("https://mcp"); w != "file" {
		t.Errorf("Where = %q, want file", w)
	}
	if err := s.SaveToken("https://mcp", &oauth.Token{AccessToken: "refreshed", Issuer: "https://as"}); err != nil {
		t.Fatal(err)
	}
	if f := files(t, dir); len(f) != 0 {
		t.Errorf("the token file is still there: %v", f)
	}
	if w := s.Where("https://mcp"); w != "keychain" {
		t.Errorf("Where = %q, want keychain", w)
	}
	// A store without the keychain no longer sees it.
	if files0.Token("https://mcp", "") != nil {
		t.Error("the file store still has the token")
	}
}

// A keychain that refuses: OpenKeychain says so (not as absent); a save
// fails with a KeychainError, never falling back to a file on its own;
// a read finds nothing.
func TestKeychainRefusing(t *testing.T) {
	k := newFakeKeychain()
	k.err = errors.New("the collection is locked")
	_, err := oauth.OpenKeychain(k)
	var kerr *oauth.KeychainError
	if !errors.As(err, &kerr) || kerr.Absent || !strings.Contains(err.Error(), "locked") {
		t.Fatalf("OpenKeychain: %v", err)
	}
	s := &oauth.Store{Dir: t.TempDir(), Keychain: k}
	err = s.SaveToken("https://mcp", &oauth.Token{AccessToken: "t", Issuer: "https://as"})
	if !errors.As(err, &kerr) || kerr.Op != "write" {
		t.Errorf("SaveToken: %v, want a KeychainError", err)
	}
	if f := files(t, s.Dir); len(f) != 0 {
		t.Errorf("a refused save wrote files: %v", f)
	}
	if s.Token("https://mcp", "") != nil {
		t.Error("a token was read")
	}
	if _, err := s.Forget("https://mcp"); !errors.As(err, &kerr) {
		t.Errorf("Forget: %v, want a KeychainError", err)
	}

	k.err = nil
	if got, err := oauth.OpenKeychain(k); err != nil || got != k {
		t.Errorf("OpenKeychain of a working keychain: %v", err)
	}
}

// The OS keychain adapter through go-keyring's in-memory provider: items
// under the service, not-found mapped, errors passed on.
func TestOSKeychainAdapter(t *testing.T) {
	keyring.MockInit()
	k := oauth.OSKeychain("mcpctl-test")
	if _, err := k.Get("x"); !errors.Is(err, oauth.ErrKeychainItemNotFound) {
		t.Errorf("Get of nothing: %v", err)
	}
	s := &oauth.Store{Dir: t.TempDir(), Keychain: k}
	if err := s.SaveToken("https://mcp", &oauth.Token{AccessToken: "t", Issuer: "https://as"}); err != nil {
		t.Fatal(err)
	}
	if got := s.Token("https://mcp", ""); got == nil || got.AccessToken != "t" {
		t.Errorf("read back %+v", got)
	}
	if v, err := keyring.Get("mcpctl-test", firstName(t)); err != nil || !strings.Contains(v, `"access_token"`) {
		t.Errorf("the item under the service: %q %v", v, err)
	}
	if forgot, err := s.Forget("https://mcp"); !forgot || err != nil {
		t.Errorf("forget: %v %v", forgot, err)
	}
	keyring.MockInitWithError(errors.New("no keychain"))
	if _, err := k.Get("x"); err == nil || errors.Is(err, oauth.ErrKeychainItemNotFound) {
		t.Errorf("Get from a failing keychain: %v", err)
	}
}

// firstName is the name the store gives the tokens of https://mcp, found
// by saving them to a file store.
func firstName(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := (&oauth.Store{Dir: dir}).SaveToken("https://mcp", &oauth.Token{AccessToken: "t", Issuer: "https://as"}); err != nil {
		t.Fatal(err)
	}
	f := files(t, dir)
	if len(f) != 1 {
		t.Fatalf("files: %v", f)
	}
	return f[0]
}

// A DPoP key goes where the tokens go: into the keychain, never a file,
// and logout takes it out with them.
func TestKeychainKeepsTheDPoPKey(t *testing.T) {
	e := newEnv(t, oauthserver.Options{DPoPAlgs: []string{"ES256"}})
	k := newFakeKeychain()
	e.store.Keychain = k
	m := e.manager(oauth.Config{})
	if code, err := e.call(t, m, "tools/list"); err != nil || code != 200 {
		t.Fatalf("login: %d %v", code, err)
	}
	if f := files(t, e.store.Dir); len(f) != 0 {
		t.Errorf("files written beside the keychain: %v", f)
	}
	if len(k.names()) != 3 { // the tokens, the client registration, the key
		t.Errorf("keychain items: %v", k.names())
	}
	if _, err := m.Logout(); err != nil {
		t.Fatal(err)
	}
	if len(k.names()) != 1 { // the client registration stays
		t.Errorf("keychain items after logout: %v", k.names())
	}
}
