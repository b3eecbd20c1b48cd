package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"testing"
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
