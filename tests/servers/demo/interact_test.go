package main

import (
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
)

func TestSignupForm(t *testing.T) {
	s := newRPCSession(t)
	m := meta(allCaps)

	first := s.tool("signup_form", "", m).tool(t)
	params := first.asks(t, "signup", "elicitation/create")
	if params["mode"] != "form" || params["message"] == "" {
		t.Errorf("params = %v, want form mode with a message", params)
	}
	schema := params["requestedSchema"].(map[string]any)
	props := schema["properties"].(map[string]any)
	want := map[string]string{ // property -> the keyword that makes it that field type
		"name": "title", "email": "format", "website": "format", "birthday": "format", "meeting": "format",
		"age": "maximum", "height": "minimum", "newsletter": "default", "plan": "enum", "tier": "oneOf",
		"topics": "items", "colors": "items",
	}
	for name, kw := range want {
		p, ok := props[name].(map[string]any)
		if !ok || p[kw] == nil {
			t.Errorf("property %s = %v, want %q", name, props[name], kw)
		}
	}
	if len(props) != len(want) {
		t.Errorf("%d properties, want %d", len(props), len(want))
	}
	if req := schema["required"].([]any); len(req) != 2 || req[0] != "name" || req[1] != "email" {
		t.Errorf("required = %v", req)
	}
	if first.RequestState != "" {
		t.Errorf("unexpected requestState %q", first.RequestState)
	}

	content := `{"age":36,"birthday":"1815-12-10","colors":["#ff0000","#0000ff"],"email":"ada@example.com",` +
		`"height":1.65,"meeting":"2026-08-01T10:00:00Z","name":"Ada","newsletter":false,"plan":"pro",` +
		`"tier":"priority","topics":["go","mcp"],"website":"https://ada.example"}`
	res := s.tool("signup_form", `"inputResponses":{"signup":{"action":"accept","content":`+content+`}}`, m).tool(t)
	if got := res.text(t); got != "signed up with "+content {
		t.Errorf("text = %s", got)
	}
	if string(res.StructuredContent) != content {
		t.Errorf("structuredContent = %s", res.StructuredContent)
	}

	for action, want := range map[string]string{"decline": "signup declined", "cancel": "signup cancelled"} {
		res := s.tool("signup_form", `"inputResponses":{"signup":{"action":"`+action+`"}}`, m).tool(t)
		if got := res.text(t); !strings.HasPrefix(got, want) || res.IsError {
			t.Errorf("%s: %q (isError %v)", action, got, res.IsError)
		}
	}

	s.tool("signup_form", `"inputResponses":{"signup":{"action":"accept","content":{"name":"x","email":"nope","age":151}}}`, m).
		wantError(t, -32602, "does not match the requested schema")
	s.tool("signup_form", `"inputResponses":{"signup":{"roots":[]}}`, m).wantError(t, -32602, "expected an elicitation result")
	s.tool("signup_form", "", meta(`{}`)).wantMissingCapability(t, `{"elicitation":{"form":{}}}`)
	s.tool("signup_form", "", meta(`{"elicitation":{"url":{}}}`)).wantMissingCapability(t, `{"elicitation":{"form":{}}}`)
	// An empty elicitation object means form mode.
	s.tool("signup_form", "", meta(`{"elicitation":{}}`)).tool(t).asks(t, "signup", "elicitation/create")
}

func TestOpenDashboard(t *testing.T) {
	s := newRPCSession(t)
	m := meta(allCaps)
	first := s.tool("open_dashboard", "", m).tool(t)
	p := first.asks(t, "dashboard", "elicitation/create")
	if p["mode"] != "url" || !strings.HasPrefix(p["url"].(string), "https://example.com/connect?session=") ||
		p["elicitationId"] == "" || p["message"] == "" {
		t.Errorf("params = %v", p)
	}
	if first.RequestState == "" {
		t.Fatal("no requestState")
	}
	state := `"requestState":"` + first.RequestState + `"`
	if got := s.tool("open_dashboard", `"inputResponses":{"dashboard":{"action":"accept"}},`+state, m).tool(t).text(t); got != "connected" {
		t.Errorf("accept: %q", got)
	}
	if got := s.tool("open_dashboard", `"inputResponses":{"dashboard":{"action":"decline"}},`+state, m).tool(t).text(t); got != "dashboard connection declined" {
		t.Errorf("decline: %q", got)
	}
	// Without the state the server cannot tell which session: ask again.
	s.tool("open_dashboard", `"inputResponses":{"dashboard":{"action":"accept"}}`, m).tool(t).asks(t, "dashboard", "elicitation/create")
	s.tool("open_dashboard", `"inputResponses":{"dashboard":{"action":"accept"}},"requestState":"x`+first.RequestState+`"`, m).
		wantError(t, -32602, "invalid requestState")
	s.tool("open_dashboard", "", meta(`{"elicitation":{}}`)).wantMissingCapability(t, `{"elicitation":{"url":{}}}`)
}

func TestListRootsTool(t *testing.T) {
	s := newRPCSession(t)
	m := meta(allCaps)
	s.tool("list_roots_tool", "", m).tool(t).asks(t, "roots", "roots/list")
	res := s.tool("list_roots_tool", `"inputResponses":{"roots":{"roots":[`+
		`{"uri":"file:///home/u/proj","name":"proj"},{"uri":"file:///tmp"}]}}`, m).tool(t)
	if got, want := res.text(t), "2 root(s)\nfile:///home/u/proj (proj)\nfile:///tmp"; got != want {
		t.Errorf("text = %q, want %q", got, want)
	}
	if got := string(res.StructuredContent); got != `{"roots":[{"uri":"file:///home/u/proj","name":"proj"},{"uri":"file:///tmp"}]}` {
		t.Errorf("structuredContent = %s", got)
	}
	if got := s.tool("list_roots_tool", `"inputResponses":{"roots":{"roots":[]}}`, m).tool(t).text(t); got != "0 root(s)" {
		t.Errorf("no roots: %q", got)
	}
	s.tool("list_roots_tool", "", meta(`{"sampling":{}}`)).wantMissingCapability(t, `{"roots":{}}`)
}

func TestAskModel(t *testing.T) {
	s := newRPCSession(t)
	m := meta(allCaps)
	p := s.tool("ask_model", "", m).tool(t).asks(t, "capital", "sampling/createMessage")
	msgs, _ := json.Marshal(p["messages"])
	if string(msgs) != `[{"content":{"text":"What is the capital of France?","type":"text"},"role":"user"}]` || p["maxTokens"] != 50.0 {
		t.Errorf("params = %v", p)
	}
	answer := `"inputResponses":{"capital":{"role":"assistant","content":{"type":"text","text":"Paris."},"model":"m","stopReason":"endTurn"}}`
	if got := s.tool("ask_model", answer, m).tool(t).text(t); got != "Paris." {
		t.Errorf("answer = %q", got)
	}
	s.tool("ask_model", "", meta(`{"roots":{}}`)).wantMissingCapability(t, `{"sampling":{}}`)
}

func TestMultiStep(t *testing.T) {
	s := newRPCSession(t)
	m := meta(allCaps)
	p := s.tool("multi_step", "", m).tool(t).asks(t, "color", "elicitation/create")
	colors := p["requestedSchema"].(map[string]any)["properties"].(map[string]any)["color"].(map[string]any)["enum"]
	if !slices.Equal(colors.([]any), []any{"red", "green", "blue"}) {
		t.Errorf("colour enum = %v", colors)
	}

	second := s.tool("multi_step", `"inputResponses":{"color":{"action":"accept","content":{"color":"green"}}}`, m).tool(t)
	p = second.asks(t, "count", "elicitation/create")
	if typ := p["requestedSchema"].(map[string]any)["properties"].(map[string]any)["count"].(map[string]any)["type"]; typ != "integer" {
		t.Errorf("count type = %v", typ)
	}
	if second.RequestState == "" {
		t.Fatal("second round has no requestState")
	}
	state := `"requestState":"` + second.RequestState + `"`
	count := `"inputResponses":{"count":{"action":"accept","content":{"count":3}}}`
	if got := s.tool("multi_step", count+","+state, m).tool(t).text(t); got != "3 green things" {
		t.Errorf("final = %q", got)
	}
	// The state alone (no answer yet) asks for the count again.
	s.tool("multi_step", state, m).tool(t).asks(t, "count", "elicitation/create")
	if got := s.tool("multi_step", `"inputResponses":{"count":{"action":"decline"}},`+state, m).tool(t).text(t); got != "multi_step stopped: count question declined" {
		t.Errorf("decline = %q", got)
	}

	// Tampering: flip one character of the payload, or present another
	// tool's state.
	st := second.RequestState
	tampered := strings.Replace(st, st[:1], string(st[0]^1), 1)
	s.tool("multi_step", count+`,"requestState":"`+tampered+`"`, m).wantError(t, -32602, "invalid requestState")
	s.tool("multi_step", count+`,"requestState":"garbage"`, m).wantError(t, -32602, "invalid requestState")
	other := s.tool("open_dashboard", "", m).tool(t).RequestState
	s.tool("multi_step", count+`,"requestState":"`+other+`"`, m).wantError(t, -32602, `issued for "open_dashboard"`)
	s.tool("multi_step", `"inputResponses":{"color":{"action":"accept","content":{"color":"pink"}}}`, m).wantError(t, -32602, "does not match")
	s.tool("multi_step", "", meta(`{}`)).wantMissingCapability(t, `{"elicitation":{"form":{}}}`)
}

// TestLegacyMultiStep: a client of an initialize-based revision cannot
// retry, so the questions arrive as elicitation/create requests, both of
// them, within the one tools/call.
func TestLegacyMultiStep(t *testing.T) {
	s := newRPCSession(t)
	send := func(line string) {
		if _, err := io.WriteString(s.in, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",` +
		`"capabilities":{"elicitation":{"form":{}}},"clientInfo":{"name":"old","version":"0"}}}`)
	<-s.lines
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"multi_step","arguments":{}}}`)
	var asked []string
	for line := range s.lines {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct{ Message string }
			Result toolResult
		}
		json.Unmarshal(line, &msg)
		if msg.Method == "elicitation/create" {
			asked = append(asked, msg.Params.Message)
			content := `{"count":2}`
			if msg.Params.Message == "Pick a colour" {
				content = `{"color":"red"}`
			}
			send(`{"jsonrpc":"2.0","id":` + string(msg.ID) + `,"result":{"action":"accept","content":` + content + `}}`)
			continue
		}
		if got := msg.Result.Content; len(got) != 1 || got[0].Text != "2 red things" {
			t.Errorf("result: %s", line)
		}
		break
	}
	if want := []string{"Pick a colour", "How many red things?"}; !slices.Equal(asked, want) {
		t.Errorf("asked %q, want %q", asked, want)
	}
}
