package commands

// The run functions called directly, as gh's tests call viewRun: options
// built by the test, and a Connect that hands over a connection to a
// scripted server in the same process (client/mcptest). No command line,
// no factory, no process: what a run function does with its options and
// its server is all there is to see.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/mcptest"
	"github.com/mcpctl/mcpctl/internal/interact"
	"github.com/mcpctl/mcpctl/output"
)

// runEnv is a run function's world in a test: its streams, its options
// and the server its Connect reaches.
type runEnv struct {
	t              *testing.T
	ios            *output.IOStreams
	out, errOut    *strings.Builder
	server         *mcptest.Server
	render         output.Options
	connects, open int
	mu             sync.Mutex
}

// newRunEnv is a test's world around a server answering with h. Results
// print as JSON, as they do to a pipe.
func newRunEnv(t *testing.T, h mcptest.Handler) *runEnv {
	ios, _, out, errOut := output.Test()
	e := &runEnv{t: t, ios: ios, server: mcptest.NewServer(h), render: output.Options{Format: output.FormatJSON}}
	e.out, e.errOut = &strings.Builder{}, &strings.Builder{}
	ios.Out, ios.ErrOut = &lockedWriter{b: out, into: e.out, mu: &e.mu}, &lockedWriter{b: errOut, into: e.errOut, mu: &e.mu}
	return e
}

// lockedWriter collects what a run function writes, from any goroutine.
type lockedWriter struct {
	b    interface{ Write([]byte) (int, error) }
	into *strings.Builder
	mu   *sync.Mutex
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.into.Write(p)
	return w.b.Write(p)
}

func (e *runEnv) stdout() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.out.String()
}

func (e *runEnv) stderr() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.errOut.String()
}

// invocation is what a run function is given: no factory (the run
// functions of server commands need none), and a Connect to the test's
// server over a fresh in-memory connection each time.
func (e *runEnv) invocation(ctx context.Context) invocation {
	return invocation{Ctx: ctx, IO: e.ios, Globals: &GlobalOptions{}, Connect: e.connect}
}

func (e *runEnv) connect(context.Context) (Connection, error) {
	e.mu.Lock()
	e.connects++
	e.open++
	e.mu.Unlock()
	progress, err := interact.NewProgress("none", e.ios)
	if err != nil {
		return nil, err
	}
	s := &connection{
		connSettings: &connSettings{g: &GlobalOptions{}, render: e.render, answers: &interact.Config{}},
		ios:          e.ios, progress: progress,
	}
	s.input = interact.NewHandler(s.answers, e.ios, interact.Command{Progress: progress})
	s.opts = client.Options{
		ClientInfo: client.Implementation{Name: "mcpctl", Version: "test"},
		Era:        client.EraModern, ProtocolVersion: client.LatestVersion, PinVersion: true,
		Hooks: client.Hooks{OnNotify: s.notification},
		// No cache: it would be the factory's, and a run function of a
		// server command needs no factory.
		Cache: client.CacheOptions{Mode: client.CacheOff},
	}
	s.client = client.New(client.NewConn(e.server.Conn(), client.ConnOptions{}), s.opts)
	s.closer = append(s.closer, func() {
		e.mu.Lock()
		e.open--
		e.mu.Unlock()
	})
	return s, nil
}

// done checks that every connection the run function made was closed.
func (e *runEnv) done() {
	e.t.Helper()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.open != 0 {
		e.t.Errorf("%d connections left open", e.open)
	}
}

// sent returns the params of every request of method the server got.
func (e *runEnv) sent(method string) []json.RawMessage {
	var out []json.RawMessage
	for _, r := range e.server.Received() {
		if r.Method == method {
			out = append(out, r.Params)
		}
	}
	return out
}

// arguments is what the server was sent under params.arguments.
func arguments(t *testing.T, params json.RawMessage) map[string]any {
	t.Helper()
	var p struct {
		Arguments map[string]any `json:"arguments"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		t.Fatalf("params %s: %v", params, err)
	}
	return p.Arguments
}

const runTools = `{"tools":[
 {"name":"echo","inputSchema":{"type":"object","properties":{"text":{"type":"string"},"count":{"type":"integer"}},"required":["text"]}},
 {"name":"fail","inputSchema":{"type":"object"}}]}`

// toolServer lists runTools and answers echo with its arguments, fail
// with isError.
func toolServer(_ context.Context, r *mcptest.Request) (any, error) {
	switch r.Method {
	case "tools/list":
		return json.RawMessage(runTools), nil
	case "tools/call":
		var p struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		_ = json.Unmarshal(r.Params, &p)
		if p.Name == "fail" {
			return json.RawMessage(`{"content":[{"type":"text","text":"it broke"}],"isError":true}`), nil
		}
		return json.RawMessage(`{"content":[{"type":"text","text":` + string(mustJSON(string(p.Arguments))) + `}],"zeta":1,"alpha":2}`), nil
	}
	return nil, &mcptest.Error{Code: client.CodeMethodNotFound, Message: "Method not found"}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

func TestRunToolsList(t *testing.T) {
	t.Parallel()
	e := newRunEnv(t, toolServer)
	if err := runToolsList(&listOptions{invocation: e.invocation(context.Background()), All: true}); err != nil {
		t.Fatal(err)
	}
	e.done()
	// The server's result as it came over the wire (one compact line),
	// and a newline.
	var wire bytes.Buffer
	if err := json.Compact(&wire, []byte(runTools)); err != nil {
		t.Fatal(err)
	}
	if got := e.stdout(); got != wire.String()+"\n" {
		t.Errorf("stdout %q, want the server's result", got)
	}
	if n := len(e.sent("tools/list")); n != 1 {
		t.Errorf("tools/list sent %d times, want once", n)
	}
}

func TestRunToolsCall(t *testing.T) {
	t.Parallel()
	e := newRunEnv(t, toolServer)
	o := &toolsCallOptions{invocation: e.invocation(context.Background()), Name: "echo", Items: []string{"text=hi", "count=3"}}
	if err := runToolsCall(o); err != nil {
		t.Fatal(err)
	}
	e.done()
	calls := e.sent("tools/call")
	if len(calls) != 1 {
		t.Fatalf("%d calls sent, want 1", len(calls))
	}
	// count is typed by the tool's inputSchema: 3, not "3".
	if args := arguments(t, calls[0]); args["text"] != "hi" || args["count"] != float64(3) {
		t.Errorf("arguments sent %v, want text hi and the number 3", args)
	}
	// The result as the server wrote it: its fields in its order.
	if got := e.stdout(); !strings.HasSuffix(got, `,"zeta":1,"alpha":2}`+"\n") {
		t.Errorf("stdout %q: the server's fields lost their order", got)
	}
}

// A tool's isError: the result is printed, and the error is a ToolError
// (exit 1); a name the server does not have is refused before any call,
// with the closest names.
func TestRunToolsCallFailures(t *testing.T) {
	t.Parallel()
	e := newRunEnv(t, toolServer)
	err := runToolsCall(&toolsCallOptions{invocation: e.invocation(context.Background()), Name: "fail"})
	var te *ToolError
	if !errors.As(err, &te) || ExitCode(err) != ExitToolError {
		t.Errorf("isError: error %v (exit %d), want a ToolError, exit 1", err, ExitCode(err))
	}
	if !strings.Contains(e.stdout(), "it broke") {
		t.Errorf("isError: the result was not printed: %q", e.stdout())
	}
	err = runToolsCall(&toolsCallOptions{invocation: e.invocation(context.Background()), Name: "ecko", Items: []string{"text=x"}})
	if ExitCode(err) != ExitUsage || !strings.Contains(inOurWords(err), `did you mean echo?`) {
		t.Errorf("unknown tool: %v (exit %d), want exit 2 suggesting echo", err, ExitCode(err))
	}
	// A value the schema refuses is never sent.
	err = runToolsCall(&toolsCallOptions{invocation: e.invocation(context.Background()), Name: "echo", Items: []string{"text=x", "count=many"}})
	if ExitCode(err) != ExitUsage {
		t.Errorf("count=many: %v (exit %d), want exit 2", err, ExitCode(err))
	}
	if n := len(e.sent("tools/call")); n != 1 {
		t.Errorf("%d calls reached the server, want only the isError one", n)
	}
	e.done()
}

func TestRunToolsDescribe(t *testing.T) {
	t.Parallel()
	e := newRunEnv(t, toolServer)
	e.render = output.Options{Format: output.FormatText}
	if err := runToolsDescribe(&toolsDescribeOptions{invocation: e.invocation(context.Background()), Name: "echo"}); err != nil {
		t.Fatal(err)
	}
	e.done()
	// Text adds how to call it, with the parameters by the schema.
	if out := e.stdout(); !strings.Contains(out, "mcpctl tools call echo") || !strings.Contains(out, "count") {
		t.Errorf("describe as text: %q", out)
	}
}

// resourceServer has one text resource and one binary one; any other URI
// is not found (-32602).
func resourceServer(_ context.Context, r *mcptest.Request) (any, error) {
	switch r.Method {
	case "resources/list":
		return json.RawMessage(`{"resources":[{"uri":"file:///a.txt","name":"a"},{"uri":"file:///logo.png","name":"logo"}]}`), nil
	case "resources/read":
		var p struct {
			URI string `json:"uri"`
		}
		_ = json.Unmarshal(r.Params, &p)
		switch p.URI {
		case "file:///a.txt":
			return json.RawMessage(`{"contents":[{"uri":"file:///a.txt","mimeType":"text/plain","text":"hello"}]}`), nil
		case "file:///logo.png":
			return json.RawMessage(`{"contents":[{"uri":"file:///logo.png","mimeType":"image/png","blob":"iVBORw0K"}]}`), nil
		}
		return nil, &mcptest.Error{Code: client.CodeInvalidParams, Message: "Resource not found"}
	}
	return nil, &mcptest.Error{Code: client.CodeMethodNotFound, Message: "Method not found"}
}

func TestRunResources(t *testing.T) {
	t.Parallel()
	e := newRunEnv(t, resourceServer)
	inv := e.invocation(context.Background())
	if err := runList("resources/list", "resources", output.KindResourcesList)(&listOptions{invocation: inv, All: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(e.stdout(), `{"resources":[{"uri":"file:///a.txt"`) {
		t.Errorf("list: stdout %q", e.stdout())
	}
	if err := runResourcesRead(&resourcesReadOptions{invocation: inv, URI: "file:///a.txt"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(e.stdout(), `"text":"hello"`) {
		t.Errorf("read: stdout %q", e.stdout())
	}
	// --out FILE writes the decoded bytes and says so on stderr.
	file := filepath.Join(t.TempDir(), "logo.png")
	if err := runResourcesRead(&resourcesReadOptions{invocation: inv, URI: "file:///logo.png", Out: file}); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(file); err != nil || string(data) != "\x89PNG\r\n" {
		t.Errorf("--out wrote %q (%v), want the decoded PNG header", data, err)
	}
	if !strings.Contains(e.stderr(), "wrote 6 bytes (image/png) to "+file) {
		t.Errorf("--out: stderr %q", e.stderr())
	}
	// Not found keeps the server's code (exit 4) and says how to list.
	err := runResourcesRead(&resourcesReadOptions{invocation: inv, URI: "file:///b.txt"})
	if ExitCode(err) != ExitServerError || !strings.Contains(err.Error(), "no such resource; 'mcpctl resources list' shows what exists") {
		t.Errorf("not found: %v (exit %d)", err, ExitCode(err))
	}
	e.done()
}

// promptServer has one prompt with a required argument.
func promptServer(_ context.Context, r *mcptest.Request) (any, error) {
	switch r.Method {
	case "prompts/list":
		return json.RawMessage(`{"prompts":[{"name":"greet","arguments":[{"name":"who","required":true},{"name":"tone"}]}]}`), nil
	case "prompts/get":
		return json.RawMessage(`{"messages":[{"role":"user","content":{"type":"text","text":"hello"}}]}`), nil
	}
	return nil, &mcptest.Error{Code: client.CodeMethodNotFound, Message: "Method not found"}
}

func TestRunPromptsGet(t *testing.T) {
	t.Parallel()
	e := newRunEnv(t, promptServer)
	inv := e.invocation(context.Background())
	if err := runPromptsGet(&promptsGetOptions{invocation: inv, Name: "greet", Items: []string{"who=ada"}}); err != nil {
		t.Fatal(err)
	}
	if gets := e.sent("prompts/get"); len(gets) != 1 || !strings.Contains(string(gets[0]), `"arguments":{"who":"ada"}`) {
		t.Errorf("prompts/get sent %s", gets)
	}
	// Checked against prompts/list before anything is sent: a missing
	// required argument, an undeclared one, an unknown prompt.
	for _, tc := range []struct {
		name  string
		items []string
		says  string
	}{
		{"greet", nil, `"who"`},
		{"greet", []string{"who=ada", "mood=glad"}, `"mood"`},
		{"greed", []string{"who=ada"}, "greet"},
	} {
		err := runPromptsGet(&promptsGetOptions{invocation: inv, Name: tc.name, Items: tc.items})
		if ExitCode(err) != ExitUsage || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s %v: %v (exit %d), want exit 2 naming %s", tc.name, tc.items, err, ExitCode(err), tc.says)
		}
	}
	if n := len(e.sent("prompts/get")); n != 1 {
		t.Errorf("prompts/get sent %d times, want once: the refused ones must not reach the server", n)
	}
	// --no-validate sends it as given.
	if err := runPromptsGet(&promptsGetOptions{invocation: inv, Name: "greed", NoValidate: true}); err != nil {
		t.Fatal(err)
	}
	if n := len(e.sent("prompts/get")); n != 2 {
		t.Errorf("--no-validate: prompts/get sent %d times, want 2", n)
	}
	e.done()
}

// listenServer acknowledges a subscription to tool list changes and
// sends changes until the client goes away.
func listenServer(ctx context.Context, r *mcptest.Request) (any, error) {
	switch r.Method {
	case "server/discover":
		return json.RawMessage(`{"supportedVersions":["` + client.LatestVersion + `"],"capabilities":{"tools":{"listChanged":true}}}`), nil
	case "subscriptions/listen":
		var id json.RawMessage = r.ID
		meta := `{"io.modelcontextprotocol/subscriptionId":` + string(id) + `}`
		if err := r.Notify("notifications/subscriptions/acknowledged", json.RawMessage(`{"_meta":`+meta+`}`)); err != nil {
			return nil, err
		}
		for i := 0; ; i++ {
			if err := r.Notify("notifications/tools/list_changed", json.RawMessage(`{"n":`+strings.Repeat("1", i+1)+`,"_meta":`+meta+`}`)); err != nil {
				return nil, err
			}
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
	return nil, &mcptest.Error{Code: client.CodeMethodNotFound, Message: "Method not found"}
}

func TestRunListen(t *testing.T) {
	t.Parallel()
	e := newRunEnv(t, listenServer)
	o := &listenOptions{invocation: e.invocation(context.Background()), Tools: true, Count: 2}
	if err := runListen(o); err != nil {
		t.Fatal(err)
	}
	e.done()
	lines := strings.Split(strings.TrimSuffix(e.stdout(), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("--count 2 printed %d lines: %q", len(lines), e.stdout())
	}
	for i, l := range lines {
		var ev struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal([]byte(l), &ev); err != nil || ev.Method != "notifications/tools/list_changed" || !strings.HasPrefix(string(ev.Params), `{"n":`+strings.Repeat("1", i+1)+",") {
			t.Errorf("line %d %q: want the server's notification %d, its params untouched", i+1, l, i+1)
		}
	}
	// Nothing to listen for is a usage error.
	e2 := newRunEnv(t, listenServer)
	err := runListen(&listenOptions{invocation: e2.invocation(context.Background())})
	if ExitCode(err) != ExitUsage || !strings.Contains(err.Error(), "say what to listen for") {
		t.Errorf("no filter: %v (exit %d)", err, ExitCode(err))
	}
	e2.done()
}

// A listen whose server does not declare the filter is refused (exit 2)
// from its server/discover.
func TestRunListenUndeclared(t *testing.T) {
	t.Parallel()
	e := newRunEnv(t, listenServer)
	err := runListen(&listenOptions{invocation: e.invocation(context.Background()), Prompts: true, Count: 1})
	if ExitCode(err) != ExitUsage || !strings.Contains(err.Error(), "does not offer --prompts") {
		t.Errorf("undeclared filter: %v (exit %d)", err, ExitCode(err))
	}
	if n := len(e.sent("subscriptions/listen")); n != 0 {
		t.Errorf("subscriptions/listen sent %d times, want none", n)
	}
	e.done()
}
