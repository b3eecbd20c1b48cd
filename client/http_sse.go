package client

// The deprecated HTTP+SSE transport of revision 2024-11-05: a GET on the
// server URL opens one long event stream whose first event, "endpoint",
// names the URL to POST messages to; every answer, notification and server
// request then arrives on that stream as a "message" event, and the
// connection's mux (mux.go, as on stdio) sorts them out. Era detection
// moves to it only when Streamable HTTP refuses initialize with 400, 404
// or 405 and no modern error.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// sseHTTP is the HTTP+SSE transport.
type sseHTTP struct {
	*httpConn

	mu     sync.Mutex
	conn   *sseConn
	serve  ServerRequestHandler
	untied func(Notification)
	// bg bounds the stream and the answers to server requests: Close
	// cancels it.
	bg     context.Context
	stopBg context.CancelFunc
}

func newSSEHTTP(h *httpConn) *sseHTTP {
	bg, stop := context.WithCancel(context.Background())
	return &sseHTTP{httpConn: h, bg: bg, stopBg: stop}
}

// Capabilities implements Transport.
func (t *sseHTTP) Capabilities() Capabilities {
	return Capabilities{
		Binding:        BindingSSE,
		DryRun:         t.opts.DryRun != nil,
		ServerRequests: t.SetServerRequestHandler,
		Answered:       t.answered,
		Notifications:  t.setNotificationHandler,
		Watch:          t.Watch,
		Rebind:         t.rebind(t, EraLegacy, BindingSSE),
	}
}

// SetServerRequestHandler makes the server's requests go to h.
func (t *sseHTTP) SetServerRequestHandler(h ServerRequestHandler) {
	t.mu.Lock()
	t.serve = h
	conn := t.conn
	t.mu.Unlock()
	if conn != nil {
		conn.mux.setHandler(h)
	}
}

// answered is the stream's mux's: the server's messages all come on the
// one stream, in order, and each answer is posted before it counts.
func (t *sseHTTP) answered(ctx context.Context) (int, error) {
	t.mu.Lock()
	conn := t.conn
	t.mu.Unlock()
	if conn == nil {
		return 0, nil
	}
	return conn.mux.answered(ctx)
}

// setNotificationHandler makes the notifications tied to no request go
// to h, as on stdio.
func (t *sseHTTP) setNotificationHandler(h func(Notification)) {
	t.mu.Lock()
	t.untied = h
	conn := t.conn
	t.mu.Unlock()
	if conn != nil {
		conn.mux.setNotify(h)
	}
}

// Close closes the stream and releases idle connections.
func (t *sseHTTP) Close() error {
	t.stopBg()
	t.mu.Lock()
	conn := t.conn
	t.conn = nil
	t.mu.Unlock()
	if conn != nil {
		conn.cancel()
	}
	t.client.CloseIdleConnections()
	return nil
}

// sseConn is one HTTP+SSE connection.
type sseConn struct {
	t        *sseHTTP
	endpoint string
	cancel   context.CancelFunc
	mux      *mux
}

// connect opens the stream (once) and waits for its endpoint event.
func (t *sseHTTP) connect(ctx context.Context) (*sseConn, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.conn != nil {
		return t.conn, nil
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
	c := &sseConn{t: t, cancel: cancel}
	c.mux = newMux(t.bg, func(line []byte) { t.postMessage(c, line) })
	c.mux.setHandler(t.serve)
	c.mux.setNotify(t.untied)
	endpoint := make(chan string, 1)
	go c.read(o.body, endpoint)
	select {
	case ep := <-endpoint:
		if ep == "" {
			cancel()
			<-c.mux.deadCh
			return nil, &ConnError{Msg: "GET " + RedactURL(t.opts.URL) + " (HTTP+SSE) gave no endpoint event", Err: c.mux.err()}
		}
		c.endpoint = ep
	case <-ctx.Done():
		cancel()
		return nil, ctx.Err()
	}
	t.conn = c
	return c, nil
}

// read hands the stream's messages to the mux until it ends.
func (c *sseConn) read(body io.ReadCloser, endpoint chan<- string) {
	defer body.Close()
	gotEndpoint := false
	var perr error
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
		msg, skip, err := c.t.eventMessage(ev)
		if err == nil && !skip {
			err = c.mux.deliver(msg, ev.Data, ev.More)
		}
		if err != nil {
			perr = err
			return errStreamDone
		}
		return nil
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
	c.mux.fail(err)
}

// resolve turns the endpoint event's data into an absolute URL, which
// must be on the server's own origin: a stream must not send the client's
// messages (and the caller's headers) anywhere else.
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

// Watch hands fn the server's own notifications until ctx is done or the
// stream is gone.
func (t *sseHTTP) Watch(ctx context.Context, fn func(Notification)) error {
	c, err := t.connect(ctx)
	if err != nil {
		return err
	}
	return c.mux.watch(ctx, fn)
}

// RoundTrip POSTs the request to the endpoint and waits for its answer
// on the stream.
func (t *sseHTTP) RoundTrip(ctx context.Context, req *Request, notify func(Notification)) (*Message, error) {
	body, _ := req.MarshalJSON()
	if t.opts.DryRun != nil {
		t.opts.DryRun(DryRunRequest{HTTPMethod: http.MethodPost, URL: t.opts.URL, Header: t.withUserHeaders(http.Header{"Content-Type": {"application/json"}}), Body: body})
		return nil, ErrDryRun
	}
	c, err := t.connect(ctx)
	if err != nil {
		return nil, err
	}
	p, err := c.mux.register(req, notify)
	if err != nil {
		return nil, err
	}
	h := t.withUserHeaders(http.Header{"Content-Type": {"application/json"}})
	resp, err := t.send(ctx, http.MethodPost, c.endpoint, h, body)
	if err != nil {
		c.mux.forget(req.ID)
		return nil, err
	}
	if resp.StatusCode >= 300 {
		defer resp.Body.Close()
		c.mux.forget(req.ID)
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
	msg, err := c.mux.await(ctx, req.ID, p)
	if err != nil && ctx.Err() != nil {
		// As on stdio: tell the server to stop, since nothing else will.
		go t.postMessage(c, cancelNotice(req.ID, context.Cause(ctx), true))
	}
	return msg, err
}

// postMessage sends a message of the client's own (an answer, a
// cancellation) to the endpoint.
func (t *sseHTTP) postMessage(c *sseConn, line []byte) {
	ctx, cancel := context.WithTimeout(t.bg, 30*time.Second)
	defer cancel()
	h := t.withUserHeaders(http.Header{"Content-Type": {"application/json"}})
	resp, err := t.send(ctx, http.MethodPost, c.endpoint, h, line)
	if err == nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
		resp.Body.Close()
	}
}
