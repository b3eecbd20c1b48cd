package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpctl/mcpctl/client/ojson"
)

func TestDecodeMessage(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		wantKind string // "" means a *ProtocolError is expected
	}{
		{"notification", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`, "notification"},
		{"notification without params", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, "notification"},
		{"request", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, "request"},
		{"request with string id", `{"jsonrpc":"2.0","id":"abc","method":"sampling/createMessage","params":{}}`, "request"},
		{"response", `{"jsonrpc":"2.0","id":1,"result":{}}`, "response"},
		{"response with null result", `{"jsonrpc":"2.0","id":1,"result":null}`, "response"},
		{"error response", `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"nope"}}`, "response"},
		{"error with null id", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`, "response"},
		{"error without id", `{"jsonrpc":"2.0","error":{"code":-32600,"message":"bad"}}`, "response"},
		{"surrounding whitespace", " \n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n ", "response"},

		{"invalid JSON", `{"jsonrpc":`, ""},
		{"not JSON at all", `hello`, ""},
		{"empty", ``, ""},
		{"trailing object", `{"jsonrpc":"2.0","id":1,"result":{}} {}`, ""},
		{"trailing garbage", `{"jsonrpc":"2.0","id":1,"result":{}}x`, ""},
		{"two messages", `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n" + `{"jsonrpc":"2.0","id":2,"result":{}}`, ""},
		{"array (batch)", `[{"jsonrpc":"2.0","id":1,"result":{}}]`, ""},
		{"number", `42`, ""},
		{"string", `"hi"`, ""},
		{"null", `null`, ""},
		{"empty object", `{}`, ""},
		{"envelope only", `{"jsonrpc":"2.0"}`, ""},
		{"id without result or error", `{"jsonrpc":"2.0","id":1}`, ""},
		{"params without method", `{"jsonrpc":"2.0","params":{}}`, ""},
		// Regression (fixed): once wrong, now pinned:
		//   json.Decoder.More reports false before a closing bracket, so
		//   DecodeMessage accepts a message followed by a stray "}" or "]".
		{"trailing closing brace", `{"jsonrpc":"2.0","id":1,"result":{}}}`, ""},
		{"trailing closing bracket", `{"jsonrpc":"2.0","id":1,"result":{}}]`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := DecodeMessage([]byte(tc.in))
			if tc.wantKind == "" {
				var pe *ProtocolError
				if !errors.As(err, &pe) {
					t.Fatalf("DecodeMessage(%q) = %+v, %v; want a *ProtocolError", tc.in, m, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("DecodeMessage(%q): %v", tc.in, err)
			}
			if k := m.Kind(); k != tc.wantKind {
				t.Errorf("Kind() = %q, want %q", k, tc.wantKind)
			}
		})
	}
}

func TestDecodeMessageFields(t *testing.T) {
	m, err := DecodeMessage([]byte(`{"jsonrpc":"2.0","id":7,"error":{"code":-32022,"message":"unsupported","data":{"supported":["2026-07-28"]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if string(m.ID) != "7" || m.Error == nil || m.Error.Code != -32022 || m.Error.Message != "unsupported" ||
		string(m.Error.Data) != `{"supported":["2026-07-28"]}` {
		t.Errorf("decoded %+v / %+v", m, m.Error)
	}
	// Results stay raw: key order and number text as sent.
	m, err = DecodeMessage([]byte(`{"jsonrpc":"2.0","id":1,"result":{"z":1.50,"a":9007199254740993}}`))
	if err != nil {
		t.Fatal(err)
	}
	if string(m.Result) != `{"z":1.50,"a":9007199254740993}` {
		t.Errorf("result = %s", m.Result)
	}
}

func TestRequestMarshalJSON(t *testing.T) {
	tests := []struct {
		name string
		req  Request
		want string
	}{
		{"request", Request{ID: 7, Method: "tools/list", Params: json.RawMessage(`{"_meta":{"a":1}}`), Version: "2026-07-28"},
			`{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"a":1}}}`},
		{"request without params", Request{ID: 1, Method: "ping"},
			`{"jsonrpc":"2.0","id":1,"method":"ping"}`},
		{"notification", Request{Method: "notifications/cancelled", Params: json.RawMessage(`{"requestId":3,"reason":"timed out"}`)},
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"timed out"}}`},
		{"notification without params", Request{Method: "notifications/initialized"},
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{"method is escaped", Request{ID: 12345678901, Method: `we"ird`},
			`{"jsonrpc":"2.0","id":12345678901,"method":"we\"ird"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.req.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("MarshalJSON\n got %s\nwant %s", got, tc.want)
			}
			// json.Marshal goes through the method too and accepts the output.
			viaPkg, err := json.Marshal(&tc.req)
			if err != nil || string(viaPkg) != tc.want {
				t.Errorf("json.Marshal = %s, %v", viaPkg, err)
			}
			if tc.req.IsNotification() != (tc.req.ID == 0) {
				t.Error("IsNotification disagrees with ID == 0")
			}
		})
	}
}

func TestIDEquals(t *testing.T) {
	tests := []struct {
		raw  string
		id   int64
		want bool
	}{
		{`7`, 7, true},
		{` 7 `, 7, true},
		{`"7"`, 7, true},
		{`8`, 7, false},
		{`"8"`, 7, false},
		{`70`, 7, false},
		{`7.0`, 7, false},
		{`"07"`, 7, false},
		{`null`, 7, false},
		{``, 7, false},
		{`"abc"`, 7, false},
		{`-1`, -1, true},
		{`9223372036854775807`, 9223372036854775807, true},
	}
	for _, tc := range tests {
		if got := idEquals(json.RawMessage(tc.raw), tc.id); got != tc.want {
			t.Errorf("idEquals(%s, %d) = %v, want %v", tc.raw, tc.id, got, tc.want)
		}
	}
}

// encoding/json refuses nesting beyond 10000 levels; the error says so
// rather than quote the decoder, and 9000 levels are fine.
func TestDecodeMessageDepth(t *testing.T) {
	deep := func(n int) []byte {
		return []byte(`{"jsonrpc":"2.0","id":1,"result":{"a":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}}`)
	}
	if _, err := DecodeMessage(deep(9000)); err != nil {
		t.Errorf("9000 levels: %v", err)
	}
	_, err := DecodeMessage(deep(100000))
	var pe *ProtocolError
	if !errors.As(err, &pe) || !strings.HasPrefix(pe.Msg, "server sent JSON nested more than 10000 levels deep: ") {
		t.Errorf("100000 levels: %v", err)
	}
}

// DecodeMessage reads a message as json.Unmarshal reads it into a Message
// (names in any case, the last of a name given twice, unknown names
// ignored, null), but its raw fields are where they lie in the message,
// not copies: a large result is held once.
func TestDecodeMessageAsUnmarshal(t *testing.T) {
	for _, in := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"a": [1, 2.50]}}`,
		`{"JSONRPC":"2.0","ID":"x","Result":{},"id":2}`,
		`{"jsonrpc":"2.0","id":null,"error":{"Code":-1,"MESSAGE":"m","data":[1, {"b":2}],"other":0}}`,
		`{"jsonrpc":"2.0","method":"n\u00e9","params":{"p":"\u00e9"},"extra":[1]}`,
		`{"jsonrpc":"2.0","id":1,"error":null,"result":null}`,
		`{"jsonrpc":"2.0","id":3,"result":1,"result":{"second":true}}`,
		` {"jsonrpc" : "2.0" , "id" : 4 , "result" : { } } `,
		`{"jsonrpc":2,"id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":1,"error":"broken"}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":"x"}}`,
		`{"jsonrpc":"2.0","method":7}`,
	} {
		var want Message
		werr := json.Unmarshal([]byte(in), &want)
		got, err := DecodeMessage([]byte(in))
		switch {
		case werr != nil:
			if err == nil {
				t.Errorf("%s: decoded, json.Unmarshal says %v", in, werr)
			}
		case err != nil && want.Kind() != "invalid":
			t.Errorf("%s: %v", in, err)
		case err == nil && !reflect.DeepEqual(*got, want):
			t.Errorf("%s:\n got %+v (error %+v)\nwant %+v (error %+v)", in, *got, got.Error, want, want.Error)
		}
	}
	data := []byte(`{"jsonrpc":"2.0","id":1,"result":{"text":"` + strings.Repeat("x", 1<<20) + `"}}`)
	m, err := DecodeMessage(data)
	if err != nil {
		t.Fatal(err)
	}
	if &m.Result[0] != &data[bytes.Index(data, []byte(`{"text"`))] {
		t.Error("the result is a copy of the message's")
	}
}

// A request is written once, params and all; its Params are that part of
// it, and MarshalJSON gives it back rather than write it again, unless
// Params were changed since.
func TestRequestWrittenOnce(t *testing.T) {
	c := New(&fakeTransport{}, testOptions())
	params := json.RawMessage(`{"name":"echo","arguments":{"text":"` + strings.Repeat("x", 1<<20) + `"},"name":"echo2"}`)
	req, err := c.newRequest("tools/call", params, "2026-07-28", &CallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wire, _ := req.MarshalJSON()
	again, _ := req.MarshalJSON()
	if &wire[0] != &again[0] {
		t.Error("MarshalJSON wrote the request again")
	}
	if !bytes.Contains(wire, req.Params) || &req.Params[0] != &wire[bytes.Index(wire, []byte(`"params":`))+len(`"params":`)] {
		t.Error("Params are not the request's own")
	}
	var sent struct {
		Params map[string]json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(wire, &sent); err != nil || string(sent.Params["name"]) != `"echo2"` || sent.Params["_meta"] == nil {
		t.Errorf("sent params %v, %v: want _meta, and the last of a name given twice", sent.Params["name"], err)
	}
	if fields, err := ojson.SplitObject(req.Params); err != nil || len(fields) != len(fields.Keys()) {
		t.Errorf("params sent with a name twice: %v, %v", fields.Keys(), err)
	}
	req.Params = json.RawMessage(`{"changed":true}`)
	if changed, _ := req.MarshalJSON(); !bytes.Contains(changed, []byte(`"params":{"changed":true}}`)) {
		t.Errorf("after a change of Params: %.100s", changed)
	}
}
