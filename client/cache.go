package client

// The result cache of revision 2026-07-28 (server/utilities/caching): the
// six cacheable methods carry ttlMs and cacheScope; a result is fresh while
// now < received + ttlMs. mcpctl runs once per command, so the cache lives
// on disk and is shared by every process: one file per entry, written to a
// temporary file and renamed into place, so a reader sees a whole old entry
// or a whole new one, and two writers of the same entry leave one of them.
// Anything unreadable, corrupt or written by another mcpctl version is
// treated as absent and overwritten by the next fresh result.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/mcpctl/mcpctl/client/atomicfile"
)

// cacheFormat changes whenever the entry layout does (2: the key holds
// the client's capabilities, and list results are kept stale).
const cacheFormat = 2

// cacheableMethods are the methods whose complete results carry caching
// hints.
var cacheableMethods = map[string]bool{
	"server/discover": true, "tools/list": true, "prompts/list": true,
	"resources/list": true, "resources/templates/list": true, "resources/read": true,
}

// IsCacheable reports whether method's complete results carry caching
// hints (ttlMs, cacheScope), and so may be cached.
func IsCacheable(method string) bool { return cacheableMethods[method] }

// hintMethods are the lists whose results are kept whatever their ttlMs
// (0, none, a legacy server's): once stale, such an entry never answers
// a request, but it still says what the server offered last time. A
// tools/call is typed, validated and given its Mcp-Param-* headers from
// it without a tools/list round trip first (CallTool), and shell
// completion offers its names.
var hintMethods = map[string]bool{
	"tools/list": true, "prompts/list": true, "resources/list": true, "resources/templates/list": true,
}

// ResultCache stores cacheable results for a Client
// (CacheOptions.Store): the on-disk Cache, shared by every process, or a
// MemoryCache, for one long-lived client.
type ResultCache interface {
	// Get returns the entry for k, fresh or not.
	Get(k CacheKey) (*CacheEntry, bool)
	// PutTTL stores result under k for ttlMs (-1: the result's own
	// ttlMs, and a result with no positive ttlMs of its own is not
	// stored); 0 stores an entry that is stale at once, kept as a hint.
	PutTTL(k CacheKey, result json.RawMessage, ttlMs int64) error
	Delete(k CacheKey)
	// Clock is the time freshness is judged by.
	Clock() time.Time
}

// Cache is an on-disk store of cacheable results.
type Cache struct {
	// Dir holds the entries; it is created (0700) on first write.
	Dir string
	// Version is the writer's version; entries of other versions are ignored.
	Version string
	// Now replaces time.Now in tests.
	Now func() time.Time
}

// CacheKey identifies a cached result. Everything that can change the
// answer is in it.
type CacheKey struct {
	Server  string `json:"server"`  // URL, or stdio command, args, env and cwd
	Version string `json:"version"` // protocol version
	Method  string `json:"method"`
	Params  string `json:"params"` // the params that affect the result: cursor, uri
	// Credential is a hash of the credentials in use, set only for
	// results a server marked private.
	Credential string `json:"credential,omitempty"`
	// Caps is a digest of the client capabilities declared
	// (CapabilitiesDigest): a server may list more to a client that
	// offers sampling, roots, elicitation or tasks.
	Caps string `json:"caps,omitempty"`
}

// CapabilitiesDigest is the CacheKey.Caps of a clientCapabilities object:
// a short hash of its compact JSON ("" for none).
func CapabilitiesDigest(caps json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, caps) != nil || b.Len() == 0 || b.String() == "{}" {
		return ""
	}
	return HashCredential(b.String())[:16]
}

// CacheEntry is one stored result.
type CacheEntry struct {
	Format     int             `json:"format"`
	Writer     string          `json:"mcpctl"`
	Key        CacheKey        `json:"key"`
	StoredAt   time.Time       `json:"storedAt"`
	TTLMs      int64           `json:"ttlMs"`
	CacheScope string          `json:"cacheScope"`
	Result     json.RawMessage `json:"result"`

	// File is where the entry lives (not stored).
	File string `json:"-"`
}

// Fresh reports whether the entry may still be used at now.
func (e *CacheEntry) Fresh(now time.Time) bool {
	return e.TTLMs > 0 && now.Before(e.StoredAt.Add(time.Duration(e.TTLMs)*time.Millisecond))
}

// Clock implements ResultCache: Now, else time.Now.
func (c *Cache) Clock() time.Time { return c.now() }

func (c *Cache) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func (c *Cache) path(k CacheKey) string {
	b, _ := json.Marshal(k)
	sum := sha256.Sum256(b)
	return filepath.Join(c.Dir, hex.EncodeToString(sum[:16])+".json")
}

// Get returns the entry for k if it exists and is readable, fresh or not.
func (c *Cache) Get(k CacheKey) (*CacheEntry, bool) {
	return c.read(c.path(k), &k)
}

func (c *Cache) read(file string, want *CacheKey) (*CacheEntry, bool) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, false
	}
	var e CacheEntry
	if json.Unmarshal(data, &e) != nil || e.Format != cacheFormat || e.Writer != c.Version || len(e.Result) == 0 {
		return nil, false
	}
	if want != nil && e.Key != *want {
		return nil, false // a hash collision, however unlikely
	}
	e.File = file
	return &e, true
}

// Put stores result under k. The result's own ttlMs and cacheScope decide
// whether and how: no positive ttlMs, no entry.
func (c *Cache) Put(k CacheKey, result json.RawMessage) error {
	return c.PutTTL(k, result, -1)
}

// PutTTL is Put with the time to live given by the caller (ttlMs >= 0;
// 0 keeps a stale entry, as a hint) instead of the result's own ttlMs
// (-1).
func (c *Cache) PutTTL(k CacheKey, result json.RawMessage, ttlMs int64) error {
	e, ok := newEntry(k, result, ttlMs, c.now(), c.Version)
	if !ok {
		return nil
	}
	data, err := json.Marshal(e)
	if err != nil {
		return err
	}
	// The file is 0600, as results may hold private data.
	return atomicfile.Write(c.path(k), data)
}

// newEntry is the entry for result stored now, with the caller's time to
// live (ttlMs >= 0, 0 for an entry stale at once) or the result's own
// ttlMs (-1); false when it is not to be stored (-1 and no positive ttlMs
// of its own).
func newEntry(k CacheKey, result json.RawMessage, ttlMs int64, now time.Time, writer string) (CacheEntry, bool) {
	var hints struct {
		TTLMs      *json.Number `json:"ttlMs"`
		CacheScope string       `json:"cacheScope"`
	}
	if json.Unmarshal(result, &hints) != nil {
		return CacheEntry{}, false
	}
	ttl := ttlMs
	if ttl < 0 {
		if hints.TTLMs == nil {
			return CacheEntry{}, false
		}
		var err error
		if ttl, err = hints.TTLMs.Int64(); err != nil || ttl <= 0 {
			return CacheEntry{}, false
		}
	}
	return CacheEntry{Format: cacheFormat, Writer: writer, Key: k, StoredAt: now,
		TTLMs: ttl, CacheScope: hints.CacheScope, Result: result}, true
}

// Delete removes the entry for k, if any.
func (c *Cache) Delete(k CacheKey) {
	_ = os.Remove(c.path(k))
}

// List returns every readable entry, oldest first.
func (c *Cache) List() ([]*CacheEntry, error) {
	files, err := os.ReadDir(c.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []*CacheEntry
	for _, f := range files {
		if !strings.HasSuffix(f.Name(), ".json") {
			continue
		}
		if e, ok := c.read(filepath.Join(c.Dir, f.Name()), nil); ok {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].StoredAt.Before(out[j].StoredAt) })
	return out, nil
}

// Clear removes every entry and returns how many files it removed.
func (c *Cache) Clear() (int, error) { return clearDir(c.Dir) }

// cacheParams extracts the params of a request that affect a cacheable
// result: the cursor of a list, the uri of a read.
func cacheParams(method string, params json.RawMessage) (string, bool) {
	var p map[string]json.RawMessage
	if len(bytes.TrimSpace(params)) > 0 && json.Unmarshal(params, &p) != nil {
		return "", false
	}
	// A retry that carries answers depends on them: never cached.
	if _, ok := p["inputResponses"]; ok {
		return "", false
	}
	if _, ok := p["requestState"]; ok {
		return "", false
	}
	for k := range p {
		switch k {
		case "_meta", "cursor", "uri":
		default:
			return "", false // something mcpctl does not know could change the answer
		}
	}
	key := map[string]json.RawMessage{}
	if v, ok := p["cursor"]; ok {
		key["cursor"] = v
	}
	if v, ok := p["uri"]; ok {
		key["uri"] = v
	}
	b, _ := json.Marshal(key)
	return string(b), true
}

// HashCredential turns a credential into a cache key part that does not
// reveal it.
func HashCredential(parts ...string) string {
	if len(parts) == 0 {
		return ""
	}
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}
