package fakemcp

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// The test plays the client; rejection is what mcpctl answers a server
// request it does not know.
const (
	initMsg   = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"%s","capabilities":{"elicitation":{}},"clientInfo":{"name":"test","version":"0"}}}`
	strange   = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"strange","arguments":{}}}`
	castSpell = `{"jsonrpc":"2.0","id":"srv-1","method":"wizard/castSpell","params":{}}`
	rejection = `{"jsonrpc":"2.0","id":"srv-1","error":{"code":-32601,"message":"Method not found"}}`
)

var strangeAnswer = result([]byte("2"), textContent(rejection))

func initFor(version string) string { return strings.Replace(initMsg, "%s", version, 1) }

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

type stdioClient struct {
	in    *io.PipeWriter
	lines chan string
	errs  *lockedBuffer
	exit  chan int
}

func startStdio(t *testing.T, mode string) *stdioClient {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &stdioClient{in: inW, lines: make(chan string, 16), errs: &lockedBuffer{}, exit: make(chan int, 1)}
	go func() {
		c.exit <- ServeStdio(mode, inR, outW, c.errs)
		outW.Close()
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	return c
}

func (c *stdioClient) send(t *testing.T, msg string) {
	t.Helper()
	if _, err := io.WriteString(c.in, msg+"\n"); err != nil {
		t.Fatal(err)
	}
}

func (c *stdioClient) expect(t *testing.T, want string) {
	t.Helper()
	select {
	case got := <-c.lines:
		if got != want {
			t.Fatalf("got  %s\nwant %s", got, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("no answer; want %s", want)
	}
}

// close ends stdin and checks the server exits 0 with the given logs.
func (c *stdioClient) close(t *testing.T, logs ...string) {
	t.Helper()
	c.in.Close()
	select {
	case code := <-c.exit:
		if code != 0 {
			t.Fatalf("exit %d", code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no exit after EOF")
	}
	for _, l := range logs {
		if !strings.Contains(c.errs.String(), l) {
			t.Errorf("stderr lacks %q:\n%s", l, c.errs)
		}
	}
}

func TestLegacyStdio(t *testing.T) {
	c := startStdio(t, "legacy")
	c.send(t, `{"jsonrpc":"2.0","id":0,"method":"tools/list"}`)
	c.expect(t, `{"jsonrpc":"2.0","id":0,"error":{"code":-32601,"message":"Method not found"}}`)
	c.send(t, initFor("2025-06-18"))
	c.expect(t, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":`+legacyCapabilities+`,"serverInfo":{"name":"fakemcp-legacy","version":"0"},"instructions":"A legacy fake."}}`)
	c.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(t, strange)
	c.expect(t, castSpell)
	c.send(t, rejection)
	c.expect(t, strangeAnswer)
	c.send(t, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},"_meta":{"progressToken":7}}}`)
	c.expect(t, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":1,"total":2,"message":"half way"}}`)
	c.expect(t, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"fake","data":"echoing"}}`)
	c.expect(t, `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"hi"}]}}`)
	c.send(t, `{"jsonrpc":"2.0","id":4,"method":"resources/subscribe","params":{"uri":"fake://note"}}`)
	c.expect(t, `{"jsonrpc":"2.0","id":4,"result":{}}`)
	c.expect(t, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"fake://note"}}`)
	c.send(t, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"ask"}}`)
	c.expect(t, `{"jsonrpc":"2.0","id":"srv-2","method":"elicitation/create","params":{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}`)
	c.send(t, `{"jsonrpc":"2.0","id":"srv-2","result":{"action":"accept", "content":{"name":"Ada"}}}`)
	c.expect(t, result([]byte("5"), textContent(`{"action":"accept","content":{"name":"Ada"}}`)))
	c.send(t, `{"jsonrpc":"2.0","id":6,"method":"fake/count"}`)
	c.expect(t, `{"jsonrpc":"2.0","id":6,"result":{"initialize":1,"resources/subscribe":1,"tools/call":3,"tools/list":1}}`)
	c.close(t,
		"fakemcp: refused tools/list before initialize",
		`fakemcp: initialize 2025-06-18 capabilities {"elicitation":{}}`,
		"fakemcp: notification notifications/initialized",
		`fakemcp: client answered "srv-1": `+rejection)
}

func TestLegacyStdioVersions(t *testing.T) {
	for _, tc := range []struct{ mode, asked, want string }{
		{"legacy", "2099-01-01", `"protocolVersion":"2025-11-25"`},
		{"legacy", "2024-11-05", `"protocolVersion":"2024-11-05"`},
		{"legacyversion", "2025-11-25", `"error":{"code":-32602,"message":"Unsupported protocol version","data":{"requested":"2025-11-25","supported":["2025-06-18"]}}`},
		{"legacyversion", "2025-06-18", `"protocolVersion":"2025-06-18"`},
		{"legacyold", "2025-11-25", `"protocolVersion":"2024-01-01"`},
		{"legacysse", "2099-01-01", `"protocolVersion":"2024-11-05"`},
	} {
		c := startStdio(t, tc.mode)
		c.send(t, initFor(tc.asked))
		select {
		case got := <-c.lines:
			if !strings.Contains(got, tc.want) {
				t.Errorf("%s asked %s: got %s, want %s", tc.mode, tc.asked, got, tc.want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: no answer", tc.mode)
		}
		c.close(t)
	}
}

// do sends an HTTP request; the caller closes the body.
func do(t *testing.T, method, url, session, body string, header ...string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// expectHTTP checks a response's status and whole body, and closes it.
func expectHTTP(t *testing.T, resp *http.Response, status int, body string) {
	t.Helper()
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != status || string(got) != body {
		t.Fatalf("got %d %s\nwant %d %s", resp.StatusCode, got, status, body)
	}
}

// readEvent reads one SSE event, skipping comments.
func readEvent(t *testing.T, r *bufio.Reader) (event, data string) {
	t.Helper()
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("reading event: %v", err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if data != "" || event != "" {
				return event, data
			}
			continue
		}
		k, v, _ := strings.Cut(line, ":")
		switch k {
		case "event":
			event = strings.TrimPrefix(v, " ")
		case "data":
			data += strings.TrimPrefix(v, " ")
		}
	}
}

func expectEvent(t *testing.T, r *bufio.Reader, want string) {
	t.Helper()
	if _, got := readEvent(t, r); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestLegacyHTTP(t *testing.T) {
	srv := httptest.NewServer(Handler("legacy"))
	t.Cleanup(srv.Close)
	url := srv.URL + "/mcp"

	expectHTTP(t, do(t, "POST", url, "", `{"jsonrpc":"2.0","id":0,"method":"server/discover"}`), 400, badSession)
	resp := do(t, "POST", url, "", initFor("2025-11-25"))
	sess := resp.Header.Get("Mcp-Session-Id")
	resp.Body.Close()
	if sess != "sess-1" || resp.StatusCode != 200 {
		t.Fatalf("initialize: %d, session %q", resp.StatusCode, sess)
	}
	expectHTTP(t, do(t, "POST", url, sess, `{"jsonrpc":"2.0","method":"notifications/initialized"}`), 202, "")
	expectHTTP(t, do(t, "POST", url, "sess-9", `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`), 404, badSession)
	expectHTTP(t, do(t, "POST", url, sess, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`, "Mcp-Protocol-Version", "2025-06-18"),
		400, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: Unsupported protocol version: 2025-06-18"}}`)
	expectHTTP(t, do(t, "GET", url, "", ""), 400, badSession)

	// The standalone stream carries the resource update.
	stream := do(t, "GET", url, sess, "")
	defer stream.Body.Close()
	events := bufio.NewReader(stream.Body)
	expectHTTP(t, do(t, "POST", url, sess, `{"jsonrpc":"2.0","id":4,"method":"resources/subscribe","params":{"uri":"fake://note"}}`, "Mcp-Protocol-Version", "2025-11-25"),
		200, `{"jsonrpc":"2.0","id":4,"result":{}}`)
	expectEvent(t, events, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"fake://note"}}`)

	// The server's request comes on the call's own stream; the answer goes
	// back in a POST of its own.
	call := do(t, "POST", url, sess, strange)
	defer call.Body.Close()
	if ct := call.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("call answered with %q", ct)
	}
	callEvents := bufio.NewReader(call.Body)
	expectEvent(t, callEvents, castSpell)
	expectHTTP(t, do(t, "POST", url, sess, rejection), 202, "")
	expectEvent(t, callEvents, strangeAnswer)

	expectHTTP(t, do(t, "DELETE", url, sess, ""), 200, "")
	if _, err := io.ReadAll(events); err != nil {
		t.Fatalf("the GET stream did not end with the session: %v", err)
	}
	expectHTTP(t, do(t, "POST", url, sess, `{"jsonrpc":"2.0","id":5,"method":"tools/list"}`), 404, badSession)
}

func TestLegacyHTTPVersion(t *testing.T) {
	srv := httptest.NewServer(Handler("legacyversion"))
	t.Cleanup(srv.Close)
	resp := do(t, "POST", srv.URL, "", initFor("2025-11-25"))
	if resp.Header.Get("Mcp-Session-Id") != "" {
		t.Error("a refused initialize made a session")
	}
	expectHTTP(t, resp, 200, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Unsupported protocol version","data":{"requested":"2025-11-25","supported":["2025-06-18"]}}}`)
	resp = do(t, "POST", srv.URL, "", initFor("2025-06-18"))
	if resp.Header.Get("Mcp-Session-Id") != "sess-1" {
		t.Error("no session")
	}
	resp.Body.Close()
}

func TestLegacyExpire(t *testing.T) {
	srv := httptest.NewServer(Handler("legacyexpire"))
	t.Cleanup(srv.Close)
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	for _, sess := range []string{"sess-1", "sess-2"} {
		resp := do(t, "POST", srv.URL, "", initFor("2025-11-25"))
		resp.Body.Close()
		if got := resp.Header.Get("Mcp-Session-Id"); got != sess {
			t.Fatalf("session %q, want %q", got, sess)
		}
		expectHTTP(t, do(t, "POST", srv.URL, sess, `{"jsonrpc":"2.0","method":"notifications/initialized"}`), 202, "")
		if sess == "sess-2" {
			expectHTTP(t, do(t, "POST", srv.URL, sess, `{"jsonrpc":"2.0","id":2,"method":"fake/count"}`),
				200, `{"jsonrpc":"2.0","id":2,"result":{"initialize":2,"tools/list":2}}`)
			break
		}
		expectHTTP(t, do(t, "POST", srv.URL, sess, list), 200, result([]byte("2"), legacyTools))
		expectHTTP(t, do(t, "POST", srv.URL, sess, list), 404, badSession)
	}
}

func TestLegacySSE(t *testing.T) {
	srv := httptest.NewServer(Handler("legacysse"))
	t.Cleanup(srv.Close)
	url := srv.URL + "/mcp"
	expectHTTP(t, do(t, "POST", url, "", initFor("2025-11-25")), 405, "")

	stream := do(t, "GET", url, "", "")
	defer stream.Body.Close()
	events := bufio.NewReader(stream.Body)
	if ev, data := readEvent(t, events); ev != "endpoint" || data != "/mcp/messages?sessionId=sess-1" {
		t.Fatalf("first event %q %q", ev, data)
	}
	messages := srv.URL + "/mcp/messages?sessionId=sess-1"
	expectHTTP(t, do(t, "POST", srv.URL+"/mcp/messages?sessionId=nope", "", strange), 404, "Session not found\n")

	expectHTTP(t, do(t, "POST", messages, "", strange), 202, "")
	expectEvent(t, events, `{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found"}}`)
	expectHTTP(t, do(t, "POST", messages, "", initFor("2099-01-01")), 202, "")
	if _, data := readEvent(t, events); !strings.Contains(data, `"protocolVersion":"2024-11-05"`) {
		t.Fatalf("initialize answered %s", data)
	}
	expectHTTP(t, do(t, "POST", messages, "", strange), 202, "")
	expectEvent(t, events, castSpell)
	expectHTTP(t, do(t, "POST", messages, "", rejection), 202, "")
	expectEvent(t, events, strangeAnswer)
}
