package client

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"
)

// sseEvent is one dispatched Server-Sent Event.
type sseEvent struct {
	Event string
	Data  []byte
	ID    string
	Retry int // milliseconds, -1 when absent
	// More says more of the stream was already buffered at dispatch.
	More bool
}

var errEventTooLarge = errors.New("event too large")

var newline = []byte{'\n'}

// sseState is what a stream leaves behind for a reconnection: the last
// event id seen and the server's retry delay (ms, -1 when never given).
type sseState struct {
	LastID string
	Retry  int
}

// readSSE parses an event stream as the WHATWG algorithm does: fields
// "event", "data", "id", "retry"; lines starting with ":" are comments
// (keep-alives) and ignored; CRLF, LF and CR all end lines; a blank line
// dispatches an event if it has data. fn returning an error stops the read.
func readSSE(r io.Reader, maxEvent int, fn func(sseEvent) error) error {
	return readSSEState(r, maxEvent, &sseState{Retry: -1}, fn)
}

// readSSEState is readSSE keeping st up to date, as an EventSource keeps
// its last event id and reconnection time.
func readSSEState(r io.Reader, maxEvent int, st *sseState, fn func(sseEvent) error) error {
	br := bufio.NewReaderSize(r, 32<<10)
	// The stream may start with a byte-order mark, which is not data.
	if bom, err := br.Peek(3); err == nil && string(bom) == "\ufeff" {
		_, _ = br.Discard(3)
	}
	ev := sseEvent{Retry: -1, ID: st.LastID}
	// data holds the event's data lines joined (in chunks, so that it never
	// holds much more than the event's size limit); a lone data line (the
	// usual case) is kept as read instead, so that a large message is not
	// copied.
	var data lineBuffer
	var onlyLine []byte
	dataLines := 0
	size := 0
	pendingCR := false
	for {
		line, err := readSSELine(br, &pendingCR, maxEvent)
		if err != nil && len(line) == 0 {
			if err == io.EOF {
				return nil // an unterminated event at EOF is discarded, as the spec says
			}
			return err
		}
		if len(line) == 0 {
			st.LastID = ev.ID
			if dataLines > 0 {
				ev.Data = onlyLine
				if dataLines > 1 {
					ev.Data = bytes.TrimSuffix(data.bytes(), []byte("\n"))
				}
				ev.More = br.Buffered() > 0
				if ferr := fn(ev); ferr != nil {
					return ferr
				}
			}
			ev = sseEvent{Retry: -1, ID: ev.ID}
			data = lineBuffer{}
			onlyLine, dataLines, size = nil, 0, 0
			continue
		}
		size += len(line)
		if size > maxEvent {
			return errEventTooLarge
		}
		if line[0] == ':' {
			continue
		}
		field, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			field, value = line[:i], line[i+1:]
			value = bytes.TrimPrefix(value, []byte(" "))
		}
		switch string(field) {
		case "data":
			dataLines++
			switch dataLines {
			case 1:
				onlyLine = value
			case 2:
				data.add(onlyLine)
				data.add(newline)
				fallthrough
			default:
				data.add(value)
				data.add(newline)
			}
		case "event":
			ev.Event = string(value)
		case "id":
			if bytes.IndexByte(value, 0) < 0 {
				ev.ID = string(value)
			}
		case "retry":
			if len(value) > 0 && len(bytes.Trim(value, "0123456789")) == 0 {
				if n, perr := strconv.Atoi(string(value)); perr == nil {
					ev.Retry = n
					st.Retry = n
				}
			}
		}
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// readSSELine returns one line without its terminator, in a slice of its
// own. A lone CR ends a line too; pendingCR remembers one so that a
// following LF is skipped. It scans what is buffered rather than byte by
// byte: a large message arrives as one long data line.
func readSSELine(br *bufio.Reader, pendingCR *bool, max int) ([]byte, error) {
	var line lineBuffer
	for {
		if br.Buffered() == 0 {
			if _, err := br.Peek(1); err != nil {
				return line.bytes(), err
			}
		}
		buf, _ := br.Peek(br.Buffered())
		if *pendingCR {
			*pendingCR = false
			if buf[0] == '\n' {
				_, _ = br.Discard(1)
				continue
			}
		}
		i := bytes.IndexAny(buf, "\r\n")
		if i < 0 {
			line.add(buf)
			_, _ = br.Discard(len(buf))
		} else {
			line.add(buf[:i])
			_, _ = br.Discard(i + 1)
			*pendingCR = buf[i] == '\r'
		}
		if line.len() > max {
			return nil, errEventTooLarge
		}
		if i >= 0 {
			if l := line.bytes(); l != nil {
				return l, nil
			}
			return []byte{}, nil // an empty line, not the end of the stream
		}
	}
}
