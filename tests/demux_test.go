package tests

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/mcpctl/mcpctl/client"
)

// Two subscriptions on one stdio process: every notification reaches the
// subscription whose id it carries, and only that one.
func TestListenDemultiplexStdio(t *testing.T) {
	dir := linkBinaries(t)
	tr := client.NewStdio(client.StdioOptions{Command: []string{filepath.Join(dir, "fakemcp"), "listenhold"}})
	c := client.New(tr, client.Options{ClientInfo: client.Implementation{Name: "test", Version: "0"}, Timeout: 10 * time.Second})
	defer c.Close()

	type got struct {
		events []client.ListenEvent
	}
	filters := []string{`{"toolsListChanged":true}`, `{"resourceSubscriptions":["demo://counter"]}`}
	results := make([]got, len(filters))
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for i, f := range filters {
		wg.Add(1)
		go func(i int, f string) {
			defer wg.Done()
			subCtx, stop := context.WithCancel(ctx)
			defer stop()
			_, _ = c.Listen(subCtx, json.RawMessage(f), client.ListenOptions{}, func(ev client.ListenEvent) {
				results[i].events = append(results[i].events, ev)
				if len(results[i].events) == 3 { // the acknowledgment and two notifications
					stop()
				}
			})
		}(i, f)
	}
	wg.Wait()
	for i, r := range results {
		if len(r.events) != 3 {
			t.Fatalf("subscription %d got %d events, want 3", i, len(r.events))
		}
		sid := string(r.events[0].SubscriptionID)
		if r.events[0].Kind != "acknowledged" {
			t.Errorf("subscription %d: first event %s, want the acknowledgment", i, r.events[0].Kind)
		}
		for _, ev := range r.events {
			if string(ev.SubscriptionID) != sid {
				t.Errorf("subscription %d (id %s) got an event of subscription %s", i, sid, ev.SubscriptionID)
			}
		}
	}
	if string(results[0].events[0].SubscriptionID) == string(results[1].events[0].SubscriptionID) {
		t.Error("both subscriptions have the same id")
	}
}
