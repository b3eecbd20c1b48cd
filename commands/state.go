package commands

import (
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"

	"github.com/mcpctl/mcpctl/client/atomicfile"
)

// stateDir is where mcpctl keeps what must outlive one run (task ids, the
// key that seals continuations, OAuth tokens): config.Dirs.
func (f *Factory) stateDir() (string, error) { return f.Dirs().StateDir() }

// stateKey returns this user's secret for sealing continuation documents,
// creating it (0600) on first use.
func (f *Factory) stateKey() ([]byte, error) {
	dir, err := f.stateDir()
	if err != nil {
		return nil, err
	}
	file := filepath.Join(dir, "continuation.key")
	if key, err := os.ReadFile(file); err == nil && len(key) == 32 {
		return key, nil
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	// Two processes racing here both write a key; the first one wins and
	// both read it back.
	if err := atomicfile.Create(file, key); err != nil && !errors.Is(err, os.ErrExist) {
		return nil, err
	}
	return os.ReadFile(file)
}
