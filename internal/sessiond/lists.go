package sessiond

// A legacy server's lists, remembered by its daemon. Legacy results carry
// no ttlMs, so a one-shot run asks for tools/list before every call (the
// tool's schema types its arguments). A session holds the connection on
// which the server announces every change of a list it declared
// listChanged for: until such an announcement (or a restart of the
// server), the list it gave is the list it has, and the session answers
// from it: a call through a session is then one round trip to the server.
//
// A list may come in pages. What is remembered is whole listings: the
// pages are held while the listing goes on (the next page asked for with
// the cursor the last one gave), and remembered once a page without a
// nextCursor ends it, within listsBudget. A listing that fails (too big
// for the caller's limits, or pages that never end) is never remembered,
// and what of it is held stays within the budget.

import (
	"encoding/json"
	"strings"
	"sync"

	"github.com/mcpctl/mcpctl/client/ojson"
)

// listChangedBy maps each list method to the capability that declares its
// announcements and the notification that announces a change.
var listChangedBy = map[string]struct{ capability, notification string }{
	"tools/list":               {"tools", "notifications/tools/list_changed"},
	"prompts/list":             {"prompts", "notifications/prompts/list_changed"},
	"resources/list":           {"resources", "notifications/resources/list_changed"},
	"resources/templates/list": {"resources", "notifications/resources/list_changed"},
}

// listsBudget bounds the bytes a session remembers of a server's lists,
// and those it holds of the listings under way.
const listsBudget = 8 << 20

// lists is the remembered lists of one server process.
type lists struct {
	mu       sync.Mutex
	declared map[string]bool            // capabilities with listChanged: true
	results  map[string]json.RawMessage // by method and params (without _meta)
	size     int                        // bytes in results
	// going are the listings under way, by the key of the page that
	// continues each; goingSize the bytes they hold.
	going     map[string]*listing
	goingSize int
}

// listing is the pages of one listing so far, in order.
type listing struct {
	keys    []string
	results []json.RawMessage
	size    int
}

// newLists reads which lists the server announces changes of from its
// InitializeResult; nil (nothing remembered) for a modern server.
func newLists(initResult json.RawMessage) *lists {
	if initResult == nil {
		return nil
	}
	var r struct {
		Capabilities map[string]struct {
			ListChanged bool `json:"listChanged"`
		} `json:"capabilities"`
	}
	_ = json.Unmarshal(initResult, &r)
	l := &lists{declared: map[string]bool{}, results: map[string]json.RawMessage{}, going: map[string]*listing{}}
	for name, c := range r.Capabilities {
		l.declared[name] = c.ListChanged
	}
	return l
}

// key is what a request is remembered by, or "" when it is not.
func (l *lists) key(method string, params json.RawMessage) string {
	if l == nil {
		return ""
	}
	by, ok := listChangedBy[method]
	if !ok || !l.declared[by.capability] {
		return ""
	}
	fields, err := ojson.SplitObject(params)
	if err != nil && len(params) > 0 && string(params) != "null" {
		return ""
	}
	fields.Delete("_meta")
	return method + "\x00" + string(fields.JSON())
}

func (l *lists) get(key string) json.RawMessage {
	if key == "" {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.results[key]
}

// put takes a page the server gave for key: the first of a listing, or
// the one that continues a listing under way; the listing is remembered
// once its last page came, if it fits the budget.
func (l *lists) put(key string, result json.RawMessage) {
	if key == "" {
		return
	}
	method, params, _ := strings.Cut(key, "\x00")
	fields, err := ojson.SplitObject(json.RawMessage(params))
	if err != nil {
		return
	}
	var page struct {
		Next json.RawMessage `json:"nextCursor"`
	}
	_ = json.Unmarshal(result, &page)
	l.mu.Lock()
	defer l.mu.Unlock()
	cur := &listing{}
	if fields.Get("cursor") != nil {
		if cur = l.going[key]; cur == nil {
			return // a listing not seen from its start
		}
		delete(l.going, key)
		l.goingSize -= cur.size
	}
	cur.keys = append(cur.keys, key)
	cur.results = append(cur.results, append(json.RawMessage(nil), result...))
	cur.size += len(key) + len(result)
	if cur.size > listsBudget {
		return // too big to remember: let it go
	}
	if len(page.Next) > 0 && string(page.Next) != "null" {
		fields.Set("cursor", page.Next)
		next := method + "\x00" + string(fields.JSON())
		if old := l.going[next]; old != nil {
			l.goingSize -= old.size
		}
		if l.goingSize+cur.size > listsBudget {
			l.going, l.goingSize = map[string]*listing{}, 0 // listings given up, most likely
		}
		l.going[next] = cur
		l.goingSize += cur.size
		return
	}
	if l.size+cur.size > listsBudget {
		l.results, l.size = map[string]json.RawMessage{}, 0
	}
	for i, k := range cur.keys {
		if old, ok := l.results[k]; ok {
			l.size -= len(k) + len(old)
		}
		l.results[k] = cur.results[i]
		l.size += len(k) + len(cur.results[i])
	}
}

// saw forgets the lists a notification announces a change of.
func (l *lists) saw(method string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for m, by := range listChangedBy {
		if by.notification == method {
			for k, res := range l.results {
				if strings.HasPrefix(k, m+"\x00") {
					delete(l.results, k)
					l.size -= len(k) + len(res)
				}
			}
			for k, g := range l.going {
				if strings.HasPrefix(k, m+"\x00") {
					delete(l.going, k)
					l.goingSize -= g.size
				}
			}
		}
	}
}
