package client

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// slowStart is a stdio-like transport whose server has not read anything
// until started is closed (Capabilities.Unread), then answers as handle
// says: a server still starting.
type slowStart struct {
	*fakeTransport
	started chan struct{}
}

func (s slowStart) Capabilities() Capabilities {
	caps := s.fakeTransport.Capabilities()
	caps.Unread = func() (int, bool) {
		select {
		case <-s.started:
			return 0, true
		default:
			return 42, true
		}
	}
	return caps
}

// A stdio server that has not read server/discover yet is starting, not
// ignoring it: no initialize goes out, however long past the time a
// legacy server gets to answer, and its answer, when it comes, decides.
func TestProbeWaitsForAServerThatIsStarting(t *testing.T) {
	started := make(chan struct{})
	ft := &fakeTransport{handle: func(ctx context.Context, req *Request, _ http.Header, _ func(Notification)) (*Message, error) {
		if req.Method == "server/discover" {
			select {
			case <-started:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		return byMethod(map[string][]any{"server/discover": {`{"supportedVersions":["2026-07-28"]}`}, "tools/list": {`{"tools":[]}`}})(ctx, req, nil, nil)
	}}
	var log strings.Builder
	var logMu sync.Mutex
	// A fifth of the bound, 200ms, is when initialize would follow.
	c := New(slowStart{ft, started}, Options{ProbeTimeout: time.Second, Hooks: Hooks{Log: func(s string) {
		logMu.Lock()
		log.WriteString(s + "\n")
		logMu.Unlock()
	}}})
	time.AfterFunc(600*time.Millisecond, func() { close(started) })
	if _, err := c.Call(context.Background(), "tools/list", nil, nil); err != nil {
		t.Fatal(err)
	}
	if got := methods(ft.requests()); got != "server/discover tools/list" {
		t.Errorf("wire: %s", got)
	}
	if c.Era().Era != EraModern {
		t.Errorf("era %+v", c.Era())
	}
	logMu.Lock()
	defer logMu.Unlock()
	if !strings.Contains(log.String(), "era: the server has not read server/discover yet: waiting for it to start") {
		t.Errorf("log:\n%s", log.String())
	}
}

// A server that never reads what it is sent (sleep) is no server, and is
// told from one that reads and says nothing.
func TestProbeServerThatNeverReads(t *testing.T) {
	ft := &fakeTransport{handle: byMethod(map[string][]any{"server/discover": {"hang"}})}
	c := New(slowStart{ft, make(chan struct{})}, Options{ProbeTimeout: 100 * time.Millisecond})
	_, err := c.Call(context.Background(), "tools/list", nil, nil)
	var ns *NotServerError
	if !errors.As(err, &ns) || !ns.Unread {
		t.Fatalf("err = %T %v, want *NotServerError, unread", err, err)
	}
	if want := "not an MCP server: in 100ms it neither read its input nor wrote anything"; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
	if got := methods(ft.requests()); got != "server/discover" {
		t.Errorf("wire: %s", got)
	}
}

// lineServer is the other end of a NewConn: the test reads what the
// client sends, line by line, and writes the server's lines.
type lineServer struct {
	in  *bufio.Reader
	out net.Conn
}

func newLineServer(t *testing.T) (*lineServer, Transport) {
	a, b := net.Pipe()
	t.Cleanup(func() { a.Close(); b.Close() })
	return &lineServer{in: bufio.NewReader(b), out: b}, NewConn(a, ConnOptions{Binding: BindingStdio})
}

// next reads the next request (notifications skipped).
func (s *lineServer) next(t *testing.T) (id json.RawMessage, method string) {
	for {
		line, err := s.in.ReadBytes('\n')
		if err != nil {
			t.Errorf("reading: %v", err)
			return nil, ""
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.Unmarshal(line, &m)
		if len(m.ID) > 0 {
			return m.ID, m.Method
		}
	}
}

func (s *lineServer) send(line string) { _, _ = io.WriteString(s.out, line+"\n") }

// A server of both eras that answers server/discover late, after the
// initialize that followed it arrived, and answers both: the first answer
// decides, and it was server/discover's. (Twenty times: the two answers
// reach the probe on goroutines of their own.)
func TestProbeFirstAnswerDecides(t *testing.T) {
	for i := 0; i < 20; i++ {
		srv, tr := newLineServer(t)
		c := New(tr, Options{ProbeTimeout: 100 * time.Millisecond})
		done := make(chan error, 1)
		go func() {
			_, err := c.Call(context.Background(), "tools/list", nil, nil)
			done <- err
		}()
		did, m1 := srv.next(t)
		iid, m2 := srv.next(t)
		if m1 != "server/discover" || m2 != "initialize" {
			t.Fatalf("the server got %s, %s", m1, m2)
		}
		srv.send(`{"jsonrpc":"2.0","id":` + string(did) + `,"result":{"supportedVersions":["2026-07-28"]}}`)
		srv.send(`{"jsonrpc":"2.0","id":` + string(iid) + `,"result":` + initResult + `}`)
		for {
			id, m := srv.next(t)
			if m == "tools/list" {
				srv.send(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"tools":[]}}`)
				break
			}
			if m == "" {
				break
			}
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if c.Era().Era != EraModern {
			t.Fatalf("run %d: era %+v, want modern", i, c.Era())
		}
		c.Close()
	}
}

// A program that copies its input to its output (cat) sends the probe
// back: no server, said at once (it used to be answered as a server
// request, -32601, which came back as the probe's own error).
func TestProbeEchoIsNoServer(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	go func() { _, _ = io.Copy(b, b) }()
	c := New(NewConn(a, ConnOptions{}), Options{})
	_, err := c.Call(context.Background(), "tools/list", nil, nil)
	var ns *NotServerError
	if !errors.As(err, &ns) || !ns.Echo || ns.Method != "server/discover" {
		t.Fatalf("err = %T %v, want an echo of server/discover", err, err)
	}
	var pe *ProtocolError
	if !errors.As(err, &pe) {
		t.Error("an echo is not a protocol error")
	}
	want := "not an MCP server: it sends back what it is sent (its answer to server/discover was the request itself)"
	if err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
}

// An initialize result without a protocolVersion: the error says what
// the server answered, not "the server supports ,".
func TestVersionErrorNamesWhatTheServerSaid(t *testing.T) {
	ft := &fakeTransport{handle: byMethod(map[string][]any{"initialize": {`{"capabilities":{},"serverInfo":{"name":"odd","version":"1"}}`}})}
	c := New(ft, Options{Era: EraLegacy})
	_, err := c.Ping(context.Background())
	var ve *VersionError
	if !errors.As(err, &ve) {
		t.Fatalf("err = %T %v, want *VersionError", err, err)
	}
	want := `no protocol version in common: the server named no version (it answered initialize without a protocolVersion: {"capabilities":{},"serverInfo":{"name":"odd","version":"1"}}), this client speaks ` + strings.Join(LegacyVersions(), ", ")
	if err.Error() != want {
		t.Errorf("message\n%s\nwant\n%s", err, want)
	}
	// A -32022 that lists nothing says what it was.
	ft = &fakeTransport{handle: byMethod(map[string][]any{"server/discover": {&RPCError{Code: CodeUnsupportedProtocolVersion, Message: "no such version"}}})}
	c = New(ft, Options{})
	_, err = c.Call(context.Background(), "tools/list", nil, nil)
	if err == nil || !strings.Contains(err.Error(), "the server named no version (it answered server error -32022: no such version)") {
		t.Errorf("err = %v", err)
	}
}
