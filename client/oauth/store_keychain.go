package oauth

// Tokens and client registrations in the OS keychain (macOS Keychain,
// Windows Credential Manager, a Secret Service on Linux) instead of files:
// when Store.Keychain is set, everything the store would write to a file
// goes to one keychain item of the same name, and no file is written but
// the lock beside it (lockServer), which stays in Store.Dir. A file left by
// a store without a keychain is still read when the keychain has no item
// of its name, and removed once the item is written: the tokens move to
// the keychain at their next save.
//
// A keychain item may be small (Windows: 2,560 bytes; macOS: about 3,000
// with the service and account), and tokens need not be: a value longer
// than keychainPart bytes is split into parts (NAME#1, NAME#2, …) under a
// head item that names their number and the SHA-256 of the whole, so a
// reader that meets a half-written value (another process saving) sees
// the mismatch and reads again.

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/zalando/go-keyring"
)

// Keychain holds secrets by name. OSKeychain is the system's; tests may
// pass another.
type Keychain interface {
	// Get returns the secret stored under name, or ErrKeychainItemNotFound.
	Get(name string) (string, error)
	// Set stores secret under name, replacing any.
	Set(name, secret string) error
	// Delete removes name's secret; ErrKeychainItemNotFound when none.
	Delete(name string) error
}

// ErrKeychainItemNotFound is a Keychain's answer for a name it holds nothing under.
var ErrKeychainItemNotFound = errors.New("no such keychain item")

// KeychainError is a keychain that cannot be used: absent, locked, or
// refusing an operation.
type KeychainError struct {
	Op  string // "open", "read", "write", "delete"
	Err error
	// Absent: the system has no keychain here (no Secret Service on a
	// headless Linux machine, say), rather than one that refused.
	Absent bool
}

func (e *KeychainError) Error() string {
	return "the OS keychain (" + keychainName() + ") cannot be used (" + e.Op + "): " + e.Err.Error()
}

func (e *KeychainError) Unwrap() error { return e.Err }

// keychainTimeout bounds one keychain operation: a keychain that waits for
// an unlock prompt nobody can answer (a locked Secret Service with no
// prompter) must not hang the command.
const keychainTimeout = 2 * time.Minute

// keychainPart is the most bytes of a value one item holds.
const keychainPart = 1800

// osKeychain is the system keychain through go-keyring, items named
// under one service.
type osKeychain struct{ service string }

// OSKeychain returns the system keychain, its items kept under service
// (the program's name, say). Use OpenKeychain to learn whether it works.
func OSKeychain(service string) Keychain { return osKeychain{service} }

// OpenKeychain checks that k can be used here (the system has it, and it
// answers a read) and returns it, or a *KeychainError saying why not.
func OpenKeychain(k Keychain) (Keychain, error) {
	if _, ok := k.(osKeychain); ok {
		if err := bounded(keychainPresent); err != nil {
			return nil, &KeychainError{Op: "open", Err: err, Absent: true}
		}
	}
	if _, err := k.Get("probe"); err != nil && !errors.Is(err, ErrKeychainItemNotFound) {
		return nil, &KeychainError{Op: "open", Err: err}
	}
	return k, nil
}

func (k osKeychain) Get(name string) (string, error) {
	var v string
	err := bounded(func() (err error) { v, err = keyring.Get(k.service, name); return err })
	return v, err
}

func (k osKeychain) Set(name, secret string) error {
	return bounded(func() error { return keyring.Set(k.service, name, secret) })
}

func (k osKeychain) Delete(name string) error {
	return bounded(func() error { return keyring.Delete(k.service, name) })
}

// bounded runs op for at most keychainTimeout, mapping go-keyring's
// not-found to ErrKeychainItemNotFound.
func bounded(op func() error) error {
	done := make(chan error, 1)
	go func() { done <- op() }()
	select {
	case err := <-done:
		if errors.Is(err, keyring.ErrNotFound) {
			return ErrKeychainItemNotFound
		}
		return err
	case <-time.After(keychainTimeout):
		return fmt.Errorf("no answer in %v (waiting to be unlocked?)", keychainTimeout)
	}
}

// keychainName is what the system calls its keychain.
func keychainName() string {
	switch runtime.GOOS {
	case "darwin":
		return "macOS Keychain"
	case "windows":
		return "Windows Credential Manager"
	}
	return "Secret Service"
}

// getValue reads name's whole value from k, joining its parts.
func getValue(k Keychain, name string) (string, error) {
	var err error
	for range 3 {
		var v string
		if v, err = getOnce(k, name); err == nil || !errors.Is(err, errPartsChanged) {
			return v, err
		}
		time.Sleep(50 * time.Millisecond)
	}
	return "", err
}

var errPartsChanged = errors.New("the keychain item's parts do not match its head (being written?)")

func getOnce(k Keychain, name string) (string, error) {
	head, err := k.Get(name)
	if err != nil {
		return "", err
	}
	n, sum, ok := parseHead(head)
	if !ok {
		return head, nil
	}
	var b strings.Builder
	for i := 1; i <= n; i++ {
		p, err := k.Get(partName(name, i))
		if errors.Is(err, ErrKeychainItemNotFound) {
			return "", errPartsChanged
		}
		if err != nil {
			return "", err
		}
		b.WriteString(p)
	}
	if digest(b.String()) != sum {
		return "", errPartsChanged
	}
	return b.String(), nil
}

// The head of a split value: "parts N SHA256"; a value the store writes is
// JSON, so it never starts so.
const headPrefix = "parts "

func parseHead(v string) (n int, sum string, ok bool) {
	f := strings.Fields(strings.TrimPrefix(v, headPrefix))
	if !strings.HasPrefix(v, headPrefix) || len(f) != 2 {
		return 0, "", false
	}
	n, err := strconv.Atoi(f[0])
	return n, f[1], err == nil && n > 0
}

func partName(name string, i int) string { return name + "#" + strconv.Itoa(i) }

func digest(v string) string {
	s := sha256.Sum256([]byte(v))
	return hex.EncodeToString(s[:])
}

// setValue writes v under name, in parts when it is long: the parts
// first, then the head, then stale parts of a longer value are removed.
func setValue(k Keychain, name, v string) error {
	if len(v) <= keychainPart {
		if err := k.Set(name, v); err != nil {
			return err
		}
		return deleteParts(k, name, 1)
	}
	n := 0
	for rest := v; rest != ""; n++ {
		p := rest[:min(len(rest), keychainPart)]
		rest = rest[len(p):]
		if err := k.Set(partName(name, n+1), p); err != nil {
			return err
		}
	}
	if err := k.Set(name, headPrefix+strconv.Itoa(n)+" "+digest(v)); err != nil {
		return err
	}
	return deleteParts(k, name, n+1)
}

// deleteParts removes name's parts from the from-th on, up to the first missing.
func deleteParts(k Keychain, name string, from int) error {
	for i := from; ; i++ {
		err := k.Delete(partName(name, i))
		if errors.Is(err, ErrKeychainItemNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// deleteValue removes name and its parts; false when there was nothing.
func deleteValue(k Keychain, name string) (bool, error) {
	err := k.Delete(name)
	if errors.Is(err, ErrKeychainItemNotFound) {
		return false, deleteParts(k, name, 1)
	}
	if err != nil {
		return false, err
	}
	return true, deleteParts(k, name, 1)
}

// load returns the stored bytes of name: the keychain's item when there is
// a keychain and it has one, else the file's.
func (s *Store) load(name string) ([]byte, error) {
	if s.Keychain != nil {
		v, err := getValue(s.Keychain, name)
		if err == nil {
			return []byte(v), nil
		}
		if !errors.Is(err, ErrKeychainItemNotFound) {
			return nil, &KeychainError{Op: "read", Err: err}
		}
	}
	return os.ReadFile(filepath.Join(s.Dir, name))
}

// save stores data as name: in the keychain, removing a file of that name,
// when there is one; else in a file.
func (s *Store) save(name string, data []byte) (keychain bool, err error) {
	if s.Keychain == nil {
		return false, nil
	}
	if err := setValue(s.Keychain, name, string(data)); err != nil {
		return true, &KeychainError{Op: "write", Err: err}
	}
	if err := os.Remove(filepath.Join(s.Dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return true, err
	}
	return true, nil
}

// forgetKeychain removes name from the keychain, when there is one, and
// says whether it held it.
func (s *Store) forgetKeychain(name string) (bool, error) {
	if s == nil || s.Keychain == nil {
		return false, nil
	}
	ok, err := deleteValue(s.Keychain, name)
	if err != nil {
		return ok, &KeychainError{Op: "delete", Err: err}
	}
	return ok, nil
}

// Where says which store holds server's tokens: "keychain", "file", or ""
// when neither does.
func (s *Store) Where(server string) string {
	if s == nil {
		return ""
	}
	name := hashName("tokens", server)
	if s.Keychain != nil {
		if _, err := getValue(s.Keychain, name); err == nil {
			return "keychain"
		}
	}
	if _, err := os.Stat(filepath.Join(s.Dir, name)); err == nil {
		return "file"
	}
	return ""
}
