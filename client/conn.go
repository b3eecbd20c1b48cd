package client

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"
)

// ConnOptions configures NewConn.
type ConnOptions struct {
	// Binding names the connection in Capabilities, and so in the era
	// store (default BindingStream).
	Binding string
	Trace   Tracer
	// MaxLine bounds one message from the server (default 64 MiB).
	MaxLine int
	// Malformed: as StdioOptions.Malformed.
	Malformed func(line []byte, err error) bool
}

// connTransport speaks newline-delimited JSON-RPC over a caller's
// connection, with the same multiplexer as stdio.
type connTransport struct {
	conn    io.ReadWriteCloser
	opts    ConnOptions
	mux     *mux
	lines   lineReader
	writeMu sync.Mutex
	once    sync.Once
}

// NewConn returns a transport that speaks newline-delimited JSON-RPC, as
// stdio does, over a connection the caller made: a local socket, a pipe,
// an in-process server (client/mcptest). The server may send requests and
// notifications of its own. It reads conn from now on; Close closes it.
func NewConn(conn io.ReadWriteCloser, opts ConnOptions) Transport {
	if opts.Binding == "" {
		opts.Binding = BindingStream
	}
	if opts.MaxLine == 0 {
		opts.MaxLine = 64 << 20
	}
	t := &connTransport{conn: conn, opts: opts}
	t.mux = newMux(context.Background(), func(line []byte) { _ = t.write(context.Background(), line) })
	t.lines = lineReader{mux: t.mux, trace: opts.Trace, malformed: opts.Malformed, maxLine: opts.MaxLine}
	go t.read()
	return t
}

// Capabilities implements Transport.
func (t *connTransport) Capabilities() Capabilities {
	return Capabilities{
		Binding:        t.opts.Binding,
		Stateful:       true,
		ServerRequests: t.mux.setHandler,
		Answered:       t.mux.answered,
		Notifications:  t.mux.setNotify,
		Watch:          t.mux.watch,
	}
}

func (t *connTransport) read() {
	err := t.lines.readMessages(t.conn)
	var proto *ProtocolError
	if errors.As(err, &proto) {
		t.mux.fail(err)
		t.Close() // nothing more can be trusted from this server
		return
	}
	if errors.Is(err, io.EOF) {
		t.mux.fail(&ConnError{Msg: "the server closed the connection"})
		return
	}
	t.mux.fail(&ConnError{Msg: "reading from the server failed", Err: err})
}

// write sends one line; a connection that blocks is given up with ctx.
func (t *connTransport) write(ctx context.Context, line []byte) error {
	if t.opts.Trace != nil {
		t.opts.Trace(TraceEvent{Dir: "send", Body: line})
	}
	finished, err := writeLine(ctx, &t.writeMu, t.conn, line)
	if !finished || err == nil {
		return err
	}
	if dead := t.mux.err(); dead != nil {
		return dead
	}
	return &ConnError{Msg: "cannot write to the server", Err: err}
}

// RoundTrip implements Transport.
func (t *connTransport) RoundTrip(ctx context.Context, req *Request, notify func(Notification)) (*Message, error) {
	line, _ := req.MarshalJSON()
	p, err := t.mux.register(req, notify)
	if err != nil {
		return nil, err
	}
	if err := t.write(ctx, line); err != nil {
		t.mux.forget(req.ID)
		return nil, err
	}
	if p == nil {
		return nil, nil
	}
	msg, err := t.mux.await(ctx, req.ID, p)
	if err != nil && ctx.Err() != nil && t.mux.err() == nil {
		wctx, stop := context.WithTimeout(context.Background(), 500*time.Millisecond)
		_ = t.write(wctx, cancelNotice(req.ID, context.Cause(ctx), false))
		stop()
	}
	return msg, err
}

// Close closes the connection.
func (t *connTransport) Close() error {
	var err error
	t.once.Do(func() { err = t.conn.Close() })
	return err
}
