package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// pager answers a list method from pages keyed by the request's cursor
// ("" for none).
func pager(t *testing.T, pages map[string]string) func(context.Context, *Request, http.Header, func(Notification)) (*Message, error) {
	return func(_ context.Context, req *Request, _ http.Header, _ func(Notification)) (*Message, error) {
		var p struct {
			Cursor *string `json:"cursor"`
		}
		if err := json.Unmarshal(req.Params, &p); err != nil {
			t.Errorf("params %s: %v", req.Params, err)
		}
		cur := ""
		if p.Cursor != nil {
			cur = *p.Cursor
			if cur == "" {
				t.Errorf("request sent an empty cursor")
			}
		}
		page, ok := pages[cur]
		if !ok {
			return reply(req.ID, &RPCError{Code: CodeInvalidParams, Message: "bad cursor " + cur})
		}
		return reply(req.ID, page)
	}
}

func sentCursors(t *testing.T, ft *fakeTransport) []string {
	var out []string
	for _, r := range ft.requests() {
		var p struct {
			Cursor string `json:"cursor"`
		}
		_ = json.Unmarshal(r.Params, &p)
		out = append(out, p.Cursor)
		if metaParam(t, r.Params)["io.modelcontextprotocol/protocolVersion"] == nil {
			t.Errorf("page request without _meta: %s", r.Params)
		}
	}
	return out
}

func TestListAllPages(t *testing.T) {
	ft := &fakeTransport{handle: pager(t, map[string]string{
		"":   `{"tools":[{"name":"a","x":1.50}],"nextCursor":"c1","_meta":{"vendor/k":1},"zz":true}`,
		"c1": `{"tools":[{"name":"b"},{"name":"c"}],"nextCursor":"c2","_meta":{"vendor/k":2}}`,
		"c2": `{"tools":[],"nextCursor":"c3"}`,
		"c3": `{"tools":[{"name":"d"}],"nextCursor":null}`,
	})}
	c := New(ft, testOptions())
	got, err := c.List(context.Background(), "tools/list", "tools", "", true)
	if err != nil {
		t.Fatal(err)
	}
	// Items in page order; the first page's other members and key order; no nextCursor.
	want := `{"tools":[{"name":"a","x":1.50},{"name":"b"},{"name":"c"},{"name":"d"}],"_meta":{"vendor/k":1},"zz":true}`
	if string(got) != want {
		t.Errorf("List\n got %s\nwant %s", got, want)
	}
	if cur := sentCursors(t, ft); !reflect.DeepEqual(cur, []string{"", "c1", "c2", "c3"}) {
		t.Errorf("cursors sent %q", cur)
	}
	for _, r := range ft.requests() {
		if r.Method != "tools/list" {
			t.Errorf("method %q", r.Method)
		}
	}
}

func TestListStartingCursor(t *testing.T) {
	ft := &fakeTransport{handle: pager(t, map[string]string{
		"c1": `{"prompts":[{"name":"b"}],"nextCursor":"c2"}`,
		"c2": `{"prompts":[{"name":"c"}]}`,
	})}
	c := New(ft, testOptions())
	got, err := c.List(context.Background(), "prompts/list", "prompts", "c1", true)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"prompts":[{"name":"b"},{"name":"c"}]}`; string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestListUntouched(t *testing.T) {
	tests := []struct {
		name   string
		cursor string
		all    bool
		page   string
	}{
		{"one page at a cursor keeps nextCursor", "c5", false, `{"tools": [ {"name":"x"} ], "nextCursor": "c6"}`},
		{"first page only", "", false, `{"tools":[{"name":"x"}],"nextCursor":"c1"}`},
		{"all, single page without nextCursor", "", true, `{ "tools": [ {"name":"x"} ], "_meta": {} }`},
		{"all, empty nextCursor ends", "", true, `{"tools":[],"nextCursor":""}`},
		{"all, null nextCursor ends", "", true, `{"tools":[],"nextCursor":null}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ft := &fakeTransport{handle: pager(t, map[string]string{tc.cursor: tc.page})}
			c := New(ft, testOptions())
			got, err := c.List(context.Background(), "tools/list", "tools", tc.cursor, tc.all)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.page {
				t.Errorf("got %s, want the page byte for byte: %s", got, tc.page)
			}
			if cur := sentCursors(t, ft); !reflect.DeepEqual(cur, []string{tc.cursor}) {
				t.Errorf("cursors sent %q", cur)
			}
		})
	}
}

func TestListErrors(t *testing.T) {
	tests := []struct {
		name   string
		cursor string
		pages  map[string]string
		check  func(error) bool
		nreq   int
	}{
		{"repeating cursor", "", map[string]string{
			"":   `{"tools":[],"nextCursor":"c1"}`,
			"c1": `{"tools":[],"nextCursor":"c2"}`,
			"c2": `{"tools":[],"nextCursor":"c1"}`,
		}, isErr[*ProtocolError], 3},
		{"cursor pointing to itself", "", map[string]string{
			"":   `{"tools":[],"nextCursor":"c1"}`,
			"c1": `{"tools":[],"nextCursor":"c1"}`,
		}, isErr[*ProtocolError], 2},
		{"back to the starting cursor", "s", map[string]string{
			"s":  `{"tools":[],"nextCursor":"c1"}`,
			"c1": `{"tools":[],"nextCursor":"s"}`,
		}, isErr[*ProtocolError], 2},
		{"items not an array", "", map[string]string{"": `{"tools":{},"nextCursor":"c1"}`}, isErr[*ProtocolError], 1},
		{"nextCursor not a string", "", map[string]string{"": `{"tools":[],"nextCursor":5}`}, isErr[*ProtocolError], 1},
		{"later page not an object", "", map[string]string{"": `{"tools":[],"nextCursor":"c1"}`, "c1": `[]`}, isErr[*ProtocolError], 2},
		{"later page fails", "", map[string]string{"": `{"tools":[],"nextCursor":"gone"}`}, isErr[*RPCError], 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ft := &fakeTransport{handle: pager(t, tc.pages)}
			c := New(ft, testOptions())
			got, err := c.List(context.Background(), "tools/list", "tools", tc.cursor, true)
			if !tc.check(err) {
				t.Fatalf("List = %s, %v (%T)", got, err, err)
			}
			if n := len(ft.requests()); n != tc.nreq {
				t.Errorf("%d requests, want %d", n, tc.nreq)
			}
		})
	}
}

func TestListFirstPageError(t *testing.T) {
	ft := &fakeTransport{handle: answers(&RPCError{Code: CodeMethodNotFound, Message: "no"})}
	c := New(ft, testOptions())
	_, err := c.List(context.Background(), "resources/list", "resources", "", true)
	var re *RPCError
	if !errors.As(err, &re) || re.Code != CodeMethodNotFound {
		t.Errorf("err = %v", err)
	}
}

// endless answers a list method with page after page, each with a new
// cursor ("p1", "p2", …), items made by item (none if it returns ""), up
// to last pages if last > 0.
func endless(last int, item func(n int) string) func(context.Context, *Request, http.Header, func(Notification)) (*Message, error) {
	return func(_ context.Context, req *Request, _ http.Header, _ func(Notification)) (*Message, error) {
		var p struct {
			Cursor string `json:"cursor"`
		}
		_ = json.Unmarshal(req.Params, &p)
		n, _ := strconv.Atoi(strings.TrimPrefix(p.Cursor, "p"))
		next := fmt.Sprintf(`,"nextCursor":"p%d"`, n+1)
		if last > 0 && n+1 >= last {
			next = ""
		}
		return reply(req.ID, fmt.Sprintf(`{"tools":[%s]%s}`, item(n), next))
	}
}

// New cursors without end are never taken for a loop, however many: the
// listing once stopped after 10,000 pages saying the cursor repeated.
func TestListManyUniqueCursors(t *testing.T) {
	ft := &fakeTransport{handle: endless(25000, func(int) string { return "" })}
	c := New(ft, testOptions())
	got, err := c.List(context.Background(), "tools/list", "tools", "", true)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != `{"tools":[]}` {
		t.Errorf("got %s", got)
	}
	if n := len(ft.requests()); n != 25000 {
		t.Errorf("%d requests, want 25000", n)
	}
}

// A loop that does not come back to the start (p0 … p99, then back to
// p50) is still found, and soon: within about twice its length.
func TestListLongLoop(t *testing.T) {
	ft := &fakeTransport{handle: func(_ context.Context, req *Request, _ http.Header, _ func(Notification)) (*Message, error) {
		var p struct {
			Cursor string `json:"cursor"`
		}
		_ = json.Unmarshal(req.Params, &p)
		n, _ := strconv.Atoi(strings.TrimPrefix(p.Cursor, "p"))
		next := n + 1
		if next == 100 {
			next = 50
		}
		return reply(req.ID, fmt.Sprintf(`{"tools":[{"name":"t%d"}],"nextCursor":"p%d"}`, n, next))
	}}
	c := New(ft, testOptions())
	_, err := c.List(context.Background(), "tools/list", "tools", "", true)
	var pe *ProtocolError
	if !errors.As(err, &pe) || !strings.Contains(pe.Msg, "repeats") {
		t.Fatalf("err = %v, want a repeating cursor", err)
	}
	if n := len(ft.requests()); n > 300 {
		t.Errorf("%d requests before the loop was seen", n)
	}
}

// The pages' sizes added up are bounded by MaxListSize; one page asked
// for by cursor is not (its transport bounds it).
func TestListTooLarge(t *testing.T) {
	item := func(n int) string {
		return fmt.Sprintf(`{"name":"t%d","description":"%s"}`, n, strings.Repeat("x", 1000))
	}
	opts := testOptions()
	opts.Limits.MaxListSize = 10000
	ft := &fakeTransport{handle: endless(0, item)}
	c := New(ft, opts)
	_, err := c.List(context.Background(), "tools/list", "tools", "", true)
	var le *ListTooLargeError
	if !errors.As(err, &le) {
		t.Fatalf("err = %v (%T), want *ListTooLargeError", err, err)
	}
	// Each page is some 1,060 bytes: the tenth goes over 10,000.
	if le.Pages != 10 || le.Limit != 10000 || le.Method != "tools/list" || len(ft.requests()) != 10 {
		t.Errorf("err = %+v after %d requests", le, len(ft.requests()))
	}
	if want := "the pages of tools/list came to more than 10000 bytes in all (10 pages)"; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}

	opts.Limits.MaxListSize = 100
	c = New(&fakeTransport{handle: endless(0, item)}, opts)
	if _, err := c.List(context.Background(), "tools/list", "tools", "p3", false); err != nil {
		t.Errorf("one page: %v", err)
	}
	c = New(&fakeTransport{handle: endless(1, item)}, opts)
	if _, err := c.List(context.Background(), "tools/list", "tools", "", true); err != nil {
		t.Errorf("a list of one page: %v", err)
	}
}

// Timeout bounds all the pages together, from the start of the listing;
// the first page keeps the error of a request of its own.
func TestListTimeout(t *testing.T) {
	opts := testOptions()
	opts.Timeout = 300 * time.Millisecond
	// The second page never comes: the listing's deadline (from its start)
	// comes before the request's own timeout (from the second request).
	ft := &fakeTransport{handle: func(ctx context.Context, req *Request, _ http.Header, _ func(Notification)) (*Message, error) {
		if strings.Contains(string(req.Params), `"cursor"`) {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return reply(req.ID, `{"tools":[{"name":"a"}],"nextCursor":"p1"}`)
	}}
	c := New(ft, opts)
	_, err := c.List(context.Background(), "tools/list", "tools", "", true)
	var lt *ListTimeoutError
	if !errors.As(err, &lt) || lt.Pages != 1 || lt.After != "300ms" {
		t.Fatalf("err = %v (%T), want *ListTimeoutError after 1 page", err, err)
	}
	if want := "the listing of tools/list did not finish within 300ms (1 page so far)"; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}

	silent := &fakeTransport{handle: func(ctx context.Context, _ *Request, _ http.Header, _ func(Notification)) (*Message, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	_, err = New(silent, opts).List(context.Background(), "tools/list", "tools", "", true)
	if !isErr[*TimeoutError](err) || isErr[*ListTimeoutError](err) {
		t.Errorf("first page: err = %v (%T), want *TimeoutError", err, err)
	}

	// A listing cancelled by its caller is not a timeout.
	ctx, cancel := context.WithCancel(context.Background())
	cancelling := &fakeTransport{handle: func(ctx context.Context, req *Request, _ http.Header, _ func(Notification)) (*Message, error) {
		if strings.Contains(string(req.Params), `"cursor"`) {
			cancel()
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return reply(req.ID, `{"tools":[],"nextCursor":"p1"}`)
	}}
	_, err = New(cancelling, opts).List(ctx, "tools/list", "tools", "", true)
	if !errors.Is(err, context.Canceled) || isErr[*ListTimeoutError](err) {
		t.Errorf("cancelled: err = %v (%T)", err, err)
	}
}

// Items are kept as the server wrote them, whitespace and all; null is
// no items.
func TestListItemsRaw(t *testing.T) {
	ft := &fakeTransport{handle: pager(t, map[string]string{
		"":   `{"tools": null, "nextCursor":"c1"}`,
		"c1": `{"tools":[ {"a": 1} , {"b":[2, 3]} ],"nextCursor":"c2"}`,
		"c2": `{"tools":[ ],"nextCursor":"c3"}`,
		"c3": `{"tools":[{"c":"]"}]}`,
	})}
	got, err := New(ft, testOptions()).List(context.Background(), "tools/list", "tools", "", true)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"tools":[{"a": 1} , {"b":[2, 3]},{"c":"]"}]}`; string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
