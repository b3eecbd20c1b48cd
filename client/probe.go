package client

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// probe finds the server's era (era.go says how): server/discover with
// modern _meta, where the same connection carries both eras initialize
// after it once the server has read it and said nothing for a while, and
// the first answer decides.
func (c *Client) probe(ctx context.Context) error {
	bound, kind := c.probeBound()
	pctx, cancel := context.WithTimeoutCause(ctx, bound, errProbeTimeout)
	defer cancel()
	c.logf("era: probing with server/discover (up to %s)", bound)
	caps := c.caps()
	if caps.Stateful {
		c.legacy.probed = true
	}
	discovered := make(chan probeAnswer, 1)
	go func() {
		res, err := c.modernCall(pctx, "server/discover", nil, &CallOptions{NoTimeout: true})
		discovered <- probeAnswer{res, err}
	}()
	wait := min(legacyAfter, bound/5)
	var nudge <-chan time.Time
	if caps.Stateful && caps.Rebind == nil {
		// initialize may follow on this connection (stdio, a stream),
		// which carries both eras. Over HTTP a legacy server answers the
		// POST of server/discover, if only with a 4xx.
		nudge = time.After(wait)
	}
	var sent *initAttempt
	defer func() {
		if sent != nil {
			sent.cancel() // a modern server's answer to it is not waited for
		}
	}()
	var initialized <-chan struct{}
	starting := false
	for {
		select {
		case a := <-discovered:
			return c.probeAnswered(ctx, pctx, a, sent, starting, bound, kind)
		case <-nudge:
			if n, ok := unreadBy(caps); ok && n > 0 {
				// Not read yet: the server is still starting, which says
				// nothing of its era.
				if !starting {
					c.logf("era: the server has not read server/discover yet: waiting for it to start")
				}
				starting = true
				nudge = time.After(readPoll)
				continue
			}
			if starting {
				// Read at last: as long to answer as from the start.
				starting = false
				c.logf("era: the server has read server/discover")
				nudge = time.After(wait)
				continue
			}
			nudge = nil
			c.logf("era: no answer to server/discover yet; sending initialize too (a legacy server may ignore requests before it)")
			sent = c.sendInitialize(ctx)
			initialized = sent.done
		case <-initialized:
			initialized = nil
			if sent.err != nil {
				c.logf("era: initialize got: %v; waiting for server/discover", sent.err)
				continue
			}
			// A legacy answer, unless one to server/discover came first
			// (a server of both eras answers both).
			cancel()
			a := <-discovered
			if a.err == nil || isModernError(a.err) || legacyAnswer(a.err) {
				return c.probeAnswered(ctx, pctx, a, sent, false, bound, kind)
			}
			c.logf("era: legacy (the server answered initialize, not server/discover)")
			return c.legacyFound(ctx, sent, nil)
		}
	}
}

// probeAnswer is the outcome of server/discover.
type probeAnswer struct {
	res json.RawMessage
	err error
}

// probeBound is how long the probe waits for a first answer, and which
// limit that is: ProbeTimeout, or Timeout when shorter (no request waits
// longer than Timeout).
func (c *Client) probeBound() (time.Duration, TimeoutBound) {
	bound := c.opts.ProbeTimeout
	if bound <= 0 {
		bound = DefaultProbeTimeout
	}
	if c.opts.Timeout > 0 && c.opts.Timeout < bound {
		return c.opts.Timeout, TimeoutRequest
	}
	return bound, TimeoutProbe
}

// unreadBy is what the transport says of the bytes its server has not
// read (Capabilities.Unread).
func unreadBy(caps Capabilities) (int, bool) {
	if caps.Unread == nil {
		return 0, false
	}
	return caps.Unread()
}

// probeAnswered reads the era from server/discover's outcome (sent is the
// initialize that followed it, if one did; unread, that the server had
// not read it at the last look).
func (c *Client) probeAnswered(ctx, pctx context.Context, a probeAnswer, sent *initAttempt, unread bool, bound time.Duration, kind TimeoutBound) error {
	switch {
	case a.err == nil:
		c.modernFound()
		c.mu.Lock()
		c.probed = a.res // a discover right after is answered by this one
		c.mu.Unlock()
		if k, ok := c.cacheKey("server/discover", nil); ok && c.opts.Cache.Mode != CacheOff {
			if rt, _ := resultTypeOf(a.res); rt == "" || rt == "complete" {
				c.store(k, a.res) // and a later one, while fresh
			}
		}
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case isModernError(a.err):
		// A modern server that refused something else about the request
		// (modernCall already retried a version it lists): stay modern.
		c.modernFound()
		return nil
	case legacyAnswer(a.err):
		c.logf("era: legacy (the probe got: %v)", a.err)
		return c.legacyFound(ctx, sent, a.err)
	case errors.Is(context.Cause(pctx), errProbeTimeout):
		return c.unanswered(sent, unread, bound, kind)
	}
	return a.err // a broken or unreachable server, not a legacy one
}

// modernFound settles the era as modern, and remembers it.
func (c *Client) modernFound() {
	e := EraInfo{Era: EraModern, Version: c.Version(), Transport: c.flavor()}
	c.setEra(e)
	c.saveEra(e)
	c.logf("era: modern (%s)", e.Version)
}

// legacyFound settles the era as legacy and initializes: with the
// initialize already sent, if one was (its answer is the handshake's).
// probeErr is what server/discover got, nil when initialize answered
// first.
func (c *Client) legacyFound(ctx context.Context, sent *initAttempt, probeErr error) error {
	if rerr := c.rebind(EraLegacy, c.base.Binding); rerr != nil {
		return rerr
	}
	c.setEra(EraInfo{Era: EraLegacy, Version: legacyVersions[0], Transport: c.flavor()})
	c.legacy.mu.Lock()
	defer c.legacy.mu.Unlock()
	res, err := c.handshake(ctx, sent)
	if err != nil {
		c.setEra(EraInfo{})
		var te *TimeoutError
		if probeErr != nil && errors.As(err, &te) {
			return &EraError{Probe: probeErr, Initialize: err}
		}
		return err
	}
	c.legacy.result, c.legacy.ready = res, true
	return nil
}

// unanswered is the error of a probe that got no answer within its bound:
// no MCP server, unless initialize was answered (with an error). (Whether
// the server had read anything is what the probe saw last: the pipe now
// holds the cancellation of server/discover too.)
func (c *Client) unanswered(sent *initAttempt, unread bool, bound time.Duration, kind TimeoutBound) error {
	var tail []string
	if st := c.caps().StderrTail; st != nil {
		tail = st()
	}
	asked := []string{"server/discover"}
	if sent != nil {
		select {
		case <-sent.done:
			var te *TimeoutError
			if sent.err != nil && !errors.As(sent.err, &te) && !errors.Is(sent.err, context.Canceled) {
				// An answer, if not the one hoped for: a server.
				te := &TimeoutError{Method: "server/discover", After: bound.String(), Bound: kind}
				return &EraError{Probe: te, Initialize: sent.err}
			}
		default:
		}
		asked = append(asked, "initialize")
	}
	return &NotServerError{Asked: asked, After: bound.String(), Bound: kind, Unread: unread && sent == nil, Stderr: tail}
}

// initAttempt is an initialize request sent while server/discover is
// still unanswered, and, once it came, its answer.
type initAttempt struct {
	done   chan struct{}
	res    json.RawMessage
	err    error
	cancel context.CancelFunc
}

// sendInitialize sends initialize without waiting for its answer.
func (c *Client) sendInitialize(ctx context.Context) *initAttempt {
	ictx, cancel := context.WithCancel(ctx)
	a := &initAttempt{done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(a.done)
		a.res, a.err = c.askInitialize(ictx)
	}()
	return a
}

// wait returns initialize's answer.
func (a *initAttempt) wait() (json.RawMessage, error) {
	<-a.done
	return a.res, a.err
}
