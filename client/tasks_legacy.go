package client

// Tasks of revision 2025-11-25 (task augmentation). A legacy server that
// declares capabilities.tasks.requests.tools.call runs a tool as a task
// when tools/call carries params.task: its answer is a CreateTaskResult
// ({"task": {…}}) instead of the tool's result. The client polls tasks/get
// at the task's pollInterval until it ends or needs input, then fetches
// the result with tasks/result, which blocks until the task ends; the
// server's requests for input (elicitation/create, …) arrive while it
// blocks and are answered as any legacy server request. Each tool says in
// execution.taskSupport whether it must (required), may (optional) or
// must not (forbidden, the default) run as a task.

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mcpctl/mcpctl/client/ojson"
)

// Values of a tool's execution.taskSupport (revision 2025-11-25).
const (
	TaskSupportForbidden = "forbidden"
	TaskSupportOptional  = "optional"
	TaskSupportRequired  = "required"
)

// ToolTaskSupport is a tool definition's execution.taskSupport, forbidden
// when it has none.
func ToolTaskSupport(tool json.RawMessage) string {
	var t struct {
		Execution struct {
			TaskSupport string `json:"taskSupport"`
		} `json:"execution"`
	}
	_ = json.Unmarshal(tool, &t)
	if t.Execution.TaskSupport == "" {
		return TaskSupportForbidden
	}
	return t.Execution.TaskSupport
}

// TaskSupportError is a call asked to run as a task (CallOptions.Task)
// that cannot.
type TaskSupportError struct{ Tool, Reason string }

func (e *TaskSupportError) Error() string {
	return "tool " + quote(e.Tool) + " cannot be run as a task: " + e.Reason
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// legacyTask is the part of a 2025-11-25 task object the client acts on.
type legacyTask struct {
	TaskID        string `json:"taskId"`
	Status        string `json:"status"`
	StatusMessage string `json:"statusMessage"`
	PollInterval  *int64 `json:"pollInterval"`
}

// legacyToolTasks says whether the legacy server accepts task-augmented
// tools/call (capabilities.tasks.requests.tools.call), running the
// handshake first if need be. A modern server never does. A dry run, which
// sends no handshake, takes a legacy server at its tools' word.
func (c *Client) legacyToolTasks(ctx context.Context) (bool, error) {
	if err := c.ensureEra(ctx); err != nil || !c.Legacy() {
		return false, err
	}
	if c.dryRun() {
		return true, nil
	}
	if err := c.initialized(ctx); err != nil {
		return false, err
	}
	var r struct {
		Capabilities struct {
			Tasks struct {
				Requests struct {
					Tools struct {
						Call json.RawMessage `json:"call"`
					} `json:"tools"`
				} `json:"requests"`
			} `json:"tasks"`
		} `json:"capabilities"`
	}
	_ = json.Unmarshal(c.InitializeResult(), &r)
	call := r.Capabilities.Tasks.Requests.Tools.Call
	return len(call) > 0 && string(call) != "null", nil
}

// runAsTask decides whether the call of tool (its definition) goes out
// task-augmented: always for required, on want for optional, never
// otherwise; want for a tool or server that cannot is an error.
func (c *Client) runAsTask(ctx context.Context, name string, tool json.RawMessage, want bool) (bool, error) {
	offered, err := c.legacyToolTasks(ctx)
	if err != nil {
		return false, err
	}
	support := ToolTaskSupport(tool)
	switch {
	case !offered && want && !c.Legacy():
		return false, &TaskSupportError{Tool: name, Reason: "a server of protocol " + c.Version() + " decides itself which calls run as tasks"}
	case !offered && want:
		return false, &TaskSupportError{Tool: name, Reason: "the server does not offer tasks for tools/call"}
	case !offered:
		return false, nil
	case support == TaskSupportRequired:
		return true, nil
	case support == TaskSupportOptional:
		return want, nil
	case want:
		return false, &TaskSupportError{Tool: name, Reason: "its execution.taskSupport is " + quote(support)}
	}
	return false, nil
}

// withTask adds params.task to a tools/call body.
func withTask(body json.RawMessage) json.RawMessage {
	fields, err := ojson.SplitObject(body)
	if err != nil {
		return body
	}
	fields.Set("task", json.RawMessage(`{}`))
	return fields.JSON()
}

// legacyTaskCreated handles the answer to a task-augmented tools/call: a
// CreateTaskResult is reported (TaskOptions.OnCreated) and, unless
// co.NoWait, waited for; an ordinary result (a server that ran the call
// as it is) is returned unchanged.
func (c *Client) legacyTaskCreated(ctx context.Context, res json.RawMessage, co *CallOptions) (json.RawMessage, error) {
	task := legacyCreatedTask(res)
	if task == nil {
		return res, nil
	}
	if TaskIDOf(task) == "" {
		return nil, &ProtocolError{Msg: "a task answer without a taskId: " + snippet(res)}
	}
	if c.opts.Tasks.OnCreated != nil {
		c.opts.Tasks.OnCreated(task)
	}
	if co.NoWait {
		return res, nil
	}
	return c.waitLegacyTask(ctx, task, co)
}

// legacyCreatedTask is the task object of a CreateTaskResult, nil for any
// other result.
func legacyCreatedTask(res json.RawMessage) json.RawMessage {
	fields, err := ojson.SplitObject(res)
	if err != nil || fields.Get("content") != nil {
		return nil
	}
	task := fields.Get("task")
	if len(task) == 0 || task[0] != '{' {
		return nil
	}
	return task
}

// CreatedTaskID is the taskId of a result that hands over a task rather
// than the call's result: a task handle (resultType "task", 2026-07-28) or
// a CreateTaskResult (2025-11-25). "" for any other result.
func CreatedTaskID(res json.RawMessage) string {
	if rt, _ := resultTypeOf(res); rt == "task" {
		return TaskIDOf(res)
	}
	return TaskIDOf(legacyCreatedTask(res))
}

// waitLegacyTask polls a 2025-11-25 task (its task object, or a bare
// {"taskId"} to poll at once) until it ends or asks for input, then
// returns what tasks/result answers.
func (c *Client) waitLegacyTask(ctx context.Context, task json.RawMessage, co *CallOptions) (json.RawMessage, error) {
	var t legacyTask
	if err := json.Unmarshal(task, &t); err != nil || t.TaskID == "" {
		return nil, &ProtocolError{Msg: "a task answer without a taskId: " + snippet(task)}
	}
	id := t.TaskID
	waitCtx, cancel := c.waitContext(ctx)
	defer cancel()
	stop := func(err error) error { return c.interrupted(ctx, waitCtx, id, err) }
	opts := &CallOptions{OnNotify: c.taskNotify(id, co.OnNotify)}
	// On a shared connection (stdio) the task's status notifications are
	// tied to no request: they come to the Client (untied.go).
	defer c.observe(func(n Notification) { c.taskStatus(id, n) })()
	fresh := t.Status == ""
	for {
		switch t.Status {
		case "completed", "failed", "input_required":
			// tasks/result answers at once for an ended task, and blocks
			// until the end for one that needs input: the server's
			// requests for it come meanwhile. Only the wait's own limit
			// bounds it.
			res, err := c.Call(waitCtx, "tasks/result", taskParams(id), &CallOptions{OnNotify: opts.OnNotify, NoTimeout: true})
			if err != nil {
				return nil, stop(err)
			}
			if t.Status == "input_required" && c.opts.Tasks.OnStatus != nil {
				// The task has ended since it was last seen: its end is
				// reported too, as a poll would have.
				if raw, err := c.Call(waitCtx, "tasks/get", taskParams(id), opts); err == nil {
					c.opts.Tasks.OnStatus(raw)
				}
			}
			return res, nil
		case "cancelled":
			return nil, &TaskCancelledError{TaskID: id, Message: t.StatusMessage}
		case "working", "":
		default:
			return nil, &ProtocolError{Msg: "task " + id + " has unknown status " + quote(t.Status)}
		}
		if !fresh {
			if err := sleepCtx(waitCtx, legacyPoll(t)); err != nil {
				return nil, stop(err)
			}
		}
		fresh = false
		raw, err := c.Call(waitCtx, "tasks/get", taskParams(id), opts)
		if err != nil {
			return nil, stop(err)
		}
		if c.opts.Tasks.OnStatus != nil {
			c.opts.Tasks.OnStatus(raw)
		}
		t = legacyTask{}
		if err := json.Unmarshal(raw, &t); err != nil || t.Status == "" {
			return nil, &ProtocolError{Msg: "tasks/get answered something that is not a task: " + snippet(raw)}
		}
	}
}

func legacyPoll(t legacyTask) time.Duration {
	if t.PollInterval == nil || *t.PollInterval <= 0 {
		return defaultPoll
	}
	return time.Duration(*t.PollInterval) * time.Millisecond
}

// taskNotify passes notifications on as the request would have (next, or
// the client's hook), and reports status notifications of task id
// (notifications/tasks/status) to TaskOptions.OnStatus.
func (c *Client) taskNotify(id string, next func(Notification)) func(Notification) {
	if next == nil {
		next = c.opts.Hooks.OnNotify
	}
	return func(n Notification) {
		c.taskStatus(id, n)
		if next != nil {
			next(n)
		}
	}
}

// taskStatus reports n to TaskOptions.OnStatus if it is a status
// notification of task id.
func (c *Client) taskStatus(id string, n Notification) {
	if n.Method == "notifications/tasks/status" && c.opts.Tasks.OnStatus != nil && TaskIDOf(n.Params) == id {
		c.opts.Tasks.OnStatus(n.Params)
	}
}

// TaskResult waits for a task to end and returns its result. A
// 2025-11-25 server is asked tasks/result at once, which answers when the
// task ends, input it needs asked for meanwhile (bounded by
// TaskOptions.Timeout); a 2026-07-28 task is waited for as by WaitTask.
func (c *Client) TaskResult(ctx context.Context, id string, co *CallOptions) (json.RawMessage, error) {
	if co == nil {
		co = &CallOptions{}
	}
	if err := c.ensureEra(ctx); err == nil && c.Legacy() {
		b, _ := json.Marshal(map[string]string{"taskId": id, "status": "input_required"})
		return c.waitLegacyTask(ctx, b, co)
	}
	return c.WaitTask(ctx, taskParams(id), co)
}
