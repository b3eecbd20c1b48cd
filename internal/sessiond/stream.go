package sessiond

// A legacy Streamable HTTP server's own stream (its GET stream), which the
// session keeps open for as long as it holds the connection: what comes
// on it goes where the same would go on stdio (untied, route.go), and the
// invocations that listen are told when it breaks, or that there is none.

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/internal/exitcode"
)

// unwatchedMethod is the session's word to an invocation that watches
// (watchMethod) when the server's stream ends for it: params.message says
// why, params.exit is its exit code, and params.broken that the session
// opens it again (the invocation may watch anew, as one-shot listen
// reconnects); without broken there is no stream to watch. NewTransport's
// transport makes it the error of the Watch. A server's notification of
// that name never reaches an invocation (sessionWord).
const unwatchedMethod = sessionMethods + "unwatched"

// Opening the stream again once opening it failed: with backoff, as
// one-shot listen reconnects, from streamBackoff up to maxStreamBackoff,
// starting over after a stream that stayed up for streamSteady.
const (
	streamBackoff    = 250 * time.Millisecond
	maxStreamBackoff = 30 * time.Second
	streamSteady     = time.Minute
)

// keepStream keeps the server's stream open while be lives. The
// transport opens it again itself when the server closes it; when opening
// it fails, it is opened again here, with backoff, and the invocations
// that watch are told it broke. A server that has none (405) is not asked
// again: those that watch, now or later, are told so (be.noStream). A 404
// (the server ended its session) is a failure like another: the held
// client initializes again on the next request, whose new session the
// stream then follows, and those that watch subscribe again.
func (d *daemon) keepStream(be *backend, watch func(context.Context, func(client.Notification)) error) {
	defer func() {
		be.watchMu.Lock()
		be.watching = false
		be.watchMu.Unlock()
	}()
	backoff := streamBackoff
	for {
		opened := time.Now()
		err := watch(be.wctx, d.untied)
		if be.wctx.Err() != nil {
			return
		}
		if err == nil {
			err = &client.ConnError{Msg: "the server's event stream ended"}
		}
		msg, code := d.explain(err)
		if noEventStream(err) {
			be.watchMu.Lock()
			be.noStream = &Error{Msg: msg, Code: code}
			be.watchMu.Unlock()
			d.note("mcpctl: session: the server has no event stream of its own: %s", msg)
			d.unwatch(be.noStream, false)
			return
		}
		if time.Since(opened) >= streamSteady {
			backoff = streamBackoff
		}
		wait := backoff/2 + rand.N(backoff/2+1)
		d.note("mcpctl: session: the server's event stream broke (%s); opening it again in %s", msg, wait.Round(time.Millisecond))
		d.unwatch(&Error{Msg: msg, Code: code}, true)
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-be.wctx.Done():
			t.Stop()
			return
		}
		backoff = min(backoff*2, maxStreamBackoff)
	}
}

// noEventStream: the server answered the GET with 405: it offers no
// stream at this URL, and asking again gets the same.
func noEventStream(err error) bool {
	var he *client.HTTPError
	return errors.As(err, &he) && he.Status == http.StatusMethodNotAllowed
}

// noStreamNow is why the backend has no stream to watch, nil while it has
// one (or may).
func (be *backend) noStreamNow() *Error {
	be.watchMu.Lock()
	defer be.watchMu.Unlock()
	return be.noStream
}

// unwatch tells every invocation that watches that the server's stream
// ended for it (why; broken: it is being opened again).
func (d *daemon) unwatch(why *Error, broken bool) {
	d.mu.Lock()
	peers := make([]*peer, 0, len(d.peers))
	for pr := range d.peers {
		peers = append(peers, pr)
	}
	d.mu.Unlock()
	for _, pr := range peers {
		pr.unwatch(why, broken)
	}
}

// unwatch tells the invocation, if it watches, that the server's stream
// ended for it; it watches no more until it asks again. Told once, however
// the word and its asking cross.
func (pr *peer) unwatch(why *Error, broken bool) {
	if !pr.watching.CompareAndSwap(true, false) {
		return
	}
	params, _ := json.Marshal(map[string]any{"message": why.Msg, "exit": why.Code, "broken": broken})
	pr.sendUnasked(notificationLine(unwatchedMethod, params))
}

// unwatchedError is the Watch's error the session's word says: a broken
// stream is a broken connection (listen connects again, or exits 3 with
// --no-reconnect), no stream an Error with the session's exit code.
func unwatchedError(params json.RawMessage) error {
	var p struct {
		Message string `json:"message"`
		Exit    int    `json:"exit"`
		Broken  bool   `json:"broken"`
	}
	_ = json.Unmarshal(params, &p)
	if p.Message == "" {
		p.Message = "the server's event stream ended"
	}
	if p.Broken {
		return &client.ConnError{Msg: p.Message}
	}
	if p.Exit == 0 {
		p.Exit = exitcode.Connection
	}
	return &Error{Msg: p.Message, Code: p.Exit}
}
