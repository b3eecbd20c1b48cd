package sessiond

// A legacy server's lists, remembered by its daemon. Legacy results carry
// no ttlMs, so a one-shot run asks for tools/list before every call (the
// tool's schema types its arguments). A session holds the connection on
// which the server announces every change of a list it declared
// listChanged for: until such an announcement (or a restart of the
// server), the list it gave is the list it has, and the session answers
// from it: a call through a session is then one round trip to the server.

import (
	"encoding/json"
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

// lists is the remembered lists of one server process.
type lists struct {
	mu       sync.Mutex
	declared map[string]bool            // capabilities with listChanged: true
	results  map[string]json.RawMessage // by method and params (without _meta)
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
	l := &lists{declared: map[string]bool{}, results: map[string]json.RawMessage{}}
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

func (l *lists) put(key string, result json.RawMessage) {
	if key == "" {
		return
	}
	l.mu.Lock()
	l.results[key] = append(json.RawMessage(nil), result...)
	l.mu.Unlock()
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
			for k := range l.results {
				if len(k) > len(m) && k[:len(m)] == m && k[len(m)] == 0 {
					delete(l.results, k)
				}
			}
		}
	}
}
