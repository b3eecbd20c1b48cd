package commands

// Where sessions live: one folder (the runtime directory's sessions/,
// 0700, ours), and in it, per server identity (serverID, the identity
// the cache uses), a socket, a lock held by the session process for its
// whole life, a record for `session list` and the bounded log of the
// server's stderr. Nothing found there is trusted before it is checked:
// the folder's owner and mode, the socket's type and owner, and the user
// of the process at the other end of every connection.

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/mcpctl/mcpctl/client/atomicfile"
)

var (
	errSessionLocked        = errors.New("another process holds the session's lock")
	errKeepaliveUnsupported = fmt.Errorf("sessions are not supported on %s", runtime.GOOS)
)

// unsafeSessionError: something in the sessions folder is not what mcpctl
// made, so it is not used.
type unsafeSessionError struct{ msg string }

func (e *unsafeSessionError) Error() string { return e.msg }

// ksPaths are the files of one server's session.
type ksPaths struct {
	dir, id string
}

func (p ksPaths) socket() string { return filepath.Join(p.dir, p.id+".sock") }
func (p ksPaths) record() string { return filepath.Join(p.dir, p.id+".json") }
func (p ksPaths) lock() string   { return filepath.Join(p.dir, p.id+".lock") }
func (p ksPaths) log() string    { return filepath.Join(p.dir, p.id+".log") }

// remove deletes what a session leaves in the folder.
func (p ksPaths) remove() {
	for _, f := range []string{p.socket(), p.record(), p.log(), p.log() + ".1", p.lock()} {
		_ = os.Remove(f)
	}
}

// ksID names a server's session files: a hash of its identity, short
// enough for a socket path (108 bytes on Linux).
func ksID(serverID string) string {
	sum := sha256.Sum256([]byte(serverID))
	return hex.EncodeToString(sum[:8])
}

// sessionDir is the sessions folder. With create it is made (0700) when
// missing; either way an existing folder must be a real folder, ours,
// and closed to others.
func (f *Factory) sessionDir(create bool) (string, error) {
	if !keepaliveSupported {
		return "", errKeepaliveUnsupported
	}
	base, err := f.Dirs().RuntimeDir()
	if err != nil {
		return "", err
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
	return dir, checkSessionDir(dir, fi)
}

func checkSessionDir(dir string, fi os.FileInfo) error {
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		return &unsafeSessionError{fmt.Sprintf("the sessions folder %s is a symbolic link; mcpctl uses only a folder of its own (remove the link)", dir)}
	case !fi.IsDir():
		return &unsafeSessionError{fmt.Sprintf("%s is not a folder; remove it", dir)}
	case ownerOf(fi) != os.Getuid():
		return &unsafeSessionError{fmt.Sprintf("the sessions folder %s belongs to another user; mcpctl does not use it", dir)}
	case fi.Mode().Perm() != 0o700:
		return &unsafeSessionError{fmt.Sprintf("the sessions folder %s is open to others (mode %04o); make it private: chmod 700 %s", dir, fi.Mode().Perm(), dir)}
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
		return &unsafeSessionError{fmt.Sprintf("the session socket %s is a symbolic link; mcpctl does not follow it (remove it)", path)}
	case fi.Mode()&os.ModeSocket == 0:
		return &unsafeSessionError{fmt.Sprintf("%s is not a socket; remove it", path)}
	case ownerOf(fi) != os.Getuid():
		return &unsafeSessionError{fmt.Sprintf("the session socket %s belongs to another user; mcpctl does not use it", path)}
	case fi.Mode().Perm()&0o077 != 0:
		return &unsafeSessionError{fmt.Sprintf("the session socket %s is open to others (mode %04o); mcpctl does not use it (remove it)", path, fi.Mode().Perm())}
	}
	return nil
}

// ksRecord is written beside a ready session's socket: `session list`
// finds the sessions to ask by their records, and a person (or a test
// ending sessions by pid) can read who is behind each socket.
type ksRecord struct {
	Name     string    `json:"name"`
	Server   string    `json:"server"`
	ServerID string    `json:"serverId"`
	Era      string    `json:"era"`
	Version  string    `json:"protocolVersion"`
	PID      int       `json:"pid"`
	Started  time.Time `json:"started"`
	Idle     string    `json:"idleTimeout"`
}

func (r *ksRecord) write(path string) error {
	data, _ := json.Marshal(r)
	return atomicfile.Write(path, data)
}

// ksHello is the first line a session process writes on every
// connection: who it is and what the server speaks, so the invocation
// needs no probe.
type ksHello struct {
	Session int    `json:"mcpctlSession"`
	Name    string `json:"name"`
	PID     int    `json:"pid"`
	Era     string `json:"era"`
	Version string `json:"protocolVersion"`
	// Headers: the server is reached over HTTP of the 2026-07-28
	// revision, where a request's Mcp-Param-* headers matter; an
	// invocation then sends them along (ksHeadersKey).
	Headers bool `json:"headers,omitempty"`
}

// ksConn is a checked connection to a session process, its hello read.
type ksConn struct {
	net.Conn
	r     *bufio.Reader
	hello ksHello
}

func (c *ksConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// dialSession connects to the session of the server in p: nil, nil when
// there is none (no socket, or a stale one, which is removed), an
// *unsafeSessionError when what is there cannot be trusted.
func dialSession(p ksPaths) (*ksConn, error) {
	sock := p.socket()
	if err := checkSocket(sock); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	c, err := net.DialTimeout("unix", sock, 5*time.Second)
	if err != nil {
		if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, os.ErrNotExist) {
			cleanStale(p)
			return nil, nil
		}
		return nil, err
	}
	if uid, err := peerOf(c); err != nil || uid != os.Getuid() {
		c.Close()
		return nil, &unsafeSessionError{fmt.Sprintf("the process behind %s runs as another user; mcpctl does not use it", sock)}
	}
	kc := &ksConn{Conn: c, r: bufio.NewReader(c)}
	// A session process that accepted but cannot say hello is stuck: it
	// is not waited for longer than this.
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	line, err := kc.r.ReadBytes('\n')
	_ = c.SetReadDeadline(time.Time{})
	if err != nil || json.Unmarshal(line, &kc.hello) != nil || kc.hello.Session != 1 {
		c.Close()
		return nil, fmt.Errorf("the session at %s did not answer as one", sock)
	}
	return kc, nil
}

// cleanStale removes the files of a session whose process is gone (its
// lock is free); a session still starting holds the lock and is left be.
func cleanStale(p ksPaths) {
	l, err := lockSession(p.lock())
	if err != nil {
		return
	}
	defer l.Close()
	p.remove()
}

// sessionFiles lists the ids of the sessions in dir.
func sessionFiles(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var ids []string
	for _, e := range entries {
		if id, ok := strings.CutSuffix(e.Name(), ".json"); ok {
			ids = append(ids, id)
		}
	}
	return ids
}
