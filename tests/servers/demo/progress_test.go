package main

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

type notification struct {
	Method string `json:"method"`
	Params struct {
		ProgressToken any     `json:"progressToken"`
		Progress      float64 `json:"progress"`
		Total         float64 `json:"total"`
		Message       string  `json:"message"`
		Level         string  `json:"level"`
		Data          any     `json:"data"`
	} `json:"params"`
}

func decodeNotifications(t *testing.T, raw []json.RawMessage) (progress, logs []notification) {
	t.Helper()
	for _, r := range raw {
		var n notification
		if err := json.Unmarshal(r, &n); err != nil {
			t.Fatal(err)
		}
		switch n.Method {
		case "notifications/progress":
			progress = append(progress, n)
		case "notifications/message":
			logs = append(logs, n)
		default:
			t.Errorf("unexpected notification %s", r)
		}
	}
	return progress, logs
}

func TestLongJob(t *testing.T) {
	s := newRPCSession(t)
	args := func(a string) string { return `"name":"long_job","arguments":` + a }

	r := s.call("tools/call", args(`{"steps":3,"delay_ms":1}`),
		meta(`{}`, `"progressToken":"tok"`, `"io.modelcontextprotocol/logLevel":"info"`))
	if got := r.tool(t).text(t); got != "done after 3 steps" {
		t.Errorf("result = %q", got)
	}
	progress, logs := decodeNotifications(t, r.Notifications)
	if len(progress) != 3 {
		t.Fatalf("%d progress notifications, want 3", len(progress))
	}
	for i, p := range progress {
		if p.Params.ProgressToken != "tok" || p.Params.Progress != float64(i+1) || p.Params.Total != 3 || p.Params.Message == "" {
			t.Errorf("progress %d = %+v", i, p.Params)
		}
	}
	if len(logs) != 4 { // "starting" and one per step; debug lines filtered out
		t.Errorf("%d log messages at info, want 4", len(logs))
	}
	for _, l := range logs {
		if l.Params.Level != "info" {
			t.Errorf("log at level %q with logLevel info", l.Params.Level)
		}
	}

	r = s.call("tools/call", args(`{"steps":2,"delay_ms":0}`), meta(`{}`, `"progressToken":7`, `"io.modelcontextprotocol/logLevel":"debug"`))
	progress, logs = decodeNotifications(t, r.Notifications)
	if len(progress) != 2 || progress[0].Params.ProgressToken != 7.0 || len(logs) != 5 {
		t.Errorf("debug: %d progress (token %v), %d logs; want 2, 7, 5", len(progress), progress[0].Params.ProgressToken, len(logs))
	}

	// No progressToken and no logLevel: no notifications at all (the spec
	// forbids log messages for a request without a level).
	r = s.call("tools/call", args(`{"steps":2,"delay_ms":0}`), meta(`{}`))
	if len(r.Notifications) != 0 || r.tool(t).text(t) != "done after 2 steps" {
		t.Errorf("plain call: %d notifications, result %s", len(r.Notifications), r.Result)
	}

	// Defaults: 5 steps.
	if got := s.call("tools/call", args(`{"delay_ms":0}`), meta(`{}`)).tool(t).text(t); got != "done after 5 steps" {
		t.Errorf("default steps: %q", got)
	}
	if res := s.call("tools/call", args(`{"steps":51}`), meta(`{}`)).tool(t); !res.IsError {
		t.Errorf("steps 51 accepted: %+v", res)
	}
	s.call("tools/call", args(`{}`), meta(`{}`, `"io.modelcontextprotocol/logLevel":"loud"`)).wantError(t, -32602, "invalid log level")
}

// TestHTTPProgressStream checks that a request asking for notifications is
// answered with an SSE stream carrying them before the result, while other
// requests still get plain JSON.
func TestHTTPProgressStream(t *testing.T) {
	srv := httptest.NewServer(newHTTPHandler(newServer()))
	defer srv.Close()
	post := func(metaExtra ...string) *http.Response {
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"long_job","arguments":{"steps":3,"delay_ms":1},` +
			meta(`{}`, metaExtra...) + `}}`
		resp, err := http.DefaultClient.Do(mcpRequest(t, srv.URL+"/mcp", "tools/call", "long_job", body))
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}

	resp := post(`"progressToken":"p"`, `"io.modelcontextprotocol/logLevel":"info"`)
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type = %q, want text/event-stream", ct)
	}
	var methods []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var msg struct {
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
		}
		json.Unmarshal([]byte(data), &msg)
		if msg.Result != nil {
			methods = append(methods, "result")
		} else {
			methods = append(methods, msg.Method)
		}
	}
	want := "notifications/message notifications/progress notifications/message notifications/progress " +
		"notifications/message notifications/progress notifications/message result"
	if got := strings.Join(methods, " "); got != want {
		t.Errorf("SSE events:\n got %s\nwant %s", got, want)
	}

	plain := post()
	plain.Body.Close()
	if ct := plain.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("without progressToken/logLevel: Content-Type = %q, want application/json", ct)
	}
}

func mcpRequest(t *testing.T, url, method, name, body string) *http.Request {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if name != "" {
		req.Header.Set("Mcp-Name", name)
	}
	return req
}
