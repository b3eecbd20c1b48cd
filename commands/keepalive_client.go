package commands

// One invocation connected to a session process: its requests relayed
// to the server under ids of the session's own, what comes back handed
// to it under its own ids, and the server's questions put to it.

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/ojson"
)

// ksClient is one invocation's connection.
type ksClient struct {
	p        *ksProxy
	conn     net.Conn
	out      chan []byte  // lines to write, in order (writer)
	unsent   atomic.Int64 // lines queued and not yet written
	watching atomic.Bool

	mu    sync.Mutex
	calls map[string]*ksCall             // its requests in flight, by its own id
	asks  map[int64]chan *client.Message // server requests put to it, by the id it was given
	next  int64                          // the last such id
	gone  chan struct{}                  // closed when the connection ends
}

// ksCall is one request of an invocation, relayed to the server.
type ksCall struct {
	cl     *ksClient
	origID json.RawMessage // the invocation's id
	id     int64           // the session's id for it
	token  json.RawMessage // the invocation's progress token, if any
	cancel context.CancelFunc
	// logs: log messages may be this request's. A modern server sends them
	// only for a request that asked (a logLevel in its _meta); a legacy
	// one for any, at the level set for the whole connection.
	logs bool
}

// ksQueue is how many lines may wait for one invocation to read them.
const ksQueue = 4096

// send queues a line for the invocation. One that stops reading must not
// hold up the server's other invocations: when its queue is full, or a
// write waits 30s, its connection is closed (its requests then end with
// exit 3).
func (cl *ksClient) send(line []byte) {
	cl.unsent.Add(1)
	select {
	case cl.out <- append(append(make([]byte, 0, len(line)+1), line...), '\n'):
	case <-cl.gone:
		cl.unsent.Add(-1)
	default:
		cl.unsent.Add(-1)
		cl.conn.Close()
	}
}

// drainAndClose closes the connection once what was queued for it is
// written (the answer to a stop), or after a second.
func (cl *ksClient) drainAndClose() {
	deadline := time.Now().Add(time.Second)
	for cl.unsent.Load() > 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	cl.conn.Close()
}

func (cl *ksClient) writer() {
	for {
		select {
		case line := <-cl.out:
			_ = cl.conn.SetWriteDeadline(time.Now().Add(30 * time.Second))
			_, err := cl.conn.Write(line)
			cl.unsent.Add(-1)
			if err != nil {
				cl.conn.Close()
				return
			}
		case <-cl.gone:
			return
		}
	}
}

// run reads the invocation's messages until it hangs up; its requests in
// flight are then cancelled.
func (cl *ksClient) run() {
	ctx, cancel := context.WithCancel(context.Background())
	defer func() {
		cancel()
		cl.conn.Close()
		close(cl.gone)
		p := cl.p
		p.mu.Lock()
		delete(p.clients, cl)
		p.lastUse = time.Now()
		p.mu.Unlock()
	}()
	r := bufio.NewReaderSize(cl.conn, 64<<10)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 1 {
			cl.handle(ctx, line)
		}
		if err != nil {
			return
		}
	}
}

func (cl *ksClient) handle(ctx context.Context, line []byte) {
	msg, err := client.DecodeMessage(line)
	if err != nil {
		return
	}
	switch msg.Kind() {
	case "request":
		go cl.request(ctx, msg)
	case "notification":
		cl.notification(msg)
	case "response":
		id, err := strconv.ParseInt(string(msg.ID), 10, 64)
		if err != nil {
			return
		}
		cl.mu.Lock()
		ch := cl.asks[id]
		delete(cl.asks, id)
		cl.mu.Unlock()
		if ch != nil {
			ch <- msg
		}
	}
}

func (cl *ksClient) notification(msg *client.Message) {
	p := cl.p
	switch msg.Method {
	case "notifications/initialized":
		return // the session's own handshake initialized the server
	case ksWatchMethod:
		cl.watching.Store(true)
		return
	case "notifications/cancelled":
		var c struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		_ = json.Unmarshal(msg.Params, &c)
		cl.mu.Lock()
		call := cl.calls[string(c.RequestID)]
		cl.mu.Unlock()
		if call != nil {
			call.cancel() // the server's transport tells the server, under the session's id
		}
		return
	}
	p.mu.Lock()
	be := p.be
	p.mu.Unlock()
	if be == nil {
		return // a notification is not worth starting a server for
	}
	n := &client.Request{Method: msg.Method, Params: msg.Params, Version: be.era.Version, Legacy: be.era.Era == client.EraLegacy}
	_, _ = be.tap.current().RoundTrip(context.Background(), n, nil)
}

// request relays one request of the invocation to the server and its
// answer back.
func (cl *ksClient) request(ctx context.Context, msg *client.Message) {
	p := cl.p
	switch msg.Method {
	case ksStatusMethod:
		cl.send(responseOf(msg.ID, p.status()))
		return
	case ksStopMethod:
		cl.send(responseOf(msg.ID, json.RawMessage(`{}`)))
		go p.stop("'mcpctl session stop'")
		return
	case "initialize":
		be, err := p.backend(ctx)
		if err != nil {
			cl.fail(msg.ID, err)
			return
		}
		if be.era.Era == client.EraLegacy {
			cl.send(responseOf(msg.ID, be.init))
			return
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	call := &ksCall{cl: cl, origID: msg.ID, id: p.nextID.Add(1), cancel: cancel}
	params, header := takeHeaders(msg.Params)
	params, token, version := rewriteRequest(params, call.id)
	call.token = token
	cl.mu.Lock()
	cl.calls[string(msg.ID)] = call
	cl.mu.Unlock()
	defer func() {
		cl.mu.Lock()
		delete(cl.calls, string(msg.ID))
		cl.mu.Unlock()
		p.touch()
	}()
	if be := p.backendNow(); be != nil {
		// A list the server has not announced a change of since it gave
		// it: no need to wait for, or bother, the server.
		if res := be.lists.get(be.lists.key(msg.Method, msg.Params)); res != nil {
			p.served.Add(1)
			cl.send(responseOf(msg.ID, res))
			return
		}
	}
	if p.serial != nil {
		select {
		case p.serial <- struct{}{}:
			defer func() { <-p.serial }()
		case <-ctx.Done():
			return
		}
	}
	be, err := p.backend(ctx)
	if err != nil {
		if ctx.Err() == nil {
			cl.fail(msg.ID, err)
		}
		return
	}
	if version == "" || be.era.Era == client.EraLegacy {
		version = be.era.Version
	}
	listKey := be.lists.key(msg.Method, msg.Params)
	req := &client.Request{ID: call.id, Method: msg.Method, Params: params, Version: version, Legacy: be.era.Era == client.EraLegacy, Header: header}
	call.logs = req.Legacy || metaValue(msg.Params, "io.modelcontextprotocol/logLevel") != nil
	p.mu.Lock()
	p.inflight = append(p.inflight, call)
	p.mu.Unlock()
	resp, err := be.tap.current().RoundTrip(ctx, req, call.notify)
	p.mu.Lock()
	for i, c := range p.inflight {
		if c == call {
			p.inflight = append(p.inflight[:i:i], p.inflight[i+1:]...)
			break
		}
	}
	p.mu.Unlock()
	p.served.Add(1)
	switch {
	case ctx.Err() != nil:
		// The invocation cancelled it, or hung up: it waits for nothing.
	case err != nil && serverGone(err, be.tap.current().Capabilities().Binding):
		p.lost(be, err)
		cl.send(errorOf(msg.ID, &client.RPCError{Code: codeServerGone,
			Message: "the server is gone, and its state with it (the session starts it again on the next request): " + oneLine(inOurWords(err))}))
	case err != nil:
		cl.fail(msg.ID, err)
	case resp.Error != nil:
		cl.send(errorOf(msg.ID, resp.Error))
	default:
		be.lists.put(listKey, resp.Result)
		cl.send(responseOf(msg.ID, resp.Result))
	}
}

// fail answers a request with an error of the session's, in mcpctl's
// words and with its exit code.
func (cl *ksClient) fail(id json.RawMessage, err error) {
	data, _ := json.Marshal(map[string]int{"exit": ExitCode(err)})
	cl.send(errorOf(id, &client.RPCError{Code: codeSessionFailed, Message: oneLine(inOurWords(err)), Data: data}))
}

// notify passes on a notification of the server's that belongs to this
// request, under the invocation's own ids. The transport hands a request
// only what is tied to it (its progress, its subscription's notifications;
// over Streamable HTTP what comes on its stream); what is tied to no
// request comes through fanOut. A progress or subscription notification
// that names another request is still never passed on.
func (call *ksCall) notify(n client.Notification) {
	if be := call.cl.p.backendNow(); be != nil {
		be.lists.saw(n.Method)
	}
	params := n.Params
	mine := strconv.FormatInt(call.id, 10)
	if n.Method == "notifications/message" && !call.logs {
		return // another request's, which asked for them
	}
	if n.Method == "notifications/progress" {
		tok := topValue(params, ksProgressKey)
		if string(tok) != mine && string(tok) != `"`+mine+`"` {
			return
		}
		if call.token != nil {
			params = setTop(params, ksProgressKey, call.token)
		}
	} else if sid := metaValue(params, client.SubscriptionIDKey); sid != nil {
		if string(sid) != mine && string(sid) != `"`+mine+`"` {
			return
		}
		params = setMeta(params, client.SubscriptionIDKey, call.origID)
	}
	call.cl.send(notificationLine(n.Method, params))
}

// ask puts a server's request to this invocation and waits for its
// answer, or for the invocation to go.
func (cl *ksClient) ask(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *client.RPCError) {
	ch := make(chan *client.Message, 1)
	cl.mu.Lock()
	cl.next++
	id := cl.next
	cl.asks[id] = ch
	cl.mu.Unlock()
	line := ojson.Members{{Key: "jsonrpc", Value: json.RawMessage(`"2.0"`)}, {Key: "id", Value: json.RawMessage(strconv.FormatInt(id, 10))},
		{Key: "method", Value: ojson.String(method)}}
	if len(params) > 0 {
		line = append(line, ojson.Member{Key: "params", Value: params})
	}
	cl.send(line.JSON())
	select {
	case msg := <-ch:
		if msg.Error != nil {
			return nil, msg.Error
		}
		return msg.Result, nil
	case <-cl.gone:
		return nil, &client.RPCError{Code: client.CodeInternalError, Message: "the client that was asked went away"}
	case <-ctx.Done():
		return nil, &client.RPCError{Code: client.CodeInternalError, Message: "the session is ending"}
	}
}
