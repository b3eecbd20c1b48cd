package client

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// chunkReader hands out its chunks one Read at a time, so that a test can
// put a line terminator exactly on a read boundary.
type chunkReader struct{ chunks []string }

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.chunks[0])
	r.chunks[0] = r.chunks[0][n:]
	if r.chunks[0] == "" {
		r.chunks = r.chunks[1:]
	}
	return n, nil
}

// collectSSE runs readSSE and returns the dispatched events.
func collectSSE(t *testing.T, r io.Reader, max int) ([]sseEvent, error) {
	t.Helper()
	var got []sseEvent
	err := readSSE(r, max, func(ev sseEvent) error {
		ev.Data = append([]byte(nil), ev.Data...) // the buffer is reused
		got = append(got, ev)
		return nil
	})
	return got, err
}

// ev builds an expected event; retry -1 means "no retry field".
func ev(event, data, id string, retry int) sseEvent {
	return sseEvent{Event: event, Data: []byte(data), ID: id, Retry: retry}
}

func sameEvents(got, want []sseEvent) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Event != w.Event || string(g.Data) != string(w.Data) || g.ID != w.ID || g.Retry != w.Retry {
			return false
		}
	}
	return true
}

func fmtEvents(evs []sseEvent) string {
	var b strings.Builder
	for _, e := range evs {
		fmt.Fprintf(&b, "{event=%q data=%q id=%q retry=%d} ", e.Event, e.Data, e.ID, e.Retry)
	}
	return "[" + b.String() + "]"
}

func TestReadSSE(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []sseEvent
	}{
		{"LF", "data: a\n\n", []sseEvent{ev("", "a", "", -1)}},
		{"CRLF", "data: a\r\n\r\n", []sseEvent{ev("", "a", "", -1)}},
		{"lone CR", "data: a\r\r", []sseEvent{ev("", "a", "", -1)}},
		{"mixed terminators", "data: a\r\ndata: b\rdata: c\n\r\n", []sseEvent{ev("", "a\nb\nc", "", -1)}},
		{"CRLF inside multi-line data is one terminator", "data: a\r\ndata: b\r\n\r\n", []sseEvent{ev("", "a\nb", "", -1)}},
		{"multi-line data joined with LF", "data: one\ndata: two\ndata: three\n\n", []sseEvent{ev("", "one\ntwo\nthree", "", -1)}},
		{"empty data line adds an empty line", "data: a\ndata\ndata: b\n\n", []sseEvent{ev("", "a\n\nb", "", -1)}},
		{"two events", "data: 1\n\ndata: 2\n\n", []sseEvent{ev("", "1", "", -1), ev("", "2", "", -1)}},
		{"comments ignored", ": hello\ndata: a\n: in the middle\ndata: b\n\n", []sseEvent{ev("", "a\nb", "", -1)}},
		{"keep-alive blocks dispatch nothing", ":\n\n: ping\n\ndata: x\n\n:keepalive\n\n", []sseEvent{ev("", "x", "", -1)}},
		{"blank lines alone dispatch nothing", "\n\n\r\n\r\r", nil},
		{"event field", "event: message\ndata: x\n\n", []sseEvent{ev("message", "x", "", -1)}},
		{"event type resets after dispatch", "event: custom\ndata: 1\n\ndata: 2\n\n", []sseEvent{ev("custom", "1", "", -1), ev("", "2", "", -1)}},
		{"id field", "id: 42\ndata: x\n\n", []sseEvent{ev("", "x", "42", -1)}},
		{"last event id persists", "id: a1\ndata: 1\n\ndata: 2\n\nid\ndata: 3\n\n", []sseEvent{ev("", "1", "a1", -1), ev("", "2", "a1", -1), ev("", "3", "", -1)}},
		{"id containing NUL ignored", "id: good\ndata: 1\n\nid: b\x00ad\ndata: 2\n\n", []sseEvent{ev("", "1", "good", -1), ev("", "2", "good", -1)}},
		{"retry field", "retry: 1500\ndata: x\n\n", []sseEvent{ev("", "x", "", 1500)}},
		{"retry not a number ignored", "retry: soon\ndata: x\n\n", []sseEvent{ev("", "x", "", -1)}},
		{"retry negative ignored", "retry: -5\ndata: x\n\n", []sseEvent{ev("", "x", "", -1)}},
		{"retry resets per event", "retry: 10\ndata: 1\n\ndata: 2\n\n", []sseEvent{ev("", "1", "", 10), ev("", "2", "", -1)}},
		{"event without data not dispatched", "event: ping\n\nid: 5\n\nretry: 3\n\n", nil},
		{"event without data does not leak its type", "event: ping\n\ndata: x\n\n", []sseEvent{ev("", "x", "", -1)}},
		{"unterminated final event discarded", "data: 1\n\ndata: 2\n", []sseEvent{ev("", "1", "", -1)}},
		{"unterminated final line discarded", "data: 1\n\ndata: 2", []sseEvent{ev("", "1", "", -1)}},
		{"field without colon: data", "data\n\n", []sseEvent{ev("", "", "", -1)}},
		{"field without colon: event is empty", "event\ndata: x\n\n", []sseEvent{ev("", "x", "", -1)}},
		{"unknown fields ignored", "foo: bar\nbaz\ndata: x\n\n", []sseEvent{ev("", "x", "", -1)}},
		{"no space after colon", "data:x\n\n", []sseEvent{ev("", "x", "", -1)}},
		{"only one leading space stripped", "data:  two spaces\n\n", []sseEvent{ev("", " two spaces", "", -1)}},
		{"trailing spaces kept", "data: x  \n\n", []sseEvent{ev("", "x  ", "", -1)}},
		{"colon in value kept", "data: {\"a\":1}\n\n", []sseEvent{ev("", `{"a":1}`, "", -1)}},
		{"event name with leading space stripped once", "event:  spaced\ndata: x\n\n", []sseEvent{ev(" spaced", "x", "", -1)}},
		{"empty stream", "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := collectSSE(t, strings.NewReader(tc.in), 1<<20)
			if err != nil {
				t.Fatalf("readSSE(%q) error: %v", tc.in, err)
			}
			if !sameEvents(got, tc.want) {
				t.Errorf("readSSE(%q)\n got %s\nwant %s", tc.in, fmtEvents(got), fmtEvents(tc.want))
			}
		})
	}
}

// The events must not depend on where the underlying reader splits the
// stream, in particular a CR at the end of one read and its LF at the start
// of the next.
func TestReadSSEChunkBoundaries(t *testing.T) {
	tests := []struct {
		name   string
		chunks []string
		want   []sseEvent
	}{
		{"CR | LF between data lines", []string{"data: a\r", "\ndata: b\r\n\r\n"}, []sseEvent{ev("", "a\nb", "", -1)}},
		{"CR | LF ending the event", []string{"data: a\r\n\r", "\ndata: b\r\n\r\n"}, []sseEvent{ev("", "a", "", -1), ev("", "b", "", -1)}},
		{"lone CR | data", []string{"data: a\r", "data: b\r\r"}, []sseEvent{ev("", "a\nb", "", -1)}},
		{"byte by byte", strings.Split("id: 1\r\nevent: m\r\ndata: x\r\n\r\n", ""), []sseEvent{ev("m", "x", "1", -1)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := collectSSE(t, &chunkReader{chunks: append([]string(nil), tc.chunks...)}, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			if !sameEvents(got, tc.want) {
				t.Errorf("got %s\nwant %s", fmtEvents(got), fmtEvents(tc.want))
			}
		})
	}
}

// A CR that is the last byte of readSSE's own 32 KiB buffer, with its LF
// the first byte of the next fill.
func TestReadSSECRAtInternalBufferBoundary(t *testing.T) {
	const bufSize = 32 << 10
	prefix := "data: "
	filler := strings.Repeat("x", bufSize-len(prefix)-1) // the CR lands at index bufSize-1
	in := prefix + filler + "\r\ndata: b\r\n\r\n"
	if in[bufSize-1] != '\r' || in[bufSize] != '\n' {
		t.Fatal("test setup: CR not at the buffer boundary")
	}
	got, err := collectSSE(t, &chunkReader{chunks: []string{in[:bufSize], in[bufSize:]}}, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	want := []sseEvent{ev("", filler+"\nb", "", -1)}
	if !sameEvents(got, want) {
		t.Errorf("got %d events (%d bytes of data in the first), want one event joining the two data lines", len(got), lenData(got))
	}
}

func lenData(evs []sseEvent) int {
	if len(evs) == 0 {
		return 0
	}
	return len(evs[0].Data)
}

func TestReadSSETooLarge(t *testing.T) {
	tests := []struct {
		name string
		in   string
		max  int
	}{
		{"one long line", "data: " + strings.Repeat("x", 100) + "\n\n", 50},
		{"one long unterminated line", "data: " + strings.Repeat("x", 100), 50},
		{"many lines in one event", strings.Repeat("data: 0123456789\n", 10) + "\n", 60},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := collectSSE(t, strings.NewReader(tc.in), tc.max)
			if !errors.Is(err, errEventTooLarge) {
				t.Fatalf("err = %v, want errEventTooLarge", err)
			}
			if len(got) != 0 {
				t.Errorf("dispatched %d events before failing", len(got))
			}
		})
	}

	// Size is per event: many events that each fit are fine.
	in := strings.Repeat("data: 0123456789\n\n", 20)
	got, err := collectSSE(t, strings.NewReader(in), 40)
	if err != nil || len(got) != 20 {
		t.Errorf("20 small events with max 40: got %d events, err %v", len(got), err)
	}
}

func TestReadSSECallbackErrorStops(t *testing.T) {
	stop := errors.New("stop")
	n := 0
	err := readSSE(strings.NewReader("data: 1\n\ndata: 2\n\n"), 1<<10, func(sseEvent) error {
		n++
		return stop
	})
	if err != stop || n != 1 {
		t.Errorf("err = %v after %d calls, want the callback's error after 1 call", err, n)
	}
}

func TestReadSSEReaderError(t *testing.T) {
	boom := errors.New("connection reset")
	r := io.MultiReader(strings.NewReader("data: 1\n\ndata: 2\n"), &errReader{boom})
	got, err := collectSSE(t, r, 1<<10)
	if !errors.Is(err, boom) {
		t.Errorf("err = %v, want %v", err, boom)
	}
	if want := []sseEvent{ev("", "1", "", -1)}; !sameEvents(got, want) {
		t.Errorf("got %s, want %s", fmtEvents(got), fmtEvents(want))
	}
}

type errReader struct{ err error }

func (r *errReader) Read([]byte) (int, error) { return 0, r.err }

// Deviations from the WHATWG algorithm that readSSE's doc comment claims to
// follow (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation).
func TestReadSSEWHATWGDetails(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []sseEvent
	}{
		// Regression (fixed): once wrong, now pinned:
		//   "retry" must be ignored unless its value is only ASCII digits;
		//   strconv.Atoi accepts a sign, so "+5" sets Retry to 5.
		{"retry with a plus sign ignored", "retry: +5\ndata: x\n\n", []sseEvent{ev("", "x", "", -1)}},
		// Regression (fixed): once wrong, now pinned:
		//   one leading U+FEFF BYTE ORDER MARK must be ignored; readSSE reads
		//   "\ufeffdata" as an unknown field and drops the event.
		{"leading BOM ignored", "\ufeffdata: x\n\n", []sseEvent{ev("", "x", "", -1)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := collectSSE(t, strings.NewReader(tc.in), 1<<10)
			if err != nil {
				t.Fatal(err)
			}
			if !sameEvents(got, tc.want) {
				t.Errorf("readSSE(%q)\n got %s\nwant %s", tc.in, fmtEvents(got), fmtEvents(tc.want))
			}
		})
	}
}
