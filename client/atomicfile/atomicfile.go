// Package atomicfile writes the files mcpctl keeps (cached results, server
// eras, OAuth tokens, the config file, the key that seals continuations,
// task records) so that concurrent readers see a file whole or not at all
// and a crash leaves the old file or the new one, never half of one.
//
// The data goes to a temporary file in the same directory, is synced to
// disk, and is then renamed (Write) or linked (Create) into place; on Unix
// the directory is synced too, so that the new name survives a crash.
// WriteTree does the same for a tree of files whose names come from
// someone else, all of them or none, through folders it holds open.
// Files are 0600 and directories 0700: what mcpctl keeps may be private.
//
// It is the only place in mcpctl that creates a file by renaming one (a
// test in package tests checks): a second copy of this logic would be a
// second set of mistakes.
package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// tempPrefix starts the name of every temporary file; IsTemp knows it.
const tempPrefix = ".tmp-"

// IsTemp reports whether name (a base name) is one of this package's
// temporary files, left behind by a process that died mid-write.
func IsTemp(name string) bool { return strings.HasPrefix(name, tempPrefix) }

// Write replaces file with data, creating its directory (0700) if need be.
func Write(file string, data []byte) error {
	tmp, err := writeTemp(file, data)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, file); err != nil {
		os.Remove(tmp)
		return err
	}
	syncDir(filepath.Dir(file))
	return nil
}

// Create writes file with data only if no file of that name exists: the
// first of several racing processes wins and the others get an error for
// which errors.Is(err, os.ErrExist) holds. Readers never see the file
// half-written.
func Create(file string, data []byte) error {
	tmp, err := writeTemp(file, data)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, file); err != nil {
		return err
	}
	syncDir(filepath.Dir(file))
	return nil
}

// writeTemp writes data, synced, to a new 0600 file beside file and
// returns its name.
func writeTemp(file string, data []byte) (string, error) {
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dir, tempPrefix+"*") // CreateTemp makes it 0600
	if err != nil {
		return "", err
	}
	if err := fill(tmp, data); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return tmp.Name(), nil
}

// fill writes data to a new temporary file, syncs and closes it.
func fill(tmp *os.File, data []byte) error {
	_, werr := tmp.Write(data)
	serr := error(nil)
	if werr == nil {
		serr = tmp.Sync()
	}
	cerr := tmp.Close()
	return errors.Join(werr, serr, cerr)
}
