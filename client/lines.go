package client

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// lineReader reads newline-delimited JSON-RPC messages, as stdio and
// NewConn carry them, and hands each to the connection's mux.
type lineReader struct {
	mux       *mux
	trace     Tracer
	malformed func(line []byte, err error) bool
	maxLine   int
	// where ("on stdout") and hint complete the error for a line that is
	// not JSON at all.
	where, hint string
}

// readMessages hands every line of r to handleLine until r ends or a line
// breaks the protocol, and returns why it stopped: io.EOF at a clean end,
// *partialMessageError when the output ended inside a message, a read
// error, or what broke the protocol.
func (l *lineReader) readMessages(r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := readLine(br, l.maxLine)
		if errors.Is(err, errLineTooLong) {
			return &MessageTooLargeError{Limit: l.maxLine}
		}
		if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 {
			// A last message without its newline still counts if whole;
			// half of one means the server died writing it. (Other text
			// is reported as the stray output it is.)
			if err != nil && trimmed[0] == '{' && !json.Valid(trimmed) {
				return &partialMessageError{line: trimmed}
			}
			if perr := l.handleLine(line, br.Buffered() > 0); perr != nil {
				return perr
			}
		}
		if err != nil {
			return err
		}
	}
}

// partialMessageError: the output ended in the middle of a line.
type partialMessageError struct{ line []byte }

func (e *partialMessageError) Error() string { return "the output ended inside a message" }

var errLineTooLong = errors.New("line too long")

func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var line lineBuffer
	for {
		chunk, err := br.ReadSlice('\n')
		line.add(chunk)
		if line.len() > max {
			return nil, errLineTooLong
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return line.bytes(), err
	}
}

func (l *lineReader) handleLine(line []byte, more bool) error {
	line = bytes.TrimSpace(line)
	if l.trace != nil {
		l.trace(TraceEvent{Dir: "recv", Body: line})
	}
	msg, err := DecodeMessage(line)
	if err != nil && l.malformed != nil && l.malformed(line, err) {
		return nil
	}
	if err != nil {
		if bytes.HasPrefix(line, []byte("{")) || bytes.HasPrefix(line, []byte("[")) {
			return err
		}
		return &ProtocolError{Msg: "the server wrote something that is not JSON" + l.where + ": " + snippet(line) + l.hint}
	}
	return l.mux.deliver(msg, line, more)
}
