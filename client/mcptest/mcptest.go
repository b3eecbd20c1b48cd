// Package mcptest is a scripted MCP server in the same process, for tests
// and examples of package client: a Handler answers each request, and the
// Server serves it over an in-memory connection (Conn, for client.NewConn:
// newline-delimited JSON-RPC as on stdio) or as an http.Handler (the
// Streamable HTTP of revision 2026-07-28, one POST per request, for
// net/http/httptest).
//
// It imports only the standard library, so that package client's own
// tests can use it too.
package mcptest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
)

// Request is one request (or notification: ID is nil) the server got.
type Request struct {
	ID     json.RawMessage
	Method string
	Params json.RawMessage
	// Header holds the HTTP request's headers (nil on a Conn).
	Header http.Header

	notify func(method string, params any) error
	ask    func(ctx context.Context, method string, params any) (json.RawMessage, error)
}

// Notify sends a notification before the response (a progress report, a
// log message).
func (r *Request) Notify(method string, params any) error { return r.notify(method, params) }

// Ask sends a request of the server's own to the client while r is in
// flight (as legacy servers send elicitation/create) and returns the
// client's result. Only a Conn can carry it.
func (r *Request) Ask(ctx context.Context, method string, params any) (json.RawMessage, error) {
	if r.ask == nil {
		return nil, errors.New("mcptest: this connection cannot carry server requests")
	}
	return r.ask(ctx, method, params)
}

// Error is a JSON-RPC error a Handler returns.
type Error struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s", e.Code, e.Message) }

// Handler answers one request: a result (json.RawMessage, or any value
// encoding/json can marshal) or an error (an *Error is sent as it is; any
// other becomes -32603). Notifications are handed over too; what is
// returned for them is dropped.
type Handler func(ctx context.Context, r *Request) (any, error)

// Server serves a Handler.
type Server struct {
	Handler Handler

	mu       sync.Mutex
	received []Request
}

// NewServer returns a server for h.
func NewServer(h Handler) *Server { return &Server{Handler: h} }

// Received returns every request and notification the server got, in
// order.
func (s *Server) Received() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.received...)
}

// Methods returns the methods of Received, in order.
func (s *Server) Methods() []string {
	var out []string
	for _, r := range s.Received() {
		out = append(out, r.Method)
	}
	return out
}

func (s *Server) note(r *Request) {
	s.mu.Lock()
	s.received = append(s.received, *r)
	s.mu.Unlock()
}

type envelope struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

func marshal(v any) json.RawMessage {
	if raw, ok := v.(json.RawMessage); ok {
		return raw
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic("mcptest: " + err.Error())
	}
	return b
}

// answer runs the handler and returns the response line (nil for a
// notification).
func (s *Server) answer(ctx context.Context, r *Request) []byte {
	s.note(r)
	res, err := s.Handler(ctx, r)
	if len(r.ID) == 0 {
		return nil
	}
	env := envelope{JSONRPC: "2.0", ID: r.ID}
	var rpc *Error
	switch {
	case errors.As(err, &rpc):
		env.Error = rpc
	case err != nil:
		env.Error = &Error{Code: -32603, Message: err.Error()}
	default:
		if res == nil {
			res = json.RawMessage(`{}`)
		}
		env.Result = marshal(res)
	}
	b, _ := json.Marshal(env)
	return b
}

// Conn returns the client's end of an in-memory connection that s serves
// until the client closes it: newline-delimited JSON-RPC, as on stdio.
// Each request is answered in a goroutine of its own, so that a handler
// may Ask the client while other requests go on.
func (s *Server) Conn() io.ReadWriteCloser {
	client, server := net.Pipe()
	go s.serveConn(server)
	return client
}

func (s *Server) serveConn(conn net.Conn) {
	defer conn.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var writeMu sync.Mutex
	write := func(b []byte) error {
		writeMu.Lock()
		defer writeMu.Unlock()
		_, err := conn.Write(append(b, '\n'))
		return err
	}
	var mu sync.Mutex
	asked := map[string]chan envelope{}
	next := 0
	ask := func(ctx context.Context, method string, params any) (json.RawMessage, error) {
		mu.Lock()
		next++
		id := "srv-" + strconv.Itoa(next)
		ch := make(chan envelope, 1)
		asked[id] = ch
		mu.Unlock()
		b, _ := json.Marshal(envelope{JSONRPC: "2.0", ID: json.RawMessage(strconv.Quote(id)), Method: method, Params: marshal(params)})
		if err := write(b); err != nil {
			return nil, err
		}
		select {
		case env := <-ch:
			if env.Error != nil {
				return nil, env.Error
			}
			return env.Result, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	sc := bufio.NewScanner(conn)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		var env envelope
		if json.Unmarshal(sc.Bytes(), &env) != nil {
			continue
		}
		if env.Method == "" { // the client's answer to an Ask
			var id string
			_ = json.Unmarshal(env.ID, &id)
			mu.Lock()
			ch := asked[id]
			delete(asked, id)
			mu.Unlock()
			if ch != nil {
				ch <- env
			}
			continue
		}
		r := &Request{ID: env.ID, Method: env.Method, Params: env.Params, ask: ask}
		r.notify = func(method string, params any) error {
			b, _ := json.Marshal(envelope{JSONRPC: "2.0", Method: method, Params: marshal(params)})
			return write(b)
		}
		go func() {
			if line := s.answer(ctx, r); line != nil {
				_ = write(line)
			}
		}()
	}
}

// ServeHTTP serves one POST as Streamable HTTP of revision 2026-07-28
// does: the response as one JSON object, or, when the handler sent
// notifications first, as an event stream of them and then the response.
func (s *Server) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, 64<<20))
	var env envelope
	if err != nil || json.Unmarshal(body, &env) != nil || env.Method == "" {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	var events bytes.Buffer
	r := &Request{ID: env.ID, Method: env.Method, Params: env.Params, Header: req.Header.Clone()}
	r.notify = func(method string, params any) error {
		b, _ := json.Marshal(envelope{JSONRPC: "2.0", Method: method, Params: marshal(params)})
		fmt.Fprintf(&events, "data: %s\n\n", b)
		return nil
	}
	line := s.answer(req.Context(), r)
	if line == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if events.Len() > 0 {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(&events, "data: %s\n\n", line)
		_, _ = w.Write(events.Bytes())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(line)
}
