package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// allCaps declares every client capability the demo's tools can use.
const allCaps = `{"elicitation":{"form":{},"url":{}},"roots":{},"sampling":{},` +
	`"extensions":{"io.modelcontextprotocol/tasks":{}}}`

// rpcSession talks raw JSON lines to an in-process server over the same
// stdio transport the binary uses, one request at a time.
type rpcSession struct {
	t      *testing.T
	in     *io.PipeWriter
	lines  chan []byte
	mu     sync.Mutex
	nextID int
}

type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

type rpcReply struct {
	Result        json.RawMessage
	Error         *rpcError
	Notifications []json.RawMessage // received before the response
}

func newRPCSession(t *testing.T) *rpcSession {
	t.Helper()
	stdinR, stdinW := io.Pipe()
	stdoutR, stdoutW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		s, n := newDemo()
		serveStdio(ctx, s, n, stdinR, stdoutW)
		stdoutW.Close()
		close(done)
	}()
	s := &rpcSession{t: t, in: stdinW, lines: make(chan []byte, 100)}
	go func() {
		sc := bufio.NewScanner(stdoutR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			s.lines <- append([]byte(nil), sc.Bytes()...)
		}
		close(s.lines)
	}()
	t.Cleanup(func() {
		stdinW.Close()
		cancel()
		<-done
	})
	return s
}

// meta builds the request _meta; extra is appended verbatim (e.g.
// `"progressToken":1`).
func meta(caps string, extra ...string) string {
	m := `"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
		`"io.modelcontextprotocol/clientCapabilities":` + caps + `,` +
		`"io.modelcontextprotocol/clientInfo":{"name":"test","version":"0"}`
	for _, e := range extra {
		m += "," + e
	}
	return `"_meta":{` + m + `}`
}

// call sends method with params (a JSON object body without braces, to
// which _meta is added) and waits for the response.
func (s *rpcSession) call(method, params, metaJSON string) rpcReply {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	id := s.nextID
	if params != "" {
		params += ","
	}
	line := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{%s%s}}`, id, method, params, metaJSON)
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatalf("write: %v", err)
	}
	var reply rpcReply
	timeout := time.After(10 * time.Second)
	for {
		select {
		case data, ok := <-s.lines:
			if !ok {
				s.t.Fatalf("%s: server closed stdout", method)
			}
			var msg struct {
				ID     *int            `json:"id"`
				Method string          `json:"method"`
				Result json.RawMessage `json:"result"`
				Error  *rpcError       `json:"error"`
			}
			if err := json.Unmarshal(data, &msg); err != nil {
				s.t.Fatalf("non-JSON line on stdout: %q", data)
			}
			if msg.ID == nil {
				reply.Notifications = append(reply.Notifications, data)
				continue
			}
			if *msg.ID != id {
				s.t.Fatalf("response to id %d while waiting for %d: %s", *msg.ID, id, data)
			}
			reply.Result, reply.Error = msg.Result, msg.Error
			return reply
		case <-timeout:
			s.t.Fatalf("%s: no response", method)
		}
	}
}

// tool calls a tool; extra holds more params members (inputResponses,
// requestState), possibly empty.
func (s *rpcSession) tool(name, extra, metaJSON string) rpcReply {
	s.t.Helper()
	params := fmt.Sprintf(`"name":%q,"arguments":{}`, name)
	if extra != "" {
		params += "," + extra
	}
	return s.call("tools/call", params, metaJSON)
}

// mustResult decodes a successful reply's result into v.
func (r rpcReply) mustResult(t *testing.T, v any) {
	t.Helper()
	if r.Error != nil {
		t.Fatalf("unexpected error %d: %s", r.Error.Code, r.Error.Message)
	}
	if err := json.Unmarshal(r.Result, v); err != nil {
		t.Fatalf("decoding %s: %v", r.Result, err)
	}
}

func (r rpcReply) wantError(t *testing.T, code int, sub string) {
	t.Helper()
	if r.Error == nil {
		t.Fatalf("got result %s, want error %d", r.Result, code)
	}
	if r.Error.Code != code || !strings.Contains(r.Error.Message, sub) {
		t.Fatalf("got error %d %q, want %d containing %q", r.Error.Code, r.Error.Message, code, sub)
	}
}

// toolResult is the union of the tools/call result shapes the tests read.
type toolResult struct {
	ResultType    string `json:"resultType"`
	InputRequests map[string]struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	} `json:"inputRequests"`
	RequestState string `json:"requestState"`
	Content      []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

func (r rpcReply) tool(t *testing.T) toolResult {
	t.Helper()
	var res toolResult
	r.mustResult(t, &res)
	return res
}

// text returns the single text block of a complete result.
func (r toolResult) text(t *testing.T) string {
	t.Helper()
	if r.ResultType != "complete" || len(r.Content) != 1 || r.Content[0].Type != "text" {
		t.Fatalf("want a complete result with one text block, got %+v", r)
	}
	return r.Content[0].Text
}

// asks checks an input_required result asks exactly key with method, and
// returns the request's params.
func (r toolResult) asks(t *testing.T, key, method string) map[string]any {
	t.Helper()
	if r.ResultType != "input_required" || len(r.InputRequests) != 1 {
		t.Fatalf("want input_required with one request, got %+v", r)
	}
	ir, ok := r.InputRequests[key]
	if !ok || ir.Method != method {
		t.Fatalf("want inputRequests[%q] with method %s, got %+v", key, method, r.InputRequests)
	}
	var p map[string]any
	json.Unmarshal(ir.Params, &p)
	return p
}

// wantMissingCapability checks a -32021 error names required.
func (r rpcReply) wantMissingCapability(t *testing.T, required string) {
	t.Helper()
	r.wantError(t, -32021, "")
	var data struct {
		RequiredCapabilities json.RawMessage `json:"requiredCapabilities"`
	}
	json.Unmarshal(r.Error.Data, &data)
	if string(data.RequiredCapabilities) != required {
		t.Errorf("requiredCapabilities = %s, want %s", data.RequiredCapabilities, required)
	}
}
