//go:build linux || darwin

package sessiond

// A session to a legacy Streamable HTTP server (issue 25, item 2): its
// own stream (the GET stream) is kept open, and what comes on it goes
// where the same would go on stdio.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpctl/mcpctl/client"
)

// legacyHTTPServer is a legacy Streamable HTTP server (2025-11-25) in
// this process: initialize hands out a session id; tools/call is call's
// to answer; the n-th GET (from 1) is get's to serve; server requests go
// out on the GET stream (push) and their answers, POSTed, to ask.
type legacyHTTPServer struct {
	t    *testing.T
	url  string
	get  func(n int, w http.ResponseWriter, r *http.Request)
	call func(s *legacyHTTPServer, id, params json.RawMessage) string

	mu      sync.Mutex
	gets    int
	stream  chan string // the open GET stream's queue, nil when none
	asks    map[string]chan json.RawMessage
	asked   int
	getSeen chan struct{}
}

func newLegacyHTTPServer(t *testing.T) *legacyHTTPServer {
	s := &legacyHTTPServer{t: t, asks: map[string]chan json.RawMessage{}, getSeen: make(chan struct{}, 1)}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	s.url = srv.URL + "/mcp"
	return s
}

func (s *legacyHTTPServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodDelete:
		return
	case http.MethodGet:
		s.mu.Lock()
		s.gets++
		n := s.gets
		s.mu.Unlock()
		select {
		case s.getSeen <- struct{}{}:
		default:
		}
		if s.get == nil {
			s.openStream(w, r)
			return
		}
		s.get(n, w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
		Result json.RawMessage `json:"result"`
	}
	_ = json.Unmarshal(body, &m)
	reply := func(status int, line string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprint(w, line)
	}
	switch {
	case m.Method == "initialize":
		w.Header().Set("Mcp-Session-Id", "s-1")
		reply(http.StatusOK, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":`+legacyInit+`}`)
	case r.Header.Get("Mcp-Session-Id") != "s-1":
		// What the SDKs answer the era probe: no session, no method.
		reply(http.StatusBadRequest, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: No valid session ID provided"}}`)
	case m.Method == "" && len(m.ID) > 0: // an answer to the server's request
		s.mu.Lock()
		ch := s.asks[string(m.ID)]
		s.mu.Unlock()
		if ch != nil {
			ch <- m.Result
		}
		w.WriteHeader(http.StatusAccepted)
	case len(m.ID) == 0:
		w.WriteHeader(http.StatusAccepted)
	case m.Method == "tools/call" && s.call != nil:
		reply(http.StatusOK, s.call(s, m.ID, m.Params))
	default:
		reply(http.StatusOK, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"error":{"code":-32601,"message":"no `+m.Method+`"}}`)
	}
}

// openStream serves a GET stream until the client goes: what push
// queues is sent on it.
func (s *legacyHTTPServer) openStream(w http.ResponseWriter, r *http.Request) {
	ch := make(chan string, 16)
	s.mu.Lock()
	s.stream = ch
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if s.stream == ch {
			s.stream = nil
		}
		s.mu.Unlock()
	}()
	sseOpen(w)
	for {
		select {
		case <-r.Context().Done():
			return
		case line := <-ch:
			sseEvent(w, line)
		}
	}
}

func sseOpen(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	w.(http.Flusher).Flush()
}

func sseEvent(w http.ResponseWriter, line string) {
	fmt.Fprintf(w, "data: %s\n\n", line)
	w.(http.Flusher).Flush()
}

// push sends line on the GET stream, once one is open.
func (s *legacyHTTPServer) push(line string) {
	s.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		s.mu.Lock()
		ch := s.stream
		s.mu.Unlock()
		if ch != nil {
			ch <- line
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("no GET stream was opened to send %s on", line)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// ping asks the client a ping on the GET stream and waits for the answer:
// what was pushed before it has then been read.
func (s *legacyHTTPServer) ping() error {
	s.mu.Lock()
	s.asked++
	id := `"srv-` + strconv.Itoa(s.asked) + `"`
	ch := make(chan json.RawMessage, 1)
	s.asks[id] = ch
	s.mu.Unlock()
	s.push(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
	select {
	case <-ch:
		return nil
	case <-time.After(20 * time.Second):
		return errors.New("the client never answered the ping")
	}
}

// waitGets waits until n GETs came.
func (s *legacyHTTPServer) waitGets(n int) {
	s.t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		s.mu.Lock()
		got := s.gets
		s.mu.Unlock()
		if got >= n {
			return
		}
		select {
		case <-s.getSeen:
		case <-deadline:
			s.t.Fatalf("%d GETs came, want %d", got, n)
		}
	}
}

// newHTTPBench is a daemon (not started) in front of s, reached as a
// one-shot run reaches it: over HTTP, the era found by the probe.
func newHTTPBench(t *testing.T, s *legacyHTTPServer) *bench {
	t.Helper()
	b := newBench(t, nil)
	b.cfg.Connect = func(ctx context.Context, wrap func(client.Transport) client.Transport) (*client.Client, func(), error) {
		b.connects.Add(1)
		tr, err := client.NewHTTP(client.HTTPOptions{URL: s.url})
		if err != nil {
			return nil, nil, err
		}
		c := client.New(wrap(tr), client.Options{ClientInfo: client.Implementation{Name: "sessiond-test", Version: "0"}, ProbeTimeout: 10 * time.Second})
		return c, func() { c.Close(); b.closes.Add(1) }, nil
	}
	return b
}

// watching is an invocation connection that watches, once the daemon has
// taken its watch.
func (b *bench) watching() *rawPeer {
	r := b.raw()
	r.send(map[string]any{"jsonrpc": "2.0", "method": watchMethod})
	r.sync()
	return r
}

const updated = "notifications/resources/updated"

// What the server sends on its own stream reaches every invocation that
// listens, once, through the one stream the session opened; not those
// that do not listen.
func TestHTTPStreamReachesListeners(t *testing.T) {
	t.Parallel()
	s := newLegacyHTTPServer(t)
	b := newHTTPBench(t, s).start()
	w1, w2, other := b.watching(), b.watching(), b.raw()
	s.push(`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"x://1"}}`)
	for i, w := range []*rawPeer{w1, w2} {
		w.waitFor("the update", func(m []*client.Message) bool { return len(notifications(m, updated)) > 0 })
		if got := notifications(w.sync(), updated); len(got) != 1 || string(topValue(got[0].Params, "uri")) != `"x://1"` {
			t.Errorf("listener %d heard %s", i+1, dump(got))
		}
	}
	if got := notifications(other.sync(), updated); len(got) != 0 {
		t.Errorf("an invocation that does not listen heard %s", dump(got))
	}
	s.mu.Lock()
	gets := s.gets
	s.mu.Unlock()
	if gets != 1 {
		t.Errorf("%d GETs, want the one stream", gets)
	}
}

// A stream the server closes is opened again (after its retry delay, by
// the transport), and what comes on the new one reaches the listeners;
// they are not told of a break, for there was none.
func TestHTTPStreamClosedIsReopened(t *testing.T) {
	t.Parallel()
	s := newLegacyHTTPServer(t)
	s.get = func(n int, w http.ResponseWriter, r *http.Request) {
		sseOpen(w)
		fmt.Fprint(w, "retry: 20\n\n")
		sseEvent(w, fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"x://%d"}}`, n))
	}
	b := newHTTPBench(t, s).start()
	w := b.watching()
	got := w.waitFor("updates from two streams", func(m []*client.Message) bool { return len(notifications(m, updated)) >= 2 })
	uris := map[string]bool{}
	for _, n := range notifications(got, updated) {
		uris[string(topValue(n.Params, "uri"))] = true
	}
	if len(uris) < 2 {
		t.Errorf("the updates came from one stream:\n%s", dump(got))
	}
	if n := notifications(got, unwatchedMethod); len(n) != 0 {
		t.Errorf("the listener was told %s", dump(n))
	}
}

// A stream that cannot be opened again (the GET fails) is opened again by
// the session, with backoff; the listeners are told it broke (as one-shot
// listen learns it), and those that listen anew hear the new stream.
func TestHTTPStreamFailedIsReopenedWithBackoff(t *testing.T) {
	t.Parallel()
	s := newLegacyHTTPServer(t)
	release := make(chan struct{})
	var at [4]atomic.Int64
	s.get = func(n int, w http.ResponseWriter, r *http.Request) {
		if n < len(at) {
			at[n].Store(time.Now().UnixNano())
		}
		switch n {
		case 1: // the first stream ends at once
			sseOpen(w)
			fmt.Fprint(w, "retry: 20\n\n")
		case 2: // opening it again fails, once the test is ready
			<-release
			http.Error(w, "busy", http.StatusServiceUnavailable)
		default:
			s.openStream(w, r)
		}
	}
	b := newHTTPBench(t, s).start()
	w := b.watching()
	close(release)
	got := w.waitFor("the word that the stream broke", func(m []*client.Message) bool { return len(notifications(m, unwatchedMethod)) > 0 })
	word := notifications(got, unwatchedMethod)[0]
	var ce *client.ConnError
	if err := unwatchedError(word.Params); !errors.As(err, &ce) || !strings.Contains(err.Error(), "503") {
		t.Errorf("the word %s is %v, want a broken connection naming the 503", word.Params, err)
	}
	s.waitGets(3)
	if gap := time.Duration(at[3].Load() - at[2].Load()); gap < streamBackoff/2 {
		t.Errorf("opened again %s after the failed GET, want at least %s", gap, streamBackoff/2)
	}
	again := b.watching()
	s.push(`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"x://after"}}`)
	again.waitFor("the update on the new stream", func(m []*client.Message) bool { return len(notifications(m, updated)) > 0 })
	if log := b.log.String(); !strings.Contains(log, "the server's event stream broke (explained: ") || !strings.Contains(log, "opening it again in") {
		t.Errorf("log:\n%s", log)
	}
}

// A server with no stream of its own (405): listening through the session
// fails as a one-shot listen does, with the session's words and exit
// code, now and for a listener that comes later; the server is not asked
// again.
func TestHTTPNoStreamListenFails(t *testing.T) {
	t.Parallel()
	s := newLegacyHTTPServer(t)
	s.get = func(n int, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", "POST, DELETE")
		w.WriteHeader(http.StatusMethodNotAllowed)
	}
	b := newHTTPBench(t, s).start()
	for i := range 2 {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		err := b.transport().Capabilities().Watch(ctx, func(client.Notification) {})
		cancel()
		var se *Error
		if !errors.As(err, &se) || se.Code != 5 || !strings.HasPrefix(se.Msg, "explained: HTTP 405") || !strings.Contains(se.Msg, "no event stream") {
			t.Errorf("listener %d: %v (%T)", i+1, err, err)
		}
	}
	s.mu.Lock()
	gets := s.gets
	s.mu.Unlock()
	if gets != 1 {
		t.Errorf("%d GETs, want 1", gets)
	}
}

// Progress and a log message the server sends on its own stream while a
// request is in flight go to the invocation whose request it is (the
// progress under its own token); not to another connected one.
func TestHTTPStreamProgressAndLogToCaller(t *testing.T) {
	t.Parallel()
	s := newLegacyHTTPServer(t)
	s.call = func(s *legacyHTTPServer, id, params json.RawMessage) string {
		tok := metaOf(params, progressKey)
		s.push(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":` + string(tok) + `,"progress":1,"total":2}}`)
		s.push(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"on the stream"}}`)
		if err := s.ping(); err != nil {
			return `{"jsonrpc":"2.0","id":` + string(id) + `,"error":{"code":-32603,"message":"` + err.Error() + `"}}`
		}
		return `{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"content":[]}}`
	}
	b := newHTTPBench(t, s).start()
	other := b.raw()
	tr := b.transport()
	var mu sync.Mutex
	var tied, untied []string
	tr.Capabilities().Notifications(func(n client.Notification) {
		mu.Lock()
		untied = append(untied, n.Method)
		mu.Unlock()
	})
	msg, err := tr.RoundTrip(context.Background(), &client.Request{ID: 9, Method: "tools/call", Legacy: true, Version: "2025-11-25",
		Params: json.RawMessage(`{"name":"work","_meta":{"progressToken":9}}`)}, func(n client.Notification) {
		mu.Lock()
		tied = append(tied, n.Method+" "+string(topValue(n.Params, progressKey)))
		mu.Unlock()
	})
	if err != nil || msg.Error != nil {
		t.Fatalf("the call: %v %+v", err, msg)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(tied) != 1 || tied[0] != "notifications/progress 9" {
		t.Errorf("the call's progress: %q", tied)
	}
	if len(untied) != 1 || untied[0] != "notifications/message" {
		t.Errorf("the caller's log messages: %q", untied)
	}
	got := other.sync()
	if n := len(notifications(got, "notifications/message")) + len(notifications(got, "notifications/progress")); n != 0 {
		t.Errorf("another invocation got %s", dump(got))
	}
}
