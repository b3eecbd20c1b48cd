package client

import (
	"context"
	"sync"
)

// watchSet holds the Watch callers of one connection: each gets every
// notification the server sends on its own.
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

// fanOut hands a notification to every call in flight that takes them
// (*pending, guarded by mu, which also guards replacing the map) and to
// every watcher: on one connection nothing says which call a notification
// belongs to.
func fanOut(n Notification, mu *sync.Mutex, pending *map[int64]*pendingCall, w *watchSet) {
	mu.Lock()
	var fns []func(Notification)
	for _, p := range *pending {
		if p.notify != nil {
			fns = append(fns, p.notify)
		}
	}
	mu.Unlock()
	fns = append(fns, w.list()...)
	for _, fn := range fns {
		fn(n)
	}
}
