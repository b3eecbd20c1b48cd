package commands

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcpctl/mcpctl/client"
)

func TestBatchFlags(t *testing.T) {
	t.Parallel()
	checkFlags(t, "", newCmdBatch, []flagCase[batchOptions]{
		{args: []string{"batch"}, want: &batchOptions{Parallel: 1}},
		{args: []string{"batch", "-"}, want: &batchOptions{File: "-", Parallel: 1}},
		{args: []string{"batch", "lines.txt", "-P", "4", "--fail-fast"}, want: &batchOptions{File: "lines.txt", Parallel: 4, FailFast: true}},
		{args: []string{"--parallel=8", "batch"}, want: &batchOptions{Parallel: 8}}, // a command's flag may come first
		{args: []string{"batch", "--parallel=2"}, want: &batchOptions{Parallel: 2}},
		{args: []string{"batch", "a", "b"}, err: "usage: mcpctl batch [FILE | -] [-P N] [--fail-fast]"},
		{args: []string{"batch", "-P", "0"}, err: "invalid -P 0: give a number of requests in flight from 1 to 1024"},
		{args: []string{"batch", "-P", "5000"}, err: "invalid -P 5000"},
		{args: []string{"batch", "-P", "x"}, err: "-P x: want a whole number"},
		{args: []string{"batch", "-P"}, err: "-P needs a value"},
	})
}

// A JSON line becomes `call METHOD PARAMS`, its params where they lie in
// the line; what is not a request is refused with the way out.
func TestBatchJSONLine(t *testing.T) {
	t.Parallel()
	line := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get-sum","arguments":{"b":3,"a":2}}}`)
	o, tool, err := jsonLineCall(line)
	if err != nil || o.Method != "tools/call" || string(o.RawParams) != `{"name":"get-sum","arguments":{"b":3,"a":2}}` || !o.HasParams || tool == nil || *tool != "get-sum" {
		t.Fatalf("call %+v, tool %v, err %v", o, tool, err)
	}
	if &o.RawParams[0] != &line[bytes.Index(line, []byte(`{"name"`))] {
		t.Error("the params are a copy of the line's")
	}
	o, tool, err = jsonLineCall([]byte(`{"method":"ping"}`))
	if err != nil || o.Method != "ping" || o.HasParams || tool != nil {
		t.Errorf("call %+v, tool %v, err %v", o, tool, err)
	}
	for line, want := range map[string]string{
		`{"method":`:                          "the line is not valid JSON",
		`{"params":{}}`:                       `the line's JSON object needs "method"`,
		`{"method":""}`:                       `the line's JSON object needs "method"`,
		`{"method":3}`:                        `the line's JSON object needs "method"`,
		`{"method":"ping","result":{}}`:       `unknown key "result" in the line's JSON object`,
		`{"method":"ping"} {"method":"ping"}`: "the line has extra data after the JSON object",
	} {
		_, _, err := jsonLineCall([]byte(line))
		var u *UsageError
		if !errors.As(err, &u) || !strings.HasPrefix(u.Msg, want) {
			t.Errorf("%s: err %v, want a usage error starting %q", line, err, want)
		}
	}
}

// A line's JSON line: the result as printed, compacted, the server's
// fields in their order; an error with its exit code, JSON-RPC code and
// data, and what the line printed (a continuation, a tool's result).
func TestBatchResult(t *testing.T) {
	t.Parallel()
	tool := "t"
	for _, tc := range []struct {
		name    string
		stdout  string
		err     error
		tool    *string
		want    string
		code    int
		printed []string // given to Print
	}{
		{"result", "{\n  \"z\": 1,\n  \"a\": 1.50\n}\n", nil, nil, `{"line":7,"result":{"z":1,"a":1.50}}`, 0, nil},
		{"nothing printed", "", nil, nil, `{"line":7,"result":null}`, 0, nil},
		{"rpc error", "", wrapOp("tools/call t", &client.RPCError{Code: -32602, Message: "bad a", Data: json.RawMessage(`{"field": "a"}`)}), nil,
			`{"line":7,"error":{"exit":4,"code":-32602,"message":"tools/call t: server error -32602: bad a","data":{"field":"a"}}}`, 4, nil},
		{"tool error", `{"isError":true,"content":[]}`, &ToolError{Name: "t"}, nil,
			`{"line":7,"error":{"exit":1,"message":"tool \"t\" reported an error","result":{"isError":true,"content":[]}}}`, 1, nil},
		{"json tools/call isError", `{"isError":true}`, nil, &tool,
			`{"line":7,"error":{"exit":1,"message":"tool \"t\" reported an error","result":{"isError":true}}}`, 1, nil},
		{"continuation", `{"kind":"mcpctl.continuation/v1"}`, &client.InputRequiredError{Method: "tools/call", Reason: "no answer"}, nil,
			`{"line":7,"error":{"exit":6,"message":"the server needs input: no answer","continuation":{"kind":"mcpctl.continuation/v1"}}}`, 6, nil},
		{"not json", "Usage: …", nil, nil, `{"line":7,"error":{"exit":2,"message":"the line printed something that is not JSON (invalid character 'U' looking for beginning of value): a batch line must print a JSON result"}}`, 2, nil},
		{"two values", "{}\n{}\n", nil, nil, `{"line":7,"error":{"exit":2,"message":"the line printed more than one JSON value: a batch line must print one JSON result"}}`, 2, nil},
		{"usage", "", usagef("cannot split the line as a shell would: Unterminated single-quoted string"), nil,
			`{"line":7,"error":{"exit":2,"message":"cannot split the line as a shell would: Unterminated single-quoted string"}}`, 2, nil},
		{"printed", "", nil, nil, `{"line":7,"result":{"z":1,"a":1.50}}`, 0, []string{"{\n  \"z\": 1,\n  \"a\": 1.50\n}"}},
		{"printed twice", "", nil, nil, `{"line":7,"error":{"exit":2,"message":"the line printed more than one JSON value: a batch line must print one JSON result"}}`, 2, []string{"{}", "{}"}},
		{"printed and written", "{}", nil, nil, `{"line":7,"error":{"exit":2,"message":"the line printed more than one JSON value: a batch line must print one JSON result"}}`, 2, []string{"{}"}},
		{"printed not json", "", nil, nil, `{"line":7,"error":{"exit":2,"message":"the line printed something that is not JSON: a batch line must print a JSON result"}}`, 2, []string{"{"}},
		{"rpc error, data not json", "", wrapOp("ping", &client.RPCError{Code: -1, Message: "m", Data: json.RawMessage(`{`)}), nil,
			`{"line":7,"error":{"exit":4,"code":-1,"message":"ping: server error -1: m"}}`, 4, nil},
	} {
		var printed []json.RawMessage
		for _, p := range tc.printed {
			printed = append(printed, json.RawMessage(p))
		}
		value, err := lineValue(printed, []byte(tc.stdout))
		if tc.err != nil {
			err = tc.err
		}
		got, code := batchResult(7, value, err, tc.tool, nil)
		if string(got) != tc.want+"\n" || code != tc.code {
			t.Errorf("%s:\n got %s (exit %d)\nwant %s (exit %d)", tc.name, got, code, tc.want, tc.code)
		}
	}
}

// Lines are read with a bound: a longer one is dropped to its end and
// reported, and the next one is read as usual.
func TestBatchLineLimit(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 200)
	exact, over := strings.Repeat("y", 100), strings.Repeat("z", 101)
	br := bufio.NewReaderSize(strings.NewReader("short\r\n"+long+"\n"+exact+"\r\n"+over+"\nnext"), 16)
	var got []string
	for {
		line, tooLong, err := readLimitedLine(br, 100)
		if tooLong {
			got = append(got, "TOO LONG")
		} else if len(line) > 0 || err == nil {
			got = append(got, string(line))
		}
		if err != nil {
			break
		}
	}
	if strings.Join(got, "|") != "short|TOO LONG|"+exact+"|TOO LONG|next" {
		t.Errorf("got %q", got)
	}
}
