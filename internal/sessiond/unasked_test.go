//go:build linux || darwin

package sessiond

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/mcptest"
)

// recordingInput is the session's own answers (its flags), recording
// what it was asked.
type recordingInput struct {
	mu    sync.Mutex
	asked []string
}

func (in *recordingInput) Answer(_ context.Context, round client.InputRound) (map[string]json.RawMessage, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	out := map[string]json.RawMessage{}
	for _, r := range round.Requests {
		in.asked = append(in.asked, r.Method)
		switch r.Method {
		case "roots/list":
			out[r.Key] = json.RawMessage(`{"roots":[{"uri":"file:///session-root"}]}`)
		case "sampling/createMessage":
			out[r.Key] = json.RawMessage(`{"role":"assistant","content":{"type":"text","text":"sampled"},"model":"m"}`)
		default:
			out[r.Key] = json.RawMessage(`{"action":"accept","content":{"name":"Ann"}}`)
		}
	}
	return out, nil
}

// A legacy server that asks while no invocation has a request in flight
// (right after its handshake) is refused sampling and elicitation: the
// session does nothing on its own, and its own answers (its
// --sampling-cmd, its --answer) are never used. Roots are answered, from
// the session's own.
func TestNothingAnsweredOnItsOwn(t *testing.T) {
	t.Parallel()
	type answer struct {
		method string
		result json.RawMessage
		err    error
	}
	answers := make(chan answer, 3)
	legacy := byMethod(true, echo)
	b := newBench(t, func(ctx context.Context, r *mcptest.Request) (any, error) {
		if r.Method == "notifications/initialized" {
			go func() {
				for _, m := range []string{"sampling/createMessage", "elicitation/create", "roots/list"} {
					res, err := r.Ask(ctx, m, map[string]any{})
					answers <- answer{m, res, err}
				}
			}()
		}
		return legacy(ctx, r)
	})
	in := &recordingInput{}
	b.input = in
	b.start()
	for range 3 {
		select {
		case a := <-answers:
			refused := a.err != nil && strings.Contains(a.err.Error(), "does not answer "+a.method+" on its own")
			switch {
			case a.method == "roots/list" && (a.err != nil || !strings.Contains(string(a.result), "session-root")):
				t.Errorf("roots/list: %s, %v; want the session's own roots", a.result, a.err)
			case a.method != "roots/list" && !refused:
				t.Errorf("%s: answered %s (%v); want it refused", a.method, a.result, a.err)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("the server's questions were never answered")
		}
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if strings.Join(in.asked, " ") != "roots/list" {
		t.Errorf("the session's own answers were asked %v; want roots/list only", in.asked)
	}
	if log := b.log.String(); !strings.Contains(log, "refused the server's sampling/createMessage") {
		t.Errorf("log:\n%s", log)
	}
}
