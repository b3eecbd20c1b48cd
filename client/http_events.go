package client

// The legacy Streamable HTTP server's own stream: the GET stream, where it
// sends what belongs to no request (list changes, resource updates, log
// messages, progress it sends there) and its requests tied to no call.

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"
)

// Reopening the GET stream once the server has closed it: after the
// server's retry delay (defaultRetry when it gave none; never less than
// minReopen), doubled for each stream in a row that ended bringing
// nothing, up to maxReopen. A stream that brought a message, or stayed
// open for quietReset, starts the count over.
const (
	minReopen  = 100 * time.Millisecond
	maxReopen  = 30 * time.Second
	quietReset = time.Minute
)

// eventStream is the session's GET stream: server requests, and
// notifications that belong to no request (list changes, resource
// updates, logs). Legacy servers send requests not tied to a call (the
// TypeScript SDK's server.request, for one) only there, and drop them when
// no such stream is open, so it is opened right after initialize.
type eventStream struct {
	run      *streamRun // the latest opening; nil before the first
	watchers watchSet
	fallback func(Notification) // for notifications no watcher takes
}

// streamRun is one life of the GET stream: from its opening, through the
// times the server closes it and it is opened again, until opening it
// fails or the transport closes.
type streamRun struct {
	ready chan struct{} // closed once the first GET has been answered
	done  chan struct{} // closed when it is gone
	err   error         // why it is gone (set before done closes)
}

// gone reports whether the run has ended.
func (r *streamRun) gone() bool {
	select {
	case <-r.done:
		return true
	default:
		return false
	}
}

// noEventStream: the server answered the GET with 405, so it has no
// stream to offer at this URL; asking again would get the same.
func noEventStream(err error) bool {
	var he *HTTPError
	return errors.As(err, &he) && he.Status == http.StatusMethodNotAllowed
}

// StartEventStream opens the GET stream in the background and waits (up
// to ctx) until the server has answered it, so that whatever the server
// sends there from now on arrives. Notifications go to the watchers, else
// to onNotify (nil: the one given before). A server without one (405) is
// fine, and not asked again. A stream that is gone for another reason
// (opening it again failed) is opened anew.
func (t *legacyHTTP) StartEventStream(ctx context.Context, onNotify func(Notification)) {
	run := t.startRun(onNotify)
	select {
	case <-run.ready:
	case <-ctx.Done():
	}
}

// startRun is the stream's current run, started when there is none.
func (t *legacyHTTP) startRun(onNotify func(Notification)) *streamRun {
	t.mu.Lock()
	defer t.mu.Unlock()
	es := &t.events
	if onNotify != nil {
		es.fallback = onNotify
	}
	if run := es.run; run != nil && (!run.gone() || noEventStream(run.err)) {
		return run
	}
	run := &streamRun{ready: make(chan struct{}), done: make(chan struct{})}
	es.run = run
	go t.runEventStream(es, run)
	return run
}

func (t *legacyHTTP) dispatchEvent(es *eventStream) func(Notification) {
	return func(n Notification) {
		fns := es.watchers.list()
		t.mu.Lock()
		fb := es.fallback
		t.mu.Unlock()
		if len(fns) == 0 && fb != nil {
			fns = append(fns, fb)
		}
		for _, fn := range fns {
			fn(n)
		}
	}
}

// runEventStream keeps the GET stream open, resuming it with
// Last-Event-ID whenever it ends (reopenDelay), until the transport
// closes or a GET fails.
func (t *legacyHTTP) runEventStream(es *eventStream, run *streamRun) {
	st := &sseState{Retry: -1}
	var perr error
	handle := t.streamHandler(t.dispatchEvent(es), nil, &perr)
	brought := false
	counted := func(ev sseEvent) error {
		if len(ev.Data) > 0 {
			brought = true
		}
		return handle(ev)
	}
	readyOnce := sync.OnceFunc(func() { close(run.ready) })
	finish := func(err error) {
		t.mu.Lock()
		run.err = err
		t.mu.Unlock()
		readyOnce()
		close(run.done)
	}
	empty := 0 // streams in a row that brought nothing
	for {
		rc, err := t.openGET(t.bg, st.LastID)
		readyOnce()
		if err != nil {
			finish(err)
			return
		}
		opened := time.Now()
		brought = false
		err = readSSEState(rc, t.opts.MaxMessage, st, counted)
		rc.Close()
		if perr != nil {
			finish(perr)
			return
		}
		if t.bg.Err() != nil {
			finish(&ConnError{Msg: "the connection was closed"})
			return
		}
		if err != nil && err != io.EOF {
			// A dropped connection is resumed; anything else ends it.
			var conn *ConnError
			if rerr := t.readError(t.bg, err); !errors.As(rerr, &conn) {
				finish(rerr)
				return
			}
		}
		if brought || time.Since(opened) >= quietReset {
			empty = 0
		} else {
			empty++
		}
		if sleepCtx(t.bg, reopenDelay(st, empty)) != nil {
			finish(&ConnError{Msg: "the connection was closed"})
			return
		}
	}
}

// reopenDelay is how long to wait before opening the GET stream again,
// after empty streams in a row that brought nothing: the server's retry
// delay (at least minReopen) for the first, doubled for each one more,
// up to maxReopen. A server that keeps closing its stream at once is not
// asked again and again.
func reopenDelay(st *sseState, empty int) time.Duration {
	d := max(retryDelay(st), minReopen)
	for i := 1; i < empty && d < maxReopen; i++ {
		d *= 2
	}
	return min(d, maxReopen)
}

// Watch hands fn the server's own notifications, from the GET stream,
// until ctx is done or the stream is gone (its error). A stream gone
// before is opened again first, unless the server has none.
func (t *legacyHTTP) Watch(ctx context.Context, fn func(Notification)) error {
	run := t.startRun(nil)
	return watchUntil(ctx, &t.events.watchers, fn, run.done, func() error {
		t.mu.Lock()
		defer t.mu.Unlock()
		return run.err
	})
}
