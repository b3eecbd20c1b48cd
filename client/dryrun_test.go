package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// A dry run to a server remembered as legacy shows the handshake and the
// legacy request; the tool's definition comes from the cache (CacheOnly)
// and types the arguments; neither the era store nor the cache changes.
func TestDryRunUsesRememberedEraAndCache(t *testing.T) {
	ctx := context.Background()
	eras := &memEras{m: map[string]EraInfo{"srv": {Era: EraLegacy, Version: "2025-06-18", Transport: BindingStdio}}}
	cache := &MemoryCache{}
	params, _ := cacheParams("tools/list", json.RawMessage(`{}`))
	tools := `{"tools":[{"name":"job","inputSchema":{"type":"object","properties":{"steps":{"type":"integer"}}}}]}`
	if err := cache.PutTTL(CacheKey{Server: "srv", Version: "2025-06-18", Method: "tools/list", Params: params}, json.RawMessage(tools), 60000); err != nil {
		t.Fatal(err)
	}
	var shown []string
	st := NewStdio(StdioOptions{Command: []string{"true"}, DryRun: func(r DryRunRequest) { shown = append(shown, string(r.Body)) }})
	c := New(st, Options{DryRun: true, ServerID: "srv", EraStore: eras, Cache: CacheOptions{Store: cache},
		ClientInfo: Implementation{Name: "t", Version: "1"}})
	defer c.Close()

	// A listing is shown, not answered from the cache.
	if _, err := c.ListWith(ctx, "tools/list", "tools", "", true, nil); !errors.Is(err, ErrDryRun) {
		t.Fatalf("tools/list: %v, want ErrDryRun", err)
	}
	list, err := c.ListWith(ctx, "tools/list", "tools", "", true, &CallOptions{CacheOnly: true})
	if err != nil || string(list) != tools {
		t.Fatalf("CacheOnly: %s, %v", list, err)
	}
	tool, err := FindTool(list, "job")
	if err != nil {
		t.Fatal(err)
	}
	prepare := func(_, args json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(strings.ReplaceAll(string(args), `"2"`, `2`)), nil // stands in for schema typing
	}
	_, err = c.CallTool(ctx, "job", json.RawMessage(`{"steps":"2"}`), &CallOptions{Tool: tool, PrepareArgs: prepare})
	if !errors.Is(err, ErrDryRun) {
		t.Fatalf("tools/call: %v, want ErrDryRun", err)
	}
	// The handshake comes once, before the first request: the listing's.
	want := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"progressToken":2}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"_meta":{"progressToken":3},"name":"job","arguments":{"steps":2}}}`,
	}
	if fmt.Sprint(shown) != fmt.Sprint(want) {
		t.Errorf("shown:\n%s\nwant:\n%s", strings.Join(shown, "\n"), strings.Join(want, "\n"))
	}
	if e := eras.m["srv"]; len(eras.m) != 1 || e.Era != EraLegacy || e.Version != "2025-06-18" || !e.StoredAt.IsZero() {
		t.Errorf("the era store changed: %+v", eras.m)
	}
	if len(cache.entries) != 1 {
		t.Errorf("the cache changed: %d entries", len(cache.entries))
	}

	// Nothing cached: ErrNotCached, and nothing shown.
	shown = nil
	c2 := New(NewStdio(StdioOptions{Command: []string{"true"}, DryRun: func(r DryRunRequest) { shown = append(shown, string(r.Body)) }}),
		Options{DryRun: true, ServerID: "other", Cache: CacheOptions{Store: cache}})
	defer c2.Close()
	if _, err := c2.ListWith(ctx, "tools/list", "tools", "", true, &CallOptions{CacheOnly: true}); !errors.Is(err, ErrNotCached) || len(shown) != 0 {
		t.Errorf("CacheOnly, nothing cached: %v, %d shown", err, len(shown))
	}
}
