package client

import (
	"encoding/json"
	"sync"
	"time"
)

// MemoryCache is a ResultCache in memory, for a client that lives longer
// than one request: a warm CallTool, say, is then one request on the
// wire, as the on-disk Cache makes it for separate processes. Results are
// kept until their time to live has passed and they are asked for again,
// but for lists, which are kept stale as hints (as on disk).
// The zero value is ready to use.
type MemoryCache struct {
	// Now replaces time.Now in tests.
	Now func() time.Time

	mu      sync.Mutex
	entries map[CacheKey]*CacheEntry
}

// Clock implements ResultCache.
func (m *MemoryCache) Clock() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

// Get implements ResultCache; a stale entry is dropped, but for a list's.
func (m *MemoryCache) Get(k CacheKey) (*CacheEntry, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entries[k]
	if !ok {
		return nil, false
	}
	if !e.Fresh(m.Clock()) && !hintMethods[k.Method] {
		delete(m.entries, k)
	}
	cp := *e
	return &cp, true
}

// PutTTL implements ResultCache.
func (m *MemoryCache) PutTTL(k CacheKey, result json.RawMessage, ttlMs int64) error {
	e, ok := newEntry(k, append(json.RawMessage(nil), result...), ttlMs, m.Clock(), "")
	if !ok {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.entries == nil {
		m.entries = map[CacheKey]*CacheEntry{}
	}
	m.entries[k] = &e
	return nil
}

// Delete implements ResultCache.
func (m *MemoryCache) Delete(k CacheKey) {
	m.mu.Lock()
	delete(m.entries, k)
	m.mu.Unlock()
}
