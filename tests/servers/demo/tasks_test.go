package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

type taskJSON struct {
	ResultType     string                     `json:"resultType"`
	TaskID         string                     `json:"taskId"`
	Status         string                     `json:"status"`
	StatusMessage  string                     `json:"statusMessage"`
	CreatedAt      string                     `json:"createdAt"`
	LastUpdatedAt  string                     `json:"lastUpdatedAt"`
	TTLMs          *int64                     `json:"ttlMs"`
	PollIntervalMs int64                      `json:"pollIntervalMs"`
	InputRequests  map[string]json.RawMessage `json:"inputRequests"`
	Result         json.RawMessage            `json:"result"`
}

// waitStatus polls tasks/get (through get) until the status is no longer
// from, and returns the task.
func waitStatus(t *testing.T, get func() taskJSON, from string) taskJSON {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		task := get()
		if task.ResultType != "complete" {
			t.Fatalf("tasks/get resultType = %q", task.ResultType)
		}
		if task.Status != from {
			return task
		}
		if time.Now().After(deadline) {
			t.Fatalf("task still %s", from)
		}
		time.Sleep(time.Duration(task.PollIntervalMs) * time.Millisecond)
	}
}

func TestSlowTaskAsTask(t *testing.T) {
	t.Parallel()
	s := newRPCSession(t)
	m := meta(allCaps)

	var created taskJSON
	s.tool("slow_task", "", m).mustResult(t, &created)
	if created.ResultType != "task" || created.Status != "working" || created.TaskID == "" ||
		created.PollIntervalMs != 200 || created.TTLMs == nil || created.CreatedAt == "" || created.LastUpdatedAt == "" {
		t.Fatalf("CreateTaskResult = %+v", created)
	}
	id := `"taskId":"` + created.TaskID + `"`
	get := func() taskJSON {
		var task taskJSON
		s.call("tasks/get", id, m).mustResult(t, &task)
		return task
	}

	task := waitStatus(t, get, "working")
	if task.Status != "input_required" || len(task.InputRequests) != 1 || task.InputRequests["confirm"] == nil {
		t.Fatalf("after working: %+v", task)
	}
	var ir struct {
		Method string `json:"method"`
		Params struct {
			Mode            string `json:"mode"`
			RequestedSchema struct {
				Properties map[string]struct{ Type string } `json:"properties"`
			} `json:"requestedSchema"`
		} `json:"params"`
	}
	json.Unmarshal(task.InputRequests["confirm"], &ir)
	if ir.Method != "elicitation/create" || ir.Params.Mode != "form" || ir.Params.RequestedSchema.Properties["confirm"].Type != "boolean" {
		t.Errorf("inputRequests.confirm = %s", task.InputRequests["confirm"])
	}
	// Outstanding requests are repeated on every poll.
	if again := get(); again.Status != "input_required" || again.InputRequests["confirm"] == nil {
		t.Errorf("second poll: %+v", again)
	}

	// Unknown keys are ignored; the answer moves the task on.
	var ack map[string]any
	s.call("tasks/update", id+`,"inputResponses":{"other":{"action":"accept"},"confirm":{"action":"accept","content":{"confirm":true}}}`, m).mustResult(t, &ack)
	if ack["resultType"] != "complete" || len(ack) > 2 { // resultType and _meta
		t.Errorf("tasks/update ack = %v", ack)
	}
	task = waitStatus(t, get, "working")
	if task.Status != "completed" || task.InputRequests != nil {
		t.Fatalf("final: %+v", task)
	}
	if string(task.Result) != `{"content":[{"type":"text","text":"task finished (confirmed: true)"}]}` {
		t.Errorf("result = %s", task.Result)
	}
	// A late answer or cancel of a finished task is acknowledged and changes nothing.
	s.call("tasks/update", id+`,"inputResponses":{"confirm":{"action":"decline"}}`, m).mustResult(t, &ack)
	s.call("tasks/cancel", id, m).mustResult(t, &ack)
	if task := get(); task.Status != "completed" {
		t.Errorf("after late cancel: %s", task.Status)
	}

	for _, method := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		s.call(method, `"taskId":"no-such-task","inputResponses":{}`, m).wantError(t, -32602, "Task not found")
	}
	s.call("tasks/get", "", m).wantError(t, -32602, "missing taskId")
}

func TestSlowTaskCancelAndDecline(t *testing.T) {
	t.Parallel()
	s := newRPCSession(t)
	m := meta(allCaps)
	start := func() (string, func() taskJSON) {
		var created taskJSON
		s.tool("slow_task", "", m).mustResult(t, &created)
		id := `"taskId":"` + created.TaskID + `"`
		return id, func() taskJSON {
			var task taskJSON
			s.call("tasks/get", id, m).mustResult(t, &task)
			return task
		}
	}

	id, get := start()
	var ack map[string]any
	s.call("tasks/cancel", id, m).mustResult(t, &ack)
	if task := get(); task.Status != "cancelled" {
		t.Fatalf("after cancel: %+v", task)
	}
	time.Sleep(2 * slowTaskPhase) // the worker must not revive it
	if task := get(); task.Status != "cancelled" || task.InputRequests != nil {
		t.Errorf("later: %+v", task)
	}

	id, get = start()
	waitStatus(t, get, "working")
	s.call("tasks/update", id+`,"inputResponses":{"confirm":{"action":"decline"}}`, m).mustResult(t, &ack)
	task := waitStatus(t, get, "working")
	if !strings.Contains(string(task.Result), "task finished (confirmed: false)") {
		t.Errorf("declined: %+v", task)
	}

	id, get = start()
	waitStatus(t, get, "working")
	s.call("tasks/update", id+`,"inputResponses":{"confirm":{"action":"accept","content":{"confirm":"yes"}}}`, m).
		wantError(t, -32602, "does not match")
	if task := get(); task.Status != "input_required" {
		t.Errorf("after a bad answer: %s", task.Status)
	}
}

// TestSlowTaskSync covers clients without the tasks extension: the same
// confirmation through a multi round-trip request.
func TestSlowTaskSync(t *testing.T) {
	t.Parallel()
	s := newRPCSession(t)
	m := meta(`{"elicitation":{"form":{}}}`)
	first := s.tool("slow_task", "", m).tool(t)
	first.asks(t, "confirm", "elicitation/create")
	retry := `"inputResponses":{"confirm":{"action":"accept","content":{"confirm":true}}},"requestState":"` + first.RequestState + `"`
	if got := s.tool("slow_task", retry, m).tool(t).text(t); got != "task finished (confirmed: true)" {
		t.Errorf("result = %q", got)
	}
	s.tool("slow_task", "", meta(`{"extensions":{"io.modelcontextprotocol/tasks":{}}}`)).
		wantMissingCapability(t, `{"elicitation":{"form":{}}}`)
	s.tool("slow_task", "", meta(`{}`)).wantMissingCapability(t, `{"elicitation":{"form":{}}}`)
}

// TestHTTPTasks runs the task flow over the stateless HTTP server, whose
// requests share the task store, and checks the Mcp-Name routing header.
func TestHTTPTasks(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(newHTTPHandler(newServer()))
	defer srv.Close()
	post := func(method, name, params string) (int, []byte) {
		body := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{` + params + `,` + meta(allCaps) + `}}`
		resp, err := http.DefaultClient.Do(mcpRequest(t, srv.URL+"/mcp", method, name, body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, data
	}
	decode := func(data []byte) taskJSON {
		var msg struct{ Result taskJSON }
		if err := json.Unmarshal(data, &msg); err != nil {
			t.Fatalf("%v: %s", err, data)
		}
		return msg.Result
	}

	_, data := post("tools/call", "slow_task", `"name":"slow_task","arguments":{}`)
	created := decode(data)
	if created.ResultType != "task" {
		t.Fatalf("tools/call: %s", data)
	}
	id := created.TaskID
	get := func() taskJSON {
		code, data := post("tasks/get", id, `"taskId":"`+id+`"`)
		if code != 200 {
			t.Fatalf("tasks/get: %d %s", code, data)
		}
		return decode(data)
	}
	waitStatus(t, get, "working")
	if code, data := post("tasks/update", id, `"taskId":"`+id+`","inputResponses":{"confirm":{"action":"accept","content":{"confirm":true}}}`); code != 200 {
		t.Fatalf("tasks/update: %d %s", code, data)
	}
	if task := waitStatus(t, get, "working"); task.Status != "completed" {
		t.Errorf("final: %+v", task)
	}

	for name, wantSub := range map[string]string{"": "missing required Mcp-Name", "other": "does not match"} {
		code, data := post("tasks/get", name, `"taskId":"`+id+`"`)
		if code != 400 || !strings.Contains(string(data), `"code":-32020`) || !strings.Contains(string(data), wantSub) {
			t.Errorf("Mcp-Name %q: %d %s", name, code, data)
		}
	}
	if code, data := post("tasks/get", "nope", `"taskId":"nope"`); code != 400 || !strings.Contains(string(data), "-32602") {
		t.Errorf("unknown task: %d %s", code, data)
	}
}
