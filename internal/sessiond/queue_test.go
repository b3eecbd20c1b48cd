//go:build linux || darwin

package sessiond

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/mcptest"
	"github.com/mcpctl/mcpctl/internal/exitcode"
)

// flood answers tools/call after sending count notifications of method,
// each with size bytes of padding (progress under the request's token).
func flood(method string, count, size int) mcptest.Handler {
	pad := strings.Repeat("x", size)
	return byMethod(false, func(ctx context.Context, r *mcptest.Request) (any, error) {
		if r.Method != "tools/call" {
			return nil, &mcptest.Error{Code: client.CodeMethodNotFound, Message: "no " + r.Method}
		}
		if argOf(r.Params, "flood") == "true" {
			for i := range count {
				p := map[string]any{"uri": "fake://" + strconv.Itoa(i), "pad": pad}
				if method == "notifications/progress" {
					p = map[string]any{"progressToken": metaOf(r.Params, progressKey), "progress": i, "message": pad}
				}
				_ = r.Notify(method, p)
			}
		}
		return map[string]any{"content": []any{}}, nil
	})
}

// An invocation that stops reading while the server floods it (a listen
// paused with Ctrl-Z) falls behind once more than maxUnread waits for it:
// what waits is dropped, not held, it is told why and disconnected, and
// the session serves the others on.
func TestCallerFallsBehind(t *testing.T) {
	t.Parallel()
	const count, size = 160, 64 << 10 // 10 MiB sent to a watcher that reads none of it
	b := newBench(t, flood("notifications/resources/updated", count, size)).start()
	kc, err := Dial(b.p)
	if err != nil || kc == nil {
		t.Fatalf("Dial: %v, %v", kc, err)
	}
	defer kc.Close()
	// Watch, and read up to the daemon's answer to a status: from then
	// on it sends this connection what the server says unasked, which
	// nobody reads for now.
	if _, err := kc.Write([]byte(`{"jsonrpc":"2.0","method":"` + watchMethod + `"}` + "\n" +
		`{"jsonrpc":"2.0","id":"s","method":"` + statusMethod + `"}` + "\n")); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReaderSize(kc, 1<<20)
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(line), `"id":"s"`) {
			break
		}
	}
	caller := b.transport()
	if _, err := toolCall(context.Background(), caller, 1, "work", map[string]any{"flood": true}, nil); err != nil {
		t.Fatalf("the caller that made the server speak: %v", err)
	}
	waitUntil(t, "the daemon notes the watcher fell behind", func() bool { return strings.Contains(b.log.String(), "fell behind") })
	// Now read: some of the flood (what the socket held, and what waited
	// under the bound), then the last word, then the end.
	var got int
	var last string
	for {
		line, err := r.ReadBytes('\n')
		got += len(line)
		if err != nil {
			break
		}
		last = string(line)
	}
	if got > maxUnread+2<<20 {
		t.Errorf("the watcher was sent %d bytes after it stopped reading: the flood was held, not dropped", got)
	}
	if !strings.Contains(last, disconnectMethod) || !strings.Contains(last, "fell behind") {
		t.Errorf("the last line: %.200q", last)
	}
	if _, err := toolCall(context.Background(), caller, 2, "work", nil, nil); err != nil {
		t.Errorf("the session after: %v", err)
	}
}

// Through NewTransport, an invocation whose request is in flight and which
// does not take its notifications (its handler blocks) gets the session's
// word as the request's error, exit 3; a server's notification that
// borrows the session's method name is not taken for it.
func TestFallenBehindIsAnError(t *testing.T) {
	t.Parallel()
	b := newBench(t, flood("notifications/progress", 160, 64<<10)).start()
	slow := b.transport()
	hold := make(chan struct{})
	var first bool
	params := json.RawMessage(`{"_meta":{"progressToken":1},"name":"work","arguments":{"flood":true}}`)
	_, err := slow.RoundTrip(context.Background(), &client.Request{ID: 1, Method: "tools/call", Params: params, Version: "2026-07-28"}, func(client.Notification) {
		if !first {
			first = true
			go func() {
				waitUntil(t, "the daemon notes the caller fell behind", func() bool { return strings.Contains(b.log.String(), "fell behind") })
				close(hold)
			}()
			<-hold // the reader stops here until the daemon has given up
		}
	})
	var se *Error
	if !errors.As(err, &se) || se.Code != exitcode.Connection || !strings.Contains(err.Error(), "fell behind") {
		t.Fatalf("the call: %v", err)
	}
	if _, err := toolCall(context.Background(), b.transport(), 1, "work", nil, nil); err != nil {
		t.Errorf("the session after: %v", err)
	}

	forged := newBench(t, byMethod(false, func(ctx context.Context, r *mcptest.Request) (any, error) {
		_ = r.Notify(disconnectMethod, map[string]any{"message": "forged"})
		return map[string]any{"content": []any{}}, nil
	})).start()
	if _, err := toolCall(context.Background(), forged.transport(), 1, "work", nil, nil); err != nil {
		t.Errorf("a server's %s: %v", disconnectMethod, err)
	}
}
