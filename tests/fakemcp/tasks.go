package fakemcp

// Task servers that never let a task end (issue 13, item 8). tools/call is
// answered with a task handle (Tasks extension), tasks/update and
// tasks/cancel are acknowledged and change nothing, and tasks/get answers
// as the mode says, every time:
//
//	taskaskforever  status input_required, asking "confirm" again on every
//	                poll, whatever the answer was (declined, cancelled or
//	                given)
//	tasknorequests  status input_required with no inputRequests at all
//	taskworking     status working, forever
//
// The task polls every 100ms (pollIntervalMs), so a client that honours it
// and bounds its rounds ends quickly.

import (
	"encoding/json"
	"fmt"
)

// taskTool is the one tool the task modes list.
const taskTool = `{"tools":[{"name":"slow","description":"Runs as a task that never ends","inputSchema":{"type":"object"}}]}`

// taskConfirm is the elicitation the taskaskforever task asks for.
const taskConfirm = `{"confirm":{"method":"elicitation/create","params":{"message":"Finish the task?","requestedSchema":{"type":"object","properties":{"confirm":{"type":"boolean"}},"required":["confirm"]}}}}`

// taskReply answers req in a task mode; ok is false for other modes.
func (s *server) taskReply(req request) (reply, bool) {
	var status, extra string
	switch s.mode {
	case "taskaskforever":
		status, extra = "input_required", `,"inputRequests":`+taskConfirm
	case "tasknorequests":
		status = "input_required"
	case "taskworking":
		status = "working"
	default:
		return reply{}, false
	}
	id := req.ID
	taskID := "task-" + s.mode
	view := func(resultType, status, extra string) string {
		return fmt.Sprintf(`{"resultType":%q,"taskId":%q,"status":%q,"statusMessage":"never done","createdAt":"2026-01-01T00:00:00Z","lastUpdatedAt":"2026-01-01T00:00:00Z","ttlMs":null,"pollIntervalMs":100%s}`,
			resultType, taskID, status, extra)
	}
	switch req.Method {
	case "tools/list":
		return reply{messages: []string{result(id, taskTool)}, exit: -1}, true
	case "tools/call":
		return reply{messages: []string{result(id, view("task", "working", ""))}, exit: -1}, true
	case "tasks/get":
		var p struct {
			TaskID string `json:"taskId"`
		}
		if json.Unmarshal(req.Params, &p) != nil || p.TaskID != taskID {
			return reply{messages: []string{rpcError(id, -32602, "Failed to retrieve task: Task not found", "")}, exit: -1}, true
		}
		return reply{messages: []string{result(id, view("complete", status, extra))}, exit: -1}, true
	case "tasks/update", "tasks/cancel":
		return reply{messages: []string{result(id, `{"resultType":"complete"}`)}, exit: -1}, true
	}
	return s.echo(req), true
}
