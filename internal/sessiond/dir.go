package sessiond

// The sessions folder, opened once. Its place is checked (it and the
// folder that holds it must be yours, mode 0700, and no links: the rule
// XDG sets for the runtime folder) and it is then held open: the lock, the
// log and the record are made, read and removed relative to the open
// folder (os.Root), so that a folder swapped after the checks, or a link
// planted in it, leads nowhere else. The socket is the one file used by
// its path (a Unix socket is bound and dialled by path); both of its ends
// check the user at the other end.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Dir is the sessions folder, open (OpenDir).
type Dir struct {
	path string
	root *os.Root
}

// Path is where the folder is, for messages.
func (d *Dir) Path() string { return d.path }

// Close lets the folder go.
func (d *Dir) Close() error { return d.root.Close() }

// OpenDir opens the sessions folder under base (the runtime directory).
// With create, base and the folder are made (0700) when missing. Either
// way both must be real folders (not links), yours, and closed to others
// (*UnsafeError, which says what to fix). A missing one without create is
// an error satisfying os.ErrNotExist, whatever base is: a command that
// only looks for a session says nothing of a folder it has no use for.
func OpenDir(base string, create bool) (*Dir, error) {
	if !Supported {
		return nil, ErrUnsupported
	}
	path := filepath.Join(base, "sessions")
	if create {
		if err := os.MkdirAll(base, 0o700); err != nil {
			return nil, err
		}
	} else if _, err := os.Lstat(path); err != nil {
		// No sessions folder, no session to trust or refuse: what holds
		// it is looked at only when there is something in it to use.
		return nil, err
	}
	parent, err := openChecked(base, "the folder "+base+" (where the sessions folder is)")
	if err != nil {
		return nil, err
	}
	defer parent.Close()
	if create {
		if err := parent.Mkdir("sessions", 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
	}
	fi, err := parent.Lstat("sessions")
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: errors.Unwrap(err)}
	}
	what := "the sessions folder " + path
	if err := checkDir(what, path, fi); err != nil {
		return nil, err
	}
	// The folder that holds it is yours and closed to others: nobody
	// else can have swapped it since the look.
	root, err := parent.OpenRoot("sessions")
	if err != nil {
		return nil, err
	}
	if err := sameChecked(root, fi, what, path); err != nil {
		root.Close()
		return nil, err
	}
	return &Dir{path: path, root: root}, nil
}

// openChecked opens the folder at path after checking it, and checks
// that the folder opened is the one looked at: a folder swapped in
// between is refused.
func openChecked(path, what string) (*os.Root, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if err := checkDir(what, path, fi); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(path)
	if err != nil {
		return nil, err
	}
	if err := sameChecked(root, fi, what, path); err != nil {
		root.Close()
		return nil, err
	}
	return root, nil
}

// sameChecked checks the open folder itself: it is the one looked at
// (fi), and still passes the checks.
func sameChecked(root *os.Root, fi os.FileInfo, what, path string) error {
	st, err := root.Stat(".")
	if err != nil {
		return err
	}
	if !os.SameFile(fi, st) {
		return &UnsafeError{Msg: fmt.Sprintf("%s changed while mcpctl opened it; mcpctl does not use it", what)}
	}
	return checkDir(what, path, st)
}

// checkDir is the rule for the sessions folder and the folder that
// holds it: a folder, not a link, yours, mode 0700.
func checkDir(what, path string, fi os.FileInfo) error {
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		return &UnsafeError{Msg: fmt.Sprintf("%s is a symbolic link; mcpctl uses only a folder of its own (remove the link)", what)}
	case !fi.IsDir():
		return &UnsafeError{Msg: fmt.Sprintf("%s is not a folder; remove it", what)}
	case ownerOf(fi) != os.Getuid():
		return &UnsafeError{Msg: fmt.Sprintf("%s belongs to another user; mcpctl does not use it", what), Foreign: true}
	case fi.Mode().Perm() != 0o700:
		return &UnsafeError{Msg: fmt.Sprintf("%s is open to others (mode %04o); make it private: chmod 700 %s", what, fi.Mode().Perm(), path)}
	}
	return nil
}

// sessionIDs lists the ids of the sessions in the folder, by their
// records.
func (d *Dir) sessionIDs() []string {
	f, err := d.root.Open(".")
	if err != nil {
		return nil
	}
	defer f.Close()
	names, _ := f.Readdirnames(-1)
	var ids []string
	for _, n := range names {
		if id, ok := strings.CutSuffix(n, ".json"); ok && !strings.HasPrefix(n, ".") {
			ids = append(ids, id)
		}
	}
	return ids
}

// regular opens name in the folder only if it is a file of its own: a
// link (even to a file in the folder) or anything else is refused.
func (d *Dir) regular(name string, flag int) (*os.File, error) {
	if fi, err := d.root.Lstat(name); err == nil && !fi.Mode().IsRegular() {
		return nil, &UnsafeError{Msg: fmt.Sprintf("%s is not a file of mcpctl's (a link, or another kind of file); mcpctl does not follow it (remove it)", filepath.Join(d.path, name))}
	}
	return d.root.OpenFile(name, flag, 0o600)
}
