package client_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/mcptest"
)

// A server of revision 2026-07-28 in the same process: server/discover
// says which revision it speaks, tools/call echoes its argument.
func echoServer() *mcptest.Server {
	return mcptest.NewServer(func(ctx context.Context, r *mcptest.Request) (any, error) {
		switch r.Method {
		case "server/discover":
			return json.RawMessage(`{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"serverInfo":{"name":"echo","version":"1"}}`), nil
		case "tools/list":
			return json.RawMessage(`{"tools":[{"name":"echo","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}]}`), nil
		case "tools/call":
			var p struct {
				Arguments struct{ Text string } `json:"arguments"`
			}
			_ = json.Unmarshal(r.Params, &p)
			return map[string]any{"content": []any{map[string]any{"type": "text", "text": p.Arguments.Text}}}, nil
		}
		return nil, &mcptest.Error{Code: client.CodeMethodNotFound, Message: "no " + r.Method}
	})
}

// A call over a stream of newline-delimited JSON-RPC, as stdio carries it.
// NewStdio runs a server as a subprocess and speaks to it this way; here
// the server is in the same process, on the other end of an in-memory
// connection.
func ExampleNewConn() {
	srv := echoServer()
	c := client.New(client.NewConn(srv.Conn(), client.ConnOptions{}), client.Options{
		ClientInfo: client.Implementation{Name: "example", Version: "1.0"},
	})
	defer c.Close()
	res, err := c.CallTool(context.Background(), "echo", json.RawMessage(`{"text":"hello"}`), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(res))
	fmt.Println(c.Era().Era, c.Version())
	// Output:
	// {"content":[{"text":"hello","type":"text"}]}
	// modern 2026-07-28
}

// A call over Streamable HTTP. Over HTTP the tool's definition comes
// first (it says which arguments go into Mcp-Param-* headers); a caller
// that has it already passes it in CallOptions.Tool.
func ExampleNewHTTP() {
	srv := echoServer()
	hs := httptest.NewServer(srv)
	defer hs.Close()
	t, err := client.NewHTTP(client.HTTPOptions{URL: hs.URL})
	if err != nil {
		fmt.Println(err)
		return
	}
	c := client.New(t, client.Options{ClientInfo: client.Implementation{Name: "example", Version: "1.0"}})
	defer c.Close()
	res, err := c.CallTool(context.Background(), "echo", json.RawMessage(`{"text":"over HTTP"}`), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(res))
	fmt.Println(strings.Join(srv.Methods(), ", "))
	// Output:
	// {"content":[{"text":"over HTTP","type":"text"}]}
	// server/discover, tools/list, tools/call
}

// List follows nextCursor to the end (all) and returns one result with
// every page's items, bounded as a whole by Options.Timeout and
// Limits.MaxListSize; or it returns the one page a cursor selects.
func ExampleClient_List() {
	pages := map[string]string{
		"":   `{"tools":[{"name":"a"},{"name":"b"}],"nextCursor":"p2"}`,
		"p2": `{"tools":[{"name":"c"}],"nextCursor":"p3"}`,
		"p3": `{"tools":[{"name":"d"}]}`,
	}
	srv := mcptest.NewServer(func(ctx context.Context, r *mcptest.Request) (any, error) {
		var p struct{ Cursor string }
		_ = json.Unmarshal(r.Params, &p)
		return json.RawMessage(pages[p.Cursor]), nil
	})
	c := client.New(client.NewConn(srv.Conn(), client.ConnOptions{}), client.Options{Era: client.EraModern})
	defer c.Close()
	all, err := c.List(context.Background(), "tools/list", "tools", "", true)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(all))
	second, _ := c.List(context.Background(), "tools/list", "tools", "p2", false)
	fmt.Println(string(second))
	// Output:
	// {"tools":[{"name":"a"},{"name":"b"},{"name":"c"},{"name":"d"}]}
	// {"tools":[{"name":"c"}],"nextCursor":"p3"}
}

// answers is an InputHandler: it accepts every elicitation with a name.
type answers struct{}

func (answers) Answer(ctx context.Context, round client.InputRound) (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	for _, r := range round.Requests {
		fmt.Printf("round %d: %s asks %s\n", round.Round, r.Key, r.Method)
		out[r.Key] = json.RawMessage(`{"action":"accept","content":{"name":"Ada"}}`)
	}
	return out, nil
}

// A server may answer with resultType "input_required": the Client asks
// its InputHandler and sends the request again with the answers (and the
// server's requestState) until the result is complete.
func ExampleInputHandler() {
	srv := mcptest.NewServer(func(ctx context.Context, r *mcptest.Request) (any, error) {
		var p struct {
			InputResponses map[string]struct {
				Content struct{ Name string } `json:"content"`
			} `json:"inputResponses"`
			RequestState string `json:"requestState"`
		}
		_ = json.Unmarshal(r.Params, &p)
		if who, ok := p.InputResponses["who"]; ok && p.RequestState == "s1" {
			return map[string]any{"content": []any{map[string]any{"type": "text", "text": "hello, " + who.Content.Name}}}, nil
		}
		return json.RawMessage(`{"resultType":"input_required","requestState":"s1","inputRequests":{"who":{"method":"elicitation/create","params":{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}}}}`), nil
	})
	c := client.New(client.NewConn(srv.Conn(), client.ConnOptions{}), client.Options{
		Era:          client.EraModern,
		Capabilities: json.RawMessage(`{"elicitation":{"form":{}}}`),
		Input:        answers{},
	})
	defer c.Close()
	res, err := c.CallTool(context.Background(), "greet", nil, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(res))
	// Output:
	// round 1: who asks elicitation/create
	// {"content":[{"text":"hello, Ada","type":"text"}]}
}
