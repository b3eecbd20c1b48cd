package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const meta2026 = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
	`"io.modelcontextprotocol/clientCapabilities":{},` +
	`"io.modelcontextprotocol/clientInfo":{"name":"test","version":"0"}}`

var wantTools = []string{
	"ask_model", "calculator_arithmetic", "close_listeners", "list_roots_tool", "long_job", "multi_step",
	"open_dashboard", "signup_form", "slow_task", "toggle_prompt", "toggle_resource", "toggle_tool",
	"touch_resource", "weather_current",
}

// TestStdioPipe feeds raw JSON lines and closes input at once, the way
// `printf ... | demo` does, so it also covers the EOF draining.
func TestStdioPipe(t *testing.T) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + meta2026 + `}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{` + meta2026 + `}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"weather_current","arguments":{"location":"SF"},` + meta2026 + `}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"calculator_arithmetic","arguments":{"expression":"1/0"},` + meta2026 + `}}`,
	}, "\n") + "\n"
	stdinR, stdinW := io.Pipe()
	stdoutR, stdoutW := io.Pipe()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		s, n := newDemo()
		done <- serveStdio(ctx, s, n, stdinR, stdoutW)
		stdoutW.Close()
	}()
	go func() {
		io.WriteString(stdinW, in)
		stdinW.Close()
	}()

	results := map[int]json.RawMessage{}
	sc := bufio.NewScanner(stdoutR)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var resp struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &resp); err != nil {
			t.Fatalf("non-JSON line on stdout: %q", sc.Text())
		}
		if resp.Error != nil {
			t.Errorf("id %d: error %s", resp.ID, resp.Error)
		}
		results[resp.ID] = resp.Result
	}
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	if len(results) != 4 {
		t.Fatalf("got %d responses, want 4", len(results))
	}

	var list struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	json.Unmarshal(results[2], &list)
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	if !slices.Equal(names, wantTools) {
		t.Errorf("tools/list names = %v, want %v", names, wantTools)
	}

	var weather struct {
		StructuredContent weatherReading `json:"structuredContent"`
	}
	json.Unmarshal(results[3], &weather)
	want := weatherReading{Location: "SF", Temperature: 26.8, Units: "metric", Conditions: "fog", Humidity: 23}
	if weather.StructuredContent != want {
		t.Errorf("weather_current SF = %+v, want %+v", weather.StructuredContent, want)
	}

	var calc struct{ IsError bool }
	json.Unmarshal(results[4], &calc)
	if !calc.IsError {
		t.Errorf("1/0: isError = false, want true (%s)", results[4])
	}
}

// TestSDKClient checks that the SDK's own client negotiates with the
// server and sees every feature, in memory and over stateless HTTP.
func TestSDKClient(t *testing.T) {
	httpSrv := httptest.NewServer(newHTTPHandler(newServer()))
	defer httpSrv.Close()

	transports := map[string]func() mcp.Transport{
		"inmemory": func() mcp.Transport {
			st, ct := mcp.NewInMemoryTransports()
			if _, err := newServer().Connect(context.Background(), st, nil); err != nil {
				t.Fatal(err)
			}
			return ct
		},
		"http": func() mcp.Transport {
			return &mcp.StreamableClientTransport{Endpoint: httpSrv.URL + "/mcp"}
		},
	}
	for name, transport := range transports {
		t.Run(name, func(t *testing.T) { checkClient(t, transport()) })
	}
}

func checkClient(t *testing.T, transport mcp.Transport) {
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, transport, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Errorf("negotiated protocol version %q, want 2026-07-28", v)
	}

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	if !slices.Equal(names, wantTools) {
		t.Errorf("ListTools names = %v, want %v", names, wantTools)
	}

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "calculator_arithmetic", Arguments: map[string]any{"expression": "2*(3+4)"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != "14" {
		t.Errorf("2*(3+4) = %q, want 14", got)
	}

	logo, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: logoURI})
	if err != nil {
		t.Fatal(err)
	}
	if b := logo.Contents[0].Blob; !strings.HasPrefix(string(b), "\x89PNG\r\n\x1a\n") {
		t.Errorf("logo blob does not start with the PNG signature")
	}

	comp, err := cs.Complete(ctx, &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: weatherURITemplate},
		Argument: mcp.CompleteParamsArgument{Name: "location", Value: "san"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"San Francisco", "Santiago"}; !slices.Equal(comp.Completion.Values, want) {
		t.Errorf("completion values = %v, want %v", comp.Completion.Values, want)
	}
}

// TestHTTPBothPaths posts a 2026-07-28 request to /mcp and /.
func TestHTTPBothPaths(t *testing.T) {
	srv := httptest.NewServer(newHTTPHandler(newServer()))
	defer srv.Close()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + meta2026 + `}}`
	for _, path := range []string{"/mcp", "/"} {
		req, _ := http.NewRequest("POST", srv.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/list")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(data), `"weather_current"`) {
			t.Errorf("POST %s: status %d, body %s", path, resp.StatusCode, data)
		}
	}
}

// TestSDKClientInteractions drives the interactive tools with the SDK's own
// client, whose multi round-trip loop answers the input requests with its
// handlers: a check that the demo's shapes are what an independent client
// expects.
func TestSDKClientInteractions(t *testing.T) {
	httpSrv := httptest.NewServer(newHTTPHandler(newServer()))
	defer httpSrv.Close()
	for name, transport := range map[string]func() mcp.Transport{
		"inmemory": func() mcp.Transport {
			st, ct := mcp.NewInMemoryTransports()
			if _, err := newServer().Connect(context.Background(), st, nil); err != nil {
				t.Fatal(err)
			}
			return ct
		},
		"http": func() mcp.Transport { return &mcp.StreamableClientTransport{Endpoint: httpSrv.URL + "/mcp"} },
	} {
		t.Run(name, func(t *testing.T) { checkInteractions(t, transport()) })
	}
}

func checkInteractions(t *testing.T, transport mcp.Transport) {
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			switch req.Params.Message {
			case "Pick a colour":
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"color": "blue"}}, nil
			case "How many blue things?":
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"count": 4}}, nil
			}
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada", "email": "ada@example.com"}}, nil
		},
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Role: "assistant", Model: "test", Content: &mcp.TextContent{Text: "Paris"}}, nil
		},
	})
	client.AddRoots(&mcp.Root{URI: "file:///work", Name: "work"})
	cs, err := client.Connect(ctx, transport, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for tool, want := range map[string]string{
		"multi_step":      "4 blue things",
		"ask_model":       "Paris",
		"list_roots_tool": "1 root(s)\nfile:///work (work)",
		// The SDK client fills in the schema's defaults before answering.
		"signup_form": `signed up with {"email":"ada@example.com","name":"Ada","newsletter":true,"plan":"free"}`,
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool})
		if err != nil {
			t.Errorf("%s: %v", tool, err)
			continue
		}
		if len(res.Content) != 1 {
			t.Errorf("%s: %d content blocks", tool, len(res.Content))
		} else if text, ok := res.Content[0].(*mcp.TextContent); !ok || text.Text != want {
			t.Errorf("%s: content %+v, want %q", tool, res.Content[0], want)
		}
	}
}
