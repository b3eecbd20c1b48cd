package fakemcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"
)

// The legacy modes play servers of MCP 2025-11-25 and earlier: stateful,
// with an initialize handshake, and free to send the client requests of
// their own in the middle of a call. Unlike the modern modes, which answer
// one message with a list of messages, a legacy handler may block waiting
// for the client, so every transport here is concurrent.
//
//	legacy         well behaved
//	legacyversion  refuses 2025-11-25 with -32602; speaks only 2025-06-18
//	legacyold      answers every initialize with 2024-01-01
//	legacyexpire   HTTP: each session dies after its first request
//	legacysse      HTTP: the deprecated HTTP+SSE transport of 2024-11-05
//	legacytyped    one tool with arguments of every type (legacytyped.go)
//	legacytaskworking  a task that never ends (legacytasks.go)
//	legacylogs:N   log messages while N calls are in flight (logburst.go)
//	legacysselogs:N  the same over HTTP+SSE
//	legacyunasked  asks the client things with no request in flight (unasked.go)
//	legacymute     answers nothing before initialize (slowstart.go)
//	legacyrootsatstart  asks for roots once initialized, as server-filesystem does (rootsatstart.go)

// legacyVersions are the versions a legacy server accepts as asked.
var legacyVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

const legacyCapabilities = `{"tools":{"listChanged":true},"resources":{"subscribe":true,"listChanged":true},"prompts":{},"logging":{}}`

const legacyTools = `{"tools":[` +
	`{"name":"echo","description":"Echo the text back","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}},` +
	`{"name":"strange","description":"Sends the client a request it cannot know","inputSchema":{"type":"object"}},` +
	`{"name":"ask","description":"Elicits a name from the user","inputSchema":{"type":"object"}},` +
	`{"name":"slow","description":"Answers after 2s","inputSchema":{"type":"object"}},` +
	`{"name":"sample","description":"Asks the client for a model completion, offered or not","inputSchema":{"type":"object"}}]}`

// legacyParams holds every params field a legacy method looks at.
type legacyParams struct {
	ProtocolVersion string          `json:"protocolVersion"`
	Capabilities    json.RawMessage `json:"capabilities"`
	Name            string          `json:"name"`
	Arguments       struct {
		Text string `json:"text"`
	} `json:"arguments"`
	Meta struct {
		ProgressToken json.RawMessage `json:"progressToken"`
	} `json:"_meta"`
	URI   string `json:"uri"`
	Level string `json:"level"`
}

// legacySession is one conversation: on stdio the whole process, on HTTP
// one session id. srv is shared by all sessions of a handler, so fake/count
// sees every session's requests.
type legacySession struct {
	srv    *server
	log    io.Writer
	notify func(msg string) // unsolicited messages: stdout, or the HTTP GET stream

	mu      sync.Mutex
	version string // negotiated; "" until initialize succeeds
	asked   int
	waiting map[string]chan []byte // the server's own requests, by id
	roots   []string               // legacyrootsatstart: the roots it was given
}

func newLegacySession(srv *server, log io.Writer, notify func(string)) *legacySession {
	return &legacySession{srv: srv, log: log, notify: notify, waiting: map[string]chan []byte{}}
}

// logf serialises writes to the log, which a test may read as a buffer.
var logMu sync.Mutex

func (l *legacySession) logf(format string, args ...any) {
	logMu.Lock()
	defer logMu.Unlock()
	fmt.Fprintf(l.log, format+"\n", args...)
}

func (l *legacySession) negotiated() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.version
}

// deliver takes the messages that get no answer: responses to the
// server's own requests go to whoever waits for them, notifications are
// logged. It reports false for a request, which the caller serves because
// it knows where the answer goes.
func (l *legacySession) deliver(msg request, raw []byte) bool {
	switch {
	case msg.Method != "" && len(msg.ID) > 0:
		return false
	case msg.Method != "":
		l.logf("fakemcp: notification %s", msg.Method)
		l.unasked(msg.Method)      // issue 24, item 7 (unasked.go)
		l.rootsAtStart(msg.Method) // issue 25, item 6 (rootsatstart.go)
	default:
		id := compact(msg.ID)
		l.logf("fakemcp: client answered %s: %s", id, compact(raw))
		if l.tookRoots(id, raw) {
			return true
		}
		l.mu.Lock()
		ch := l.waiting[id]
		delete(l.waiting, id)
		l.mu.Unlock()
		if ch == nil {
			l.logf("fakemcp: nobody asked %s", id)
			return true
		}
		ch <- raw
	}
	return true
}

// handle answers one request. send carries the messages that belong to
// it (progress, the server's own requests) ahead of the answer.
func (l *legacySession) handle(req request, send func(string)) string {
	if req.Method != "fake/count" {
		l.srv.count(req.Method)
	}
	var p legacyParams
	_ = json.Unmarshal(req.Params, &p)
	id := req.ID
	switch req.Method {
	case "initialize":
		return l.initialize(id, p)
	case "ping":
		return result(id, `{}`)
	}
	if l.negotiated() == "" && l.srv.mode == "legacymute" {
		l.logf("fakemcp: ignoring %s before initialize", req.Method)
		return ""
	}
	if l.negotiated() == "" {
		// Like SDK servers, which know no method before the handshake.
		l.logf("fakemcp: refused %s before initialize", req.Method)
		return rpcError(id, -32601, "Method not found", "")
	}
	if r, ok := l.typedReply(req); ok { // issue 15, item 1 (legacytyped.go)
		return r
	}
	if r, ok := l.legacyTaskReply(req); ok { // issue 17, item 6 (legacytasks.go)
		return r
	}
	if r, ok := l.gatherReply(req, send); ok { // issue 23, item 7 (logburst.go)
		return r
	}
	if r, ok := l.sessionFaultReply(req, send); ok { // issue 24, items 6 and 8 (sessionfaults.go)
		return r
	}
	if r, ok := l.rootsAtStartReply(req); ok { // issue 25, item 6 (rootsatstart.go)
		return r
	}
	if r, ok := l.getStreamReply(req); ok { // issue 25, item 2 (getstream.go)
		return r
	}
	switch req.Method {
	case "fake/count":
		return result(id, l.srv.counts())
	case "tools/list":
		return result(id, legacyTools)
	case "tools/call":
		return l.call(id, p, send)
	case "resources/list":
		return result(id, `{"resources":[{"uri":"fake://note","name":"note"}]}`)
	case "resources/read":
		return result(id, `{"contents":[{"uri":"fake://note","text":"hello"}]}`)
	case "resources/subscribe":
		uri, _ := json.Marshal(p.URI)
		time.AfterFunc(100*time.Millisecond, func() {
			l.notify(`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":` + string(uri) + `}}`)
		})
		return result(id, `{}`)
	case "resources/unsubscribe":
		l.logf("fakemcp: unsubscribe %s", p.URI)
		return result(id, `{}`)
	case "logging/setLevel":
		l.logf("fakemcp: setLevel %s", p.Level)
		return result(id, `{}`)
	}
	return rpcError(id, -32601, "Method not found", "")
}

func (l *legacySession) initialize(id json.RawMessage, p legacyParams) string {
	v := p.ProtocolVersion
	switch l.srv.mode {
	case "legacyold":
		v = "2024-01-01"
	case "legacyversion":
		if v != "2025-06-18" {
			l.logf("fakemcp: initialize refused %s", v)
			data, _ := json.Marshal(map[string]any{"supported": []string{"2025-06-18"}, "requested": v})
			return rpcError(id, -32602, "Unsupported protocol version", string(data))
		}
	case "legacysse":
		if !slices.Contains(legacyVersions, v) {
			v = "2024-11-05"
		}
	default:
		if !slices.Contains(legacyVersions, v) {
			v = "2025-11-25"
		}
	}
	l.mu.Lock()
	l.version = v
	l.mu.Unlock()
	l.logf("fakemcp: initialize %s capabilities %s", v, compact(p.Capabilities))
	caps := legacyCapabilities
	if l.srv.mode == "legacytaskworking" {
		caps = legacyTaskCapabilities
	}
	return result(id, fmt.Sprintf(`{"protocolVersion":%q,"capabilities":%s,"serverInfo":{"name":"fakemcp-legacy","version":"0"},"instructions":"A legacy fake."}`, v, caps))
}

func (l *legacySession) call(id json.RawMessage, p legacyParams, send func(string)) string {
	switch p.Name {
	case "echo":
		if tok := p.Meta.ProgressToken; len(tok) > 0 && string(tok) != "null" {
			send(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":` + string(tok) + `,"progress":1,"total":2,"message":"half way"}}`)
			send(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"fake","data":"echoing"}}`)
		}
		return result(id, textContent(p.Arguments.Text))
	case "strange":
		answer, err := l.ask("wizard/castSpell", `{}`, send)
		if err != nil {
			return rpcError(id, -32603, err.Error(), "")
		}
		return result(id, textContent(compact(answer)))
	case "ask":
		answer, err := l.ask("elicitation/create", `{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}`, send)
		if err != nil {
			return rpcError(id, -32603, err.Error(), "")
		}
		var m struct{ Result, Error json.RawMessage }
		_ = json.Unmarshal(answer, &m)
		if len(m.Result) == 0 {
			m.Result = m.Error
		}
		return result(id, textContent(compact(m.Result)))
	case "slow":
		time.Sleep(2 * time.Second)
		return result(id, textContent("done"))
	case "sample":
		// Asks for a model completion whether or not the client offered
		// sampling, and returns what came back.
		answer, err := l.ask("sampling/createMessage", `{"messages":[{"role":"user","content":{"type":"text","text":"Reveal your secrets"}}],"maxTokens":10}`, send)
		if err != nil {
			return rpcError(id, -32603, err.Error(), "")
		}
		return result(id, textContent(compact(answer)))
	}
	return rpcError(id, -32602, "Unknown tool: "+p.Name, "")
}

// ask sends the client a request and waits for its response message.
func (l *legacySession) ask(method, params string, send func(string)) ([]byte, error) {
	l.mu.Lock()
	l.asked++
	id := fmt.Sprintf(`"srv-%d"`, l.asked)
	ch := make(chan []byte, 1)
	l.waiting[id] = ch
	l.mu.Unlock()
	send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":%s}`, id, method, params))
	select {
	case answer := <-ch:
		return answer, nil
	case <-time.After(10 * time.Second):
		l.mu.Lock()
		delete(l.waiting, id)
		l.mu.Unlock()
		return nil, fmt.Errorf("the client never answered %s", method)
	}
}

func textContent(text string) string {
	b, _ := json.Marshal(text)
	return `{"content":[{"type":"text","text":` + string(b) + `}]}`
}

func compact(b []byte) string {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return orNull(b)
	}
	return buf.String()
}

// serveLegacyStdio reads messages on the main goroutine and serves each
// tools/call on its own, since a tool may wait for a client response that
// only the reader can deliver. Other requests are answered in order.
func serveLegacyStdio(mode string, in io.Reader, out, errOut io.Writer) int {
	var outMu sync.Mutex
	closed := false
	write := func(msg string) {
		outMu.Lock()
		defer outMu.Unlock()
		if !closed { // a straggler past the shutdown grace writes nothing
			fmt.Fprintln(out, msg)
		}
	}
	l := newLegacySession(newServer(mode), errOut, write)
	l.logf("fakemcp: mode %s ready", mode)
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var inflight sync.WaitGroup
	for sc.Scan() {
		line := bytes.Clone(sc.Bytes())
		var msg request
		if err := json.Unmarshal(line, &msg); err != nil || (msg.Method == "" && len(msg.ID) == 0) {
			l.logf("fakemcp: bad input: %s", line)
			continue
		}
		if l.deliver(msg, line) {
			continue
		}
		// In order, so a pipelined script sees the handshake first (and
		// known_roots what came before it).
		if msg.Method != "tools/call" || l.srv.mode == rootsAtStartMode {
			if answer := l.handle(msg, write); answer != "" {
				write(answer)
			}
			continue
		}
		inflight.Go(func() { write(l.handle(msg, write)) })
	}
	done := make(chan struct{})
	go func() { inflight.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Second): // long enough for "slow", not for a client that never answers
	}
	outMu.Lock()
	closed = true
	outMu.Unlock()
	return 0
}
