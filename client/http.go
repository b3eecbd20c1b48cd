package client

// Streamable HTTP, revision 2026-07-28: every request is its own POST; the
// answer is either one JSON object or an SSE stream scoped to the request
// (notifications first, then the response). There are no sessions, no GET
// stream and no resumption. Cancelling means closing the response stream,
// which the request's context does for us. What the HTTP transports share
// is in httpconn.go.

import (
	"context"
	"encoding/json"
	"io"
	"net/http"

	"github.com/mcpctl/mcpctl/client/ojson"
)

// streamableHTTP is the Streamable HTTP transport of 2026-07-28.
type streamableHTTP struct {
	*httpConn
}

// Capabilities implements Transport.
func (t *streamableHTTP) Capabilities() Capabilities {
	return Capabilities{
		Binding: BindingStreamable,
		DryRun:  t.opts.DryRun != nil,
		Headers: true,
		Rebind:  t.rebind(t, EraModern, BindingStreamable),
	}
}

// Close releases idle connections.
func (t *streamableHTTP) Close() error {
	t.client.CloseIdleConnections()
	return nil
}

// standardHeaders returns the headers the 2026-07-28 binding mirrors from
// the body: MCP-Protocol-Version, Mcp-Method and, for the three named
// methods, Mcp-Name.
func standardHeaders(req *Request) http.Header {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	if req.Version != "" {
		h.Set("MCP-Protocol-Version", req.Version)
	}
	h.Set("Mcp-Method", req.Method)
	if name, ok := nameParam(req); ok {
		h.Set("Mcp-Name", EncodeHeaderValue(name))
	}
	return h
}

func nameParam(req *Request) (string, bool) {
	var field string
	switch req.Method {
	case "tools/call", "prompts/get":
		field = "name"
	case "resources/read":
		field = "uri"
	case "tasks/get", "tasks/update", "tasks/cancel":
		field = "taskId" // lets a load balancer find the instance holding the task
	default:
		return "", false
	}
	p, err := ojson.SplitObject(req.Params) // not a map: no copy of a large argument
	if err != nil {
		return "", false
	}
	var s string
	if json.Unmarshal(p.Get(field), &s) != nil {
		return "", false
	}
	return s, true
}

// RoundTrip implements Transport.
func (t *streamableHTTP) RoundTrip(ctx context.Context, req *Request, notify func(Notification)) (*Message, error) {
	return t.post(ctx, req, standardHeaders(req), notify, t.readStream, nil)
}

// readStream reads a request's response stream: notifications, then the
// response. A server request on it breaks the protocol: 2026-07-28 asks
// the client through input_required results instead.
func (t *streamableHTTP) readStream(ctx context.Context, body io.Reader, req *Request, notify func(Notification)) (*Message, error) {
	var result *Message
	var perr error
	err := readSSE(body, t.opts.MaxMessage, func(ev sseEvent) error {
		msg, skip, err := t.eventMessage(ev)
		switch {
		case skip:
			return nil
		case err != nil:
			perr = err
			return errStreamDone
		}
		switch msg.Kind() {
		case "notification":
			if notify != nil {
				notify(Notification{Method: msg.Method, Params: msg.Params, Raw: append([]byte(nil), ev.Data...), More: ev.More})
			}
			return nil
		case "request":
			perr = &ProtocolError{Msg: "the server sent a request (" + msg.Method + ") on the response stream, which revision 2026-07-28 does not allow"}
			return errStreamDone
		}
		result, perr = match(msg, req)
		return errStreamDone
	})
	return t.streamOutcome(ctx, result, perr, err)
}
