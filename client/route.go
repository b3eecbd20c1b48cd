package client

// Where a notification goes on a connection that carries many requests at
// once (stdio, HTTP+SSE, NewConn). Its envelope names no request, so what
// ties it to one is in its params: a progress notification's
// progressToken, which the Client makes the request's id (withMeta,
// legacyMeta), and a subscription's
// _meta["io.modelcontextprotocol/subscriptionId"], the id of its
// subscriptions/listen request. Anything else (a log message, a list
// change, a task's status) belongs to no request in particular, and is
// handed on once: handing it to every request in flight would show it as
// many times as there are requests.

import "encoding/json"

// route hands n to the request in flight it is tied to, and to nobody
// else; to nobody when the request it is tied to was sent but is no longer
// in flight (a progress report after the answer); else, tied to no request
// of this connection's, to every Watch caller, or once to the connection's
// handler (setNotify) when there is none.
func (m *mux) route(n Notification) {
	id, tied := tieOf(n.Params)
	m.mu.Lock()
	var p *pendingCall
	sent := false
	if tied {
		p, sent = m.pending[id], id >= 1 && id <= m.maxSent
	}
	untied := m.untied
	m.mu.Unlock()
	switch {
	case p != nil:
		if p.notify != nil {
			p.notify(n)
		}
		return
	case sent:
		return
	}
	if fns := m.watchers.list(); len(fns) > 0 {
		for _, fn := range fns {
			fn(n)
		}
		return
	}
	if untied != nil {
		untied(n)
	}
}

// tieOf returns the id of the request a notification's params tie it to:
// the progress token, else the subscription id, when it is an integer (or
// a string of one).
func tieOf(params json.RawMessage) (id int64, ok bool) {
	if len(params) == 0 {
		return 0, false
	}
	var p struct {
		Token json.RawMessage `json:"progressToken"`
		Meta  struct {
			Subscription json.RawMessage `json:"io.modelcontextprotocol/subscriptionId"`
		} `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return 0, false
	}
	for _, raw := range []json.RawMessage{p.Token, p.Meta.Subscription} {
		if len(raw) > 0 {
			if id, ok := parseID(raw); ok {
				return id, true
			}
		}
	}
	return 0, false
}
