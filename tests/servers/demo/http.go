package main

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// peekLimit bounds how much of a request body is inspected for routing;
// larger bodies go to the JSON handler untouched.
const peekLimit = 1 << 20

// newHTTPHandler serves MCP at both /mcp and / so clients configured with
// either URL work. Browsers on other origins are refused, as the spec asks
// of local servers; non-browser clients such as curl are unaffected.
//
// Answers are plain JSON, which is easiest to inspect with curl, except for
// requests that ask for notifications (a progressToken or a logLevel in
// _meta): the SDK drops notifications in JSON mode on a stateless server, so
// those are answered with an SSE stream that carries them before the result.
// subscriptions/listen is always an SSE stream (the SDK insists on that in
// either mode), which stays open until the client hangs up or the server
// closes the subscription with its result.
func newHTTPHandler(server *mcp.Server) http.Handler {
	newHandler := func(jsonResponse bool) http.Handler {
		return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
			&mcp.StreamableHTTPOptions{
				// 2026-07-28 requests are only accepted in stateless mode.
				Stateless:    true,
				JSONResponse: jsonResponse,
				// Stop long_job and slow_task when the client hangs up.
				PropagateRequestCancellation: true,
				Logger:                       slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
			})
	}
	h := &router{json: newHandler(true), sse: newHandler(false)}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	mux.Handle("/{$}", h)
	return http.NewCrossOriginProtection().Handler(mux)
}

type router struct{ json, sse http.Handler }

// message is the part of a JSON-RPC request the router looks at.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Meta   map[string]json.RawMessage `json:"_meta"`
		TaskID *string                    `json:"taskId"`
	} `json:"params"`
}

func (h *router) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		h.json.ServeHTTP(w, r)
		return
	}
	peek, err := io.ReadAll(io.LimitReader(r.Body, peekLimit))
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(peek), r.Body), r.Body}
	if err != nil || len(peek) == peekLimit {
		h.json.ServeHTTP(w, r)
		return
	}
	msgs := parseMessages(peek)
	if len(msgs) == 1 && !checkTaskRouting(w, r, msgs[0]) {
		return
	}
	for _, m := range msgs {
		if m.Method == "subscriptions/listen" || m.Params.Meta["progressToken"] != nil || m.Params.Meta["io.modelcontextprotocol/logLevel"] != nil {
			h.sse.ServeHTTP(w, r)
			return
		}
	}
	h.json.ServeHTTP(w, r)
}

// parseMessages decodes a single message or a batch; anything else yields
// nothing and is left to the SDK to reject.
func parseMessages(body []byte) []message {
	body = bytes.TrimSpace(body)
	var msgs []message
	if len(body) > 0 && body[0] == '[' {
		if json.Unmarshal(body, &msgs) != nil {
			return nil
		}
		return msgs
	}
	var m message
	if json.Unmarshal(body, &m) != nil {
		return nil
	}
	return []message{m}
}

// checkTaskRouting enforces the tasks extension's routing header: tasks/get,
// tasks/update and tasks/cancel must carry Mcp-Name equal to params.taskId,
// checked like the SDK checks Mcp-Name on tools/call. It writes the error
// and reports false when the header is wrong.
func checkTaskRouting(w http.ResponseWriter, r *http.Request, m message) bool {
	switch m.Method {
	case "tasks/get", "tasks/update", "tasks/cancel":
	default:
		return true
	}
	if r.Header.Get("Mcp-Protocol-Version") < "2026-07-28" || m.Params.TaskID == nil {
		return true // older revisions have no routing headers; a missing taskId is an invalid-params error
	}
	var msg string
	switch name := r.Header.Get("Mcp-Name"); {
	case name == "":
		msg = "missing required Mcp-Name header for method \"" + m.Method + "\""
	case name != *m.Params.TaskID:
		msg = "header mismatch: Mcp-Name header value '" + name + "' does not match body value '" + *m.Params.TaskID + "'"
	default:
		return true
	}
	resp := struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id,omitempty"`
		Error   *jsonrpc.Error  `json:"error"`
	}{"2.0", m.ID, &jsonrpc.Error{Code: mcp.CodeHeaderMismatch, Message: msg}}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	json.NewEncoder(w).Encode(resp)
	return false
}
