package main

// The Tasks extension (io.modelcontextprotocol/tasks), which the Go SDK does
// not implement: slow_task is answered with a task handle when the request
// declares the extension, and tasks/get, tasks/update and tasks/cancel are
// custom methods. Tasks live in memory for the life of the server, so they
// are shared by every request of a stdio process or of the (stateless) HTTP
// server.

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	taskTTL          = 5 * time.Minute
	taskPollInterval = 200 * time.Millisecond
	slowTaskPhase    = 500 * time.Millisecond // each half of slow_task's work
)

var confirmSchema = json.RawMessage(`{"type":"object","properties":{"confirm":{"type":"boolean","title":"Continue?","description":"Let the slow task finish","default":true}},"required":["confirm"]}`)

func confirmRequest() *mcp.ElicitParams {
	return formRequest("The slow task is half-way. Finish it?", confirmSchema)
}

// taskView is the Task object of the extension; inputRequests, result and
// error only appear in the statuses that carry them.
type taskView struct {
	TaskID         string              `json:"taskId"`
	Status         string              `json:"status"`
	StatusMessage  string              `json:"statusMessage,omitempty"`
	CreatedAt      string              `json:"createdAt"`
	LastUpdatedAt  string              `json:"lastUpdatedAt"`
	TTLMs          int64               `json:"ttlMs"`
	PollIntervalMs int64               `json:"pollIntervalMs"`
	InputRequests  mcp.InputRequestMap `json:"inputRequests,omitempty"`
	Result         json.RawMessage     `json:"result,omitempty"`
}

// taskResult is CreateTaskResult (resultType "task") and GetTaskResult
// (resultType "complete").
type taskResult struct {
	ResultType string `json:"resultType"`
	taskView
	mcp.ResultBase
}

// ackResult is the empty acknowledgement of tasks/update and tasks/cancel.
type ackResult struct {
	ResultType string `json:"resultType"`
	mcp.ResultBase
}

type taskParams struct {
	mcp.ParamsBase
	TaskID         string          `json:"taskId"`
	InputResponses json.RawMessage `json:"inputResponses,omitempty"`
}

type task struct {
	view      taskView  // guarded by taskStore.mu
	created   time.Time // for expiry
	input     chan *mcp.ElicitResult
	cancelled chan struct{}
}

type taskStore struct {
	mu    sync.Mutex
	tasks map[string]*task
}

func newTaskStore() *taskStore { return &taskStore{tasks: map[string]*task{}} }

func now() string { return time.Now().UTC().Format("2006-01-02T15:04:05.000Z") }

func isTerminal(status string) bool {
	return status == "completed" || status == "failed" || status == "cancelled"
}

// register wires the extension into s: the capability, the methods, and the
// middleware that turns slow_task calls into tasks.
func (ts *taskStore) register(s *mcp.Server) {
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	must(mcp.AddReceivingCustomMethod(s, "tasks/get", ts.get))
	must(mcp.AddReceivingCustomMethod(s, "tasks/update", ts.update))
	must(mcp.AddReceivingCustomMethod(s, "tasks/cancel", ts.cancel))
	s.AddReceivingMiddleware(ts.middleware)
}

func (ts *taskStore) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		call, ok := req.(*mcp.CallToolRequest)
		if method != "tools/call" || !ok || call.Params == nil || call.Params.Name != "slow_task" ||
			!hasTasksExtension(call.ClientCapabilities()) {
			return next(ctx, method, req)
		}
		// The task will ask for confirmation, which needs elicitation.
		if err := requireCapability(call, capFormElicitation); err != nil {
			return nil, err
		}
		t := ts.create()
		go ts.run(t)
		ts.mu.Lock()
		defer ts.mu.Unlock()
		return &taskResult{ResultType: "task", taskView: t.view}, nil
	}
}

func newTaskID() string {
	b := make([]byte, 16)
	rand.Read(b)
	b[6] = b[6]&0x0f | 0x40 // UUID version 4
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

func (ts *taskStore) create() *task {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for id, t := range ts.tasks {
		if time.Since(t.created) > taskTTL {
			delete(ts.tasks, id)
		}
	}
	stamp := now()
	t := &task{
		view: taskView{
			TaskID:         newTaskID(),
			Status:         "working",
			StatusMessage:  "working on the first half",
			CreatedAt:      stamp,
			LastUpdatedAt:  stamp,
			TTLMs:          taskTTL.Milliseconds(),
			PollIntervalMs: taskPollInterval.Milliseconds(),
		},
		created:   time.Now(),
		input:     make(chan *mcp.ElicitResult, 1),
		cancelled: make(chan struct{}),
	}
	ts.tasks[t.view.TaskID] = t
	return t
}

// set changes a task unless it has already ended (for instance, cancelled
// while the worker slept).
func (ts *taskStore) set(t *task, status, message string, change func(*taskView)) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if isTerminal(t.view.Status) {
		return
	}
	t.view.Status, t.view.StatusMessage, t.view.LastUpdatedAt = status, message, now()
	t.view.InputRequests = nil
	if change != nil {
		change(&t.view)
	}
}

// run is the task's work: half a second, a confirmation, half a second.
func (ts *taskStore) run(t *task) {
	pause := func() bool {
		select {
		case <-time.After(slowTaskPhase):
			return true
		case <-t.cancelled:
			return false
		}
	}
	if !pause() {
		return
	}
	ts.set(t, "input_required", "waiting for confirmation", func(v *taskView) {
		v.InputRequests = mcp.InputRequestMap{"confirm": confirmRequest()}
	})
	var er *mcp.ElicitResult
	select {
	case er = <-t.input:
	case <-t.cancelled:
		return
	}
	ts.set(t, "working", "working on the second half", nil)
	if !pause() {
		return
	}
	res, _ := json.Marshal(slowTaskResult(er))
	ts.set(t, "completed", "finished", func(v *taskView) { v.Result = res })
}

func slowTaskResult(er *mcp.ElicitResult) *mcp.CallToolResult {
	confirmed := er.Action == "accept" && er.Content["confirm"] == true
	return textResult("task finished (confirmed: %t)", confirmed)
}

func (ts *taskStore) lookup(p *taskParams) (*task, error) {
	if p == nil || p.TaskID == "" {
		return nil, invalidParams("missing taskId")
	}
	t, ok := ts.tasks[p.TaskID]
	if !ok {
		return nil, invalidParams("Failed to retrieve task: Task not found")
	}
	if time.Since(t.created) > taskTTL {
		delete(ts.tasks, p.TaskID)
		return nil, invalidParams("Failed to retrieve task: Task has expired")
	}
	return t, nil
}

func (ts *taskStore) get(_ context.Context, _ *mcp.ServerSession, p *taskParams) (*taskResult, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t, err := ts.lookup(p)
	if err != nil {
		return nil, err
	}
	return &taskResult{ResultType: "complete", taskView: t.view}, nil
}

// update accepts the answer to the outstanding "confirm" request and ignores
// every other key, as the extension asks.
func (ts *taskStore) update(_ context.Context, _ *mcp.ServerSession, p *taskParams) (*ackResult, error) {
	var responses mcp.InputResponseMap
	if len(p.InputResponses) == 0 {
		return nil, invalidParams("missing inputResponses")
	}
	if err := json.Unmarshal(p.InputResponses, &responses); err != nil {
		return nil, invalidParams("invalid inputResponses: " + err.Error())
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t, err := ts.lookup(p)
	if err != nil {
		return nil, err
	}
	if _, outstanding := t.view.InputRequests["confirm"]; outstanding && responses["confirm"] != nil {
		er, ok := responses["confirm"].(*mcp.ElicitResult)
		if !ok {
			return nil, invalidParams(`inputResponses["confirm"]: expected an elicitation result (with "action")`)
		}
		if er.Action == "accept" {
			if err := checkContent("confirm", confirmSchema, er.Content); err != nil {
				return nil, err
			}
		}
		t.view.Status, t.view.StatusMessage, t.view.LastUpdatedAt = "working", "confirmation received", now()
		t.view.InputRequests = nil
		t.input <- er // buffered; "confirm" is asked once per task
	}
	return &ackResult{ResultType: "complete"}, nil
}

func (ts *taskStore) cancel(_ context.Context, _ *mcp.ServerSession, p *taskParams) (*ackResult, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t, err := ts.lookup(p)
	if err != nil {
		return nil, err
	}
	if !isTerminal(t.view.Status) {
		t.view.Status, t.view.StatusMessage, t.view.LastUpdatedAt = "cancelled", "cancelled at the client's request", now()
		t.view.InputRequests = nil
		close(t.cancelled)
	}
	return &ackResult{ResultType: "complete"}, nil
}

type slowTaskState struct {
	Asked bool `json:"asked"`
}

// slowTaskSync serves slow_task to clients without the tasks extension: the
// same work and the same confirmation, asked through a multi round-trip
// request instead of a task.
func (ts *taskStore) slowTaskSync(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	if err := requireCapability(req, capFormElicitation); err != nil {
		return nil, nil, err
	}
	var st slowTaskState
	if req.Params.RequestState != "" {
		if err := openState("slow_task", req.Params.RequestState, &st); err != nil {
			return nil, nil, err
		}
	}
	er, err := elicitResponse(req, "confirm")
	if err != nil {
		return nil, nil, err
	}
	if er != nil && er.Action == "accept" {
		if err := checkContent("confirm", confirmSchema, er.Content); err != nil {
			return nil, nil, err
		}
	}
	select {
	case <-time.After(slowTaskPhase):
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	if !st.Asked || er == nil {
		return inputRequired(mcp.InputRequestMap{"confirm": confirmRequest()},
			sealState("slow_task", slowTaskState{Asked: true})), nil, nil
	}
	return slowTaskResult(er), nil, nil
}
