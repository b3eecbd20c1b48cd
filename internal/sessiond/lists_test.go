//go:build linux || darwin

package sessiond

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// A listing is remembered once its last page came, whole; one that never
// ends (or ends beyond the budget) is never remembered, and what is held
// of listings under way stays within the budget however many fail.
func TestListsRememberWholeListings(t *testing.T) {
	t.Parallel()
	l := newLists(json.RawMessage(`{"capabilities":{"tools":{"listChanged":true}}}`))
	page := func(cursor, next, pad string) (string, json.RawMessage) {
		params := `{"_meta":{"progressToken":1}}`
		if cursor != "" {
			params = fmt.Sprintf(`{"cursor":%q,"_meta":{"progressToken":1}}`, cursor)
		}
		res := `{"tools":[{"name":"t","description":"` + pad + `"}]`
		if next != "" {
			res += fmt.Sprintf(`,"nextCursor":%q`, next)
		}
		return l.key("tools/list", json.RawMessage(params)), json.RawMessage(res + "}")
	}
	k1, r1 := page("", "c1", "")
	l.put(k1, r1)
	if l.get(k1) != nil {
		t.Error("the first page was remembered before the listing ended")
	}
	k2, r2 := page("c1", "", "")
	l.put(k2, r2)
	if string(l.get(k1)) != string(r1) || string(l.get(k2)) != string(r2) {
		t.Errorf("a whole listing was not remembered: %s, %s", l.get(k1), l.get(k2))
	}
	// A page asked for with a cursor of a listing not seen from its start.
	k3, r3 := page("elsewhere", "", "")
	l.put(k3, r3)
	if l.get(k3) != nil {
		t.Error("a page of a listing not seen from its start was remembered")
	}
	// Five listings of 1 MiB pages that never end (each given up by its
	// caller after 64 MiB): nothing remembered, little held.
	pad := strings.Repeat("x", 1<<20)
	for try := range 5 {
		cursor := ""
		for n := range 64 {
			next := fmt.Sprintf("try%d-p%d", try, n+1)
			k, r := page(cursor, next, pad)
			l.put(k, r)
			cursor = next
		}
	}
	l.mu.Lock()
	remembered, going, goingSize := len(l.results), len(l.going), l.goingSize
	l.mu.Unlock()
	if remembered != 2 || goingSize > listsBudget {
		t.Errorf("after five endless listings: %d results remembered (want the 2 of the whole one), %d listings held in %d bytes (budget %d)",
			remembered, going, goingSize, listsBudget)
	}
	// A listing that ends beyond the budget is not remembered.
	cursor := ""
	for n := range 12 {
		next := ""
		if n < 11 {
			next = fmt.Sprintf("big-p%d", n+1)
		}
		k, r := page(cursor, next, pad)
		l.put(k, r)
		cursor = next
	}
	if k, _ := page("", "", ""); l.get(k) == nil || len(l.results) != 2 {
		t.Errorf("a listing over the budget: %d results remembered", len(l.results))
	}
	// An announced change forgets the lists and the listings under way.
	k4, r4 := page("", "again", "")
	l.put(k4, r4)
	l.saw("notifications/tools/list_changed")
	if len(l.results) != 0 || len(l.going) != 0 || l.size != 0 || l.goingSize != 0 {
		t.Errorf("after the change: %d results (%d bytes), %d listings (%d bytes)", len(l.results), l.size, len(l.going), l.goingSize)
	}
}
