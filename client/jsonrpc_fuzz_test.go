package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// FuzzDecodeMessage: any input either decodes to a message of a known
// kind that survives a round trip through json.Marshal, or is refused
// with a *ProtocolError; invalid JSON is never accepted.
func FuzzDecodeMessage(f *testing.F) {
	// Seeds: testdata/fuzz/FuzzDecodeMessage.
	f.Fuzz(func(t *testing.T, in []byte) {
		m, err := DecodeMessage(in)
		if err != nil {
			var pe *ProtocolError
			if !errors.As(err, &pe) {
				t.Fatalf("DecodeMessage(%q): %v (%T), want a *ProtocolError", in, err, err)
			}
			return
		}
		if !json.Valid(in) {
			t.Fatalf("DecodeMessage accepted invalid JSON %q", in)
		}
		if m.Kind() == "invalid" {
			t.Fatalf("DecodeMessage(%q) accepted a message of no kind", in)
		}
		again, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("cannot re-encode %+v: %v", m, err)
		}
		m2, err := DecodeMessage(again)
		if err != nil {
			t.Fatalf("the re-encoded message %s is refused: %v", again, err)
		}
		if m2.Kind() != m.Kind() || m2.Method != m.Method || !bytes.Equal(compactJSON(m2.ID), compactJSON(m.ID)) {
			t.Fatalf("round trip changed the message: %s -> %s", in, again)
		}
	})
}

func compactJSON(b []byte) []byte {
	var out bytes.Buffer
	if json.Compact(&out, b) != nil {
		return b
	}
	return out.Bytes()
}

// FuzzStdioReader feeds a stdio transport's reader (line splitting,
// DecodeMessage, demultiplexing to pending requests) with arbitrary
// output, once whole and once a byte per read. Both must deliver the same
// answers and notifications and stop for the same reason; every answer
// goes to the request with its id, at most once; the reader always stops
// with a reason.
func FuzzStdioReader(f *testing.F) {
	// Seeds: testdata/fuzz/FuzzStdioReader.
	f.Fuzz(func(t *testing.T, in []byte) {
		whole := readStdio(t, bytes.NewReader(in))
		bytewise := readStdio(t, iotest.OneByteReader(bytes.NewReader(in)))
		if whole != bytewise {
			t.Fatalf("reading %q whole and a byte at a time differ:\n%s\n---\n%s", in, whole, bytewise)
		}
	})
}

// readStdio runs the reader of a transport with requests 1 to 3 pending
// (and 4 sent) over r, checks what reached them, and describes it all,
// with the notifications tied to no request.
func readStdio(t *testing.T, r io.Reader) string {
	tr := NewStdio(StdioOptions{MaxLine: 256})
	tr.SetServerRequestHandler(func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *RPCError) {
		return nil, &RPCError{Code: CodeMethodNotFound}
	})
	var log strings.Builder
	pend := map[int64]*pendingCall{}
	notes := map[int64][]string{} // each request's in order; the order among requests is a map's
	tr.SetNotificationHandler(func(n Notification) { notes[0] = append(notes[0], n.Method+" "+string(n.Raw)) })
	tr.mux.mu.Lock()
	for id := int64(1); id <= 3; id++ {
		p := &pendingCall{done: make(chan callResult, 1), notify: func(n Notification) {
			notes[id] = append(notes[id], n.Method+" "+string(n.Raw))
		}}
		tr.mux.pending[id], pend[id] = p, p
	}
	tr.mux.maxSent = 4
	tr.mux.mu.Unlock()
	err := tr.lines.readMessages(r)
	if err == nil {
		t.Fatal("the reader stopped without a reason")
	}
	fmt.Fprintf(&log, "notes to no request: %q\n", notes[0])
	for id := int64(1); id <= 3; id++ {
		fmt.Fprintf(&log, "notes to %d: %q\n", id, notes[id])
		select {
		case res := <-pend[id].done:
			if res.msg == nil || !idEquals(res.msg.ID, id) {
				t.Fatalf("request %d got %+v", id, res)
			}
			fmt.Fprintf(&log, "answer to %d: %s %s\n", id, res.msg.Result, errText(res.msg.Error))
		default:
		}
		select {
		case res := <-pend[id].done:
			t.Fatalf("request %d got a second answer %+v", id, res)
		default:
		}
	}
	fmt.Fprintf(&log, "stopped: %v", err)
	return log.String()
}

func errText(e *RPCError) string {
	if e == nil {
		return ""
	}
	return e.Error()
}
