package client

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
)

// stream serves a prefix, then filler bytes without end (or until left
// reaches 0), measuring as it goes the live heap after a collection: what
// the reader holds on to, garbage aside.
type stream struct {
	prefix  []byte
	filler  []byte // repeated
	left    int    // bytes still to serve; < 0: no end
	served  int
	maxLive uint64
	base    uint64
}

func newStream(prefix, filler string, size int) *stream {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return &stream{prefix: []byte(prefix), filler: []byte(filler), left: size, base: ms.HeapAlloc}
}

func (s *stream) Read(p []byte) (int, error) {
	if s.left == 0 {
		return 0, io.EOF
	}
	if s.served/(4<<20) != (s.served+len(p))/(4<<20) {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		s.maxLive = max(s.maxLive, ms.HeapAlloc)
	}
	n := 0
	for n < len(p) && s.left != 0 {
		var k int
		if s.served < len(s.prefix) {
			k = copy(p[n:], s.prefix[s.served:])
		} else {
			off := (s.served - len(s.prefix)) % len(s.filler)
			k = copy(p[n:], s.filler[off:])
		}
		if s.left > 0 {
			k = min(k, s.left)
			s.left -= k
		}
		n += k
		s.served += k
	}
	return n, nil
}

// held is how much more than limit the reader kept, at most.
func (s *stream) held(limit int) int64 {
	return int64(s.maxLive) - int64(s.base) - int64(limit)
}

// slack is how much more than the limit a refused message may cost: a
// chunk, and change.
const slack = maxChunk + 256<<10

// A body with no Content-Length (chunked, or decompressed from gzip) is
// read no further than the limit, into chunks that never grow past it:
// doubling one buffer held twice the limit at the end.
func TestReadLimitedUnknownSize(t *testing.T) {
	const limit = 24 << 20
	s := newStream(`{"jsonrpc":"2.0","id":1,"result":{"text":"`, "x", -1)
	data, err := readLimited(s, limit, -1)
	if !errors.Is(err, errTooLarge) || data != nil {
		t.Fatalf("readLimited = %d bytes, %v; want errTooLarge", len(data), err)
	}
	if s.served != limit+1 {
		t.Errorf("read %d bytes, want the limit and one more (%d)", s.served, limit+1)
	}
	if over := s.held(limit); over > slack {
		t.Errorf("held %d bytes more than the limit", over)
	}

	// Within the limit, the body comes back whole.
	body := strings.Repeat("y", 3<<20+17)
	data, err = readLimited(strings.NewReader(body), limit, -1)
	if err != nil || string(data) != body {
		t.Errorf("readLimited = %d bytes, %v; want the %d bytes", len(data), err, len(body))
	}
	data, err = readLimited(strings.NewReader(body), len(body), -1)
	if err != nil || len(data) != len(body) {
		t.Errorf("exactly the limit: %d bytes, %v", len(data), err)
	}
	if _, err = readLimited(strings.NewReader(body), len(body)-1, -1); !errors.Is(err, errTooLarge) {
		t.Errorf("one byte over the limit: %v", err)
	}
	if data, err := readLimited(strings.NewReader(""), limit, -1); err != nil || len(data) != 0 {
		t.Errorf("empty body: %q, %v", data, err)
	}
}

// A body whose Content-Length is over the limit is refused unread; one
// within it is read into one buffer of its size.
func TestReadLimitedKnownSize(t *testing.T) {
	s := newStream("", "x", -1)
	if _, err := readLimited(s, 1000, 1001); !errors.Is(err, errTooLarge) || s.served != 0 {
		t.Errorf("err %v after reading %d bytes; want errTooLarge, unread", err, s.served)
	}
	data, err := readLimited(strings.NewReader("hello"), 1000, 5)
	if err != nil || string(data) != "hello" || cap(data) != 5 {
		t.Errorf("readLimited = %q (cap %d), %v", data, cap(data), err)
	}
	if _, err := readLimited(strings.NewReader("hel"), 1000, 5); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("short body: %v", err)
	}
}

// An SSE event over the limit is refused with no more than the limit held,
// whether its data comes as one line or as many.
func TestReadSSEHeldWithinLimit(t *testing.T) {
	const limit = 24 << 20
	for _, tc := range []struct{ name, prefix, filler string }{
		{"one line", "data: ", "x"},
		{"many lines", "", "data: " + strings.Repeat("x", 100) + "\n"},
		{"many short lines", "", "data: x\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStream(tc.prefix, tc.filler, -1)
			err := readSSE(s, limit, func(sseEvent) error { return nil })
			if !errors.Is(err, errEventTooLarge) {
				t.Fatalf("readSSE = %v, want errEventTooLarge", err)
			}
			if over := s.held(limit); over > slack {
				t.Errorf("held %d bytes more than the limit", over)
			}
		})
	}
}

// lineBuffer gives back what it was given, in any pieces.
func TestLineBuffer(t *testing.T) {
	var want bytes.Buffer
	var b lineBuffer
	if b.bytes() != nil {
		t.Error("empty buffer is not nil")
	}
	for i := 0; i < 3000; i++ {
		p := bytes.Repeat([]byte{byte('a' + i%26)}, i%1500)
		want.Write(p)
		b.add(p)
	}
	if !bytes.Equal(b.bytes(), want.Bytes()) || b.len() != want.Len() {
		t.Errorf("got %d bytes back, want %d", len(b.bytes()), want.Len())
	}
	var one lineBuffer
	p := []byte("whole")
	one.add(p)
	p[0] = 'W' // the caller may reuse p
	if got := one.bytes(); string(got) != "whole" {
		t.Errorf("one piece: %q", got)
	}
}
