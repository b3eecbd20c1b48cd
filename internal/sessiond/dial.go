package sessiond

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
	"time"

	"github.com/mcpctl/mcpctl/client"
)

// Hello is the first line a session process writes on every connection:
// who it is and what the server speaks, so the invocation needs no probe.
type Hello struct {
	Session int        `json:"mcpctlSession"` // 1: this is a session
	Name    string     `json:"name"`
	PID     int        `json:"pid"`
	Era     client.Era `json:"era"`
	Version string     `json:"protocolVersion"`
	// Headers: the server is reached over HTTP of the 2026-07-28
	// revision, where a request's Mcp-Param-* headers matter; the
	// invocation's transport then sends them along (NewTransport).
	Headers bool `json:"headers,omitempty"`
	// Initialize is a legacy server's InitializeResult from the session's
	// own handshake: the invocation takes it (client.Options.Initialized)
	// and sends no initialize of its own.
	Initialize json.RawMessage `json:"initialize,omitempty"`
}

// Conn is a checked connection to a session process, its Hello read.
type Conn struct {
	net.Conn
	r     *bufio.Reader
	Hello Hello
}

func (c *Conn) Read(p []byte) (int, error) { return c.r.Read(p) }

// Dial connects to the session in p: nil, nil when there is none (no
// socket, or a stale one, which is removed), an *UnsafeError when what is
// there cannot be trusted.
func Dial(p Paths) (*Conn, error) {
	sock := p.Socket()
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
		return nil, &UnsafeError{fmt.Sprintf("the process behind %s runs as another user; mcpctl does not use it", sock)}
	}
	kc := &Conn{Conn: c, r: bufio.NewReader(c)}
	// A session process that accepted but cannot say hello is stuck: it
	// is not waited for longer than this.
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	line, err := kc.r.ReadBytes('\n')
	_ = c.SetReadDeadline(time.Time{})
	if err != nil || json.Unmarshal(line, &kc.Hello) != nil || kc.Hello.Session != 1 {
		c.Close()
		return nil, fmt.Errorf("the session at %s did not answer as one", sock)
	}
	return kc, nil
}

// cleanStale removes the files of a session whose process is gone (its
// lock is free); a session still starting holds the lock and is left be.
func cleanStale(p Paths) {
	l, err := lock(p.Lock())
	if err != nil {
		return
	}
	defer l.Close()
	p.remove()
}
