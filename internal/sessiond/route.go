package sessiond

// Where what the server says goes. A notification tied to a request (its
// progress token, or a subscription id, is the request's id) travels with
// that request. Streamable HTTP ties all it sends on a request's stream to
// the request. On a shared connection (stdio, HTTP+SSE, a stream) the rest
// comes to the daemon's watch, once, whichever client library hands it
// over (one that gives every request in flight every notification, or one
// that gives a request only its own): untied. So does all that a legacy
// Streamable HTTP server sends on its own stream (stream.go), where
// progress is handed to the request its token names.

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/mcpctl/mcpctl/client"
)

const logMethod = "notifications/message"

// notify passes on a notification of the server's that reached this
// request, under the invocation's own ids.
func (cl *call) notify(n client.Notification) {
	if sessionWord(n.Method) {
		return
	}
	if be := cl.peer.d.backendNow(); be != nil {
		be.lists.saw(n.Method)
	}
	params := n.Params
	switch {
	case n.Method == "notifications/progress":
		if !isID(topValue(params, progressKey), cl.id) {
			return // another request's
		}
		if cl.token != nil {
			params = setTop(params, progressKey, cl.token)
		}
	case metaValue(params, client.SubscriptionIDKey) != nil:
		if !isID(metaValue(params, client.SubscriptionIDKey), cl.id) {
			return
		}
		params = setMeta(params, client.SubscriptionIDKey, cl.origID)
	case cl.viaWatch:
		return // not tied to a request: untied hands it on, once
	case n.Method == logMethod && !cl.logs:
		return
	}
	cl.peer.sendUnasked(notificationLine(n.Method, params))
}

// sessionWord: a method name of the session's own (mcpctl/session/…),
// which a server's notification must not pass for: the invocation would
// take it for the session's word.
func sessionWord(method string) bool { return strings.HasPrefix(method, sessionMethods) }

// isID reports whether raw (a progress token or a subscription id) is id,
// as a number or a string.
func isID(raw json.RawMessage, id int64) bool {
	s := strconv.FormatInt(id, 10)
	return string(raw) == s || string(raw) == `"`+s+`"`
}

// untied hands on, once to each invocation connection it concerns, what
// the server said that belongs to no request (the watch of a shared
// connection). Those that watch (listen) get all of it; besides them
//
//   - a log message goes to those with a request in flight that asked
//     for logs (on stdio a log message names no request);
//   - a list change or a resource update to no one else;
//   - anything else (a legacy task's status) to those with a request in
//     flight.
//
// Progress and subscription notifications belong to a request: they go
// with it (notify) to the invocation whose request is in flight under
// the id they name, and to no one else.
func (d *daemon) untied(n client.Notification) {
	if sessionWord(n.Method) {
		return
	}
	if be := d.backendNow(); be != nil {
		be.lists.saw(n.Method)
	}
	if tie := tieOf(n); tie != nil {
		if cl := d.inflightCall(tie); cl != nil {
			cl.notify(n)
		}
		return
	}
	line := n.Raw
	if len(line) == 0 {
		line = notificationLine(n.Method, n.Params)
	}
	d.mu.Lock()
	seen := map[*peer]bool{}
	var to []*peer
	add := func(pr *peer) {
		if !seen[pr] {
			seen[pr] = true
			to = append(to, pr)
		}
	}
	if n.Method == logMethod {
		for _, cl := range d.inflight {
			if cl.logs {
				add(cl.peer)
			}
		}
	} else if !aboutState(n.Method) {
		for _, cl := range d.inflight {
			add(cl.peer)
		}
	}
	for pr := range d.peers {
		if pr.watching.Load() {
			add(pr)
		}
	}
	d.mu.Unlock()
	for _, pr := range to {
		pr.sendUnasked(line)
	}
}

// tieOf is what ties n to a request: a progress notification's token, a
// subscription's id; nil for a notification tied to none.
func tieOf(n client.Notification) json.RawMessage {
	if n.Method == "notifications/progress" {
		if tok := topValue(n.Params, progressKey); tok != nil {
			return tok
		}
		return json.RawMessage("null")
	}
	return metaValue(n.Params, client.SubscriptionIDKey)
}

// inflightCall is the request in flight whose (daemon's) id is id.
func (d *daemon) inflightCall(id json.RawMessage) *call {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, cl := range d.inflight {
		if isID(id, cl.id) {
			return cl
		}
	}
	return nil
}

// aboutState: a notification that says the server's state changed (a
// list, a resource), for those who listen.
func aboutState(method string) bool {
	if method == "notifications/resources/updated" {
		return true
	}
	for _, by := range listChangedBy {
		if by.notification == method {
			return true
		}
	}
	return false
}
