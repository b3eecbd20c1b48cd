package client

// A legacy server's request (elicitation/create) is answered while the
// call that caused it is in flight. When a person answers it at a prompt,
// that call waits on the person, not on the server: its Timeout must not
// run out while they type. And when the person's answer will not come
// (they pressed Ctrl-C, or the caller's own deadline for the answer
// passed), the calls in flight end for that reason, instead of the server
// being told "no answer" and the call going on without them.

import (
	"context"
	"errors"
	"sync"
	"time"
)

// userWait is what a Client knows of the people answering its server's
// requests.
type userWait struct {
	mu       sync.Mutex
	holds    int
	released time.Time
	stopped  context.Context // done once an answer was given up on
	stop     context.CancelCauseFunc
}

func (w *userWait) init() {
	w.stopped, w.stop = context.WithCancelCause(context.Background())
}

type userWaitKey struct{}

// HoldTimeouts tells the Client that the handler answering a server
// request (the ctx it was given) now waits for a person. Until release is
// called, no request in flight times out; each then has its full Timeout
// again, counted from the release. With any other ctx it does nothing.
func HoldTimeouts(ctx context.Context) (release func()) {
	w, _ := ctx.Value(userWaitKey{}).(*userWait)
	if w == nil {
		return func() {}
	}
	w.mu.Lock()
	w.holds++
	w.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			w.mu.Lock()
			w.holds--
			w.released = time.Now()
			w.mu.Unlock()
		})
	}
}

// postpone says how much longer a request whose Timeout just ran out is
// to wait: while a person answers, and for a full Timeout after, it is
// not the server that is slow.
func (w *userWait) postpone(timeout time.Duration) time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.holds > 0 {
		return timeout
	}
	if since := time.Since(w.released); !w.released.IsZero() && since < timeout {
		return timeout - since
	}
	return 0
}

// givenUp reports an InputHandler error that means the answer will not
// come: the calls waiting for it are to end with it.
func givenUp(err error) bool {
	var te *TimeoutError
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.As(err, &te)
}
