package client

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// FuzzReadSSE checks readSSE against a plain model of the WHATWG event
// stream rules (refSSE, below), fed whole and one byte per read: the
// events must be the same either way, and their fields must never carry a
// line break the parser should have split on. A small size limit must end
// the stream with an error instead of an oversized event.
func FuzzReadSSE(f *testing.F) {
	// Seeds: testdata/fuzz/FuzzReadSSE.
	f.Fuzz(func(t *testing.T, in []byte) {
		want := refSSE(in)
		whole, err := parseAll(bytes.NewReader(in), 1<<20)
		if err != nil {
			t.Fatalf("readSSE: %v", err)
		}
		bytewise, err := parseAll(iotest.OneByteReader(bytes.NewReader(in)), 1<<20)
		if err != nil {
			t.Fatalf("readSSE, one byte at a time: %v", err)
		}
		if !sameEvents(whole, want) {
			t.Fatalf("readSSE(%q)\n got %s\nwant %s", in, fmtEvents(whole), fmtEvents(want))
		}
		if !sameEvents(bytewise, want) {
			t.Fatalf("readSSE one byte at a time (%q)\n got %s\nwant %s", in, fmtEvents(bytewise), fmtEvents(want))
		}
		for _, ev := range whole {
			if bytes.ContainsAny(ev.Data, "\r") || strings.ContainsAny(ev.Event, "\r\n") || strings.ContainsAny(ev.ID, "\r\n\x00") {
				t.Fatalf("a field carries a line break: %s", fmtEvents([]sseEvent{ev}))
			}
		}
		const small = 16
		evs, err := parseAll(bytes.NewReader(in), small)
		for _, ev := range evs {
			if len(ev.Data) > small {
				t.Fatalf("an event of %d bytes passed a limit of %d", len(ev.Data), small)
			}
		}
		if err == nil && !sameEvents(evs, want) {
			t.Fatalf("with a limit readSSE neither failed nor gave the events:\n got %s\nwant %s", fmtEvents(evs), fmtEvents(want))
		}
	})
}

func parseAll(r interface{ Read([]byte) (int, error) }, max int) ([]sseEvent, error) {
	var got []sseEvent
	err := readSSE(r, max, func(ev sseEvent) error {
		ev.Data = append([]byte(nil), ev.Data...)
		got = append(got, ev)
		return nil
	})
	return got, err
}

// refSSE is the event stream interpretation of the HTML standard, written
// for clarity rather than speed: split into lines at CRLF, LF or CR, then
// apply each field; a blank line dispatches; an unfinished event at the
// end is dropped.
func refSSE(in []byte) []sseEvent {
	s := strings.TrimPrefix(string(in), "\ufeff")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	lines := strings.Split(s, "\n")
	lines = lines[:len(lines)-1] // what follows the last line break is unfinished
	var out []sseEvent
	var data []string
	hasData := false
	ev := sseEvent{Retry: -1}
	for _, line := range lines {
		if line == "" {
			if hasData {
				ev.Data = []byte(strings.Join(data, "\n"))
				out = append(out, ev)
			}
			ev = sseEvent{Retry: -1, ID: ev.ID}
			data, hasData = nil, false
			continue
		}
		if line[0] == ':' {
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "data":
			data, hasData = append(data, value), true
		case "event":
			ev.Event = value
		case "id":
			if !strings.Contains(value, "\x00") {
				ev.ID = value
			}
		case "retry":
			if n, err := strconv.Atoi(value); err == nil && value != "" && strings.Trim(value, "0123456789") == "" {
				ev.Retry = n
			}
		}
	}
	return out
}
