package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

const (
	validTool   = `{"name":"valid_tool","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}},"z":1.50}`
	plainTool   = `{"name":"plain", "description":"no schema"}`
	emptyHeader = `{"name":"invalid_empty","inputSchema":{"type":"object","properties":{"r":{"type":"string","x-mcp-header":""}}}}`
	numberTool  = `{"name":"invalid_number_header","inputSchema":{"type":"object","properties":{"n":{"type":"number","x-mcp-header":"N"}}}}`
)

func TestDropInvalidTools(t *testing.T) {
	in := `{"tools":[` + validTool + `,` + emptyHeader + `,` + plainTool + `,` + numberTool + `],"nextCursor":"x","_meta":{"k":1}}`
	got, warnings, err := dropInvalidTools(json.RawMessage(in))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"tools":[` + validTool + `,` + plainTool + `],"nextCursor":"x","_meta":{"k":1}}`
	if string(got) != want {
		t.Errorf("dropInvalidTools\n got %s\nwant %s", got, want)
	}
	if len(warnings) != 2 || !strings.Contains(warnings[0], `"invalid_empty"`) || !strings.Contains(warnings[1], `"invalid_number_header"`) {
		t.Errorf("warnings %q; want one per dropped tool, naming it", warnings)
	}
	for _, w := range warnings {
		if !strings.Contains(w, "x-mcp-header") {
			t.Errorf("warning %q does not give the reason", w)
		}
	}
}

func TestDropInvalidToolsUntouched(t *testing.T) {
	for _, in := range []string{
		`{ "tools": [ ` + validTool + ` , ` + plainTool + ` ] }`,
		`{"tools":[]}`,
		`{}`,
	} {
		got, warnings, err := dropInvalidTools(json.RawMessage(in))
		if err != nil || warnings != nil || string(got) != in {
			t.Errorf("dropInvalidTools(%s) = %s, %q, %v; want it untouched", in, got, warnings, err)
		}
	}
}

func TestDropInvalidToolsAllInvalid(t *testing.T) {
	got, warnings, err := dropInvalidTools(json.RawMessage(`{"tools":[` + emptyHeader + `]}`))
	if err != nil || len(warnings) != 1 || string(got) != `{"tools":[]}` {
		t.Errorf("got %s, %q, %v; want an empty array, not null", got, warnings, err)
	}
}

func TestDropInvalidToolsErrors(t *testing.T) {
	for _, in := range []string{`[]`, `{"tools":{}}`, `{"tools":"x"}`} {
		if _, _, err := dropInvalidTools(json.RawMessage(in)); !isErr[*ProtocolError](err) {
			t.Errorf("dropInvalidTools(%s) err = %v, want *ProtocolError", in, err)
		}
	}
}

func TestListToolsByTransport(t *testing.T) {
	list := `{"tools":[` + validTool + `,` + numberTool + `]}`
	for _, kind := range []string{"http", "stdio"} {
		ft := &fakeTransport{kind: kind, handle: answers(list)}
		c := New(ft, testOptions())
		got, warnings, err := c.ListTools(context.Background(), "", true)
		if err != nil {
			t.Fatal(err)
		}
		if kind == "http" {
			if string(got) != `{"tools":[`+validTool+`]}` || len(warnings) != 1 {
				t.Errorf("http: got %s, %q; want the invalid tool left out with a warning", got, warnings)
			}
		} else if string(got) != list || warnings != nil {
			// Other transports may ignore x-mcp-header entirely.
			t.Errorf("stdio: got %s, %q; want the list untouched", got, warnings)
		}
	}
}

func TestFindTool(t *testing.T) {
	list := json.RawMessage(`{"tools":[{"name":"weather_current","x":1},{"name":"weather_forecast"},{"name":"get_time"},{"name":"echo"}]}`)
	got, err := FindTool(list, "get_time")
	if err != nil || string(got) != `{"name":"get_time"}` {
		t.Errorf("FindTool(get_time) = %s, %v", got, err)
	}
	got, err = FindTool(list, "weather_current")
	if err != nil || string(got) != `{"name":"weather_current","x":1}` {
		t.Errorf("FindTool(weather_current) = %s, %v; want the raw definition", got, err)
	}

	// The names the server offers come with the error; suggestions are the
	// caller's business (commands/words_test.go).
	_, err = FindTool(list, "ecko")
	var ue *UnknownToolError
	if !errors.As(err, &ue) || ue.Name != "ecko" ||
		!reflect.DeepEqual(ue.Known, []string{"weather_current", "weather_forecast", "get_time", "echo"}) {
		t.Errorf("FindTool(ecko) err = %#v, want *UnknownToolError with the known names", err)
	}
	if ue != nil && ue.Error() != `the server has no tool "ecko"` {
		t.Errorf("message %q", ue.Error())
	}

	if _, err := FindTool(json.RawMessage(`{"tools":{}}`), "x"); !isErr[*ProtocolError](err) {
		t.Errorf("malformed list: err = %v", err)
	}
	if _, err := FindTool(json.RawMessage(`{}`), "x"); !isErr[*UnknownToolError](err) {
		t.Errorf("empty list: err = %v", err)
	}
}

// CallTool over HTTP fetches the definition, refuses invalid tools and
// mirrors annotated arguments into Mcp-Param-* headers.
func TestCallToolHTTP(t *testing.T) {
	list := `{"tools":[` + validTool + `,` + numberTool + `]}`
	handler := func(_ context.Context, req *Request, _ http.Header, _ func(Notification)) (*Message, error) {
		switch req.Method {
		case "tools/list":
			return reply(req.ID, list)
		case "tools/call":
			return reply(req.ID, `{"content":[]}`)
		}
		return reply(req.ID, &RPCError{Code: CodeMethodNotFound, Message: "no"})
	}

	ft := &fakeTransport{kind: "http", handle: handler}
	c := New(ft, testOptions())
	res, err := c.CallTool(context.Background(), "valid_tool", json.RawMessage(`{"region":"us-west1","q":1}`),
		&CallOptions{Header: http.Header{"X-Extra": {"1"}}})
	if err != nil || string(res) != `{"content":[]}` {
		t.Fatalf("CallTool = %s, %v", res, err)
	}
	reqs := ft.requests()
	if len(reqs) != 2 || reqs[0].Method != "tools/list" || reqs[1].Method != "tools/call" {
		t.Fatalf("requests %+v", reqs)
	}
	wantH := http.Header{"Mcp-Param-Region": {"us-west1"}, "X-Extra": {"1"}}
	if !reflect.DeepEqual(ft.extras[1], wantH) {
		t.Errorf("headers %v, want %v", ft.extras[1], wantH)
	}
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	_ = json.Unmarshal(reqs[1].Params, &p)
	if p.Name != "valid_tool" || string(p.Arguments) != `{"region":"us-west1","q":1}` {
		t.Errorf("tools/call params %s", reqs[1].Params)
	}

	tests := []struct {
		tool, args string
		check      func(error) bool
	}{
		{"invalid_number_header", `{"n":1.5}`, isErr[*InvalidToolError]},
		{"nope", `{}`, isErr[*UnknownToolError]},
		{"valid_tool", `{"region":{"nested":true}}`, isErr[*ParamsError]},
	}
	for _, tc := range tests {
		ft := &fakeTransport{kind: "http", handle: handler}
		c := New(ft, testOptions())
		_, err := c.CallTool(context.Background(), tc.tool, json.RawMessage(tc.args), nil)
		if !tc.check(err) {
			t.Errorf("CallTool(%s, %s) err = %v (%T)", tc.tool, tc.args, err, err)
		}
		for _, r := range ft.requests() {
			if r.Method == "tools/call" {
				t.Errorf("CallTool(%s) sent tools/call; it must be refused before", tc.tool)
			}
		}
	}
}

func TestCallToolHTTPHeaderMismatchRefreshesOnce(t *testing.T) {
	calls := 0
	ft := &fakeTransport{kind: "http"}
	ft.handle = func(_ context.Context, req *Request, _ http.Header, _ func(Notification)) (*Message, error) {
		if req.Method == "tools/list" {
			return reply(req.ID, `{"tools":[`+validTool+`]}`)
		}
		calls++
		return reply(req.ID, &RPCError{Code: CodeHeaderMismatch, Message: "Header mismatch", HTTPStatus: 400})
	}
	c := New(ft, testOptions())
	_, err := c.CallTool(context.Background(), "valid_tool", json.RawMessage(`{"region":"x"}`), nil)
	var re *RPCError
	if !errors.As(err, &re) || re.Code != CodeHeaderMismatch {
		t.Fatalf("err = %v", err)
	}
	var methods []string
	for _, r := range ft.requests() {
		methods = append(methods, r.Method)
	}
	if want := []string{"tools/list", "tools/call", "tools/list", "tools/call"}; !reflect.DeepEqual(methods, want) {
		t.Errorf("methods %q, want %q", methods, want)
	}
}

func TestCallToolStdio(t *testing.T) {
	ft := &fakeTransport{kind: "stdio"}
	ft.handle = func(_ context.Context, req *Request, _ http.Header, _ func(Notification)) (*Message, error) {
		if req.Method == "tools/list" {
			return reply(req.ID, `{"tools":[{"name":"echo"}]}`)
		}
		var p struct{ Name string }
		_ = json.Unmarshal(req.Params, &p)
		if p.Name == "echo" {
			return reply(req.ID, `{"content":[{"type":"text","text":"hi"}]}`)
		}
		return reply(req.ID, &RPCError{Code: CodeInvalidParams, Message: "Unknown tool"})
	}
	c := New(ft, testOptions())
	res, err := c.CallTool(context.Background(), "echo", nil, nil)
	if err != nil || !strings.Contains(string(res), "hi") {
		t.Fatalf("CallTool(echo) = %s, %v", res, err)
	}
	if reqs := ft.requests(); len(reqs) != 1 || reqs[0].Method != "tools/call" ||
		!strings.HasSuffix(string(reqs[0].Params), `"name":"echo","arguments":{}}`) {
		t.Errorf("stdio call should go straight out with empty arguments: %+v", reqs)
	}

	// A failure for a tool the server does not have is explained.
	_, err = c.CallTool(context.Background(), "ecko", nil, nil)
	var ue *UnknownToolError
	if !errors.As(err, &ue) || !reflect.DeepEqual(ue.Known, []string{"echo"}) {
		t.Errorf("err = %v, want *UnknownToolError knowing echo", err)
	}
}
