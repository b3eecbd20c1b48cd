package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcpctl/mcpctl/client/ojson"
)

// List calls a paginated list method. With all set it follows nextCursor
// to the end and returns the first page's result with the items of every
// page under key and no nextCursor; otherwise it returns the one page that
// cursor ("" for the first) selects, untouched.
//
// Following the cursors is bounded as a whole, not only page by page: by
// Options.Timeout for all the pages together (one deadline, from the
// start), and by Limits.MaxListSize for their sizes added up. Past
// either, List fails with *ListTimeoutError or *ListTooLargeError; a
// cursor that comes round again fails at once with a *ProtocolError.
func (c *Client) List(ctx context.Context, method, key, cursor string, all bool) (json.RawMessage, error) {
	return c.ListWith(ctx, method, key, cursor, all, nil)
}

// ListWith is List with per-request options (Refresh, handlers).
func (c *Client) ListWith(ctx context.Context, method, key, cursor string, all bool, co *CallOptions) (json.RawMessage, error) {
	return c.ListParams(ctx, method, key, nil, cursor, all, co)
}

// ListParams is ListWith for a list method with params of its own (the
// members of a JSON object, to which each page's cursor is added), such
// as resources/directory/read's uri.
func (c *Client) ListParams(ctx context.Context, method, key string, base ojson.Members, cursor string, all bool, co *CallOptions) (json.RawMessage, error) {
	start := time.Now()
	page := func(ctx context.Context, cur string) (json.RawMessage, error) {
		params := append(ojson.Members{}, base...)
		if cur != "" {
			params.Set("cursor", ojson.String(cur))
		}
		return c.Call(ctx, method, params.JSON(), co)
	}
	// The first page is a request like any other, with its own timeout
	// and errors; the listing's bounds start to matter from the second.
	first, err := page(ctx, cursor)
	if err != nil || !all {
		return first, err
	}
	fields, err := ojson.SplitObject(first)
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
	listCtx := ctx
	if c.opts.Timeout > 0 {
		var cancel context.CancelFunc
		listCtx, cancel = context.WithDeadlineCause(ctx, start.Add(c.opts.Timeout), errListTimeout)
		defer cancel()
	}
	pages := [][]byte{items}
	size := len(first)
	loop := cursorLoop{start: cursor, saved: cursor, power: 1}
	for n := 1; ; n++ { // n pages so far
		if c.opts.Limits.MaxListSize > 0 && size > c.opts.Limits.MaxListSize {
			return nil, &ListTooLargeError{Method: method, Limit: c.opts.Limits.MaxListSize, Pages: n}
		}
		if next == "" {
			break
		}
		if loop.repeats(next) {
			return nil, &ProtocolError{Msg: fmt.Sprintf("%s: the server's nextCursor %q repeats; pagination would never end", method, next)}
		}
		raw, err := page(listCtx, next)
		if err != nil {
			// A page's own timeout runs out no sooner than the listing's,
			// which began earlier: either means the listing ran out (the
			// two may fire together, so either may come first).
			var pageTimeout *TimeoutError
			if (errors.Is(context.Cause(listCtx), errListTimeout) || errors.As(err, &pageTimeout)) && ctx.Err() == nil {
				return nil, &ListTimeoutError{Method: method, After: c.opts.Timeout.String(), Pages: n}
			}
			return nil, err
		}
		size += len(raw)
		pf, err := ojson.SplitObject(raw)
		if err != nil {
			return nil, &ProtocolError{Msg: method + " result is not a JSON object"}
		}
		more, cur, err := pageItems(pf, key)
		if err != nil {
			return nil, &ProtocolError{Msg: method + ": " + err.Error()}
		}
		pages = append(pages, more)
		next = cur
	}
	fields.Set(key, joinItems(pages))
	fields.Delete("nextCursor")
	return fields.JSON(), nil
}

// errListTimeout is the cause of a listing cut short by Options.Timeout.
var errListTimeout = fmt.Errorf("listing timed out: %w", context.DeadlineExceeded)

// cursorLoop tells a nextCursor that comes round again, by Brent's cycle
// detection: it remembers one earlier cursor (and the first), not every
// one, so a server that hands out new cursors without end costs no memory
// for them and is never taken for a loop; a loop of L cursors is caught
// within about 2L pages, and one back to the first cursor at once.
type cursorLoop struct {
	start, saved string
	power, steps int
}

func (l *cursorLoop) repeats(next string) bool {
	if next == l.start || next == l.saved {
		return true
	}
	l.steps++
	if l.steps == l.power {
		l.saved, l.power, l.steps = next, 2*l.power, 0
	}
	return false
}

// pageItems returns what the page's array under key holds, between its
// brackets, raw (nil for none), and the page's nextCursor. The items are
// kept as one piece of the page, not one value each: a page of a million
// tiny items would otherwise cost many times its size.
func pageItems(fields ojson.Members, key string) ([]byte, string, error) {
	var items []byte
	if raw := bytes.TrimSpace(fields.Get(key)); raw != nil && string(raw) != "null" {
		if raw[0] != '[' {
			return nil, "", fmt.Errorf("%q is not an array", key)
		}
		items = bytes.TrimSpace(raw[1 : len(raw)-1]) // splitObject checked the syntax
	}
	var next string
	if raw := fields.Get("nextCursor"); raw != nil && string(raw) != "null" {
		if err := json.Unmarshal(raw, &next); err != nil {
			return nil, "", fmt.Errorf("nextCursor is not a string")
		}
	}
	return items, next, nil
}

// joinItems writes the pages' items as one JSON array.
func joinItems(pages [][]byte) json.RawMessage {
	n := 2
	for _, p := range pages {
		n += len(p) + 1
	}
	out := make([]byte, 0, n)
	out = append(out, '[')
	for _, p := range pages {
		if len(p) == 0 {
			continue
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, p...)
	}
	return append(out, ']')
}

// ListTooLargeError means the pages of a listing came to more than
// Limits.MaxListSize bytes in all (each page may have been within the
// transport's limit).
type ListTooLargeError struct {
	Method string
	Limit  int
	Pages  int // the pages read, the last of which went over
}

func (e *ListTooLargeError) Error() string {
	return fmt.Sprintf("the pages of %s came to more than %s in all (%s)", e.Method, formatSize(int64(e.Limit)), countPages(e.Pages))
}

// ListTimeoutError means a listing was still following nextCursor when
// Options.Timeout, which bounds all its pages together, ran out.
type ListTimeoutError struct {
	Method string
	After  string
	Pages  int // the pages read in time
}

func (e *ListTimeoutError) Error() string {
	return fmt.Sprintf("the listing of %s did not finish within %s (%s so far)", e.Method, e.After, countPages(e.Pages))
}

func countPages(n int) string {
	if n == 1 {
		return "1 page"
	}
	return fmt.Sprintf("%d pages", n)
}
