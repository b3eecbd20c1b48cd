package commands

// An invocation's side of a session: when a session is running for the
// server the flags name (the same identity the cache uses), the
// invocation speaks to the session's socket instead of starting the
// server or connecting to it, with the era the session's hello gives (no
// probe). A server entry with keepAlive starts its session on first use.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/output"
)

// bindingSession names the transport of a session's socket.
const bindingSession = "session"

// sessionError is what a session process answered in place of the
// server: its message, in mcpctl's words already, and the exit code.
type sessionError struct {
	Msg  string
	Code int
}

func (e *sessionError) Error() string { return e.Msg }

// ExitCode is the code the session process found.
func (e *sessionError) ExitCode() int { return e.Code }

// keepalive finds (or, for a keepAlive server, starts) the session of the
// server in the settings, and connects to it; nil when the invocation
// reaches the server itself.
func (s *connection) keepalive(ctx context.Context) *ksConn {
	if s.dryRun || s.g.NoSession || !keepaliveSupported {
		return nil
	}
	warn := func(err error) {
		fmt.Fprintln(s.ios.ErrOut, "mcpctl: warning: "+output.SanitizeMessage(err.Error())+"; not using the session")
	}
	keep := s.keepAliveFor()
	dir, err := s.f.sessionDir(keep > 0)
	if err != nil {
		var unsafe *unsafeSessionError
		if errors.As(err, &unsafe) {
			warn(err)
		}
		return nil
	}
	p := ksPaths{dir: dir, id: ksID(s.serverID)}
	kc, err := dialSession(p)
	if err == nil && kc == nil && keep > 0 {
		if s.trace {
			fmt.Fprintf(s.ios.ErrOut, "# session: starting one (keepAlive %s)\n", keep)
		}
		_, err = startKeepalive(s.f, s.connSettings, keep, "")
		var se *sessionError
		if errors.As(err, &se) && se.Code == ExitUsage {
			// Another invocation is starting it: wait for that.
			kc, err = awaitSession(p, 30*time.Second)
		} else if err == nil {
			kc, err = dialSession(p)
		}
		if kc == nil && err == nil {
			err = errors.New("the session did not start")
		}
		if err != nil {
			// The one-shot run that follows says what is wrong, in its
			// usual words.
			if s.trace {
				fmt.Fprintln(s.ios.ErrOut, "# session: could not start: "+output.SanitizeMessage(err.Error()))
			}
			return nil
		}
	}
	if err != nil {
		warn(err)
		return nil
	}
	if kc == nil {
		return nil
	}
	if v := s.g.ProtocolVersion; s.g.IsSet("protocol-version") && v != kc.hello.Version {
		if s.trace {
			fmt.Fprintf(s.ios.ErrOut, "# session: %s speaks %s, not the pinned %s; not using it\n", kc.hello.Name, kc.hello.Version, v)
		}
		kc.Close()
		return nil
	}
	if s.trace {
		fmt.Fprintf(s.ios.ErrOut, "# session: %s (pid %d)\n", output.SanitizeLine(kc.hello.Name), kc.hello.PID)
	}
	return kc
}

// awaitSession waits for a session another process is starting: until its
// socket answers, or its starter lets the lock go without one.
func awaitSession(p ksPaths, limit time.Duration) (*ksConn, error) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		kc, err := dialSession(p)
		if kc != nil || err != nil {
			return kc, err
		}
		if l, err := lockSession(p.lock()); err == nil {
			l.Close() // nobody is starting it any more
			return dialSession(p)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil, nil
}

// keepAliveFor is the keepAlive duration the server's entry (or the
// config's defaults) gives: 0 for none.
func (s *connection) keepAliveFor() time.Duration {
	if s.ep.named != nil && s.ep.named.KeepAlive > 0 {
		return s.ep.named.KeepAlive
	}
	if s.ep.named == nil {
		return 0 // only configured servers keep themselves alive
	}
	return s.f.config().keepAlive // read where the defaults were applied
}

// dialKeepalive is the transport over a session's socket: the connection
// made when the session was found, then (listen reconnecting) new ones.
func (s *connection) dialKeepalive() (client.Transport, func(), error) {
	kc := s.ks
	s.ks = nil
	if kc == nil {
		dir, err := s.f.sessionDir(false)
		if err == nil {
			kc, err = dialSession(ksPaths{dir: dir, id: ksID(s.serverID)})
		}
		if err != nil {
			return nil, nil, err
		}
		if kc == nil {
			return nil, nil, &client.ConnError{Msg: "the session has ended"}
		}
	}
	var trace client.Tracer
	if s.trace {
		trace = newTracer(s.ios.ErrOut)
	}
	t := client.NewConn(kc, client.ConnOptions{Binding: bindingSession, Trace: trace, MaxLine: s.maxMessage, Malformed: s.malformed()})
	return &ksTransport{Transport: t, name: kc.hello.Name, conn: kc, headers: kc.hello.Headers}, func() {}, nil
}

// sessionOptions makes the client speak the era the session's server
// speaks, without a probe.
func sessionOptions(hello ksHello, opts *client.Options) {
	opts.ProtocolVersion = hello.Version
	opts.Era = client.Era(hello.Era)
}

// ksTransport is a session's socket as a transport: what the session
// answered in place of the server becomes mcpctl's own errors, and a
// session that goes away says so.
type ksTransport struct {
	client.Transport
	name string
	conn *ksConn
	// headers: the session's server takes Mcp-Param-* headers (ksHello).
	headers bool
}

func (t *ksTransport) RoundTrip(ctx context.Context, req *client.Request, notify func(client.Notification)) (*client.Message, error) {
	if t.headers && len(req.Header) > 0 {
		r := *req
		r.Params, r.Header = putHeaders(req.Params, req.Header), nil
		req = &r
	}
	msg, err := t.Transport.RoundTrip(ctx, req, notify)
	var conn *client.ConnError
	if err != nil && errors.As(err, &conn) {
		return nil, &client.ConnError{Msg: fmt.Sprintf("the session %s ended (its process is gone); the server's state is gone with it", t.name)}
	}
	if err != nil || msg == nil || msg.Error == nil {
		return msg, err
	}
	switch msg.Error.Code {
	case codeServerGone:
		return nil, &client.ConnError{Msg: msg.Error.Message}
	case codeSessionFailed:
		var d struct {
			Exit int `json:"exit"`
		}
		_ = json.Unmarshal(msg.Error.Data, &d)
		if d.Exit == 0 {
			d.Exit = ExitConnection
		}
		return nil, &sessionError{Msg: msg.Error.Message, Code: d.Exit}
	}
	return msg, nil
}

func (t *ksTransport) Capabilities() client.Capabilities {
	caps := t.Transport.Capabilities()
	caps.Headers = t.headers
	if watch := caps.Watch; watch != nil {
		caps.Watch = func(ctx context.Context, fn func(client.Notification)) error {
			// The session sends what the server says unasked only to
			// those who watch.
			_, _ = t.Transport.RoundTrip(ctx, &client.Request{Method: ksWatchMethod}, nil)
			return watch(ctx, fn)
		}
	}
	return caps
}

// ksRequest sends a request of the session's own (status, stop) on a
// fresh connection: nil hello when no session is running.
func ksRequest(p ksPaths, method string) (json.RawMessage, *ksHello, error) {
	kc, err := dialSession(p)
	if err != nil || kc == nil {
		return nil, nil, err
	}
	t := client.NewConn(kc, client.ConnOptions{Binding: bindingSession})
	defer t.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	msg, err := t.RoundTrip(ctx, &client.Request{ID: 1, Method: method}, nil)
	if err != nil {
		return nil, &kc.hello, err
	}
	if msg.Error != nil {
		return nil, &kc.hello, msg.Error
	}
	return msg.Result, &kc.hello, nil
}

// processGone reports whether pid has exited (it is not our child).
func processGone(pid int) bool {
	proc, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	return proc.Signal(syscall.Signal(0)) != nil
}
