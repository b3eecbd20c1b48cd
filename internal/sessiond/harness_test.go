//go:build linux || darwin

package sessiond

// The test bench: a daemon (Serve) in this process, on a real Unix
// socket in a short temporary folder, whose server is a scripted one in
// the same process (client/mcptest) behind Connect; invocations speak to
// it as mcpctl does (Dial, NewTransport) or line by line (rawPeer).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/mcptest"
)

const (
	modernDiscover = `{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{},"logging":{}},"serverInfo":{"name":"s","version":"1"}}`
	legacyInit     = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true},"prompts":{},"logging":{}},"serverInfo":{"name":"old","version":"1"}}`
)

// shortBase is a private folder short enough for a socket path (108
// bytes) in its sessions folder, removed at the end of the test.
func shortBase(t *testing.T) string {
	t.Helper()
	base, err := os.MkdirTemp("", "sd")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(base, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	return base
}

// shortDir is a sessions folder (OpenDir) in a shortBase.
func shortDir(t *testing.T) *Dir {
	t.Helper()
	dir, err := OpenDir(shortBase(t), true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dir.Close() })
	return dir
}

// bench is one daemon under test.
type bench struct {
	t      *testing.T
	p      Paths
	srv    *mcptest.Server
	cfg    Config
	hello  Hello
	errc   chan error
	log    *syncBuffer
	cancel context.CancelFunc // ends Serve's context

	connects atomic.Int32 // Connect calls
	closes   atomic.Int32 // close calls

	mu     sync.Mutex
	links  []io.Closer // the server's ends of the connections, to kill
	refuse error       // every Connect fails with it while set

	// input answers the server's requests for the held client, as the
	// session's own flags do (nil: none).
	input client.InputHandler
}

// newBench is a daemon (not started) in front of a server answering with h.
func newBench(t *testing.T, h mcptest.Handler) *bench {
	t.Helper()
	b := &bench{t: t, srv: mcptest.NewServer(h), errc: make(chan error, 1), log: &syncBuffer{}}
	b.p = Paths{Dir: shortDir(t), ID: ID("stdio:test-server")}
	b.cfg = Config{Dir: b.p.Dir, ID: b.p.ID, Name: "test", Server: "test-server", ServerID: "stdio:test-server",
		Idle: time.Minute, Log: b.log, Connect: b.connect,
		Explain: func(err error) (string, int) { return "explained: " + err.Error(), 5 }}
	return b
}

// connect is Config.Connect: a new connection to the server (a new
// server "process"), through a link the test can cut.
func (b *bench) connect(ctx context.Context, wrap func(client.Transport) client.Transport) (*client.Client, func(), error) {
	b.connects.Add(1)
	b.mu.Lock()
	refuse := b.refuse
	b.mu.Unlock()
	if refuse != nil {
		return nil, nil, refuse
	}
	near, far := net.Pipe()
	srvConn := b.srv.Conn()
	go func() { _, _ = io.Copy(far, srvConn); far.Close() }()
	go func() { _, _ = io.Copy(srvConn, far); srvConn.Close() }()
	b.mu.Lock()
	b.links = append(b.links, far)
	b.mu.Unlock()
	tr := client.NewConn(near, client.ConnOptions{})
	c := client.New(wrap(tr), client.Options{ClientInfo: client.Implementation{Name: "sessiond-test", Version: "0"}, ProbeTimeout: 10 * time.Second, Input: b.input})
	return c, func() { c.Close(); far.Close(); b.closes.Add(1) }, nil
}

// refuseConnect makes Connect fail with err (nil: succeed).
func (b *bench) refuseConnect(err error) {
	b.mu.Lock()
	b.refuse = err
	b.mu.Unlock()
}

// kill cuts the link to the server of the latest connection: to the
// daemon, the server died.
func (b *bench) kill() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.links[len(b.links)-1].Close()
}

// start runs Serve and waits until it is ready.
func (b *bench) start() *bench {
	b.t.Helper()
	ready := make(chan Hello, 1)
	ctx, cancel := context.WithCancel(context.Background())
	b.cancel = cancel
	go func() { b.errc <- Serve(ctx, b.cfg, func(h Hello) { ready <- h }) }()
	b.t.Cleanup(func() {
		cancel()
		select {
		case <-b.errc:
		case <-time.After(20 * time.Second):
			b.t.Error("Serve did not return after its context ended")
		}
	})
	select {
	case b.hello = <-ready:
	case err := <-b.errc:
		b.t.Fatalf("Serve: %v", err)
	case <-time.After(20 * time.Second):
		b.t.Fatal("Serve was not ready within 20s")
	}
	return b
}

// wait is what Serve returned, within limit.
func (b *bench) wait(limit time.Duration) error {
	b.t.Helper()
	select {
	case err := <-b.errc:
		b.errc <- err // for Cleanup
		return err
	case <-time.After(limit):
		b.t.Fatalf("Serve still running after %s", limit)
		return nil
	}
}

// files lists what is in the sessions folder.
func (b *bench) files() []string {
	entries, _ := os.ReadDir(b.p.Dir.Path())
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// transport is an invocation's transport to the daemon.
func (b *bench) transport() client.Transport {
	b.t.Helper()
	kc, err := Dial(b.p)
	if err != nil || kc == nil {
		b.t.Fatalf("Dial: %v, %v", kc, err)
	}
	t := NewTransport(kc, client.ConnOptions{})
	b.t.Cleanup(func() { t.Close() })
	return t
}

// toolCall sends tools/call name with args over t under id.
func toolCall(ctx context.Context, t client.Transport, id int64, name string, args any, notify func(client.Notification)) (*client.Message, error) {
	params, _ := json.Marshal(map[string]any{"name": name, "arguments": args})
	return t.RoundTrip(ctx, &client.Request{ID: id, Method: "tools/call", Params: params, Version: "2026-07-28"}, notify)
}

// rawPeer is an invocation connection spoken to line by line, which
// records every line it gets.
type rawPeer struct {
	t    *testing.T
	conn *Conn
	mu   sync.Mutex
	got  []*client.Message
	more chan struct{}
}

func (b *bench) raw() *rawPeer {
	b.t.Helper()
	kc, err := Dial(b.p)
	if err != nil || kc == nil {
		b.t.Fatalf("Dial: %v, %v", kc, err)
	}
	r := &rawPeer{t: b.t, conn: kc, more: make(chan struct{}, 1)}
	b.t.Cleanup(func() { kc.Close() })
	go func() {
		sc := bufio.NewScanner(kc)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			msg, err := client.DecodeMessage(bytes.Clone(sc.Bytes()))
			if err != nil {
				continue
			}
			r.mu.Lock()
			r.got = append(r.got, msg)
			r.mu.Unlock()
			select {
			case r.more <- struct{}{}:
			default:
			}
		}
	}()
	return r
}

func (r *rawPeer) send(v any) {
	r.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		r.t.Fatal(err)
	}
	if _, err := r.conn.Write(append(b, '\n')); err != nil {
		r.t.Fatal(err)
	}
}

// request sends a request (params as given) under id.
func (r *rawPeer) request(id any, method string, params any) {
	r.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

// waitFor waits until the peer has lines satisfying ok, and returns them.
func (r *rawPeer) waitFor(what string, ok func([]*client.Message) bool) []*client.Message {
	r.t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		r.mu.Lock()
		got := append([]*client.Message(nil), r.got...)
		r.mu.Unlock()
		if ok(got) {
			return got
		}
		select {
		case <-r.more:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			r.t.Fatalf("never got %s; got:\n%s", what, dump(got))
		}
	}
}

// responses are the responses among msgs, by id.
func responses(msgs []*client.Message) map[string]*client.Message {
	out := map[string]*client.Message{}
	for _, m := range msgs {
		if m.Kind() == "response" {
			out[string(m.ID)] = m
		}
	}
	return out
}

// sync waits until everything the daemon queued for the peer before now
// has arrived: the daemon answers a request of its namespace itself (on
// an invocation's connection, with a refusal), after what it queued
// earlier.
func (r *rawPeer) sync() []*client.Message {
	r.t.Helper()
	id := "sync-" + strconv.FormatInt(time.Now().UnixNano(), 10)
	r.request(id, statusMethod, nil)
	return r.waitFor("the answer to "+id, func(m []*client.Message) bool { return responses(m)[strconv.Quote(id)] != nil })
}

// notifications are those among msgs of method.
func notifications(msgs []*client.Message, method string) []*client.Message {
	var out []*client.Message
	for _, m := range msgs {
		if m.Kind() == "notification" && m.Method == method {
			out = append(out, m)
		}
	}
	return out
}

func dump(msgs []*client.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		line, _ := json.Marshal(m)
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// metaOf is a member of a request's _meta.
func metaOf(params json.RawMessage, key string) json.RawMessage { return metaValue(params, key) }

// argOf is tools/call's argument key, as a string.
func argOf(params json.RawMessage, key string) string {
	var p struct {
		Arguments map[string]any `json:"arguments"`
	}
	_ = json.Unmarshal(params, &p)
	return fmt.Sprint(p.Arguments[key])
}

// byMethod answers the era probe as a modern or a legacy server, and
// other methods with more (nil: -32601).
func byMethod(legacy bool, more func(ctx context.Context, r *mcptest.Request) (any, error)) mcptest.Handler {
	return func(ctx context.Context, r *mcptest.Request) (any, error) {
		switch {
		case r.Method == "server/discover" && !legacy:
			return json.RawMessage(modernDiscover), nil
		case r.Method == "initialize" && legacy:
			return json.RawMessage(legacyInit), nil
		case r.Method == "server/discover", r.Method == "notifications/initialized" && legacy:
			if len(r.ID) == 0 {
				return nil, nil
			}
			return nil, &mcptest.Error{Code: client.CodeMethodNotFound, Message: "no " + r.Method}
		}
		if more != nil {
			return more(ctx, r)
		}
		return nil, &mcptest.Error{Code: client.CodeMethodNotFound, Message: "no " + r.Method}
	}
}

// syncBuffer is a buffer written from several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var errRefused = errors.New("the server cannot start")
