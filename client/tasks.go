package client

// The Tasks extension (io.modelcontextprotocol/tasks): a tools/call may be
// answered with a task handle (resultType "task"). The client polls
// tasks/get at the server's pollIntervalMs until the task is completed,
// failed or cancelled; input the task needs on the way (status
// input_required) goes through the same InputHandler as MRTR rounds and
// back with tasks/update, each key answered once.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// TasksExtension is the extension's capability key.
const TasksExtension = "io.modelcontextprotocol/tasks"

// TaskOptions tunes waiting for tasks.
type TaskOptions struct {
	// Timeout bounds the whole wait (0: none).
	Timeout time.Duration
	// CancelOnInterrupt sends tasks/cancel when the wait is interrupted;
	// otherwise the task keeps running and can be waited for again.
	CancelOnInterrupt bool
	// OnCreated receives the handle of every task this client waits for.
	OnCreated func(handle json.RawMessage)
	// OnStatus receives every task object tasks/get returns.
	OnStatus func(task json.RawMessage)
}

// Task is the part of a task object the engine acts on.
type Task struct {
	TaskID         string          `json:"taskId"`
	Status         string          `json:"status"`
	StatusMessage  string          `json:"statusMessage"`
	PollIntervalMs *int64          `json:"pollIntervalMs"`
	Result         json.RawMessage `json:"result"`
	Error          *RPCError       `json:"error"`
}

// TaskFailedError is a task that ended with status cancelled.
type TaskCancelledError struct{ TaskID, Message string }

func (e *TaskCancelledError) Error() string {
	s := fmt.Sprintf("task %s was cancelled", e.TaskID)
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// TaskInterruptedError means the wait for a task stopped (Ctrl-C or its
// timeout) while the task may still be running.
type TaskInterruptedError struct {
	TaskID    string
	Cancelled bool // tasks/cancel was sent
	Err       error
}

func (e *TaskInterruptedError) Error() string {
	if e.Cancelled {
		return fmt.Sprintf("stopped waiting for task %s and asked the server to cancel it", e.TaskID)
	}
	return fmt.Sprintf("stopped waiting for task %s, which keeps running", e.TaskID)
}

func (e *TaskInterruptedError) Unwrap() error { return e.Err }

const defaultPoll = time.Second

func taskParams(id string, extra ...field) json.RawMessage {
	b, _ := json.Marshal(id)
	return joinObject(append([]field{{Key: "taskId", Value: b}}, extra...))
}

// WaitTask polls the task of handle until it ends, answering its input
// requests, and returns the task's result as the original request would
// have returned it.
func (c *Client) WaitTask(ctx context.Context, handle json.RawMessage, co *CallOptions) (json.RawMessage, error) {
	var t Task
	if err := json.Unmarshal(handle, &t); err != nil || t.TaskID == "" {
		return nil, &ProtocolError{Msg: "a task answer without a taskId: " + snippet(handle)}
	}
	if c.opts.Tasks.OnCreated != nil {
		c.opts.Tasks.OnCreated(handle)
	}
	id := t.TaskID
	waitCtx := ctx
	if c.opts.Tasks.Timeout > 0 {
		var cancel context.CancelFunc
		waitCtx, cancel = context.WithTimeout(ctx, c.opts.Tasks.Timeout)
		defer cancel()
	}
	answered := map[string]bool{}
	round := 0
	// A bare {"taskId"} (tasks wait ID) is polled at once.
	fresh := t.Status == ""
	if fresh {
		t.Status = "working"
	}
	for {
		if ended, res, err := taskOutcome(t); ended {
			return res, err
		}
		if fresh {
			fresh = false
		} else if t.Status == "input_required" {
			round++
			if err := c.answerTask(waitCtx, id, round, answered); err != nil {
				return nil, c.interrupted(ctx, id, err)
			}
		} else if err := sleepCtx(waitCtx, pollInterval(t)); err != nil {
			return nil, c.interrupted(ctx, id, err)
		}
		raw, err := c.Call(waitCtx, "tasks/get", taskParams(id), &CallOptions{OnNotify: co.OnNotify})
		if err != nil {
			return nil, c.interrupted(ctx, id, err)
		}
		if c.opts.Tasks.OnStatus != nil {
			c.opts.Tasks.OnStatus(raw)
		}
		t = Task{}
		if err := json.Unmarshal(raw, &t); err != nil {
			return nil, &ProtocolError{Msg: "tasks/get answered something that is not a task: " + snippet(raw)}
		}
		if t.TaskID == "" {
			t.TaskID = id
		}
	}
}

// taskOutcome says whether t has ended, and how.
func taskOutcome(t Task) (bool, json.RawMessage, error) {
	switch t.Status {
	case "completed":
		if len(t.Result) == 0 {
			return true, nil, &ProtocolError{Msg: "task " + t.TaskID + " completed without a result"}
		}
		return true, t.Result, nil
	case "failed":
		if t.Error == nil {
			return true, nil, &RPCError{Code: CodeInternalError, Message: "task " + t.TaskID + " failed: " + t.StatusMessage}
		}
		return true, nil, t.Error
	case "cancelled":
		return true, nil, &TaskCancelledError{TaskID: t.TaskID, Message: t.StatusMessage}
	case "working", "input_required":
		return false, nil, nil
	}
	return true, nil, &ProtocolError{Msg: fmt.Sprintf("task %s has unknown status %q", t.TaskID, t.Status)}
}

func pollInterval(t Task) time.Duration {
	if t.PollIntervalMs == nil || *t.PollIntervalMs <= 0 {
		return defaultPoll
	}
	return time.Duration(*t.PollIntervalMs) * time.Millisecond
}

// answerTask answers the task's outstanding input requests, each key once.
func (c *Client) answerTask(ctx context.Context, id string, round int, answered map[string]bool) error {
	raw, err := c.Call(ctx, "tasks/get", taskParams(id), nil)
	if err != nil {
		return err
	}
	fields, err := splitObject(raw)
	if err != nil {
		return &ProtocolError{Msg: "tasks/get answered something that is not a task"}
	}
	reqs, _, err := parseInputRequired(joinObject([]field{{Key: "inputRequests", Value: orEmptyObject(getField(fields, "inputRequests"))}}))
	if err != nil {
		// No requests after all (the task moved on): poll again.
		return nil
	}
	return c.answerTaskRequests(ctx, id, round, reqs, answered)
}

// AnswerTask answers a task's input requests (a continuation with a
// TaskID) with tasks/update, without waiting for the task.
func (c *Client) AnswerTask(ctx context.Context, k Continuation) error {
	return c.answerTaskRequests(ctx, k.TaskID, max(k.Round, 1), k.Requests, map[string]bool{})
}

// answerTaskRequests answers the requests not answered yet and sends the
// answers with tasks/update.
func (c *Client) answerTaskRequests(ctx context.Context, id string, round int, reqs []InputRequest, answered map[string]bool) error {
	var pending []InputRequest
	for _, r := range reqs {
		if !answered[r.Key] {
			pending = append(pending, r)
		}
	}
	if len(pending) == 0 {
		return sleepCtx(ctx, defaultPoll/4)
	}
	answers, err := c.answerRound(ctx, InputRound{Method: "tasks/update", Round: round, Requests: pending, TaskID: id})
	if err != nil {
		var ire *InputRequiredError
		if errors.As(err, &ire) {
			ire.Method, ire.TaskID, ire.Requests, ire.Round = "tasks/update", id, pending, round
		}
		return err
	}
	var resp []field
	for _, r := range pending {
		if a, ok := answers[r.Key]; ok {
			resp = append(resp, field{Key: r.Key, Value: a})
			answered[r.Key] = true
		}
	}
	_, err = c.Call(ctx, "tasks/update", taskParams(id, field{Key: "inputResponses", Value: joinObject(resp)}), nil)
	return err
}

func orEmptyObject(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage(`{}`)
	}
	return raw
}

// interrupted turns an ended wait into the right error: the task keeps
// running unless the caller asked for tasks/cancel.
func (c *Client) interrupted(ctx context.Context, id string, err error) error {
	if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		var te *TimeoutError
		if !errors.As(err, &te) {
			return err
		}
	}
	ie := &TaskInterruptedError{TaskID: id, Err: err}
	if c.opts.Tasks.CancelOnInterrupt {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if _, cerr := c.Call(cctx, "tasks/cancel", taskParams(id), nil); cerr == nil {
			ie.Cancelled = true
		}
	}
	return ie
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
