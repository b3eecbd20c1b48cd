package sessiond

// The invocation's side of the socket: a client.Transport like any other.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/internal/exitcode"
)

// Binding names the transport over a session's socket
// (Capabilities.Binding).
const Binding = "session"

// Methods the daemon answers itself, never the server's: the session's
// own namespace, which it never relays. Status and stop are its control
// methods, answered only on a control connection (controlLine); watch is
// a notification of an invocation's connection: send me what the server
// says unasked.
const (
	sessionMethods = "mcpctl/session/"
	statusMethod   = sessionMethods + "status"
	stopMethod     = sessionMethods + "stop"
	watchMethod    = sessionMethods + "watch"
)

// controlLine is the first line of a connection of the session commands
// (Status, Stop): on such a connection the daemon answers its control
// methods and nothing else; on any other it answers them with a refusal.
// An invocation's connection carries only the JSON-RPC messages its
// Client writes, which this line is not, so no request relayed for a
// command (a batch line, mcpctl call) can ever be taken for control.
const controlLine = `{"mcpctlSession":"control"}`

// Errors the daemon answers in place of the server; NewTransport's
// transport turns them back into errors.
const (
	// codeServerGone: the server died while the request was in flight.
	codeServerGone = -32090
	// codeSessionFailed: the request could not be sent or answered for a
	// reason the daemon says in words (Config.Explain); data.exit is the
	// exit code.
	codeSessionFailed = -32091
)

// Error is what a session answered in place of the server: its message,
// in mcpctl's words already, and the exit code it goes with.
type Error struct {
	Msg  string
	Code int
}

func (e *Error) Error() string { return e.Msg }

// ExitCode is the code the session found.
func (e *Error) ExitCode() int { return e.Code }

// NewTransport is a transport over c, the connection Dial made (which it
// closes when closed). What the session answered in place of the server
// becomes an *Error, a server that died in flight and a session that
// goes away a *client.ConnError. opts.Binding is Binding.
func NewTransport(c *Conn, opts client.ConnOptions) client.Transport {
	opts.Binding = Binding
	t := &transport{Transport: client.NewConn(c, opts), name: c.Hello.Name, headers: c.Hello.Headers}
	if install := t.Transport.Capabilities().Notifications; install != nil {
		install(t.untied)
	}
	return t
}

type transport struct {
	client.Transport
	name string
	// headers: the session's server takes Mcp-Param-* headers (Hello).
	headers bool
	// why is the session's last word, when it ended the connection
	// (disconnectMethod); onUntied the handler the client installed for
	// what comes tied to no request.
	why      atomic.Pointer[string]
	onUntied atomic.Pointer[func(client.Notification)]
	// endWatch ends the Watch under way with the session's word that the
	// server's stream ended for it (unwatchedMethod).
	endWatch atomic.Pointer[func(error)]
}

// unwatched takes the session's word that the server's stream ended out
// of what comes tied to no request, and ends the Watch under way with
// it: reported true, it goes no further.
func (t *transport) unwatched(n client.Notification) bool {
	if n.Method != unwatchedMethod {
		return false
	}
	if end := t.endWatch.Load(); end != nil {
		(*end)(unwatchedError(n.Params))
	}
	return true
}

// lastWord takes the session's last word out of what comes tied to no
// request: reported true, it goes no further.
func (t *transport) lastWord(n client.Notification) bool {
	if n.Method != disconnectMethod {
		return false
	}
	var p struct {
		Message string `json:"message"`
	}
	_ = json.Unmarshal(n.Params, &p)
	if p.Message == "" {
		p.Message = "the session disconnected this command"
	}
	t.why.Store(&p.Message)
	return true
}

func (t *transport) untied(n client.Notification) {
	if t.lastWord(n) || t.unwatched(n) {
		return
	}
	if h := t.onUntied.Load(); h != nil {
		(*h)(n)
	}
}

// ended is the error of a connection that ended: the session's own
// word for it when it said one (exit 3), else err.
func (t *transport) ended(err error) error {
	if why := t.why.Load(); why != nil && err != nil {
		return &Error{Msg: *why, Code: exitcode.Connection}
	}
	return err
}

func (t *transport) RoundTrip(ctx context.Context, req *client.Request, notify func(client.Notification)) (*client.Message, error) {
	if t.headers && len(req.Header) > 0 {
		r := *req
		r.Params, r.Header = putHeaders(req.Params, req.Header), nil
		req = &r
	}
	msg, err := t.Transport.RoundTrip(ctx, req, notify)
	var conn *client.ConnError
	if err != nil && errors.As(err, &conn) {
		if t.why.Load() != nil {
			return nil, t.ended(err)
		}
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
			d.Exit = exitcode.Connection
		}
		return nil, &Error{Msg: msg.Error.Message, Code: d.Exit}
	}
	return msg, nil
}

func (t *transport) Capabilities() client.Capabilities {
	caps := t.Transport.Capabilities()
	caps.Headers = t.headers
	if caps.Notifications != nil {
		caps.Notifications = func(h func(client.Notification)) { t.onUntied.Store(&h) }
	}
	if watch := caps.Watch; watch != nil {
		caps.Watch = func(ctx context.Context, fn func(client.Notification)) error {
			wctx, stop := context.WithCancelCause(ctx)
			defer stop(nil)
			end := func(err error) { stop(err) }
			t.endWatch.Store(&end)
			defer t.endWatch.CompareAndSwap(&end, nil)
			// The daemon sends what the server says unasked only to
			// those who watch; and says so when there is nothing to
			// watch, or the server's stream broke.
			_, _ = t.Transport.RoundTrip(ctx, &client.Request{Method: watchMethod}, nil)
			err := watch(wctx, func(n client.Notification) {
				if !t.lastWord(n) && !t.unwatched(n) {
					fn(n)
				}
			})
			if ctx.Err() == nil && wctx.Err() != nil {
				return context.Cause(wctx) // the session's word
			}
			return t.ended(err)
		}
	}
	return caps
}
