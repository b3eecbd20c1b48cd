package config

// The user's consent to a project file, as direnv asks for an .envrc:
// `mcpctl config trust` records the file's path and the SHA-256 of its
// content in the state folder (Dirs.TrustFile); a file is trusted while
// its content is the one recorded, and a change needs trusting again.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/mcpctl/mcpctl/client/atomicfile"
)

// Trust is whether the user trusts a project file.
type Trust string

const (
	// NotProject is one of the user's own files, which needs no consent.
	NotProject Trust = ""
	// Trusted is a project file whose content the user trusted.
	Trusted Trust = "trusted"
	// Untrusted is a project file the user never trusted: not used.
	Untrusted Trust = "untrusted"
	// Changed is a project file trusted once and changed since: not used
	// until trusted again.
	Changed Trust = "changed"
	// TrustedForRun is a project file not trusted but used all the same
	// for this run (Options.TrustAll: --trust-project, for CI).
	TrustedForRun Trust = "trust-project"
)

// Usable reports whether servers of a file in this state are used.
func (t Trust) Usable() bool { return t == NotProject || t == Trusted || t == TrustedForRun }

// trustRecord is the file of trusted project files: each by its path,
// with the SHA-256 of the content trusted.
type trustRecord struct {
	Files map[string]trustEntry `json:"files"`
}

type trustEntry struct {
	SHA256    string `json:"sha256"`
	TrustedAt string `json:"trustedAt,omitempty"`
}

// readTrust reads the record; a missing one trusts nothing.
func readTrust(file string) (*trustRecord, error) {
	r := &trustRecord{Files: map[string]trustEntry{}}
	if file == "" {
		return r, nil
	}
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(data, r); err != nil {
		return &trustRecord{Files: map[string]trustEntry{}}, fmt.Errorf("invalid JSON: %w", err)
	}
	if r.Files == nil {
		r.Files = map[string]trustEntry{}
	}
	return r, nil
}

// state is what the record says of a file with this content.
func (r *trustRecord) state(path string, data []byte) Trust {
	e, ok := r.Files[trustKey(path)]
	switch {
	case !ok:
		return Untrusted
	case e.SHA256 != contentHash(data):
		return Changed
	}
	return Trusted
}

// trustKey is the path a file is recorded under: with symbolic links
// resolved, so that the same file reached another way is the same file.
func trustKey(path string) string {
	if p, err := filepath.EvalSymlinks(path); err == nil {
		return p
	}
	return filepath.Clean(path)
}

func contentHash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// TrustFiles records the files' contents, as read, as trusted by the user
// in the record file (Dirs.TrustFile): written whole (atomicfile, 0600),
// under a lock, so that two at once lose neither. An unreadable record is
// replaced, with a warning.
func TrustFiles(ctx context.Context, record string, files []*ProjectFile) ([]Warning, error) {
	if record == "" {
		return nil, errors.New("no state folder to keep trusted files in: set MCPCTL_STATE_DIR or XDG_STATE_HOME")
	}
	lock, err := atomicfile.Lock(ctx, record+".lock")
	switch {
	case errors.Is(err, atomicfile.ErrNoLocks):
	case err != nil:
		return nil, err
	default:
		defer lock.Close()
	}
	var warnings []Warning
	r, err := readTrust(record)
	if err != nil {
		warnings = append(warnings, Warning{File: record, Msg: "not read (" + err.Error() + "); written anew, with only the files trusted now"})
	}
	now := time.Now().UTC().Format(time.RFC3339)
	for _, pf := range files {
		r.Files[trustKey(pf.Source.File)] = trustEntry{SHA256: contentHash(pf.data), TrustedAt: now}
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return warnings, err
	}
	return warnings, atomicfile.Write(record, append(data, '\n'))
}

// UntrustedError is a server name that only project files the user has
// not trusted define.
type UntrustedError struct {
	Name string
	// File is the first such file (in precedence order); Changed says it
	// was trusted once and has changed since.
	File    string
	Changed bool
}

func (e *UntrustedError) Error() string {
	if e.Changed {
		return fmt.Sprintf("server %q is defined only by %s, a project file that changed since you trusted it", e.Name, e.File)
	}
	return fmt.Sprintf("server %q is defined only by %s, a project file you have not trusted", e.Name, e.File)
}
