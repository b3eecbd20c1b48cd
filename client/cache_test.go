package client

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestCachePutGet(t *testing.T) {
	now := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	c := &Cache{Dir: t.TempDir(), Version: "v1", Now: func() time.Time { return now }}
	k := CacheKey{Server: "http://x/mcp", Version: "2026-07-28", Method: "tools/list", Params: "{}"}
	tests := []struct {
		name   string
		result string
		stored bool
	}{
		{"positive ttl", `{"tools":[],"ttlMs":1000,"cacheScope":"public"}`, true},
		{"zero ttl", `{"tools":[],"ttlMs":0}`, false},
		{"negative ttl", `{"tools":[],"ttlMs":-5}`, false},
		{"no ttl", `{"tools":[]}`, false},
		{"fractional ttl", `{"tools":[],"ttlMs":1.5}`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c.Delete(k)
			if err := c.Put(k, json.RawMessage(tc.result)); err != nil {
				t.Fatal(err)
			}
			e, ok := c.Get(k)
			if ok != tc.stored {
				t.Fatalf("stored = %v, want %v", ok, tc.stored)
			}
			if ok && string(e.Result) != tc.result {
				t.Errorf("result %s, want %s", e.Result, tc.result)
			}
		})
	}
}

func TestCacheFreshness(t *testing.T) {
	e := &CacheEntry{StoredAt: time.Unix(100, 0), TTLMs: 1500}
	for _, tc := range []struct {
		at    time.Time
		fresh bool
	}{
		{time.Unix(100, 0), true},
		{time.Unix(101, 499e6), true},
		{time.Unix(101, 500e6), false},
		{time.Unix(200, 0), false},
	} {
		if got := e.Fresh(tc.at); got != tc.fresh {
			t.Errorf("Fresh(%v) = %v, want %v", tc.at, got, tc.fresh)
		}
	}
}

// Entries from another mcpctl version, corrupt files and foreign keys are
// treated as absent.
func TestCacheIgnoresForeignEntries(t *testing.T) {
	dir := t.TempDir()
	k := CacheKey{Server: "s", Method: "tools/list"}
	old := &Cache{Dir: dir, Version: "v1"}
	if err := old.Put(k, json.RawMessage(`{"ttlMs":60000}`)); err != nil {
		t.Fatal(err)
	}
	if _, ok := (&Cache{Dir: dir, Version: "v2"}).Get(k); ok {
		t.Error("an entry written by another version was used")
	}
	if err := os.WriteFile(old.path(k), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := old.Get(k); ok {
		t.Error("a corrupt entry was used")
	}
	if err := old.Put(k, json.RawMessage(`{"ttlMs":60000}`)); err != nil {
		t.Fatal(err)
	}
	if _, ok := old.Get(k); !ok {
		t.Error("the corrupt entry was not rewritten")
	}
	entries, err := old.List()
	if err != nil || len(entries) != 1 {
		t.Fatalf("List = %v, %v; want one entry", entries, err)
	}
}

// Many writers of one entry at once leave one whole, valid entry.
func TestCacheConcurrentWriters(t *testing.T) {
	c := &Cache{Dir: t.TempDir(), Version: "v"}
	k := CacheKey{Server: "s", Method: "resources/read", Params: `{"uri":"x"}`}
	var wg sync.WaitGroup
	for i := 0; i < 32; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			big := make([]byte, 64<<10)
			for j := range big {
				big[j] = 'a' + byte(i%26)
			}
			res, _ := json.Marshal(map[string]any{"ttlMs": 60000, "blob": string(big)})
			if err := c.Put(k, res); err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	e, ok := c.Get(k)
	if !ok {
		t.Fatal("no valid entry after concurrent writes")
	}
	var v struct {
		Blob string `json:"blob"`
	}
	if err := json.Unmarshal(e.Result, &v); err != nil || len(v.Blob) != 64<<10 {
		t.Fatalf("entry damaged: %v (len %d)", err, len(v.Blob))
	}
	left, _ := filepath.Glob(filepath.Join(c.Dir, ".tmp-*"))
	if len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

func TestCacheParams(t *testing.T) {
	for _, tc := range []struct {
		method, params, key string
		ok                  bool
	}{
		{"tools/list", ``, `{}`, true},
		{"tools/list", `{"_meta":{"x":1}}`, `{}`, true},
		{"tools/list", `{"cursor":"c2"}`, `{"cursor":"c2"}`, true},
		{"resources/read", `{"uri":"file:///a"}`, `{"uri":"file:///a"}`, true},
		{"resources/read", `{"uri":"a","inputResponses":{}}`, "", false},
		{"resources/read", `{"uri":"a","requestState":"s"}`, "", false},
		{"tools/list", `{"filter":"x"}`, "", false},
	} {
		key, ok := cacheParams(tc.method, json.RawMessage(tc.params))
		if ok != tc.ok || key != tc.key {
			t.Errorf("cacheParams(%s, %s) = %q, %v; want %q, %v", tc.method, tc.params, key, ok, tc.key, tc.ok)
		}
	}
}

func TestCachedItems(t *testing.T) {
	now := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	c := &Cache{Dir: t.TempDir(), Version: "v1", Now: func() time.Time { return now }}
	srv := "stdio:srv"
	put := func(version, params, result string, cred string) {
		t.Helper()
		k := CacheKey{Server: srv, Version: version, Method: "tools/list", Params: params, Credential: cred}
		if err := c.Put(k, json.RawMessage(result)); err != nil {
			t.Fatal(err)
		}
	}
	names := func(items []json.RawMessage) string {
		var out []string
		for _, it := range items {
			var tool struct{ Name string }
			_ = json.Unmarshal(it, &tool)
			out = append(out, tool.Name)
		}
		return strings.Join(out, ",")
	}
	if got := c.CachedItems(srv, "", []string{""}, "tools/list", "tools"); got != nil {
		t.Fatalf("empty cache: %v", got)
	}
	// Two pages stored by a legacy era (with --cache-ttl), long expired:
	// completion still reads them.
	put("2025-06-18", `{}`, `{"tools":[{"name":"a"}],"nextCursor":"p2","ttlMs":1}`, "")
	put("2025-06-18", `{"cursor":"p2"}`, `{"tools":[{"name":"b"}],"ttlMs":1}`, "")
	now = now.Add(time.Hour)
	if got := names(c.CachedItems(srv, "", []string{""}, "tools/list", "tools")); got != "a,b" {
		t.Errorf("pages = %q", got)
	}
	// A newer version's entry is preferred; a private one needs its credential.
	put(LatestVersion, `{}`, `{"tools":[{"name":"secret"}],"ttlMs":1000,"cacheScope":"private"}`, "cred1")
	if got := names(c.CachedItems(srv, "cred1", []string{""}, "tools/list", "tools")); got != "secret" {
		t.Errorf("private = %q", got)
	}
	if got := names(c.CachedItems(srv, "cred2", []string{""}, "tools/list", "tools")); got != "a,b" {
		t.Errorf("other credential = %q", got)
	}
	// A cursor that loops ends the walk.
	put(LatestVersion, `{}`, `{"tools":[{"name":"x"}],"nextCursor":"x","ttlMs":1000}`, "")
	put(LatestVersion, `{"cursor":"x"}`, `{"tools":[{"name":"y"}],"nextCursor":"x","ttlMs":1000}`, "")
	if got := names(c.CachedItems(srv, "", []string{""}, "tools/list", "tools")); got != "x,y" {
		t.Errorf("loop = %q", got)
	}
}
