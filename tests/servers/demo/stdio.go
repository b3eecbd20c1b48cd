package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// drainTimeout bounds how long EOF on stdin is held back, in case a request
// never gets an answer (for example after a malformed line).
const drainTimeout = 10 * time.Second

// serveStdio serves s on in and out until in reaches EOF or ctx is done.
// Either way the open subscriptions are closed gracefully first: each
// subscriptions/listen request gets its result.
func serveStdio(ctx context.Context, s *mcp.Server, n *notifier, in io.ReadCloser, out io.Writer) error {
	d := newDrainer(in, out, n)
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	stop := context.AfterFunc(ctx, func() {
		if n != nil {
			d.awaitAnswered(n.closeListeners(), time.Second)
		}
		cancel()
	})
	defer stop()
	err := s.Run(runCtx, d.transport())
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// newDrainer wraps in and out for mcp.IOTransport with one difference from
// mcp.StdioTransport: EOF on stdin is delayed until every request read so
// far has been answered, subscriptions/listen included (n closes those).
//
// The SDK cancels in-flight requests as soon as its reader sees EOF, so
// `printf '...\n...\n' | demo` would otherwise lose most responses. Counting
// happens at the byte level, leaving the SDK's own stdio connection (and its
// version-dependent batching rules) untouched.
func newDrainer(in io.ReadCloser, out io.Writer, n *notifier) *drainer {
	pr, pw := io.Pipe()
	d := &drainer{
		in: in, out: out, tap: pw, notifier: n,
		scanned: make(chan struct{}), changed: make(chan struct{}),
		ids: map[string]int{}, listens: map[string]bool{},
	}
	if n != nil {
		n.awaitAnswered = d.awaitAnswered
	}
	go d.scan(pr)
	return d
}

func (d *drainer) transport() *mcp.IOTransport {
	return &mcp.IOTransport{Reader: drainReader{d}, Writer: drainWriter{d}}
}

type drainer struct {
	in       io.ReadCloser
	out      io.Writer
	notifier *notifier // may be nil

	tap     *io.PipeWriter // copy of stdin for scan
	scanned chan struct{}  // closed once scan has seen all of stdin
	eof     bool           // EOF seen but not yet returned

	mu      sync.Mutex
	pending int             // requests read minus responses written
	ids     map[string]int  // the same per request id (negative: answered before scan saw it)
	listens map[string]bool // ids of unanswered subscriptions/listen requests
	changed chan struct{}   // closed and replaced whenever a response is written
}

type drainReader struct{ d *drainer }
type drainWriter struct{ d *drainer }

func (r drainReader) Read(p []byte) (int, error) {
	d := r.d
	if d.eof {
		d.drain()
		return 0, io.EOF
	}
	n, err := d.in.Read(p)
	if n > 0 {
		d.tap.Write(p[:n])
	}
	if err == io.EOF {
		d.tap.Close()
		<-d.scanned
		if n > 0 {
			// The SDK has not decoded these bytes yet; waiting now would
			// wait for answers to requests it has not seen.
			d.eof = true
			return n, nil
		}
		d.drain()
	}
	return n, err
}

func (r drainReader) Close() error { return r.d.in.Close() }

// Write relies on the SDK writing whole newline-terminated messages per call.
func (w drainWriter) Write(p []byte) (int, error) {
	d := w.d
	n, err := d.out.Write(p)
	answered := 0
	d.mu.Lock()
	for _, e := range envelopes(p) {
		if !isResponse(e) {
			continue
		}
		answered++
		key := idKey(e.ID)
		if d.ids[key]--; d.ids[key] == 0 {
			delete(d.ids, key)
			delete(d.listens, key)
		}
	}
	if answered > 0 {
		d.pending -= answered
		close(d.changed)
		d.changed = make(chan struct{})
	}
	d.mu.Unlock()
	return n, err
}

// stdout is not ours to close; the SDK's StdioTransport leaves it open too.
func (drainWriter) Close() error { return nil }

func (d *drainer) scan(r *io.PipeReader) {
	defer close(d.scanned)
	dec := json.NewDecoder(r)
	for {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			// Keep consuming so Read never blocks on the tap.
			io.Copy(io.Discard, r)
			return
		}
		d.mu.Lock()
		for _, e := range envelopes(raw) {
			if !isRequest(e) {
				continue
			}
			d.pending++
			key := idKey(e.ID)
			if d.ids[key]++; d.ids[key] == 0 {
				delete(d.ids, key)
			} else if e.Method == "subscriptions/listen" {
				d.listens[key] = true
			}
		}
		d.mu.Unlock()
	}
}

// drain waits until every request read has been answered, closing the
// open subscriptions once they are all that is left, or until drainTimeout.
func (d *drainer) drain() {
	timeout := time.After(drainTimeout)
	for {
		d.mu.Lock()
		pending, listens, changed := d.pending, len(d.listens), d.changed
		d.mu.Unlock()
		if pending <= 0 {
			return
		}
		if pending <= listens && d.notifier != nil {
			// A listen read but not yet acknowledged is not closed by
			// this; the next round catches it.
			d.notifier.closeListeners()
		}
		select {
		case <-changed:
		case <-time.After(50 * time.Millisecond):
		case <-timeout:
			return
		}
	}
}

// awaitAnswered waits until the requests with the given id keys have been
// answered, or for timeout.
func (d *drainer) awaitAnswered(keys []string, timeout time.Duration) {
	deadline := time.After(timeout)
	for {
		d.mu.Lock()
		open, changed := false, d.changed
		for _, k := range keys {
			open = open || d.ids[k] > 0
		}
		d.mu.Unlock()
		if !open {
			return
		}
		select {
		case <-changed:
		case <-deadline:
			return
		}
	}
}

// envelope holds just enough of a JSON-RPC message to classify it.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

func isRequest(e envelope) bool  { return e.Method != "" && len(e.ID) > 0 && string(e.ID) != "null" }
func isResponse(e envelope) bool { return e.Method == "" && len(e.ID) > 0 && string(e.ID) != "null" }

// envelopes decodes a single message or a JSON-RPC batch; anything else
// yields nothing.
func envelopes(data []byte) []envelope {
	data = bytes.TrimSpace(data)
	var batch []envelope
	if len(data) > 0 && data[0] == '[' {
		if json.Unmarshal(data, &batch) != nil {
			return nil
		}
		return batch
	}
	var e envelope
	if json.Unmarshal(data, &e) != nil {
		return nil
	}
	return []envelope{e}
}
