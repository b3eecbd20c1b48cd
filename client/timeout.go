package client

import (
	"context"
	"errors"
	"sync/atomic"
	"time"
)

// requestTimer is Options.Timeout for one request. It runs from the last
// sign of life: progress for the request starts it again, up to
// Limits.MaxTimeout in all. While a person answers the server's question
// it waits; when it runs out it cancels the request with
// errRequestTimeout. A nil *requestTimer is no timeout.
type requestTimer struct {
	c                *Client
	timer            *time.Timer
	start            time.Time
	extended, capped atomic.Bool // by progress; up to Limits.MaxTimeout
}

// startTimer starts the timeout of a request whose context cancel ends;
// nil when the request has none (no Options.Timeout, or
// CallOptions.NoTimeout).
func (c *Client) startTimer(co *CallOptions, cancel context.CancelCauseFunc) *requestTimer {
	if c.opts.Timeout <= 0 || co.NoTimeout {
		return nil
	}
	rt := &requestTimer{c: c, start: time.Now()}
	armed := make(chan struct{})
	rt.timer = time.AfterFunc(c.opts.Timeout, func() {
		<-armed
		if d := c.users.postpone(c.opts.Timeout); d > 0 {
			rt.timer.Reset(d) // a person is answering the server's question
			return
		}
		cancel(errRequestTimeout)
	})
	close(armed)
	return rt
}

// progress starts the timeout again, as far as Limits.MaxTimeout lets it.
func (rt *requestTimer) progress() {
	if rt == nil {
		return
	}
	rt.extended.Store(true)
	left := rt.c.opts.Timeout
	if max := rt.c.opts.Limits.MaxTimeout; max > 0 && max-time.Since(rt.start) < left {
		left = max - time.Since(rt.start)
		rt.capped.Store(true)
	}
	if left > 0 {
		rt.timer.Reset(left)
	}
}

func (rt *requestTimer) stop() {
	if rt != nil {
		rt.timer.Stop()
	}
}

// timeoutError says which bound ended method's request (err is what the
// transport returned then), with the server's last words where t keeps
// them.
func (rt *requestTimer) timeoutError(method string, t Transport, err error) *TimeoutError {
	c := rt.c
	te := &TimeoutError{Method: method, After: c.opts.Timeout.String()}
	switch {
	case rt.capped.Load():
		// Progress kept the request going as far as it may.
		te.After, te.Bound, te.Total = c.opts.Limits.MaxTimeout.String(), TimeoutMaxTotal, time.Since(rt.start)
	case rt.extended.Load():
		// Progress kept the request going: say how long it really waited.
		te.Bound, te.Total = TimeoutSinceProgress, time.Since(rt.start)
	}
	if tail := t.Capabilities().StderrTail; tail != nil {
		te.Stderr = tail()
	}
	if ac := (*authCut)(nil); errors.As(err, &ac) {
		te.During = ac.err.Error()
	}
	return te
}
