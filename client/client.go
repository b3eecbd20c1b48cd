package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpctl/mcpctl/client/ojson"
)

// Implementation names a client or server.
type Implementation struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Options configures a Client. The zero value works: the latest
// revision, era detection on every run, no timeout, no cache, nothing to
// answer a server's questions with.
type Options struct {
	// ClientInfo names the client to servers (and in what it tells
	// them); Capabilities is the clientCapabilities object declared on
	// every request, nil declaring none ({}): declare only what the
	// caller really serves. LogLevel, if set, asks the server for log
	// messages of at least this level (io.modelcontextprotocol/logLevel).
	ClientInfo   Implementation
	Capabilities json.RawMessage
	LogLevel     string

	// ProtocolVersion is the revision requests declare first; "" means
	// LatestVersion. PinVersion forbids switching to another revision on
	// -32022. Era, when set, is the server's era as the caller knows it:
	// no probe (a legacy revision in ProtocolVersion implies EraLegacy).
	// ProbeTimeout bounds the era probe's wait for a first answer
	// (DefaultProbeTimeout if 0): a server that says nothing in that long,
	// start-up included, is no server (*NotServerError).
	// EraStore remembers each server's era (keyed by ServerID) so later
	// runs skip the probe; nil probes every time.
	ProtocolVersion string
	PinVersion      bool
	Era             Era
	ProbeTimeout    time.Duration
	EraStore        EraStore
	// Initialized is the InitializeResult of a legacy handshake already
	// done on this connection's behalf (by a process that holds the
	// server's connection and relays this one's requests): with Era
	// EraLegacy the client takes it as its own and sends no initialize.
	Initialized json.RawMessage

	// ServerID names the server in cache keys and the era store.
	ServerID string

	// Timeout bounds each request, and a List's pages all together; 0
	// means no bound. Limits holds the other bounds.
	Timeout time.Duration
	Limits  Limits

	// Cache answers cacheable requests from fresh results; its zero value
	// caches nothing.
	Cache CacheOptions

	// Input answers input_required rounds and a legacy server's requests;
	// nil means none can be.
	Input InputHandler
	// Tasks says whether tools/call may be answered with a task, and how
	// tasks are waited for.
	Tasks TaskOptions
	// Hooks receive what the caller may want to show: notifications,
	// diagnostic notes, warnings.
	Hooks Hooks

	// Reopen returns a fresh transport to the same server: a stateful
	// server (stdio) that refuses initialize after the probe is reached
	// again through it.
	Reopen func() (Transport, error)
	// DryRun says nothing may be sent: every request fails with a
	// *CapabilityError unless the transport is in dry-run mode itself
	// (Capabilities.DryRun), which shows the requests instead.
	DryRun bool
}

// Limits bound what a server can make a Client do.
type Limits struct {
	// MaxTimeout caps how far progress may extend Options.Timeout (0: no
	// cap).
	MaxTimeout time.Duration
	// MaxListSize bounds the pages of a List together: their results'
	// sizes added up, in bytes; 0 means no bound. (Each message is
	// bounded by its transport.)
	MaxListSize int
	// MaxRounds bounds input_required rounds, and the polls that find a
	// task still waiting for input (DefaultMaxRounds if 0).
	MaxRounds int
}

// CacheOptions says how results are cached.
type CacheOptions struct {
	// Store, when set, answers cacheable requests from fresh entries and
	// stores cacheable results: a MemoryCache, or the on-disk Cache.
	Store ResultCache
	Mode  CacheMode
	// CredentialID (a hash, see HashCredential) keys the results a server
	// marked private.
	CredentialID string
	// TTL is how long results that carry no ttlMs of their own (all
	// results of legacy servers) are cached; 0 caches them not at all.
	TTL time.Duration
}

// Hooks receive what a caller may want to show a user.
type Hooks struct {
	// OnNotify receives the server's notifications tied to a request
	// whose CallOptions has no handler of its own, and, once each, those
	// tied to no request (a log message or a list change on stdio) that
	// no legacy Listen selects.
	OnNotify func(Notification)
	// Log receives diagnostic notes (era detection, cache hits and
	// misses), as for a trace.
	Log func(string)
	// Warn receives things the user should know that do not stop the
	// call (a server request that could not be answered).
	Warn func(string)
}

// CacheMode says how Call uses the cache.
type CacheMode int

const (
	CacheNormal  CacheMode = iota // read fresh entries, write results
	CacheRefresh                  // do not read, write results
	CacheOff                      // neither read nor write
)

// CallOptions tunes one request.
type CallOptions struct {
	// Header adds HTTP headers (Mcp-Param-*) to this request only.
	Header http.Header
	// OnNotify receives the notifications tied to this request (its
	// progress; over Streamable HTTP all that come on its stream) in
	// place of Hooks.OnNotify.
	OnNotify func(Notification)
	// Refresh skips cached answers for this request (the result is still
	// stored).
	Refresh bool
	// FromCache, when set, is set to true if the cache answered.
	FromCache *bool
	// NoWait returns a task handle as it is, without waiting for the task.
	NoWait bool
	// Task asks CallTool to run a tool whose execution.taskSupport is
	// optional as a task (task augmentation, revision 2025-11-25); a tool
	// that requires it always is. A tool or server that cannot is a
	// *TaskSupportError.
	Task bool
	// NoTimeout exempts a long-lived request (subscriptions/listen) from
	// Options.Timeout.
	NoTimeout bool
	// OnID receives the JSON-RPC id of each request sent.
	OnID func(int64)
	// PrepareArgs is used by CallTool: given the tool's definition and
	// the caller's arguments, it returns the arguments to send (typed,
	// validated) or an error that stops the call.
	PrepareArgs func(tool, args json.RawMessage) (json.RawMessage, error)
	// CacheOnly answers from a fresh cache entry (or, with Hint, a stale
	// one) and sends nothing: with no such entry the request fails with
	// ErrNotCached. A dry run takes what a real run would know already so
	// (the tool list).
	CacheOnly bool
	// Hint lets a stale entry of a list answer (a list's results are kept
	// whatever their ttlMs): not as the answer to show, but as what the
	// server offered last time, for a caller that finds out if it was
	// wrong (CallTool does). FromCache is set then too.
	Hint bool
	// Stale, when set, is set to true if a stale entry answered (Hint).
	Stale *bool
	// Tool is, for CallTool, the tool's definition as the caller has it
	// (one entry of a tools/list result): it is used instead of fetching
	// tools/list.
	Tool json.RawMessage
}

// Client sends MCP requests over a Transport. It is safe for concurrent use.
type Client struct {
	t    Transport
	base Capabilities // of the transport given to New
	opts Options

	nextID atomic.Int64

	mu      sync.Mutex
	version string
	era     EraInfo
	probed  json.RawMessage // the probe's DiscoverResult, used once

	eraMu      sync.Mutex // held while the era is being found out
	remembered bool       // the era came from EraStore, not from this run
	reprobed   bool
	legacy     legacySession
	users      userWait // people answering a legacy server's requests
	observers  watchSet // waiting for notifications tied to no request (untied.go)
}

// New returns a client; the transport is owned by it from now on.
func New(t Transport, opts Options) *Client {
	if opts.ProtocolVersion == "" {
		opts.ProtocolVersion = LatestVersion
	}
	if len(opts.Capabilities) == 0 {
		opts.Capabilities = json.RawMessage(`{}`)
	}
	c := &Client{t: t, base: t.Capabilities(), opts: opts, version: opts.ProtocolVersion}
	c.users.init()
	c.attach(t)
	return c
}

// Version is the protocol version requests currently declare.
func (c *Client) Version() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.version
}

// SetVersion makes requests declare v from now on (a continuation resumes
// with the version its call was made with).
func (c *Client) SetVersion(v string) {
	if v == "" {
		return
	}
	c.mu.Lock()
	c.version = v
	c.mu.Unlock()
}

// Close shuts the transport down (ending a legacy HTTP session).
func (c *Client) Close() error { return c.transport().Close() }

// Binding names the transport the client uses now (BindingStdio,
// BindingStreamable, …: its Capabilities).
func (c *Client) Binding() string { return c.transport().Capabilities().Binding }

func (c *Client) transport() Transport {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// caps are the capabilities of the transport in use.
func (c *Client) caps() Capabilities { return c.transport().Capabilities() }

// Call sends method with params (a JSON object or nil) and returns the raw
// result of a complete answer. The request's _meta gets the protocol
// version, client capabilities and client info; keys the caller put in
// params._meta are kept.
func (c *Client) Call(ctx context.Context, method string, params json.RawMessage, co *CallOptions) (json.RawMessage, error) {
	if co == nil {
		co = &CallOptions{}
	}
	c.recallEra()
	key, cacheable := c.cacheKey(method, params)
	// A dry run shows the request rather than a cached answer to it, and
	// reads the cache only when asked to (CacheOnly).
	dry := c.dryRun()
	if cacheable && c.opts.Cache.Mode == CacheNormal && !co.Refresh && (!dry || co.CacheOnly) {
		if res, fresh, ok := c.cached(key, co.Hint); ok {
			if co.FromCache != nil {
				*co.FromCache = true
			}
			if co.Stale != nil && !fresh {
				*co.Stale = true
			}
			return res, nil
		}
	}
	if co.CacheOnly {
		return nil, ErrNotCached
	}
	res, plain, err := c.exchange(ctx, method, params, co)
	if err == nil && cacheable && plain && !dry {
		c.store(key, res)
	}
	return res, err
}

// call sends one request in the server's era, finding the era out first.
// A remembered era that fails is probed again, once.
func (c *Client) call(ctx context.Context, method string, params json.RawMessage, co *CallOptions) (json.RawMessage, error) {
	if err := c.ensureEra(ctx); err != nil {
		return nil, err
	}
	if method == "server/discover" {
		c.mu.Lock()
		res := c.probed
		c.probed = nil
		c.mu.Unlock()
		if res != nil {
			return res, nil
		}
	}
	if c.Legacy() {
		return c.legacyCall(ctx, method, params, co)
	}
	res, err := c.modernCall(ctx, method, params, co)
	if err != nil && c.shouldReprobe(err) {
		if perr := c.reprobe(ctx); perr != nil {
			return nil, err
		}
		if c.Legacy() {
			return c.legacyCall(ctx, method, params, co)
		}
	}
	return res, err
}

// modernCall sends a request the 2026-07-28 way, retrying once with
// another revision when the server lists one after -32022.
func (c *Client) modernCall(ctx context.Context, method string, params json.RawMessage, co *CallOptions) (json.RawMessage, error) {
	retried := false
	for {
		version := c.Version()
		msg, err := c.roundTrip(ctx, method, params, version, co)
		if err != nil {
			return nil, err
		}
		if msg.Error != nil && msg.Error.Code == CodeUnsupportedProtocolVersion && !retried {
			next, verr := c.pickVersion(msg.Error)
			if verr != nil {
				return nil, verr
			}
			c.mu.Lock()
			c.version = next
			c.mu.Unlock()
			retried = true
			continue
		}
		return resultOf(method, msg)
	}
}

// resultOf returns a response's result, or its error.
func resultOf(method string, msg *Message) (json.RawMessage, error) {
	if msg.Error != nil {
		return nil, msg.Error
	}
	if msg.Result == nil {
		return nil, &ProtocolError{Msg: "the response to " + method + " has neither result nor error"}
	}
	if len(msg.Result) == 0 || msg.Result[0] != '{' {
		return nil, &ProtocolError{Msg: "the result of " + method + " is not a JSON object: " + snippet(msg.Result)}
	}
	return msg.Result, nil
}

// roundTrip sends one request and waits for its response, within its
// timeout; its notifications go to its own hook or the Client's.
func (c *Client) roundTrip(ctx context.Context, method string, params json.RawMessage, version string, co *CallOptions) (*Message, error) {
	if caps := c.caps(); c.opts.DryRun && !caps.DryRun {
		// Sending for real what was to be shown only would be the worst
		// fallback of all.
		return nil, &CapabilityError{Binding: caps.Binding, Capability: "dry run"}
	}
	req, err := c.newRequest(method, params, version, co)
	if err != nil {
		return nil, err
	}
	callCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	timer := c.startTimer(co, cancel)
	defer timer.stop()
	// An answer to the server's own request that will not come ends the
	// call (userwait.go).
	defer context.AfterFunc(c.users.stopped, func() { cancel(context.Cause(c.users.stopped)) })()
	t := c.transport()
	msg, err := t.RoundTrip(callCtx, req, c.requestNotify(req.ID, co, timer))
	if cause := context.Cause(c.users.stopped); cause != nil && ctx.Err() == nil {
		// Given up before the server's answer, which cannot have used it.
		return nil, cause
	}
	if err != nil {
		if errors.Is(context.Cause(callCtx), errRequestTimeout) && ctx.Err() == nil {
			return nil, timer.timeoutError(method, t, err)
		}
		return nil, err
	}
	if msg == nil {
		return nil, &ProtocolError{Msg: "no response to " + method}
	}
	return msg, nil
}

// newRequest is the next request: a new id, and the per-request fields of
// its era in params._meta (none for initialize).
func (c *Client) newRequest(method string, params json.RawMessage, version string, co *CallOptions) (*Request, error) {
	id := c.nextID.Add(1)
	legacy := IsLegacyVersion(version) || method == "initialize"
	req := &Request{ID: id, Method: method, Version: version, Legacy: legacy, Header: co.Header}
	var withMeta ojson.Members
	var err error
	switch {
	case method == "initialize":
		req.Params = params // the handshake carries no _meta
	case legacy:
		withMeta, err = legacyMeta(params, id)
	default:
		withMeta, err = c.withMeta(params, version, id)
	}
	if err != nil {
		return nil, err
	}
	if co.OnID != nil {
		co.OnID(id)
	}
	// The message is written once, params and all: a large argument is
	// not copied into params, then into the message.
	req.encode(withMeta)
	return req, nil
}

// requestNotify is where the notifications tied to request id go: its
// CallOptions.OnNotify, else Hooks.OnNotify. Its progress starts its
// timeout again.
func (c *Client) requestNotify(id int64, co *CallOptions, timer *requestTimer) func(Notification) {
	notify := co.OnNotify
	if notify == nil {
		notify = c.opts.Hooks.OnNotify
	}
	token := strconv.FormatInt(id, 10)
	return func(n Notification) {
		if n.Method == "notifications/progress" && progressTokenOf(n.Params) == token {
			timer.progress()
		}
		if notify != nil {
			notify(n)
		}
	}
}

// pickVersion chooses the revision to retry with after -32022: the first
// of ours (only the pinned one, if pinned) that the server lists.
func (c *Client) pickVersion(e *RPCError) (string, error) {
	var data struct {
		Supported []string `json:"supported"`
	}
	_ = json.Unmarshal(e.Data, &data)
	ours := modernVersions
	if c.opts.PinVersion {
		ours = []string{c.opts.ProtocolVersion}
	}
	for _, v := range ours {
		for _, s := range data.Supported {
			if v == s {
				return v, nil
			}
		}
	}
	ve := &VersionError{Ours: ours, Theirs: data.Supported}
	if len(data.Supported) == 0 {
		ve.Said = e.Error()
	}
	return "", ve
}

// errRequestTimeout is the cause of a request cancelled by Options.Timeout.
var errRequestTimeout = fmt.Errorf("request timed out: %w", context.DeadlineExceeded)

func progressTokenOf(params json.RawMessage) string {
	var p struct {
		Token json.RawMessage `json:"progressToken"`
	}
	_ = json.Unmarshal(params, &p)
	return strings.Trim(string(p.Token), `"`)
}

// withMeta adds the per-request protocol fields to params._meta: the
// version, capabilities and client info, a progress token (the request
// id, unique in the process) and the log level asked for. It returns
// params' members, _meta first, their values where params holds them.
func (c *Client) withMeta(params json.RawMessage, version string, id int64) (ojson.Members, error) {
	fields, err := paramsFields(params)
	if err != nil {
		return nil, err
	}
	info, _ := json.Marshal(c.opts.ClientInfo)
	ver, _ := json.Marshal(version)
	var meta ojson.Members
	if existing := fields.Get("_meta"); existing != nil {
		m, err := ojson.SplitObject(existing)
		if err != nil {
			return nil, &ParamsError{Msg: "params._meta must be a JSON object"}
		}
		meta = m
	}
	meta.Set("io.modelcontextprotocol/protocolVersion", ver)
	meta.Set("io.modelcontextprotocol/clientCapabilities", c.opts.Capabilities)
	if c.opts.ClientInfo.Name != "" {
		meta.Set("io.modelcontextprotocol/clientInfo", info)
	}
	if meta.Get("progressToken") == nil {
		meta.Set("progressToken", json.RawMessage(strconv.FormatInt(id, 10)))
	}
	if c.opts.LogLevel != "" {
		lvl, _ := json.Marshal(c.opts.LogLevel)
		meta.Set("io.modelcontextprotocol/logLevel", lvl)
	}
	fields.Delete("_meta")
	return append(ojson.Members{{Key: "_meta", Value: meta.JSON()}}, fields...), nil
}

// ParamsError means the caller's params could not be used.
type ParamsError struct{ Msg string }

func (e *ParamsError) Error() string { return e.Msg }
func (c *Client) logf(format string, a ...any) {
	if c.opts.Hooks.Log != nil {
		c.opts.Hooks.Log(fmt.Sprintf(format, a...))
	}
}

// cacheKey returns the public key of a cacheable request, or false.
func (c *Client) cacheKey(method string, params json.RawMessage) (CacheKey, bool) {
	if c.opts.Cache.Store == nil || c.opts.Cache.Mode == CacheOff || !cacheableMethods[method] {
		return CacheKey{}, false
	}
	p, ok := cacheParams(method, params)
	if !ok {
		return CacheKey{}, false
	}
	return CacheKey{Server: c.opts.ServerID, Version: c.Version(), Method: method, Params: p,
		Caps: CapabilitiesDigest(c.opts.Capabilities)}, true
}

// privateKey is k for a result the server marked private: it is kept
// apart for each set of credentials.
func (c *Client) privateKey(k CacheKey) CacheKey {
	k.Credential = c.opts.Cache.CredentialID
	if k.Credential == "" {
		k.Credential = "none"
	}
	return k
}

// cached returns the result stored under k (public, else private under
// the caller's credentials) if it is fresh, or, with hint, if it is
// stale but kept as a hint.
func (c *Client) cached(k CacheKey, hint bool) (res json.RawMessage, fresh, ok bool) {
	e, fresh := c.lookup(k)
	if e == nil {
		return nil, false, false
	}
	now := c.opts.Cache.Store.Clock()
	age := now.Sub(e.StoredAt).Round(time.Millisecond)
	switch {
	case fresh:
		c.logf("cache: %s %s answered from the cache (age %s, ttl %dms)", k.Method, k.Params, age, e.TTLMs)
		return e.Result, true, true
	case hint:
		c.logf("cache: %s %s is stale (age %s, ttl %dms): used as a hint, not as an answer", k.Method, k.Params, age, e.TTLMs)
		return e.Result, false, true
	}
	c.logf("cache: %s %s is stale (age %s, ttl %dms)", k.Method, k.Params, age, e.TTLMs)
	return nil, false, false
}

// lookup returns the entry stored under k, public or else private under
// the caller's credentials, preferring a fresh one; nil for none.
func (c *Client) lookup(k CacheKey) (e *CacheEntry, fresh bool) {
	now := c.opts.Cache.Store.Clock()
	for _, key := range []CacheKey{k, c.privateKey(k)} {
		got, ok := c.opts.Cache.Store.Get(key)
		if !ok || (key.Credential == "" && got.CacheScope == "private") {
			continue
		}
		if got.Fresh(now) {
			return got, true
		}
		if e == nil {
			e = got
		}
	}
	return e, false
}

// Invalidate drops the cached answer to method with params (public and
// private), after a notification said it changed. It costs two file
// removals, so a stream of notifications can afford it every time.
func (c *Client) Invalidate(method string, params json.RawMessage) {
	k, ok := c.cacheKey(method, params)
	if !ok || c.dryRun() {
		return
	}
	c.opts.Cache.Store.Delete(k)
	c.opts.Cache.Store.Delete(c.privateKey(k))
}

func (c *Client) store(k CacheKey, result json.RawMessage) {
	var hints struct {
		TTLMs      *json.Number `json:"ttlMs"`
		CacheScope string       `json:"cacheScope"`
	}
	_ = json.Unmarshal(result, &hints)
	k.Version = c.Version() // a -32022 retry may have changed it
	ttl := int64(-1)        // the result's own ttlMs
	if c.Legacy() || hints.TTLMs == nil {
		// Legacy revisions have no caching hints (a ttlMs there is not
		// theirs to give): only the caller's CacheOptions.TTL caches.
		ttl = c.opts.Cache.TTL.Milliseconds()
		hints.CacheScope = ""
	} else if n, err := hints.TTLMs.Int64(); err != nil || n <= 0 {
		ttl = 0
	}
	if ttl == 0 && !hintMethods[k.Method] {
		return // never fresh, and no use as a hint
	}
	if hints.CacheScope == "private" {
		c.opts.Cache.Store.Delete(k)
		k = c.privateKey(k)
	}
	if err := c.opts.Cache.Store.PutTTL(k, result, ttl); err != nil {
		c.logf("cache: cannot store %s: %v", k.Method, err)
	}
}
