package fakemcp

import (
	"encoding/json"
	"fmt"
)

// Issue 17, item 6: "legacytaskworking" is a 2025-11-25 server that runs
// its one tool, slow, only as a task (execution.taskSupport required) and
// never lets the task end: tasks/get answers working every time (polled
// every 100ms), tasks/cancel cancels nothing, and tasks/result is refused.
// A tools/call without params.task is refused as the revision says.

const legacyTaskCapabilities = `{"tools":{},"tasks":{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}}`

const legacyTaskTools = `{"tools":[` +
	`{"name":"slow","description":"Runs as a task that never ends","inputSchema":{"type":"object"},"execution":{"taskSupport":"required"}},` +
	`{"name":"quick","description":"Never runs as a task","inputSchema":{"type":"object"}}]}`

const legacyTaskID = "task-legacytaskworking"

func legacyTaskView(status string) string {
	return fmt.Sprintf(`{"taskId":%q,"status":%q,"statusMessage":"never done","createdAt":"2026-01-01T00:00:00Z","lastUpdatedAt":"2026-01-01T00:00:00Z","ttl":null,"pollInterval":100}`, legacyTaskID, status)
}

// legacyTaskReply answers req in the legacytaskworking mode; ok is false
// for other modes and for the methods it leaves to the well-behaved server.
func (l *legacySession) legacyTaskReply(req request) (string, bool) {
	if l.srv.mode != "legacytaskworking" {
		return "", false
	}
	var p struct {
		Name   string          `json:"name"`
		Task   json.RawMessage `json:"task"`
		TaskID string          `json:"taskId"`
	}
	_ = json.Unmarshal(req.Params, &p)
	known := p.TaskID == legacyTaskID
	switch req.Method {
	case "tools/list":
		return result(req.ID, legacyTaskTools), true
	case "tools/call":
		switch {
		case p.Name == "quick":
			return result(req.ID, textContent("quick")), true
		case len(p.Task) == 0:
			return rpcError(req.ID, -32601, "Tool slow requires task augmentation", ""), true
		}
		return result(req.ID, `{"task":`+legacyTaskView("working")+`}`), true
	case "tasks/get", "tasks/cancel", "tasks/result":
		if !known {
			return rpcError(req.ID, -32602, "Failed to retrieve task: Task not found", ""), true
		}
		if req.Method == "tasks/result" {
			return rpcError(req.ID, -32603, "the task never ends", ""), true
		}
		return result(req.ID, legacyTaskView("working")), true
	case "tasks/list":
		return result(req.ID, `{"tasks":[`+legacyTaskView("working")+`]}`), true
	}
	return "", false
}
