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
	"io"
	"os"
	"path/filepath"
	"runtime"
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

// UnsafeError says that something in the sessions folder, or the folder
// itself, is not what mcpctl made, so it is not used. Foreign: it is
// another user's, so the way out is another folder.
type UnsafeError struct {
	Msg     string
	Foreign bool
}

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
// folder (OpenDir), ID the server's (ID). The paths are for messages, for
// the socket and for tests: the other files are opened relative to Dir.
type Paths struct {
	Dir *Dir
	ID  string
}

func (p Paths) Socket() string { return filepath.Join(p.Dir.path, p.sockName()) }
func (p Paths) Record() string { return filepath.Join(p.Dir.path, p.recordName()) }
func (p Paths) Lock() string   { return filepath.Join(p.Dir.path, p.lockName()) }
func (p Paths) Log() string    { return filepath.Join(p.Dir.path, p.logName()) }

func (p Paths) sockName() string   { return p.ID + ".sock" }
func (p Paths) recordName() string { return p.ID + ".json" }
func (p Paths) lockName() string   { return p.ID + ".lock" }
func (p Paths) logName() string    { return p.ID + ".log" }

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
	l, err := p.lock()
	if err != nil {
		return true
	}
	l.Close()
	return false
}

// lock takes the lock a session process holds for its whole life;
// ErrLocked means another process holds it. The kernel lets it go when
// the process dies, however it dies, so a lock never goes stale.
func (p Paths) lock() (*os.File, error) { return lockIn(p.Dir.root, p.lockName()) }

// remove deletes what a session leaves in the folder.
func (p Paths) remove() {
	for _, f := range []string{p.sockName(), p.recordName(), p.logName(), p.logName() + ".1", p.lockName()} {
		_ = p.Dir.root.Remove(f)
	}
}

// CreateLog makes the session's log afresh (0600), for its process's
// own output: whatever was at its place before (an old log, or a link
// planted there) is removed, never followed.
func (p Paths) CreateLog() (*os.File, error) {
	_ = p.Dir.root.Remove(p.logName())
	return p.Dir.root.OpenFile(p.logName(), os.O_CREATE|os.O_EXCL|os.O_WRONLY|os.O_APPEND, 0o600)
}

// ReadLog reads the session's log (*UnsafeError: it is not a file).
func (p Paths) ReadLog() ([]byte, error) {
	f, err := p.Dir.regular(p.logName(), os.O_RDONLY)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// checkSocket refuses a socket that is a link, not a socket, or another
// user's.
func (p Paths) checkSocket() error {
	path := p.Socket()
	fi, err := p.Dir.root.Lstat(p.sockName())
	if err != nil {
		return err
	}
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		return &UnsafeError{Msg: fmt.Sprintf("the session socket %s is a symbolic link; mcpctl does not follow it (remove it)", path)}
	case fi.Mode()&os.ModeSocket == 0:
		return &UnsafeError{Msg: fmt.Sprintf("%s is not a socket; remove it", path)}
	case ownerOf(fi) != os.Getuid():
		return &UnsafeError{Msg: fmt.Sprintf("the session socket %s belongs to another user; mcpctl does not use it", path), Foreign: true}
	case fi.Mode().Perm()&0o077 != 0:
		return &UnsafeError{Msg: fmt.Sprintf("the session socket %s is open to others (mode %04o); mcpctl does not use it (remove it)", path, fi.Mode().Perm())}
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
	// ProcStart is when the system says the process started (procStart):
	// with PID it names the session's process for good, where a pid alone
	// may be another process's by now.
	ProcStart string    `json:"procStart,omitempty"`
	Started   time.Time `json:"started"`
	Idle      string    `json:"idleTimeout"`
}

func (p Paths) writeRecord(r *record) error {
	data, _ := json.Marshal(r)
	return atomicfile.WriteIn(p.Dir.root, p.recordName(), data)
}

// readRecord reads the record a session wrote.
func (p Paths) readRecord() (*record, error) {
	f, err := p.Dir.regular(p.recordName(), os.O_RDONLY)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r record
	if err := json.NewDecoder(io.LimitReader(f, 64<<10)).Decode(&r); err != nil {
		return nil, fmt.Errorf("the session record %s: %w", p.Record(), err)
	}
	return &r, nil
}
