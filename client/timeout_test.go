package client

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/mcpctl/mcpctl/client/mcptest"
)

// A timeout says which limit ended the wait, so that the caller can name
// the setting that raises it: the request's own, the same counted from
// the last progress notification, or the cap on how far progress extends
// it.
func TestTimeoutSaysWhichBound(t *testing.T) {
	// slow sends progress every 30ms for reports reports, then nothing.
	slow := func(reports int) *mcptest.Server {
		return mcptest.NewServer(func(ctx context.Context, r *mcptest.Request) (any, error) {
			switch r.Method {
			case "server/discover":
				return json.RawMessage(`{"supportedVersions":["2026-07-28"],"capabilities":{},"serverInfo":{"name":"s","version":"1"}}`), nil
			case "slow/op":
				var p struct {
					Meta struct {
						Token json.RawMessage `json:"progressToken"`
					} `json:"_meta"`
				}
				_ = json.Unmarshal(r.Params, &p)
				for i := 0; i < reports; i++ {
					time.Sleep(30 * time.Millisecond)
					_ = r.Notify("notifications/progress", map[string]any{"progressToken": p.Meta.Token, "progress": i})
				}
				<-ctx.Done()
				return nil, ctx.Err()
			}
			return nil, &mcptest.Error{Code: CodeMethodNotFound, Message: "no " + r.Method}
		})
	}
	for _, c := range []struct {
		name      string
		reports   int
		max       time.Duration
		bound     TimeoutBound
		after     string
		minWaited time.Duration
	}{
		{"no progress", 0, 0, TimeoutRequest, "200ms", 0},
		{"progress, then silence", 3, 0, TimeoutSinceProgress, "200ms", 280 * time.Millisecond},
		{"progress without end, capped", 50, 400 * time.Millisecond, TimeoutMaxTotal, "400ms", 400 * time.Millisecond},
	} {
		cl := New(NewConn(slow(c.reports).Conn(), ConnOptions{}), Options{Timeout: 200 * time.Millisecond, Limits: Limits{MaxTimeout: c.max}})
		_, err := cl.Call(context.Background(), "slow/op", json.RawMessage(`{}`), nil)
		cl.Close()
		var te *TimeoutError
		if !errors.As(err, &te) {
			t.Errorf("%s: err = %T %v, want a *TimeoutError", c.name, err, err)
			continue
		}
		if te.Bound != c.bound || te.After != c.after || te.Total < c.minWaited {
			t.Errorf("%s: %+v (%v), want bound %d after %s, waited at least %s", c.name, te, te, c.bound, c.after, c.minWaited)
		}
	}
}
