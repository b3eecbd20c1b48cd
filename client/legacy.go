package client

// Legacy revisions (2025-11-25 and earlier): an initialize request, the
// notifications/initialized notification, then requests without the
// modern _meta fields. The server may send requests of its own
// (elicitation/create, sampling/createMessage, roots/list, ping), which are
// answered through the same InputHandler as input_required rounds; requests
// mcpctl cannot serve get a JSON-RPC error, never silence.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpctl/mcpctl/client/ojson"
)

// ServerRequestHandler answers a request the server sent: a result, or an
// error to send back.
type ServerRequestHandler func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *RPCError)

// SessionExpiredError means the server no longer knows the legacy HTTP
// session (404 to a request that carried Mcp-Session-Id).
type SessionExpiredError struct{}

func (*SessionExpiredError) Error() string { return "the server ended the session (HTTP 404)" }

// legacySession is the state of an initialize handshake.
type legacySession struct {
	mu     sync.Mutex
	ready  bool
	result json.RawMessage // the InitializeResult, as received
	probed bool            // a probe went to this stdio process first
	// adopted: Options.Initialized was taken in place of a handshake
	// (once: a session the server forgets is initialized anew).
	adopted bool
	rounds  atomic.Int64 // server requests answered, for InputRound.Round
}

// attach makes the server's requests on t reach the Client, and its
// notifications tied to no request (untied.go).
func (c *Client) attach(t Transport) {
	caps := t.Capabilities()
	if serve := caps.ServerRequests; serve != nil {
		serve(c.serveRequest)
	}
	if install := caps.Notifications; install != nil {
		install(c.untied)
	}
}

// reopen replaces the transport with a fresh one to the same server.
func (c *Client) reopen() error {
	if c.opts.Reopen == nil {
		return errors.New("cannot restart the server")
	}
	t, err := c.opts.Reopen()
	if err != nil {
		return err
	}
	c.swap(c.transport(), t)
	return nil
}

// rebind makes the transport in use the one for era over binding: the
// same transport when it carries that already, else the one its Rebind
// gives.
func (c *Client) rebind(era Era, binding string) error {
	t := c.transport()
	caps := t.Capabilities()
	if caps.Rebind == nil {
		if binding == caps.Binding {
			return nil
		}
		return &CapabilityError{Binding: caps.Binding, Capability: "binding " + binding}
	}
	nt, err := caps.Rebind(era, binding)
	if err != nil {
		return err
	}
	c.swap(t, nt)
	return nil
}

// swap puts t in the place of old, which it closes.
func (c *Client) swap(old, t Transport) {
	if t == old {
		return
	}
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
	c.attach(t)
	old.Close()
}

// InitializeResult returns the legacy server's initialize result (nil for
// a modern server or before the handshake).
func (c *Client) InitializeResult() json.RawMessage {
	c.legacy.mu.Lock()
	defer c.legacy.mu.Unlock()
	return c.legacy.result
}

// legacyCall sends a request after the handshake. server/discover, which
// legacy servers lack, is answered by the initialize result: the same
// facts (server info, capabilities, instructions, version) in the layout
// the server gave them.
func (c *Client) legacyCall(ctx context.Context, method string, params json.RawMessage, co *CallOptions) (json.RawMessage, error) {
	if c.dryRun() {
		return c.dryLegacyCall(ctx, method, params, co)
	}
	if err := c.initialized(ctx); err != nil {
		if c.shouldReprobe(err) && c.reprobe(ctx) == nil && !c.Legacy() {
			return c.modernCall(ctx, method, params, co)
		}
		return nil, err
	}
	if method == "server/discover" {
		return c.InitializeResult(), nil
	}
	for attempt := 0; ; attempt++ {
		msg, err := c.roundTrip(ctx, method, params, c.Version(), co)
		var expired *SessionExpiredError
		if errors.As(err, &expired) && attempt == 0 {
			c.logf("legacy: %v; initializing again", err)
			c.legacy.mu.Lock()
			c.legacy.ready = false
			c.legacy.mu.Unlock()
			if err := c.initialized(ctx); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		return resultOf(method, msg)
	}
}

// initialized runs the handshake once.
func (c *Client) initialized(ctx context.Context) error {
	c.legacy.mu.Lock()
	defer c.legacy.mu.Unlock()
	if c.legacy.ready {
		return nil
	}
	var res json.RawMessage
	var err error
	if given := c.opts.Initialized; len(given) > 0 && c.opts.Era == EraLegacy && !c.legacy.adopted {
		// Initialized on our behalf: only what follows a handshake is ours.
		c.legacy.adopted = true
		res = given
		c.afterInitialize(ctx, res)
	} else if res, err = c.handshake(ctx, nil); err != nil {
		return err
	}
	c.legacy.result, c.legacy.ready = res, true
	return nil
}

// handshake initializes (with the answer to sent, the initialize the
// probe sent already, if it did), restarting a stdio server that refuses
// initialize after the probe, and falling back from Streamable HTTP to
// HTTP+SSE when the endpoint does not take POSTs the 2025 way.
func (c *Client) handshake(ctx context.Context, sent *initAttempt) (json.RawMessage, error) {
	var res json.RawMessage
	var err error
	if sent != nil {
		if res, err = sent.wait(); err == nil {
			err = c.finishInitialize(ctx, res)
		}
	} else {
		res, err = c.initialize(ctx)
	}
	var te *TimeoutError
	if err != nil && c.legacy.probed && c.caps().Stateful && !errors.As(err, &te) && ctx.Err() == nil {
		c.logf("legacy: initialize failed after the probe (%v); starting the server again", err)
		c.legacy.probed = false
		if rerr := c.reopen(); rerr != nil {
			return nil, err
		}
		res, err = c.initialize(ctx)
	}
	if err != nil && c.flavor() == BindingStreamable && sseFallback(err) && c.caps().Rebind != nil {
		c.logf("legacy: initialize over Streamable HTTP failed (%v); trying the HTTP+SSE transport", err)
		if rerr := c.rebind(EraLegacy, BindingSSE); rerr != nil {
			return nil, err
		}
		res2, err2 := c.initialize(ctx)
		if err2 != nil {
			_ = c.rebind(EraLegacy, BindingStreamable)
			return nil, bothFailed(err, err2)
		}
		res, err = res2, nil
	}
	if err != nil {
		return nil, err
	}
	c.saveEra(c.Era()) // an answer to initialize proves it
	c.afterInitialize(ctx, res)
	return res, nil
}

// afterInitialize does what follows the handshake: the server's own event
// stream opened, and the log level asked for set.
func (c *Client) afterInitialize(ctx context.Context, res json.RawMessage) {
	if open := c.caps().OpenEvents; open != nil {
		// Requests and notifications tied to no call come on the server's
		// own stream (the GET stream), and only while it is open: open it
		// before anything else.
		sctx, cancel := context.WithTimeout(ctx, eventStreamWait(c.opts.Timeout))
		open(sctx, c.untied)
		cancel()
	}
	if lvl := c.opts.LogLevel; lvl != "" && hasCapability(res, "logging") {
		p, _ := json.Marshal(map[string]string{"level": lvl})
		if _, err := c.roundTrip(ctx, "logging/setLevel", p, c.Version(), &CallOptions{}); err != nil {
			c.warn("the server did not take logging/setLevel: " + err.Error())
		}
	}
}

// eventStreamWait bounds the wait for the GET stream's answer.
func eventStreamWait(timeout time.Duration) time.Duration {
	if timeout > 0 && timeout < 10*time.Second {
		return timeout
	}
	return 10 * time.Second
}

// bothFailed is the error of an initialize that failed over Streamable
// HTTP and then over HTTP+SSE. When both got the same HTTP status (a
// wrong path gets a 404 page to the POST and to the GET) it is said once,
// with what the POST got ("Cannot POST /api": the GET's page differs only
// by its method).
func bothFailed(streamable, sse error) error {
	var h1, h2 *HTTPError
	if errors.As(streamable, &h1) && errors.As(sse, &h2) && h1.Status == h2.Status {
		return &ConnError{Msg: "initialize failed over Streamable HTTP and over HTTP+SSE alike", Err: h1}
	}
	return &ConnError{Msg: fmt.Sprintf("initialize over Streamable HTTP failed (%v), and over HTTP+SSE too", streamable), Err: sse}
}

// sseFallback: Streamable HTTP refused with 400, 404 or 405 and no modern
// error in the body.
func sseFallback(err error) bool {
	var h *HTTPError
	var rpc *RPCError
	switch {
	case errors.As(err, &h):
		return h.Status == http.StatusBadRequest || h.Status == http.StatusNotFound || h.Status == http.StatusMethodNotAllowed
	case errors.As(err, &rpc):
		return !modernErrorCodes[rpc.Code] && (rpc.HTTPStatus == http.StatusNotFound || rpc.HTTPStatus == http.StatusMethodNotAllowed)
	}
	return false
}

// initialize sends the initialize request and then
// notifications/initialized.
func (c *Client) initialize(ctx context.Context) (json.RawMessage, error) {
	res, err := c.askInitialize(ctx)
	if err != nil {
		return nil, err
	}
	return res, c.finishInitialize(ctx, res)
}

// askInitialize sends the initialize request (the newest legacy
// revision, or the pinned one) and returns the server's result, which
// names a legacy version. A server that refuses the version but names
// one this client speaks is asked again with it.
func (c *Client) askInitialize(ctx context.Context) (json.RawMessage, error) {
	want := c.initializeVersion()
	for attempt := 0; ; attempt++ {
		msg, err := c.roundTrip(ctx, "initialize", c.initializeParams(want), "", &CallOptions{})
		if err != nil {
			return nil, err
		}
		if msg.Error != nil {
			if v := offeredVersion(msg.Error); attempt == 0 && v != "" && v != want && IsLegacyVersion(v) {
				c.logf("legacy: the server refused %s and offers %s", want, v)
				want = v
				continue
			}
			if v := offeredVersion(msg.Error); v != "" && !IsSupportedVersion(v) {
				return nil, &VersionError{Ours: LegacyVersions(), Theirs: []string{v}}
			}
			return nil, msg.Error
		}
		res, err := resultOf("initialize", msg)
		if err != nil {
			return nil, err
		}
		v := initializedVersion(res)
		if v == "" {
			return nil, &VersionError{Ours: LegacyVersions(), Said: "initialize without a protocolVersion: " + truncate(oneLine(string(res)), 160)}
		}
		if !IsLegacyVersion(v) {
			return nil, &VersionError{Ours: LegacyVersions(), Theirs: []string{v}}
		}
		return res, nil
	}
}

// finishInitialize takes the server's initialize result: the era and the
// version it names, then notifications/initialized, and waits for what
// the server asks on being initialized to be answered (startupAnswered).
func (c *Client) finishInitialize(ctx context.Context, res json.RawMessage) error {
	v := initializedVersion(res)
	c.setEra(EraInfo{Era: EraLegacy, Version: v, Transport: c.flavor()})
	c.logf("legacy: initialized with protocol version %s", v)
	n := &Request{Method: "notifications/initialized", Version: v, Legacy: true}
	if _, err := c.transport().RoundTrip(ctx, n, nil); err != nil {
		return err
	}
	return c.startupAnswered(ctx, v)
}

// initializedVersion is the protocolVersion an initialize result names.
func initializedVersion(res json.RawMessage) string {
	var r struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	_ = json.Unmarshal(res, &r)
	return r.ProtocolVersion
}

// startupAnswered holds the first request after the handshake until the
// questions the server asked on notifications/initialized are answered
// and read. A server offered roots asks roots/list as soon as it is
// initialized (server-filesystem takes its allowed directories from the
// answer); without this, the request sent next reached it before the
// answer did, and was served without the roots: the answer is written by
// a goroutine of its own, after the question has been read, while the
// first request follows notifications/initialized at once.
//
// Nothing here waits for a time. A server handles its messages in the
// order they come, and on a transport that carries its messages in
// order (Capabilities.Answered) its answer to a ping comes after
// whatever it sent in reaction to what came before the ping. So: a ping
// after notifications/initialized is answered once the server has asked
// its start-up questions; Answered then waits until each is answered;
// and, when there were any, a second ping is answered once the server
// has read those answers, before it reads the first request. What a
// server does with an answer after reading it is its own affair.
//
// Only where roots are offered, the question to expect: a connection
// without them costs no round trip.
func (c *Client) startupAnswered(ctx context.Context, version string) error {
	answered := c.caps().Answered
	if answered == nil || !offersCapability(c.opts.Capabilities, "roots") {
		return nil
	}
	before, err := answered(ctx)
	if err != nil {
		return err
	}
	ping := func() error {
		_, err := c.roundTrip(ctx, "ping", nil, version, &CallOptions{})
		return err
	}
	if err := ping(); err != nil {
		return err
	}
	after, err := answered(ctx)
	if err != nil || after == before {
		return err
	}
	c.logf("legacy: the server asked %d question(s) on initialization; answered before the first request", after-before)
	return ping()
}

// initializeVersion is the revision initialize asks for first: the
// newest legacy one, or the pinned one.
func (c *Client) initializeVersion() string {
	if IsLegacyVersion(c.opts.ProtocolVersion) {
		return c.opts.ProtocolVersion
	}
	return legacyVersions[0]
}

// initializeParams are the params of an initialize request asking for
// version want.
func (c *Client) initializeParams(want string) json.RawMessage {
	return ojson.Members{
		{Key: "protocolVersion", Value: mustJSON(want)},
		{Key: "capabilities", Value: legacyCapabilities(c.opts.Capabilities)},
		{Key: "clientInfo", Value: mustJSON(c.opts.ClientInfo)},
	}.JSON()
}

// offeredVersion finds the version a refusing server names in its error
// data ({"supported":[…]} or {"protocolVersion":…}): the first mcpctl
// speaks, else the first named.
func offeredVersion(e *RPCError) string {
	var d struct {
		Supported       []string `json:"supported"`
		SupportedLegacy []string `json:"supportedVersions"`
		ProtocolVersion string   `json:"protocolVersion"`
	}
	_ = json.Unmarshal(e.Data, &d)
	all := append(append(d.Supported, d.SupportedLegacy...), d.ProtocolVersion)
	for _, v := range all {
		if IsLegacyVersion(v) {
			return v
		}
	}
	for _, v := range all {
		if v != "" {
			return v
		}
	}
	return ""
}

// legacyCapabilities is the modern clientCapabilities object without what
// legacy revisions lack (extensions: the Tasks extension is 2026-only).
func legacyCapabilities(caps json.RawMessage) json.RawMessage {
	fields, err := ojson.SplitObject(caps)
	if err != nil {
		return json.RawMessage(`{}`)
	}
	fields.Delete("extensions")
	return fields.JSON()
}

// legacyMeta adds a progress token (the request id) to params._meta,
// keeping what the caller put there: params' members, _meta first.
func legacyMeta(params json.RawMessage, id int64) (ojson.Members, error) {
	fields, err := paramsFields(params)
	if err != nil {
		return nil, err
	}
	var meta ojson.Members
	if existing := fields.Get("_meta"); existing != nil {
		if meta, err = ojson.SplitObject(existing); err != nil {
			return nil, &ParamsError{Msg: "params._meta must be a JSON object"}
		}
	}
	if meta.Get("progressToken") == nil {
		meta.Set("progressToken", json.RawMessage(strconv.FormatInt(id, 10)))
	}
	fields.Delete("_meta")
	return append(ojson.Members{{Key: "_meta", Value: meta.JSON()}}, fields...), nil
}

func hasCapability(initResult json.RawMessage, name string) bool {
	var r struct {
		Capabilities json.RawMessage `json:"capabilities"`
	}
	_ = json.Unmarshal(initResult, &r)
	return offersCapability(r.Capabilities, name)
}

// offersCapability reports whether a capabilities object has name, not
// null.
func offersCapability(caps json.RawMessage, name string) bool {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(caps, &m)
	v, ok := m[name]
	return ok && string(v) != "null"
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

func (c *Client) warn(msg string) {
	if c.opts.Hooks.Warn != nil {
		c.opts.Hooks.Warn(msg)
	}
}

// name is how the client calls itself in what it tells a server: the
// caller's ClientInfo.Name.
func (c *Client) name() string {
	if c.opts.ClientInfo.Name != "" {
		return c.opts.ClientInfo.Name
	}
	return "this client"
}

// serveRequest answers a request from the server. Modern servers must not
// send any; legacy ones get answers from the InputHandler, a pong, or
// -32601 for what mcpctl does not implement.
func (c *Client) serveRequest(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *RPCError) {
	if !c.Legacy() {
		return nil, &RPCError{Code: CodeMethodNotFound, Message: c.name() + " does not accept server requests on protocol version " + c.Version()}
	}
	switch method {
	case "ping":
		return json.RawMessage(`{}`), nil
	case "elicitation/create", "sampling/createMessage", "roots/list":
	default:
		return nil, &RPCError{Code: CodeMethodNotFound, Message: c.name() + " does not implement " + method}
	}
	round := InputRound{Method: method, Round: int(c.legacy.rounds.Add(1)), Legacy: true,
		Requests: []InputRequest{{Key: method, Method: method, Params: params}}}
	answers, err := c.answerRound(context.WithValue(ctx, userWaitKey{}, &c.users), round)
	var answer json.RawMessage
	for _, a := range answers {
		answer = a // one request, one answer (the handler may file it under a key of the user's)
	}
	if err == nil && len(answers) != 1 {
		err = errors.New("no answer was given")
	}
	if err != nil && givenUp(err) {
		// Interrupted, or out of time: the call that asked ends with it.
		c.users.stop(err)
		return nil, &RPCError{Code: CodeInternalError, Message: "the client gave up answering " + method + ": " + oneLine(err.Error())}
	}
	if err != nil {
		c.warn(fmt.Sprintf("could not answer the server's %s: %v", method, err))
		return nil, &RPCError{Code: CodeInternalError, Message: "the client could not answer " + method + ": " + oneLine(err.Error())}
	}
	return answer, nil
}

// paramsFields splits params into fields; absent or null params are none.
func paramsFields(params json.RawMessage) (ojson.Members, error) {
	t := bytes.TrimSpace(params)
	if len(t) == 0 || string(t) == "null" {
		return nil, nil
	}
	f, err := ojson.SplitObject(params)
	if err != nil {
		return nil, &ParamsError{Msg: "params must be a JSON object"}
	}
	// A key given twice is sent once, with its last value, as a JSON
	// reader takes it.
	return f.Unique(), nil
}
