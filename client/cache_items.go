package client

import (
	"encoding/json"

	"github.com/mcpctl/mcpctl/client/ojson"
)

// CachedItems returns the items (under key: "tools", "prompts",
// "resources", "resourceTemplates") of a paginated list as the cache holds
// it for server, following nextCursor through the cached pages. It is for
// shell completion, which must answer at once and never reach a server:
// entries count whatever their age (lists are kept stale, as hints) and
// whichever protocol version stored them (the newest first), and private
// ones under credential (a HashCredential, or "" for none). caps are the
// capability digests (CapabilitiesDigest) to look under, in order of
// preference. No entry, no items.
func (c *Cache) CachedItems(server, credential string, caps []string, method, key string) []json.RawMessage {
	for _, cp := range caps {
		for _, v := range supportedVersions {
			if items, ok := c.cachedPages(CacheKey{Server: server, Version: v, Method: method, Caps: cp}, credential, key); ok {
				return items
			}
		}
	}
	return nil
}

// maxCachedPages bounds the pages completion follows: it must answer at
// once, whatever a server left in the cache.
const maxCachedPages = 10000

func (c *Cache) cachedPages(k CacheKey, credential, key string) ([]json.RawMessage, bool) {
	var pages [][]byte
	found := func() ([]json.RawMessage, bool) {
		var items []json.RawMessage
		_ = json.Unmarshal(joinItems(pages), &items)
		return items, len(pages) > 0
	}
	params := json.RawMessage(`{}`)
	seen := map[string]bool{}
	for len(pages) < maxCachedPages {
		p, ok := cacheParams(k.Method, params)
		if !ok {
			return found()
		}
		k.Params = p
		e := c.anyEntry(k, credential)
		if e == nil {
			return found()
		}
		fields, err := ojson.SplitObject(e.Result)
		if err != nil {
			return found()
		}
		items, next, err := pageItems(fields, key)
		if err != nil {
			return found()
		}
		pages = append(pages, items)
		if next == "" || seen[next] {
			return found()
		}
		seen[next] = true
		params, _ = json.Marshal(map[string]string{"cursor": next})
	}
	return found()
}

// anyEntry is the public entry for k, else the private one stored under
// credential, as Client.cached looks them up.
func (c *Cache) anyEntry(k CacheKey, credential string) *CacheEntry {
	if e, ok := c.Get(k); ok && e.CacheScope != "private" {
		return e
	}
	k.Credential = credential
	if k.Credential == "" {
		k.Credential = "none"
	}
	if e, ok := c.Get(k); ok {
		return e
	}
	return nil
}
