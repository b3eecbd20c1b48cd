package client

// The deprecated HTTP+SSE transport of revision 2024-11-05: a GET on the
// server URL opens one long event stream whose first event, "endpoint",
// names the URL to POST messages to; every answer, notification and server
// request then arrives on that stream as a "message" event. mcpctl falls
// back to it only when Streamable HTTP refuses initialize with 400, 404 or
// 405 and no modern error.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
)

// sseConn is one HTTP+SSE connection.
type sseConn struct {
	t        *HTTPTransport
	endpoint string
	cancel   context.CancelFunc

	mu       sync.Mutex
	pending  map[int64]*pendingCall
	dead     error
	deadCh   chan struct{}
	watchers watchSet
}

// sseConnect opens the stream (once) and waits for its endpoint event.
func (t *HTTPTransport) sseConnect(ctx context.Context) (*sseConn, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.sse != nil {
		return t.sse, nil
	}
	sctx, cancel := context.WithCancel(t.bg)
	h := t.withUserHeaders(http.Header{"Accept": {"text/event-stream"}})
	type opened struct {
		body io.ReadCloser
		err  error
	}
	// The stream lives as long as the transport, not the request that
	// opened it; ctx only bounds the wait for it.
	ch := make(chan opened, 1)
	go func() {
		resp, err := t.send(sctx, http.MethodGet, t.opts.URL, h, nil)
		if err != nil {
			ch <- opened{err: err}
			return
		}
		if resp.StatusCode != http.StatusOK {
			defer resp.Body.Close()
			_, ferr := t.failure(resp)
			if ferr == nil {
				ferr = &HTTPError{Status: resp.StatusCode, StatusText: http.StatusText(resp.StatusCode)}
			}
			ch <- opened{err: ferr}
			return
		}
		ch <- opened{body: resp.Body}
	}()
	var o opened
	select {
	case o = <-ch:
	case <-ctx.Done():
		cancel()
		return nil, ctx.Err()
	}
	if o.err != nil {
		cancel()
		return nil, &ConnError{Msg: "GET " + RedactURL(t.opts.URL) + " (HTTP+SSE) failed", Err: o.err}
	}
	c := &sseConn{t: t, cancel: cancel, pending: map[int64]*pendingCall{}, deadCh: make(chan struct{})}
	endpoint := make(chan string, 1)
	go c.read(o.body, endpoint)
	select {
	case ep := <-endpoint:
		if ep == "" {
			cancel()
			<-c.deadCh
			return nil, &ConnError{Msg: "GET " + RedactURL(t.opts.URL) + " (HTTP+SSE) gave no endpoint event", Err: c.dead}
		}
		c.endpoint = ep
	case <-ctx.Done():
		cancel()
		return nil, ctx.Err()
	}
	t.sse = c
	return c, nil
}

// read dispatches the stream's events until it ends.
func (c *sseConn) read(body io.ReadCloser, endpoint chan<- string) {
	defer body.Close()
	gotEndpoint := false
	var perr error
	onResponse := func(m *Message) bool {
		id, ok := parseID(m.ID)
		c.mu.Lock()
		p := c.pending[id]
		if ok && p != nil {
			delete(c.pending, id)
		}
		c.mu.Unlock()
		if p != nil {
			p.done <- callResult{msg: m}
		}
		return false
	}
	handle := c.t.streamHandler(c.broadcast, onResponse, &perr, true)
	err := readSSE(body, c.t.opts.MaxMessage, func(ev sseEvent) error {
		if !gotEndpoint {
			if ev.Event != "endpoint" {
				return fmt.Errorf("the first event is %q, not endpoint", ev.Event)
			}
			ep, err := c.resolve(strings.TrimSpace(string(ev.Data)))
			if err != nil {
				return err
			}
			gotEndpoint = true
			endpoint <- ep
			return nil
		}
		return handle(ev)
	})
	if !gotEndpoint {
		endpoint <- ""
	}
	switch {
	case perr != nil:
		err = perr
	case err == nil || errors.Is(err, io.EOF):
		err = &ConnError{Msg: "the server closed the HTTP+SSE stream"}
	default:
		err = &ConnError{Msg: "the HTTP+SSE stream broke", Err: err}
	}
	c.fail(err)
}

// resolve turns the endpoint event's data into an absolute URL, which
// must be on the server's own origin: a stream must not send mcpctl's
// messages (and the user's headers) anywhere else.
func (c *sseConn) resolve(data string) (string, error) {
	base, err := url.Parse(c.t.opts.URL)
	if err != nil {
		return "", err
	}
	ref, err := url.Parse(data)
	if err != nil || data == "" {
		return "", fmt.Errorf("the endpoint event's URL %q is invalid", data)
	}
	u := base.ResolveReference(ref)
	if u.Scheme != base.Scheme || u.Host != base.Host {
		return "", fmt.Errorf("the endpoint event names another origin (%s)", u.Redacted())
	}
	return u.String(), nil
}

func (c *sseConn) broadcast(n Notification) { fanOut(n, &c.mu, &c.pending, &c.watchers) }

func (c *sseConn) fail(err error) {
	c.mu.Lock()
	if c.dead == nil {
		c.dead = err
		close(c.deadCh)
	}
	pend := c.pending
	c.pending = map[int64]*pendingCall{}
	c.mu.Unlock()
	for _, p := range pend {
		p.done <- callResult{err: err}
	}
}

func (c *sseConn) close() {
	c.cancel()
}

func (c *sseConn) watch(ctx context.Context, fn func(Notification)) error {
	return watchUntil(ctx, &c.watchers, fn, c.deadCh, func() error {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.dead
	})
}

// sseRoundTrip POSTs the request to the endpoint and waits for its answer
// on the stream.
func (t *HTTPTransport) sseRoundTrip(ctx context.Context, req *Request, notify func(Notification)) (*Message, error) {
	body, _ := req.MarshalJSON()
	if t.opts.DryRun != nil {
		t.opts.DryRun(DryRunRequest{HTTPMethod: http.MethodPost, URL: t.opts.URL, Header: t.withUserHeaders(http.Header{"Content-Type": {"application/json"}}), Body: body})
		return nil, ErrDryRun
	}
	c, err := t.sseConnect(ctx)
	if err != nil {
		return nil, err
	}
	var p *pendingCall
	c.mu.Lock()
	if c.dead != nil {
		defer c.mu.Unlock()
		return nil, c.dead
	}
	if !req.IsNotification() {
		p = &pendingCall{notify: notify, done: make(chan callResult, 1)}
		c.pending[req.ID] = p
	}
	c.mu.Unlock()
	forget := func() {
		c.mu.Lock()
		delete(c.pending, req.ID)
		c.mu.Unlock()
	}
	h := t.withUserHeaders(http.Header{"Content-Type": {"application/json"}})
	resp, err := t.send(ctx, http.MethodPost, c.endpoint, h, body)
	if err != nil {
		forget()
		return nil, err
	}
	if resp.StatusCode >= 300 {
		defer resp.Body.Close()
		forget()
		msg, ferr := t.failure(resp)
		if ferr == nil && msg != nil {
			return msg, nil
		}
		return nil, ferr
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	resp.Body.Close()
	if p == nil {
		return nil, nil
	}
	select {
	case r := <-p.done:
		return r.msg, r.err
	case <-ctx.Done():
		forget()
		// As on stdio: tell the server to stop, since nothing else will.
		reason := "cancelled by the user"
		if errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
			reason = "timed out"
		}
		n := &Request{Method: "notifications/cancelled", Legacy: true,
			Params: []byte(`{"requestId":` + strconv.FormatInt(req.ID, 10) + `,"reason":"` + reason + `"}`)}
		line, _ := n.MarshalJSON()
		go t.postMessage(line)
		return nil, ctx.Err()
	}
}
