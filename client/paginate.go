package client

import (
	"context"
	"encoding/json"
	"fmt"
)

// maxPages stops a server whose cursors never end.
const maxPages = 10000

// List calls a paginated list method. With all set it follows nextCursor
// to the end and returns the first page's result with the items of every
// page under key and no nextCursor; otherwise it returns the one page that
// cursor ("" for the first) selects, untouched.
func (c *Client) List(ctx context.Context, method, key, cursor string, all bool) (json.RawMessage, error) {
	return c.ListWith(ctx, method, key, cursor, all, nil)
}

// ListWith is List with per-request options (Refresh, handlers).
func (c *Client) ListWith(ctx context.Context, method, key, cursor string, all bool, co *CallOptions) (json.RawMessage, error) {
	page := func(cur string) (json.RawMessage, error) {
		params := json.RawMessage(`{}`)
		if cur != "" {
			b, _ := json.Marshal(map[string]string{"cursor": cur})
			params = b
		}
		return c.Call(ctx, method, params, co)
	}
	first, err := page(cursor)
	if err != nil || !all {
		return first, err
	}
	fields, err := splitObject(first)
	if err != nil {
		return nil, &ProtocolError{Msg: method + " result is not a JSON object"}
	}
	items, next, err := pageItems(fields, key)
	if err != nil {
		return nil, &ProtocolError{Msg: method + ": " + err.Error()}
	}
	if next == "" {
		return first, nil
	}
	seen := map[string]bool{cursor: true}
	for n := 1; next != ""; n++ {
		if seen[next] || n >= maxPages {
			return nil, &ProtocolError{Msg: fmt.Sprintf("%s: the server's nextCursor %q repeats; pagination would never end", method, next)}
		}
		seen[next] = true
		raw, err := page(next)
		if err != nil {
			return nil, err
		}
		pf, err := splitObject(raw)
		if err != nil {
			return nil, &ProtocolError{Msg: method + " result is not a JSON object"}
		}
		more, cur, err := pageItems(pf, key)
		if err != nil {
			return nil, &ProtocolError{Msg: method + ": " + err.Error()}
		}
		items = append(items, more...)
		next = cur
	}
	fields = setField(fields, key, joinArray(items))
	fields = deleteField(fields, "nextCursor")
	return joinObject(fields), nil
}

func pageItems(fields []field, key string) ([]json.RawMessage, string, error) {
	var items []json.RawMessage
	if raw := getField(fields, key); raw != nil {
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, "", fmt.Errorf("%q is not an array", key)
		}
	}
	var next string
	if raw := getField(fields, "nextCursor"); raw != nil && string(raw) != "null" {
		if err := json.Unmarshal(raw, &next); err != nil {
			return nil, "", fmt.Errorf("nextCursor is not a string")
		}
	}
	return items, next, nil
}
