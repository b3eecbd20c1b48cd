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

// How long Dial waits for a session's hello, looking every helloPoll
// whether its process is stopped (then it does not wait on).
const (
	helloWait = 10 * time.Second
	helloPoll = 100 * time.Millisecond
)

// UnresponsiveError: a session's process is there (it holds the socket)
// but does not say hello: it is stopped (SIGSTOP, a debugger), or stuck.
// Stop ends it by its pid.
type UnresponsiveError struct {
	Name    string // from its record ("": none to read)
	PID     int
	Stopped bool
	Socket  string
}

func (e *UnresponsiveError) Error() string {
	who := fmt.Sprintf("the session at %s (pid %d)", e.Socket, e.PID)
	if e.Name != "" {
		who = fmt.Sprintf("the session %s (pid %d)", e.Name, e.PID)
	}
	if e.Stopped {
		return who + " does not answer: its process is stopped"
	}
	return fmt.Sprintf("%s does not answer (no greeting within %s)", who, helloWait)
}

// Dial connects to the session in p: nil, nil when there is none (no
// socket, or a stale one, which is removed), an *UnsafeError when what is
// there cannot be trusted, an *UnresponsiveError when its process does not
// answer.
func Dial(p Paths) (*Conn, error) {
	sock := p.Socket()
	if err := p.checkSocket(); err != nil {
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
	uid, pid, err := peerOf(c)
	if err != nil || uid != os.Getuid() {
		c.Close()
		return nil, &UnsafeError{Msg: fmt.Sprintf("the process behind %s runs as another user; mcpctl does not use it", sock), Foreign: true}
	}
	kc := &Conn{Conn: c, r: bufio.NewReader(c)}
	line, err := kc.hello(pid)
	_ = c.SetReadDeadline(time.Time{})
	if err != nil {
		c.Close()
		var unresponsive *UnresponsiveError
		if errors.As(err, &unresponsive) {
			unresponsive.Socket = sock
			if rec, rerr := p.readRecord(); rerr == nil && rec.PID == pid {
				unresponsive.Name = rec.Name
			}
			return nil, unresponsive
		}
		return nil, fmt.Errorf("the session at %s did not answer as one", sock)
	}
	if json.Unmarshal(line, &kc.Hello) != nil || kc.Hello.Session != 1 {
		c.Close()
		return nil, fmt.Errorf("the session at %s did not answer as one", sock)
	}
	return kc, nil
}

var errNoHello = errors.New("no hello")

// hello reads the session's greeting. A session process that took the
// connection but does not say hello is not waited for longer than
// helloWait, and not at all once its process (pid) is seen stopped.
func (c *Conn) hello(pid int) ([]byte, error) {
	deadline := time.Now().Add(helloWait)
	var line []byte
	for {
		wait := time.Until(deadline)
		if wait <= 0 {
			return nil, &UnresponsiveError{PID: pid}
		}
		_ = c.SetReadDeadline(time.Now().Add(min(wait, helloPoll)))
		part, err := c.r.ReadBytes('\n')
		line = append(line, part...)
		switch {
		case err == nil:
			return line, nil
		case !errors.Is(err, os.ErrDeadlineExceeded):
			return nil, errNoHello
		}
		if _, stopped, ok := procStart(pid); ok && stopped {
			return nil, &UnresponsiveError{PID: pid, Stopped: true}
		}
	}
}

// cleanStale removes the files of a session whose process is gone (its
// lock is free); a session still starting holds the lock and is left be.
func cleanStale(p Paths) {
	l, err := p.lock()
	if err != nil {
		return
	}
	defer l.Close()
	p.remove()
}
