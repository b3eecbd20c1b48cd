package sessiond

// What waits for one invocation to read it, bounded in bytes: a server
// must not be able to make the session hold what a caller does not read
// (a listen paused with Ctrl-Z under a flood of notifications).

import (
	"encoding/json"
	"fmt"
	"sync"
)

// maxUnread bounds what the server sends unasked (notifications, its own
// requests) that may wait for one invocation to read it. An invocation
// that lets more pile up has fallen behind: what waits is dropped, it is
// told why and disconnected, and the session goes on for the others.
// Answers to its own requests are not counted: there is one per request
// it sent. A line longer than the bound still goes to an invocation that
// has nothing else waiting.
const maxUnread = 4 << 20

// disconnectMethod is the session's last word on a connection it ends
// (params.message says why), which NewTransport's transport turns into
// the error of what was in flight. A server's notification of that name
// never reaches an invocation (fromServer).
const disconnectMethod = sessionMethods + "disconnected"

// behindMessage is why an invocation that fell behind was disconnected.
var behindMessage = fmt.Sprintf("this command fell behind reading what the server sent (more than %d MiB waited unread), so the session disconnected it; the session goes on", maxUnread>>20)

// outbox is one invocation's queue of lines to write, in order.
type outbox struct {
	mu      sync.Mutex
	lines   []waiting
	unasked int  // bytes of the unasked lines waiting
	writing bool // a line is being written
	behind  bool // fell behind: nothing more is queued, the last word is said
	wake    chan struct{}
}

type waiting struct {
	line    []byte
	unasked bool
}

func newOutbox() *outbox { return &outbox{wake: make(chan struct{}, 1)} }

// push queues line (its newline added); false when it made the invocation
// fall behind (the first time).
func (q *outbox) push(line []byte, unasked bool) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.behind {
		return true // on its way out: dropped
	}
	if unasked && q.unasked > 0 && q.unasked+len(line) > maxUnread {
		q.behind, q.lines, q.unasked = true, nil, 0
		q.signal()
		return false
	}
	w := waiting{append(append(make([]byte, 0, len(line)+1), line...), '\n'), unasked}
	q.lines = append(q.lines, w)
	if unasked {
		q.unasked += len(w.line)
	}
	q.signal()
	return true
}

func (q *outbox) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// take waits for the next line to write; last: it is the last word
// (the invocation fell behind), after which the connection is closed. ok
// is false when gone closed first.
func (q *outbox) take(gone <-chan struct{}) (line []byte, last, ok bool) {
	for {
		q.mu.Lock()
		switch {
		case q.behind:
			q.writing = true
			q.mu.Unlock()
			return disconnectLine(behindMessage), true, true
		case len(q.lines) > 0:
			w := q.lines[0]
			q.lines[0] = waiting{}
			q.lines = q.lines[1:]
			if len(q.lines) == 0 {
				q.lines = nil // let the backing array go
			}
			if w.unasked {
				q.unasked -= len(w.line)
			}
			line = w.line
			q.writing = true
			q.mu.Unlock()
			return line, false, true
		}
		q.mu.Unlock()
		select {
		case <-q.wake:
		case <-gone:
			return nil, false, false
		}
	}
}

// wrote notes the end of a write.
func (q *outbox) wrote() {
	q.mu.Lock()
	q.writing = false
	q.mu.Unlock()
}

// idle: nothing waits and nothing is being written.
func (q *outbox) idle() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.lines) == 0 && !q.writing && !q.behind
}

func disconnectLine(msg string) []byte {
	params, _ := json.Marshal(map[string]string{"message": msg})
	return append(notificationLine(disconnectMethod, params), '\n')
}
