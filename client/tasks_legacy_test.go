package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A 2025-11-25 server that offers task-augmented tools/call, with three
// tools: one that requires tasks, one that allows them, one that does not.
const taskInitResult = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"tasks":{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}},"serverInfo":{"name":"old","version":"1"}}`

const taskTools = `{"tools":[` +
	`{"name":"must","inputSchema":{"type":"object"},"execution":{"taskSupport":"required"}},` +
	`{"name":"may","inputSchema":{"type":"object"},"execution":{"taskSupport":"optional"}},` +
	`{"name":"never","inputSchema":{"type":"object"}}]}`

func legacyTaskObject(status string) string {
	return `{"taskId":"t1","status":"` + status + `","createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:30:00Z","ttl":null,"pollInterval":1}`
}

const taskToolResult = `{"content":[{"type":"text","text":"done"}],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"t1"}}}`

func legacyTaskClient(replies map[string][]any, tasks TaskOptions) (*Client, *fakeTransport) {
	if _, ok := replies["initialize"]; !ok {
		replies["initialize"] = []any{taskInitResult}
	}
	if _, ok := replies["tools/list"]; !ok {
		replies["tools/list"] = []any{taskTools}
	}
	ft := &fakeTransport{handle: byMethod(replies)}
	return New(ft, Options{ProtocolVersion: "2025-11-25", Tasks: tasks}), ft
}

// A tool that requires tasks is called with params.task, its task polled
// at its pollInterval until it ends, and its result fetched with
// tasks/result; the task object is reported when created and polled.
func TestLegacyTaskRequired(t *testing.T) {
	var created, statuses []string
	c, ft := legacyTaskClient(map[string][]any{
		"tools/call":   {`{"task":` + legacyTaskObject("working") + `}`},
		"tasks/get":    {legacyTaskObject("working"), legacyTaskObject("completed")},
		"tasks/result": {taskToolResult},
	}, TaskOptions{
		OnCreated: func(h json.RawMessage) { created = append(created, TaskIDOf(h)) },
		OnStatus:  func(t json.RawMessage) { statuses = append(statuses, string(t)) },
	})
	res, err := c.CallTool(context.Background(), "must", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(res) != taskToolResult {
		t.Errorf("result %s, want what tasks/result answered, as it is", res)
	}
	reqs := ft.requests()
	if got := methods(reqs); got != "initialize notifications/initialized tools/list tools/call tasks/get tasks/get tasks/result" {
		t.Errorf("requests: %s", got)
	}
	if call := string(reqs[3].Params); !strings.HasSuffix(call, `"name":"must","arguments":{},"task":{}}`) {
		t.Errorf("tools/call params %s, want params.task", call)
	}
	if got := string(reqs[6].Params); !strings.Contains(got, `"taskId":"t1"`) {
		t.Errorf("tasks/result params %s", got)
	}
	if len(created) != 1 || created[0] != "t1" || len(statuses) != 2 {
		t.Errorf("OnCreated %q, OnStatus %q", created, statuses)
	}
}

// An optional tool runs as a task only when asked (CallOptions.Task); a
// forbidden one, or any tool of a server without tasks, cannot be asked to.
func TestLegacyTaskSupportLevels(t *testing.T) {
	plain := `{"content":[]}`
	for _, tc := range []struct {
		name, tool string
		init       string
		task       bool
		wantTask   bool
		wantErr    bool
	}{
		{"optional, not asked", "may", taskInitResult, false, false, false},
		{"optional, asked", "may", taskInitResult, true, true, false},
		{"forbidden, asked", "never", taskInitResult, true, false, true},
		{"forbidden, not asked", "never", taskInitResult, false, false, false},
		{"no capability, required", "must", initResult, false, false, false},
		{"no capability, asked", "may", initResult, true, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, ft := legacyTaskClient(map[string][]any{
				"initialize":   {tc.init},
				"tools/call":   {`{"task":` + legacyTaskObject("completed") + `}`, plain},
				"tasks/result": {taskToolResult},
			}, TaskOptions{})
			if !tc.wantTask {
				ft.handle = byMethod(map[string][]any{"initialize": {tc.init}, "tools/list": {taskTools}, "tools/call": {plain}})
			}
			res, err := c.CallTool(context.Background(), tc.tool, nil, &CallOptions{Task: tc.task})
			if tc.wantErr {
				if !isErr[*TaskSupportError](err) {
					t.Fatalf("err = %v (%T), want a *TaskSupportError", err, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			sentTask := false
			for _, r := range ft.requests() {
				if r.Method == "tools/call" {
					sentTask = strings.Contains(string(r.Params), `"task":{}`)
				}
			}
			if sentTask != tc.wantTask {
				t.Errorf("params.task sent: %v, want %v", sentTask, tc.wantTask)
			}
			if want := map[bool]string{true: taskToolResult, false: plain}[tc.wantTask]; string(res) != want {
				t.Errorf("result %s, want %s", res, want)
			}
		})
	}
}

// NoWait returns the CreateTaskResult as it is; CreatedTaskID reads it.
func TestLegacyTaskNoWait(t *testing.T) {
	created := `{"task":` + legacyTaskObject("working") + `}`
	c, ft := legacyTaskClient(map[string][]any{"tools/call": {created}}, TaskOptions{})
	res, err := c.CallTool(context.Background(), "must", nil, &CallOptions{NoWait: true})
	if err != nil {
		t.Fatal(err)
	}
	if string(res) != created || CreatedTaskID(res) != "t1" {
		t.Errorf("result %s (task id %q), want the CreateTaskResult", res, CreatedTaskID(res))
	}
	if got := methods(ft.requests()); strings.Contains(got, "tasks/") {
		t.Errorf("requests %s: NoWait must not poll", got)
	}
	if CreatedTaskID(json.RawMessage(taskToolResult)) != "" {
		t.Error("a tool result is no created task")
	}
}

// A task that needs input is asked tasks/result at once: the server's
// requests come while it blocks. One cancelled ends the wait so; one whose
// wait outlasts TaskOptions.Timeout keeps running.
func TestLegacyTaskWaitEnds(t *testing.T) {
	var last string
	c, ft := legacyTaskClient(map[string][]any{
		"tools/call":   {`{"task":` + legacyTaskObject("working") + `}`},
		"tasks/get":    {legacyTaskObject("input_required"), legacyTaskObject("completed")},
		"tasks/result": {taskToolResult},
	}, TaskOptions{OnStatus: func(t json.RawMessage) {
		var o Task
		_ = json.Unmarshal(t, &o)
		last = o.Status
	}})
	if _, err := c.CallTool(context.Background(), "must", nil, nil); err != nil {
		t.Fatal(err)
	}
	// Its end, since, is seen with one more poll, for the record.
	if got := methods(ft.requests()); !strings.HasSuffix(got, "tools/call tasks/get tasks/result tasks/get") || last != "completed" {
		t.Errorf("requests: %s; last status %q", got, last)
	}

	c, _ = legacyTaskClient(map[string][]any{"tools/call": {`{"task":` + legacyTaskObject("working") + `}`}, "tasks/get": {legacyTaskObject("cancelled")}}, TaskOptions{})
	if _, err := c.CallTool(context.Background(), "must", nil, nil); !isErr[*TaskCancelledError](err) {
		t.Errorf("cancelled: err = %v (%T)", err, err)
	}

	forever := make([]any, 1000)
	for i := range forever {
		forever[i] = legacyTaskObject("working")
	}
	c, _ = legacyTaskClient(map[string][]any{"tools/call": {`{"task":` + legacyTaskObject("working") + `}`}, "tasks/get": forever},
		TaskOptions{Timeout: 50 * time.Millisecond})
	_, err := c.CallTool(context.Background(), "must", nil, nil)
	var ie *TaskInterruptedError
	if !errors.As(err, &ie) || ie.Limit != 50*time.Millisecond || ie.Cancelled || ie.TaskID != "t1" || ie.Ends {
		t.Errorf("never ending: err = %v (%T)", err, err)
	}
	if !strings.HasSuffix(err.Error(), ", which keeps running") {
		t.Errorf("never ending: %q; want the task said to keep running", err)
	}

	// A caller that stops the server with the call (issue 25, item 6):
	// the task ends with it, and is not said to keep running.
	c, _ = legacyTaskClient(map[string][]any{"tools/call": {`{"task":` + legacyTaskObject("working") + `}`}, "tasks/get": forever},
		TaskOptions{Timeout: 50 * time.Millisecond, EndsWithCall: true})
	_, err = c.CallTool(context.Background(), "must", nil, nil)
	if !errors.As(err, &ie) || !ie.Ends || !strings.HasSuffix(err.Error(), "after 50ms, which ends with its server") {
		t.Errorf("ending with the call: err = %v (%T)", err, err)
	}
}

// WaitTask and TaskResult of a legacy session: a bare task id is polled
// the 2025-11-25 way, or asked tasks/result at once.
func TestLegacyWaitTaskByID(t *testing.T) {
	c, ft := legacyTaskClient(map[string][]any{"tasks/get": {legacyTaskObject("completed")}, "tasks/result": {taskToolResult}}, TaskOptions{})
	res, err := c.WaitTask(context.Background(), json.RawMessage(`{"taskId":"t1"}`), nil)
	if err != nil || string(res) != taskToolResult {
		t.Fatalf("WaitTask: %s, %v", res, err)
	}
	if got := methods(ft.requests()); got != "initialize notifications/initialized tasks/get tasks/result" {
		t.Errorf("requests: %s", got)
	}
	c, ft = legacyTaskClient(map[string][]any{"tasks/result": {taskToolResult}}, TaskOptions{})
	if res, err := c.TaskResult(context.Background(), "t1", nil); err != nil || string(res) != taskToolResult {
		t.Fatalf("TaskResult: %s, %v", res, err)
	}
	if got := methods(ft.requests()); got != "initialize notifications/initialized tasks/result" {
		t.Errorf("requests: %s", got)
	}
}

// notifications/tasks/status of the task waited for are reported like a
// poll's answer (and passed on); those of other tasks only passed on.
func TestLegacyTaskStatusNotification(t *testing.T) {
	var statuses []string
	var passed int
	c, ft := legacyTaskClient(map[string][]any{
		"tasks/get":    {legacyTaskObject("completed")},
		"tasks/result": {taskToolResult},
	}, TaskOptions{OnStatus: func(t json.RawMessage) { statuses = append(statuses, string(t)) }})
	inner := ft.handle
	ft.handle = func(ctx context.Context, req *Request, h http.Header, notify func(Notification)) (*Message, error) {
		if req.Method == "tasks/get" {
			notify(Notification{Method: "notifications/tasks/status", Params: json.RawMessage(`{"taskId":"other","status":"working"}`)})
			notify(Notification{Method: "notifications/tasks/status", Params: json.RawMessage(legacyTaskObject("completed"))})
		}
		return inner(ctx, req, h, notify)
	}
	_, err := c.WaitTask(context.Background(), json.RawMessage(`{"taskId":"t1"}`), &CallOptions{OnNotify: func(Notification) { passed++ }})
	if err != nil {
		t.Fatal(err)
	}
	if len(statuses) != 2 || statuses[0] != legacyTaskObject("completed") || passed != 2 {
		t.Errorf("OnStatus got %q, %d passed on; want the notification of t1, then the poll's answer, and both passed on", statuses, passed)
	}
}
