package commands

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/ojson"
	"github.com/mcpctl/mcpctl/output"
)

// Tasks this machine started are remembered in the state directory, one
// file per task, so that `tasks list` can show them and `tasks wait` can
// pick one up again after mcpctl (or the machine) restarted.

// taskStore is where this machine's task records live: the tasks folder
// of the state directory.
func (f *Factory) taskStore() (*client.FileTaskStore, error) {
	d, err := f.stateDir()
	if err != nil {
		return nil, err
	}
	return &client.FileTaskStore{Dir: filepath.Join(d, "tasks")}, nil
}

// rememberTask records a task handle; failures only lose the record.
func (f *Factory) rememberTask(server string, handle json.RawMessage) {
	var t client.Task
	if json.Unmarshal(handle, &t) != nil || t.TaskID == "" {
		return
	}
	f.updateTaskRecord(server, t)
}

// updateTaskRecord records t's status; failures only lose the record.
func (f *Factory) updateTaskRecord(server string, t client.Task) {
	if store, err := f.taskStore(); err == nil {
		_ = store.Update(server, t)
	}
}

// taskStatus records each polled status and, at a terminal, shows it.
func (s *connection) taskStatus(raw json.RawMessage) {
	var t client.Task
	if json.Unmarshal(raw, &t) != nil {
		return
	}
	s.f.updateTaskRecord(s.serverID, t)
	if s.ios.IsStderrTTY() {
		line := fmt.Sprintf("task %s: %s", t.TaskID, t.Status)
		if t.StatusMessage != "" {
			line += " — " + t.StatusMessage
		}
		s.progress.Status(line)
	}
}

type taskOptions struct {
	invocation
	ID  string
	Out binaryOut // wait and result: --out
}

// withTaskConnection is withConnection for a command about one task.
func (o *taskOptions) withTaskConnection(body func(conn Connection) error) error {
	return o.withConnection(func(conn Connection) error {
		return unknownTaskHint(conn, body(conn))
	})
}

func parseTaskID(f *Factory) func(*cli.Context) (*taskOptions, error) {
	return func(c *cli.Context) (*taskOptions, error) {
		if err := needArgs(c, 1, 1, "TASK-ID"); err != nil {
			return nil, err
		}
		return &taskOptions{invocation: invoked(f, c), ID: c.Args().First()}, nil
	}
}

func taskParams(id string) json.RawMessage {
	o := ojson.Members{}
	o.Set("taskId", ojson.String(id))
	return o.JSON()
}

func tasksCommand(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "tasks",
		Usage: "follow long-running work (the Tasks extension; 2025-11-25 tasks)",
		Description: "A tools/call may be answered with a task; mcpctl waits for it unless --no-wait.\n" +
			"A 2025-11-25 server runs a tool as a task when the tool requires it (execution.taskSupport),\n" +
			"or on --task when it allows it. Tasks started here are remembered in the state directory\n" +
			"($MCPCTL_STATE_DIR, $XDG_STATE_HOME/mcpctl or ~/.local/state/mcpctl).",
		Subcommands: []*cli.Command{
			newCmdTaskMethod(f, nil, "get", "show a task (tasks/get)", "tasks/get"),
			newCmdTasksWait(f, nil),
			newCmdTasksResult(f, nil),
			newCmdTasksUpdate(f, nil),
			newCmdTaskMethod(f, nil, "cancel", "ask the server to cancel a task (tasks/cancel)", "tasks/cancel"),
			newCmdTasksList(f, nil),
		},
	}
}

// parseTaskResult is parseTaskID with --out, for the commands that print
// the tool's result.
func parseTaskResult(f *Factory) func(*cli.Context) (*taskOptions, error) {
	return func(c *cli.Context) (*taskOptions, error) {
		o, err := parseTaskID(f)(c)
		if err != nil {
			return nil, err
		}
		o.Out, err = parseBinaryOut(c, f.IOStreams)
		return o, err
	}
}

func newCmdTasksWait(f *Factory, runF func(*taskOptions) error) *cli.Command {
	return &cli.Command{
		Name: "wait", Usage: "wait for a task to end and print its result, answering its input requests", ArgsUsage: "TASK-ID",
		Description: outHelp, Flags: binaryOutFlags(),
		Action: actionOf(parseTaskResult(f), runF, runTasksWait),
	}
}

func runTasksWait(o *taskOptions) error {
	return o.finishTask("tasks wait", func(conn Connection) (json.RawMessage, error) {
		return conn.Client().WaitTask(o.ctx(), taskParams(o.ID), &client.CallOptions{})
	})
}

func newCmdTasksResult(f *Factory, runF func(*taskOptions) error) *cli.Command {
	return &cli.Command{
		Name: "result", Usage: "print a task's result (tasks/result), waiting for it to end", ArgsUsage: "TASK-ID",
		Description: outHelp, Flags: binaryOutFlags(),
		Action: actionOf(parseTaskResult(f), runF, runTasksResult),
	}
}

func runTasksResult(o *taskOptions) error {
	return o.finishTask("tasks result", func(conn Connection) (json.RawMessage, error) {
		return conn.Client().TaskResult(o.ctx(), o.ID, &client.CallOptions{})
	})
}

// finishTask prints the tool's result a task ends with, its binary
// content to --out.
func (o *taskOptions) finishTask(op string, call func(Connection) (json.RawMessage, error)) error {
	if err := o.Out.check(); err != nil {
		return err
	}
	return o.withTaskConnection(func(conn Connection) error {
		return o.Out.done(op, conn.FinishCall(o.ctx(), op, output.KindToolCall, o.Out.wrap(o.IO, func() (json.RawMessage, error) {
			return call(conn)
		})))
	})
}

func newCmdTasksUpdate(f *Factory, runF func(*taskOptions) error) *cli.Command {
	return &cli.Command{
		Name: "update", Usage: "answer a task's input requests (tasks/update) from --answer/--answers/--elicit or a terminal", ArgsUsage: "TASK-ID",
		Action: actionOf(parseTaskID(f), runF, runTasksUpdate),
	}
}

func runTasksUpdate(o *taskOptions) error {
	id := o.ID
	return o.withTaskConnection(func(conn Connection) error {
		raw, err := conn.Client().Call(o.ctx(), "tasks/get", taskParams(id), nil)
		if err != nil {
			return wrapOp("tasks/get "+id, err)
		}
		var t struct {
			Status        string          `json:"status"`
			InputRequests json.RawMessage `json:"inputRequests"`
		}
		_ = json.Unmarshal(raw, &t)
		if t.Status != "input_required" {
			return usagef("task %s is %s; it needs no input", id, t.Status)
		}
		if conn.Client().Legacy() {
			return usagef("a %s server asks for a task's input while 'mcpctl tasks wait %s' waits for it", conn.Client().Version(), id)
		}
		k := &continuation{Method: "tasks/update", TaskID: id, InputRequests: t.InputRequests, Round: 1}
		cc, err := k.clientContinuation()
		if err != nil {
			return &client.ProtocolError{Msg: "tasks/get: " + err.Error()}
		}
		if err := conn.Client().AnswerTask(o.ctx(), cc); err != nil {
			return wrapOp("tasks/update "+id, err)
		}
		notef(o.IO, "answered task %s; 'mcpctl tasks wait %s' follows it", id, id)
		return nil
	})
}

type tasksListOptions struct {
	invocation
	fromServer bool
}

func newCmdTasksList(f *Factory, runF func(*tasksListOptions) error) *cli.Command {
	return &cli.Command{
		Name: "list", Usage: "list the tasks started from this machine, or the server's (tasks/list) with --from-server", ArgsUsage: " ",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "from-server", Usage: "ask the server for its tasks (tasks/list, 2025-11-25 servers) instead"}},
		Action: actionOf(func(c *cli.Context) (*tasksListOptions, error) {
			return &tasksListOptions{invoked(f, c), c.Bool("from-server")}, nil
		}, runF, runTasksList),
	}
}

func runTasksList(o *tasksListOptions) error {
	if o.fromServer {
		return o.withConnection(func(conn Connection) error {
			raw, err := conn.Client().List(o.ctx(), "tasks/list", "tasks", "", true)
			var rpc *client.RPCError
			if errors.As(err, &rpc) && rpc.Code == client.CodeMethodNotFound && !conn.Client().Legacy() {
				return usagef("a %s server has no tasks/list; 'mcpctl tasks list' shows the tasks started here", conn.Client().Version())
			}
			if err != nil {
				return wrapOp("tasks/list", err)
			}
			return conn.Print(o.ctx(), output.KindTasksList, raw)
		})
	}
	ios := o.f.IOStreams
	render, err := o.renderOptions()
	if err != nil {
		return err
	}
	list, err := o.f.listTaskRecords()
	if err != nil {
		return err
	}
	return output.Render(o.ctx(), ios, render, output.KindTasksList, list)
}

// newCmdTaskMethod sends method for one task id and prints the answer; a
// task object in it refreshes this machine's record of the task.
func newCmdTaskMethod(f *Factory, runF func(*taskOptions) error, name, usage, method string) *cli.Command {
	return &cli.Command{
		Name: name, Usage: usage, ArgsUsage: "TASK-ID",
		Action: actionOf(parseTaskID(f), runF, func(o *taskOptions) error {
			return o.withTaskConnection(func(conn Connection) error {
				raw, err := conn.Client().Call(o.ctx(), method, taskParams(o.ID), nil)
				if err != nil {
					return wrapOp(method+" "+o.ID, err)
				}
				var t client.Task
				if json.Unmarshal(raw, &t) == nil && t.Status != "" {
					t.TaskID = o.ID
					o.f.updateTaskRecord(conn.ServerID(), t)
				}
				return conn.Print(o.ctx(), output.KindGeneric, raw)
			})
		}),
	}
}

func (f *Factory) listTaskRecords() (json.RawMessage, error) {
	store, err := f.taskStore()
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string]any{"tasks": store.List()})
}

// A stdio server's tasks live in its process. A run that started the
// server stops it when it ends (ServerEndsWithRun), so no task id it could
// print would still name a task: --no-wait is refused there, before the
// server starts, and a wait that stops says the task ends rather than how
// to pick it up. Through a session the server, and its tasks, outlive
// the command (docs/tasks.md, "Tasks of a stdio server").

// sessionForTasks is how a task of a stdio server outlives the command.
const sessionForTasks = "a session ('mcpctl session start' with the same server flags) keeps the server and its tasks between commands"

// noWaitEndsWithRun refuses --no-wait on a run whose server ends with it.
func noWaitEndsWithRun() error {
	return usagef("--no-wait: a stdio server's tasks live only as long as its process, which ends with this command, so the task's id would be dead once printed; %s; or leave out --no-wait to wait for the task here", sessionForTasks)
}

// taskHint tells a user whose wait for a task ended how to go on: pick it
// up again after an interrupt or --timeout, or, when it kept asking past
// --max-rounds, look at it and answer it; for a task that ends with the
// command's server, how it could have outlived it.
func taskHint(err error) string {
	var ie *client.TaskInterruptedError
	if errors.As(err, &ie) {
		next, sep := fmt.Sprintf("'mcpctl tasks wait %s' picks it up again", output.SanitizeLine(ie.TaskID)), ": "
		if ie.Ends {
			next, sep = sessionForTasks, "; "
		}
		switch {
		case ie.Cancelled && ie.TimedOut():
			return "--timeout ended the wait"
		case ie.Cancelled:
			return ""
		case ie.TimedOut():
			return "--timeout ended the wait" + sep + next
		}
		return next
	}
	var re *client.TaskRoundsError
	if errors.As(err, &re) {
		id := output.SanitizeLine(re.TaskID)
		if re.Ends {
			return "it ends with its server: answer it on the command line (--answer, --answers) or wait longer with a larger --max-rounds; " + sessionForTasks
		}
		return fmt.Sprintf("it keeps running: 'mcpctl tasks get %s' shows what it asks, 'mcpctl tasks update %s' answers it, a larger --max-rounds waits longer", id, id)
	}
	return ""
}

// unknownTaskHint explains a task the server does not know (-32602) to a
// command that started a stdio server afresh: its tasks were another
// process's.
func unknownTaskHint(conn Connection, err error) error {
	var rpc *client.RPCError
	if err != nil && conn.ServerEndsWithRun() && errors.As(err, &rpc) && rpc.Code == client.CodeInvalidParams {
		return &hintError{err, "this command started the stdio server afresh, and a stdio server's tasks live only as long as its process: " + sessionForTasks}
	}
	return err
}
