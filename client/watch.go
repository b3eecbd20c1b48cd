package client

import (
	"context"
	"sync"
)

// watchSet holds the Watch callers of one connection (each gets every
// notification the server sends on its own), or the observers of a
// Client's notifications tied to no request (untied.go).
type watchSet struct {
	mu   sync.Mutex
	fns  map[int]func(Notification)
	next int
}

// add registers fn until the returned func is called.
func (w *watchSet) add(fn func(Notification)) (remove func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fns == nil {
		w.fns = map[int]func(Notification){}
	}
	id := w.next
	w.next++
	w.fns[id] = fn
	return func() {
		w.mu.Lock()
		delete(w.fns, id)
		w.mu.Unlock()
	}
}

// list returns the current watchers.
func (w *watchSet) list() []func(Notification) {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]func(Notification), 0, len(w.fns))
	for _, fn := range w.fns {
		out = append(out, fn)
	}
	return out
}

// watchUntil hands notifications to fn until ctx is done (its error) or
// the connection ends (done closes; why says what ended it).
func watchUntil(ctx context.Context, w *watchSet, fn func(Notification), done <-chan struct{}, why func() error) error {
	remove := w.add(fn)
	defer remove()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-done:
		return why()
	}
}
