package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// getServer is a legacy server's GET endpoint whose answer to the n-th
// GET (from 1) is serve's; it notes when each GET came.
type getServer struct {
	mu    sync.Mutex
	times []time.Time
	more  chan struct{}
}

func newGetServer(t *testing.T, serve func(n int, w http.ResponseWriter, r *http.Request)) (*getServer, *legacyHTTP) {
	t.Helper()
	g := &getServer{more: make(chan struct{}, 1)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		g.mu.Lock()
		g.times = append(g.times, time.Now())
		n := len(g.times)
		g.mu.Unlock()
		select {
		case g.more <- struct{}{}:
		default:
		}
		serve(n, w, r)
	}))
	t.Cleanup(srv.Close)
	tr := newTestLegacyHTTP(t, HTTPOptions{URL: srv.URL})
	t.Cleanup(func() { tr.Close() })
	return g, tr
}

// gets are the times of the GETs so far.
func (g *getServer) gets() []time.Time {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]time.Time(nil), g.times...)
}

// waitGets waits (generously) until n GETs came.
func (g *getServer) waitGets(t *testing.T, n int) []time.Time {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		if got := g.gets(); len(got) >= n {
			return got
		}
		select {
		case <-g.more:
		case <-deadline:
			t.Fatalf("only %d GETs came, want %d", len(g.gets()), n)
		}
	}
}

func sseHeader(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
}

// A GET stream the server closes at once, bringing nothing, is opened
// again after the server's retry delay (at least minReopen), doubled for
// each such stream in a row: the server is not asked again and again.
func TestEventStreamReopenBacksOff(t *testing.T) {
	t.Parallel()
	g, tr := newGetServer(t, func(n int, w http.ResponseWriter, r *http.Request) {
		sseHeader(w)
		fmt.Fprint(w, "retry: 20\n\n") // and closes
	})
	tr.StartEventStream(context.Background(), nil)
	times := g.waitGets(t, 5)
	want := []time.Duration{minReopen, 2 * minReopen, 4 * minReopen, 8 * minReopen}
	for i, w := range want {
		// Each GET comes once the one before has ended and the delay has
		// passed: never sooner (a busy machine makes it later).
		if gap := times[i+1].Sub(times[i]); gap < w-5*time.Millisecond {
			t.Errorf("GET %d came %s after GET %d, want at least %s (gaps %v)", i+2, gap, i+1, w, gaps(times))
		}
	}
}

func gaps(times []time.Time) []time.Duration {
	var out []time.Duration
	for i := 1; i < len(times); i++ {
		out = append(out, times[i].Sub(times[i-1]).Round(time.Millisecond))
	}
	return out
}

// reopenDelay: the server's retry (or defaultRetry), never under
// minReopen, doubled for each empty stream after the first, up to
// maxReopen.
func TestReopenDelay(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		retry, empty int
		want         time.Duration
	}{
		{-1, 0, defaultRetry}, {-1, 1, defaultRetry}, {-1, 2, 2 * defaultRetry}, {-1, 3, 4 * defaultRetry},
		{-1, 9, maxReopen}, {-1, 1000, maxReopen},
		{0, 0, minReopen}, {0, 1, minReopen}, {0, 2, 2 * minReopen},
		{500, 0, 500 * time.Millisecond}, {500, 3, 2 * time.Second}, {120000, 0, maxReopen},
	} {
		if got := reopenDelay(&sseState{Retry: c.retry}, c.empty); got != c.want {
			t.Errorf("retry %d, %d empty streams: %s, want %s", c.retry, c.empty, got, c.want)
		}
	}
}

// A Watch after the stream is gone (its GET failed) opens it again,
// rather than repeating the old failure.
func TestWatchReopensAGoneStream(t *testing.T) {
	t.Parallel()
	_, tr := newGetServer(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		sseHeader(w)
		fmt.Fprint(w, `data: {"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`+"\n\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done() // open until the client goes
	})
	var he *HTTPError
	if err := tr.Watch(context.Background(), func(Notification) {}); !errors.As(err, &he) || he.Status != http.StatusServiceUnavailable {
		t.Fatalf("first Watch: %v, want the 503", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	got := make(chan string, 1)
	err := tr.Watch(ctx, func(n Notification) {
		select {
		case got <- n.Method:
		default:
		}
		cancel()
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("second Watch: %v", err)
	}
	select {
	case m := <-got:
		if m != "notifications/tools/list_changed" {
			t.Errorf("got %s", m)
		}
	default:
		t.Error("the second Watch opened no stream")
	}
}

// A server that answers the GET with 405 has no stream: Watch says so,
// and asking again does not send another GET.
func TestWatchNoStreamAsksOnce(t *testing.T) {
	t.Parallel()
	g, tr := newGetServer(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", "POST, DELETE")
		w.WriteHeader(http.StatusMethodNotAllowed)
	})
	for i := range 2 {
		err := tr.Watch(context.Background(), func(Notification) {})
		if !noEventStream(err) || !strings.Contains(err.Error(), "no event stream") {
			t.Fatalf("Watch %d: %v", i+1, err)
		}
	}
	if n := len(g.gets()); n != 1 {
		t.Errorf("%d GETs, want 1", n)
	}
}
