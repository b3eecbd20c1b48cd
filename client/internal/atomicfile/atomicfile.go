// Package atomicfile writes files that concurrent readers see whole or not
// at all: the data goes to a temporary file in the same directory, which
// is then renamed into place. Files are 0600 and directories 0700: what
// mcpctl keeps (results, eras, tokens) may be private.
package atomicfile

import (
	"errors"
	"os"
)

// Write replaces file (in dir, created if need be) with data.
func Write(dir, file string, data []byte) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*") // CreateTemp makes it 0600
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return errors.Join(werr, cerr)
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}
