package sessiond

// Where sessions live: one folder (the runtime directory's sessions/,
// 0700, ours), and in it, per server identity, a socket, a lock held by
// the session process for its whole life, a record for session list and
// the bounded log of the server's stderr.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/atomicfile"
)

var (
	// ErrUnsupported: sessions do not work on this system (Supported).
	ErrUnsupported = fmt.Errorf("sessions are not supported on %s", runtime.GOOS)
	// ErrLocked: another process holds the session's lock; a session of
	// the server is starting or running.
	ErrLocked = errors.New("another process holds the session's lock")
)

// UnsafeError says that something in the sessions folder is not what
// mcpctl made, so it is not used.
type UnsafeError struct{ Msg string }

func (e *UnsafeError) Error() string { return e.Msg }

// SocketPathError: the socket's path is too long for a local socket.
type SocketPathError struct {
	Path     string
	Len, Max int
}

func (e *SocketPathError) Error() string {
	return fmt.Sprintf("the session socket's path %s is %d bytes long, more than a local socket's %d", e.Path, e.Len, e.Max)
}

// maxSocketPath is the longest path a local socket may have everywhere
// sessions work (sun_path: 108 bytes on Linux, 104 on macOS, with its NUL).
const maxSocketPath = 103

// ID names a server's session files: a hash of its identity (the one
// the cache uses), short enough for a socket path.
func ID(serverID string) string {
	sum := sha256.Sum256([]byte(serverID))
	return hex.EncodeToString(sum[:8])
}

// Paths are the files of one server's session: Dir is the sessions
// folder (OpenDir), ID the server's (ID).
type Paths struct {
	Dir, ID string
}

func (p Paths) Socket() string { return filepath.Join(p.Dir, p.ID+".sock") }
func (p Paths) Record() string { return filepath.Join(p.Dir, p.ID+".json") }
func (p Paths) Lock() string   { return filepath.Join(p.Dir, p.ID+".lock") }
func (p Paths) Log() string    { return filepath.Join(p.Dir, p.ID+".log") }

// CheckLength refuses a socket path too long to listen on
// (*SocketPathError).
func (p Paths) CheckLength() error {
	if n := len(p.Socket()); n > maxSocketPath {
		return &SocketPathError{Path: p.Socket(), Len: n, Max: maxSocketPath}
	}
	return nil
}

// Held reports whether the session's lock cannot be taken now: a process
// holds it, so its session is starting or running.
func (p Paths) Held() bool {
	l, err := lock(p.Lock())
	if err != nil {
		return true
	}
	l.Close()
	return false
}

// remove deletes what a session leaves in the folder.
func (p Paths) remove() {
	for _, f := range []string{p.Socket(), p.Record(), p.Log(), p.Log() + ".1", p.Lock()} {
		_ = os.Remove(f)
	}
}

// OpenDir is the sessions folder under base (the runtime directory). With
// create it is made (0700) when missing; either way an existing folder
// must be a real folder, ours, and closed to others (*UnsafeError). A
// missing one without create is an error satisfying os.ErrNotExist.
func OpenDir(base string, create bool) (string, error) {
	if !Supported {
		return "", ErrUnsupported
	}
	dir := filepath.Join(base, "sessions")
	fi, err := os.Lstat(dir)
	if errors.Is(err, os.ErrNotExist) && create {
		if err := os.MkdirAll(base, 0o700); err != nil {
			return "", err
		}
		if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
			return "", err
		}
		fi, err = os.Lstat(dir)
	}
	if err != nil {
		return dir, err
	}
	return dir, checkDir(dir, fi)
}

func checkDir(dir string, fi os.FileInfo) error {
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		return &UnsafeError{fmt.Sprintf("the sessions folder %s is a symbolic link; mcpctl uses only a folder of its own (remove the link)", dir)}
	case !fi.IsDir():
		return &UnsafeError{fmt.Sprintf("%s is not a folder; remove it", dir)}
	case ownerOf(fi) != os.Getuid():
		return &UnsafeError{fmt.Sprintf("the sessions folder %s belongs to another user; mcpctl does not use it", dir)}
	case fi.Mode().Perm() != 0o700:
		return &UnsafeError{fmt.Sprintf("the sessions folder %s is open to others (mode %04o); make it private: chmod 700 %s", dir, fi.Mode().Perm(), dir)}
	}
	return nil
}

// checkSocket refuses a socket path that is a link, not a socket, or
// another user's.
func checkSocket(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		return &UnsafeError{fmt.Sprintf("the session socket %s is a symbolic link; mcpctl does not follow it (remove it)", path)}
	case fi.Mode()&os.ModeSocket == 0:
		return &UnsafeError{fmt.Sprintf("%s is not a socket; remove it", path)}
	case ownerOf(fi) != os.Getuid():
		return &UnsafeError{fmt.Sprintf("the session socket %s belongs to another user; mcpctl does not use it", path)}
	case fi.Mode().Perm()&0o077 != 0:
		return &UnsafeError{fmt.Sprintf("the session socket %s is open to others (mode %04o); mcpctl does not use it (remove it)", path, fi.Mode().Perm())}
	}
	return nil
}

// record is written beside a ready session's socket: List finds the
// sessions to ask by their records, and a person (or a test ending
// sessions by pid) can read who is behind each socket.
type record struct {
	Name     string     `json:"name"`
	Server   string     `json:"server"`
	ServerID string     `json:"serverId"`
	Era      client.Era `json:"era"`
	Version  string     `json:"protocolVersion"`
	PID      int        `json:"pid"`
	Started  time.Time  `json:"started"`
	Idle     string     `json:"idleTimeout"`
}

func (r *record) write(path string) error {
	data, _ := json.Marshal(r)
	return atomicfile.Write(path, data)
}

// sessionIDs lists the ids of the sessions in dir, by their records.
func sessionIDs(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var ids []string
	for _, e := range entries {
		if id, ok := strings.CutSuffix(e.Name(), ".json"); ok {
			ids = append(ids, id)
		}
	}
	return ids
}
