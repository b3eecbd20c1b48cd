package commands

import (
	"errors"
	"fmt"

	"github.com/mcpctl/mcpctl/client/oauth"
	"github.com/mcpctl/mcpctl/output"
)

// keychainWayOut is the hint for a keychain that cannot be used.
const keychainWayOut = "to keep tokens in 0600 files instead, use --token-store file"

// tokenStore is where tokens and client registrations are kept, as
// --token-store says: the OS keychain, or files in dir. Under auto, a
// keychain the system lacks means files, quietly (a --trace line); one
// that is there but refuses means files with a note.
func (s *connection) tokenStore(dir string) (*oauth.Store, error) {
	mode := s.g.TokenStore
	store := &oauth.Store{Dir: dir}
	switch mode {
	case "file":
		return store, nil
	case "auto", "keychain":
	default:
		return nil, usagef("invalid --token-store %q: use one of auto, keychain, file", mode)
	}
	k, err := oauth.OpenKeychain(oauth.OSKeychain("mcpctl"))
	if err == nil {
		store.Keychain = k
		return store, nil
	}
	var kerr *oauth.KeychainError
	switch {
	case mode == "keychain":
		return nil, keychainHint(err)
	case errors.As(err, &kerr) && kerr.Absent:
		if s.g.Trace {
			fmt.Fprintln(s.ios.ErrOut, "# "+output.SanitizeLine("oauth: tokens in files under "+dir+": "+err.Error()))
		}
	default:
		fmt.Fprintln(s.ios.ErrOut, "mcpctl: note: "+output.SanitizeLine(err.Error())+"; tokens are kept in files under "+output.SanitizeLine(dir))
	}
	return store, nil
}

// keychainHint adds the way out to a keychain's error.
func keychainHint(err error) error {
	var kerr *oauth.KeychainError
	if errors.As(err, &kerr) {
		return &hintError{err: err, hint: keychainWayOut}
	}
	return err
}

// tokenStoreProblem says what fits a token-store setting ("" when it does).
func tokenStoreProblem(value string) string {
	if !contains(tokenStores, value) {
		return "use one of auto, keychain, file"
	}
	return ""
}
