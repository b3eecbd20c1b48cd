package sessiond

// tap: how the daemon sees the transports its held client uses.

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/mcpctl/mcpctl/client"
)

// tap stands between the held client and its transports (Config.Connect's
// wrap): the daemon learns which transport is in use (HTTP switches on
// the era), and the server's requests come to the daemon, which routes
// them.
type tap struct {
	d        *daemon
	mu       sync.Mutex
	cur      client.Transport
	fallback client.ServerRequestHandler
}

type tapped struct {
	tp *tap
	client.Transport
}

func (tp *tap) wrap(t client.Transport) client.Transport {
	tp.mu.Lock()
	tp.cur = t
	tp.mu.Unlock()
	return &tapped{tp, t}
}

func (tp *tap) current() client.Transport {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	return tp.cur
}

func (t *tapped) RoundTrip(ctx context.Context, req *client.Request, notify func(client.Notification)) (*client.Message, error) {
	t.tp.mu.Lock()
	t.tp.cur = t.Transport // the one the client uses is the one in use
	t.tp.mu.Unlock()
	return t.Transport.RoundTrip(ctx, req, notify)
}

func (t *tapped) Capabilities() client.Capabilities {
	caps := t.Transport.Capabilities()
	if install := caps.ServerRequests; install != nil {
		caps.ServerRequests = func(h client.ServerRequestHandler) {
			t.tp.mu.Lock()
			t.tp.fallback = h
			t.tp.mu.Unlock()
			install(t.tp.route)
		}
	}
	if install := caps.Notifications; install != nil {
		// What the server says tied to no request goes to the session's
		// invocations (on stdio the session watches for it too).
		caps.Notifications = func(func(client.Notification)) { install(t.tp.d.untied) }
	}
	if open := caps.OpenEvents; open != nil {
		// And so does what comes on a legacy HTTP server's own stream,
		// which the held client opens after its handshake.
		caps.OpenEvents = func(ctx context.Context, _ func(client.Notification)) { open(ctx, t.tp.d.untied) }
	}
	if rebind := caps.Rebind; rebind != nil {
		caps.Rebind = func(era client.Era, binding string) (client.Transport, error) {
			nt, err := rebind(era, binding)
			if err != nil || nt == t.Transport {
				return t, err
			}
			return t.tp.wrap(nt), nil
		}
	}
	return caps
}

// route answers a server's request: the invocation whose request is in
// flight is asked (a legacy server has only one). With none in flight,
// nobody asked for anything: a session does nothing on its own, so its
// own flags answer no sampling and no elicitation (a hostile server would
// run --sampling-cmd at will); only roots/list is answered, with the
// session's own --root, as during its handshake.
func (tp *tap) route(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *client.RPCError) {
	if method == "ping" {
		return json.RawMessage(`{}`), nil
	}
	d := tp.d
	d.mu.Lock()
	var owner *call
	if len(d.inflight) > 0 {
		owner = d.inflight[0]
	}
	d.mu.Unlock()
	if owner != nil {
		return owner.peer.ask(ctx, method, params)
	}
	tp.mu.Lock()
	h := tp.fallback
	tp.mu.Unlock()
	if method != "roots/list" {
		d.note("mcpctl: session: refused the server's %s: no command's request is in flight", method)
		return nil, &client.RPCError{Code: client.CodeInternalError, Message: "the session does not answer " + method + " on its own: no command's request is in flight"}
	}
	if h == nil {
		return nil, &client.RPCError{Code: client.CodeMethodNotFound, Message: "no client is there to answer " + method}
	}
	return h(ctx, method, params)
}
