package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// drainTimeout bounds how long EOF on stdin is held back, in case a request
// never gets an answer (for example after a malformed line).
const drainTimeout = 10 * time.Second

// newStdioTransport is mcp.StdioTransport with one difference: EOF on stdin
// is delayed until every request read so far has been answered.
//
// The SDK cancels in-flight requests as soon as its reader sees EOF, so
// `printf '...\n...\n' | demo` would otherwise lose most responses. Counting
// happens at the byte level, leaving the SDK's own stdio connection (and its
// version-dependent batching rules) untouched.
func newStdioTransport() mcp.Transport {
	return newDrainingTransport(os.Stdin, os.Stdout)
}

func newDrainingTransport(in io.ReadCloser, out io.Writer) *mcp.IOTransport {
	pr, pw := io.Pipe()
	d := &drainer{in: in, out: out, tap: pw, scanned: make(chan struct{}), changed: make(chan struct{})}
	go d.scan(pr)
	return &mcp.IOTransport{Reader: drainReader{d}, Writer: drainWriter{d}}
}

type drainer struct {
	in  io.ReadCloser
	out io.Writer

	tap     *io.PipeWriter // copy of stdin for scan
	scanned chan struct{}  // closed once scan has seen all of stdin
	eof     bool           // EOF seen but not yet returned

	mu      sync.Mutex
	pending int           // requests read minus responses written
	changed chan struct{} // closed and replaced whenever pending drops
}

type drainReader struct{ d *drainer }
type drainWriter struct{ d *drainer }

func (r drainReader) Read(p []byte) (int, error) {
	d := r.d
	if d.eof {
		d.waitDrained()
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
		d.waitDrained()
	}
	return n, err
}

func (r drainReader) Close() error { return r.d.in.Close() }

// Write relies on the SDK writing whole newline-terminated messages per call.
func (w drainWriter) Write(p []byte) (int, error) {
	d := w.d
	n, err := d.out.Write(p)
	if answered := countMessages(p, isResponse); answered > 0 {
		d.mu.Lock()
		d.pending -= answered
		close(d.changed)
		d.changed = make(chan struct{})
		d.mu.Unlock()
	}
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
		if n := countMessages(raw, isRequest); n > 0 {
			d.mu.Lock()
			d.pending += n
			d.mu.Unlock()
		}
	}
}

func (d *drainer) waitDrained() {
	timeout := time.After(drainTimeout)
	for {
		d.mu.Lock()
		pending, changed := d.pending, d.changed
		d.mu.Unlock()
		if pending <= 0 {
			return
		}
		select {
		case <-changed:
		case <-timeout:
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

// countMessages counts messages matching keep in a single message or a
// JSON-RPC batch.
func countMessages(data []byte, keep func(envelope) bool) int {
	data = bytes.TrimSpace(data)
	var batch []envelope
	if len(data) > 0 && data[0] == '[' {
		if json.Unmarshal(data, &batch) != nil {
			return 0
		}
	} else {
		var e envelope
		if json.Unmarshal(data, &e) != nil {
			return 0
		}
		batch = []envelope{e}
	}
	n := 0
	for _, e := range batch {
		if keep(e) {
			n++
		}
	}
	return n
}
