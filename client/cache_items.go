package client

import "encoding/json"

// CachedItems returns the items (under key: "tools", "prompts",
// "resources", "resourceTemplates") of a paginated list as the cache holds
// it for server, following nextCursor through the cached pages. It is for
// shell completion, which must answer at once and never reach a server:
// entries count whatever their age and whichever protocol version stored
// them (the newest first), and private ones under credential (a
// HashCredential, or "" for none). No entry, no items.
func (c *Cache) CachedItems(server, credential, method, key string) []json.RawMessage {
	for _, v := range SupportedVersions {
		if items, ok := c.cachedPages(CacheKey{Server: server, Version: v, Method: method}, credential, key); ok {
			return items
		}
	}
	return nil
}

func (c *Cache) cachedPages(k CacheKey, credential, key string) ([]json.RawMessage, bool) {
	var all []json.RawMessage
	params := json.RawMessage(`{}`)
	seen := map[string]bool{}
	for page := 0; page < maxPages; page++ {
		p, ok := cacheParams(k.Method, params)
		if !ok {
			return all, page > 0
		}
		k.Params = p
		e := c.anyEntry(k, credential)
		if e == nil {
			return all, page > 0
		}
		fields, err := splitObject(e.Result)
		if err != nil {
			return all, page > 0
		}
		items, next, err := pageItems(fields, key)
		if err != nil {
			return all, page > 0
		}
		all = append(all, items...)
		if next == "" || seen[next] {
			return all, true
		}
		seen[next] = true
		params, _ = json.Marshal(map[string]string{"cursor": next})
	}
	return all, true
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
