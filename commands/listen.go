package commands

// mcpctl listen: change notifications as a stream of JSON lines, one per
// notification, written (and so flushed) as it arrives:
//
//	{"subscriptionId":1,"method":"notifications/tools/list_changed","params":{…}}
//
// params are the server's, untouched. --refetch follows a list change with
// the new list, and a resource update with the new contents, as lines of
// their own ({"subscriptionId":…,"method":"tools/list","result":{…}}). After
// a reconnect one line {"method":"mcpctl/reconnected",…} says events may
// have been missed, so that scripts can poll again.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/ojson"
	"github.com/mcpctl/mcpctl/output"
)

// listenOptions say what to listen for and when to stop.
type listenOptions struct {
	invocation
	Tools, Prompts, Resources bool
	Resource, Task            []string // URIs, task ids
	Strict, Refetch           bool
	Count                     int
	Once                      bool
	For                       time.Duration
	NoReconnect               bool
}

func newCmdListen(f *Factory, runF func(*listenOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "listen",
		Usage:     "stream change notifications as JSON lines (subscriptions/listen)",
		ArgsUsage: " ",
		Description: "Each notification is one line on stdout:\n" +
			`   {"subscriptionId":1,"method":"notifications/tools/list_changed","params":{…}}` + "\n" +
			"--jq filters each line. Ends after --count N, --once or --for DURATION (exit 0), on Ctrl-C\n" +
			"(exit 0) or when the server closes the subscription (exit 0). A broken connection is\n" +
			"re-established with backoff (--no-reconnect: exit 3 instead), followed by one\n" +
			`{"method":"mcpctl/reconnected",…} line: events may have been missed meanwhile.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "tools", Usage: "tool list changes"},
			&cli.BoolFlag{Name: "prompts", Usage: "prompt list changes"},
			&cli.BoolFlag{Name: "resources", Usage: "resource list changes"},
			&cli.StringSliceFlag{Name: "resource", Usage: "updates of resource `URI` (repeatable)"},
			&cli.StringSliceFlag{Name: "task", Usage: "status changes of task `ID` (repeatable; Tasks extension)"},
			&cli.BoolFlag{Name: "strict", Usage: "exit 2 if the server does not acknowledge every filter asked for"},
			&cli.BoolFlag{Name: "refetch", Usage: "after each change, print the new list or resource contents as a line too"},
			&cli.IntFlag{Name: "count", Usage: "exit after `N` notifications"},
			&cli.BoolFlag{Name: "once", Usage: "exit after one notification (--count 1)"},
			&cli.DurationFlag{Name: "for", Usage: "exit after `DURATION`"},
			&cli.BoolFlag{Name: "no-reconnect", Usage: "exit 3 when the connection breaks instead of re-establishing it"},
		},
		Action: actionOf(func(c *cli.Context) (*listenOptions, error) {
			if err := needArgs(c, 0, 0, "[--tools] [--prompts] [--resources] [--resource URI]… [--task ID]…"); err != nil {
				return nil, err
			}
			return &listenOptions{
				invocation: invoked(f, c),
				Tools:      c.Bool("tools"), Prompts: c.Bool("prompts"), Resources: c.Bool("resources"),
				Resource: c.StringSlice("resource"), Task: c.StringSlice("task"),
				Strict: c.Bool("strict"), Refetch: c.Bool("refetch"), Count: c.Int("count"), Once: c.Bool("once"),
				For: c.Duration("for"), NoReconnect: c.Bool("no-reconnect"),
			}, nil
		}, runF, runListen),
	}
}

func runListen(o *listenOptions) error {
	return o.withConnection(func(conn Connection) error {
		l, err := newListener(o, conn)
		if err != nil {
			return err
		}
		// A stream allocates a little per line and keeps almost nothing
		// live: collecting less often buys ~15% throughput for a few MB.
		debug.SetGCPercent(400)
		return l.run(o.ctx())
	})
}

type listener struct {
	conn    Connection
	ios     *output.IOStreams
	filter  ojson.Members
	count   int
	limit   int
	strict  bool
	refetch bool
	retry   bool
	forDur  time.Duration
	query   *output.Query
	text    bool
	trace   bool
	stop    context.CancelCauseFunc
	failed  error // set when --strict refused the acknowledgment

	invalidated map[string]time.Time

	outMu    sync.Mutex
	out      *bufio.Writer
	flushAt  *time.Timer // flushes a held line if the "more" never comes
	fetchMu  sync.Mutex
	fetching map[string]*refetchState
	fetchWG  sync.WaitGroup
}

// refetchState coalesces refetches of one thing: while one runs, further
// notifications only mark it to run once more, so a burst of changes costs
// at most two fetches and no queue grows.
type refetchState struct {
	running bool
	again   *client.ListenEvent
}

var errListenDone = errors.New("done listening")

func newListener(o *listenOptions, conn Connection) (*listener, error) {
	render := conn.Output()
	l := &listener{conn: conn, ios: o.IO, out: bufio.NewWriterSize(o.IO.Out, 64<<10), fetching: map[string]*refetchState{}, invalidated: map[string]time.Time{}, limit: o.Count, strict: o.Strict, refetch: o.Refetch,
		retry: !o.NoReconnect, forDur: o.For, query: render.Query, trace: o.Globals.Trace,
		text: render.Format == output.FormatText && render.Query == nil}
	if o.Once {
		l.limit = 1
	}
	if l.limit < 0 {
		return nil, usagef("--count must be positive")
	}
	f := ojson.Members{}
	if o.Tools {
		f.Set("toolsListChanged", json.RawMessage("true"))
	}
	if o.Prompts {
		f.Set("promptsListChanged", json.RawMessage("true"))
	}
	if o.Resources {
		f.Set("resourcesListChanged", json.RawMessage("true"))
	}
	if uris := o.Resource; len(uris) > 0 {
		b, _ := json.Marshal(uris)
		f.Set("resourceSubscriptions", b)
	}
	if ids := o.Task; len(ids) > 0 {
		b, _ := json.Marshal(ids)
		f.Set("taskIds", b)
	}
	if len(f) == 0 {
		return nil, usagef("say what to listen for: --tools, --prompts, --resources, --resource URI or --task ID")
	}
	l.filter = f
	return l, nil
}

// checkCapabilities refuses filters the server did not declare, from a
// cached or fresh server/discover.
func (l *listener) checkCapabilities(ctx context.Context) error {
	raw, err := l.conn.Client().Call(ctx, "server/discover", nil, nil)
	if err != nil {
		return wrapOp("server/discover", err)
	}
	if l.filter.Has("taskIds") && l.conn.Client().Legacy() {
		return usagef("--task needs subscriptions/listen (protocol %s); this server speaks %s", client.LatestVersion, l.conn.Client().Version())
	}
	var d struct {
		Capabilities struct {
			Tools *struct {
				ListChanged bool `json:"listChanged"`
			} `json:"tools"`
			Prompts *struct {
				ListChanged bool `json:"listChanged"`
			} `json:"prompts"`
			Resources *struct {
				ListChanged bool `json:"listChanged"`
				Subscribe   bool `json:"subscribe"`
			} `json:"resources"`
			Extensions map[string]json.RawMessage `json:"extensions"`
		} `json:"capabilities"`
	}
	_ = json.Unmarshal(raw, &d)
	caps := d.Capabilities
	var refused []string
	for _, k := range l.filter.Keys() {
		ok := true
		switch k {
		case "toolsListChanged":
			ok = caps.Tools != nil && caps.Tools.ListChanged
		case "promptsListChanged":
			ok = caps.Prompts != nil && caps.Prompts.ListChanged
		case "resourcesListChanged":
			ok = caps.Resources != nil && caps.Resources.ListChanged
		case "resourceSubscriptions":
			ok = caps.Resources != nil && caps.Resources.Subscribe
		case "taskIds":
			_, ok = caps.Extensions[client.TasksExtension]
		}
		if !ok {
			refused = append(refused, filterFlag[k])
		}
	}
	if len(refused) > 0 {
		return usagef("the server does not offer %s (its server/discover capabilities do not declare it)", strings.Join(refused, ", "))
	}
	return nil
}

var filterFlag = map[string]string{
	"toolsListChanged": "--tools", "promptsListChanged": "--prompts", "resourcesListChanged": "--resources",
	"resourceSubscriptions": "--resource", "taskIds": "--task",
}

func (l *listener) run(parent context.Context) error {
	if err := l.checkCapabilities(parent); err != nil {
		return err
	}
	ctx, stop := context.WithCancelCause(parent)
	defer stop(nil)
	l.stop = stop
	if l.forDur > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, l.forDur)
		defer cancel()
	}
	defer l.flush()
	defer l.fetchWG.Wait() // refetches under way finish their line
	backoff := 250 * time.Millisecond
	for attempt := 0; ; attempt++ {
		start := time.Now()
		res, err := l.conn.Client().Listen(ctx, l.filter.JSON(), client.ListenOptions{Stray: l.stray}, l.event)
		switch {
		case l.failed != nil:
			return l.failed
		case err == nil:
			notef(l.ios, "the server closed the subscription %s", output.SanitizeLine(compactJSON(res)))
			return nil
		case ctx.Err() != nil:
			if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, errListenDone) && !errors.Is(cause, context.Canceled) && !errors.Is(cause, context.DeadlineExceeded) {
				return cause
			}
			return nil // --count, --for or Ctrl-C: a normal end
		case !l.retry || !transportBroke(err):
			return wrapOp("subscriptions/listen", err)
		}
		if time.Since(start) > time.Minute {
			backoff = 250 * time.Millisecond // it had been working: start over
		}
		wait := backoff/2 + rand.N(backoff/2+1)
		fmt.Fprintf(l.ios.ErrOut, "mcpctl: the subscription broke (%s); reconnecting in %s\n", output.SanitizeLine(err.Error()), wait.Round(time.Millisecond))
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return nil
		}
		backoff = min(backoff*2, 30*time.Second)
		if err := l.conn.Reconnect(); err != nil {
			return wrapOp("subscriptions/listen", err)
		}
		l.line(json.RawMessage(fmt.Sprintf(`{"method":"mcpctl/reconnected","params":{"attempt":%d,"note":"the subscription was re-established; events may have been missed meanwhile"}}`, attempt+1)))
	}
}

// transportBroke tells a dropped connection or a dead server (worth a
// reconnect) from an answer (not).
func transportBroke(err error) bool {
	var conn *client.ConnError
	var proto *client.ProtocolError
	return errors.As(err, &conn) || errors.As(err, &proto)
}

func (l *listener) flush() {
	l.outMu.Lock()
	defer l.outMu.Unlock()
	_ = l.out.Flush()
}

func (l *listener) stray(n client.Notification, why string) {
	if l.trace {
		fmt.Fprintf(l.ios.ErrOut, "# listen: ignored %s (%s)\n", output.SanitizeLine(n.Method), why)
	}
}

func (l *listener) event(ev client.ListenEvent) {
	if l.failed != nil || (l.limit > 0 && l.count >= l.limit) {
		return // the stream may carry on a moment after it was told to stop
	}
	if ev.Kind == "acknowledged" {
		l.acknowledged(ev)
		return
	}
	line := ojson.Members{}
	line.Set("subscriptionId", ev.SubscriptionID)
	line.Set("method", ojson.String(ev.Method))
	line.Set("params", orNull(ev.Params))
	l.write(line.JSON(), ev.More)
	l.invalidate(ev)
	if l.refetch {
		l.triggerFetch(ev)
	}
	l.count++
	if l.limit > 0 && l.count >= l.limit {
		l.stop(errListenDone)
	}
}

func orNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}

// acknowledged reports what the server dropped from the filter.
func (l *listener) acknowledged(ev client.ListenEvent) {
	var ack struct {
		Notifications map[string]json.RawMessage `json:"notifications"`
	}
	_ = json.Unmarshal(ev.Params, &ack)
	var dropped []string
	for _, k := range l.filter.Keys() {
		got, ok := ack.Notifications[k]
		switch {
		case k == "resourceSubscriptions" || k == "taskIds":
			var want, have []string
			_ = json.Unmarshal(l.filter.Get(k), &want)
			_ = json.Unmarshal(got, &have)
			for _, w := range want {
				if !contains(have, w) {
					dropped = append(dropped, filterFlag[k]+" "+w)
				}
			}
		case !ok || string(got) == "false" || string(got) == "null":
			dropped = append(dropped, filterFlag[k])
		}
	}
	if len(dropped) > 0 {
		sort.Strings(dropped)
		msg := "the server did not acknowledge " + output.SanitizeLine(strings.Join(dropped, ", "))
		if l.strict {
			l.failed = &UsageError{Msg: msg + " (--strict)"}
			l.stop(l.failed)
			return
		}
		fmt.Fprintln(l.ios.ErrOut, "mcpctl: warning: "+msg)
	}
	if l.ios.IsStderrTTY() {
		notef(l.ios, "listening (Ctrl-C to stop)")
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// line writes one line and flushes it.
func (l *listener) line(raw json.RawMessage) { l.write(raw, false) }

// write writes one event line, through --jq when given; at a terminal with
// -o text, a readable line with a timestamp instead. The line is flushed
// unless more messages are already waiting: a burst goes out in one write,
// and a line never waits for a message that has not arrived.
func (l *listener) write(raw json.RawMessage, more bool) {
	l.outMu.Lock()
	defer l.outMu.Unlock()
	switch {
	case l.query != nil:
		if err := l.query.Run(context.Background(), raw, l.out, false, l.ios.IsStdoutTTY()); err != nil {
			fmt.Fprintln(l.ios.ErrOut, "mcpctl: --jq: "+output.SanitizeMessage(oneLine(err.Error())))
		}
	case l.text:
		fmt.Fprintln(l.out, time.Now().Format("15:04:05")+" "+describeEvent(raw))
	case bytes.IndexByte(raw, '\n') < 0 && !l.ios.IsStdoutTTY():
		// Already one line (a stdio message always is): no re-encoding.
		_, _ = l.out.Write(raw)
		_ = l.out.WriteByte('\n')
	default:
		_ = output.WriteJSONLine(l.out, raw, l.ios.IsStdoutTTY())
	}
	if !more {
		_ = l.out.Flush()
		return
	}
	// What was waiting may be no message at all (a keep-alive, half a
	// line): never hold a line longer than a few milliseconds.
	if l.flushAt == nil {
		l.flushAt = time.AfterFunc(5*time.Millisecond, l.flush)
	} else {
		l.flushAt.Reset(5 * time.Millisecond)
	}
}

func describeEvent(raw json.RawMessage) string {
	var e struct {
		Method string `json:"method"`
		Params struct {
			URI    string `json:"uri"`
			TaskID string `json:"taskId"`
			Status string `json:"status"`
			Note   string `json:"note"`
		} `json:"params"`
	}
	_ = json.Unmarshal(raw, &e)
	s := strings.TrimPrefix(e.Method, "notifications/")
	for _, part := range []string{e.Params.URI, e.Params.TaskID, e.Params.Status, e.Params.Note} {
		if part != "" {
			s += " " + part
		}
	}
	return output.SanitizeLine(s)
}

// invalidate drops the cached answer a notification says is out of date:
// the first page of the list, or the resource read. A burst of the same
// notification invalidates once per 50 ms: nothing can have been cached in
// between but by a refetch, which stores the new answer anyway.
func (l *listener) invalidate(ev client.ListenEvent) {
	key := ev.Method
	if ev.Method == "notifications/resources/updated" {
		key += string(ev.Params)
	}
	now := time.Now()
	if last, ok := l.invalidated[key]; ok && now.Sub(last) < 50*time.Millisecond {
		return
	}
	if len(l.invalidated) > 1024 {
		clear(l.invalidated)
	}
	l.invalidated[key] = now
	switch ev.Method {
	case "notifications/tools/list_changed":
		l.conn.Client().Invalidate("tools/list", nil)
	case "notifications/prompts/list_changed":
		l.conn.Client().Invalidate("prompts/list", nil)
	case "notifications/resources/list_changed":
		l.conn.Client().Invalidate("resources/list", nil)
	case "notifications/resources/updated":
		var p struct {
			URI string `json:"uri"`
		}
		_ = json.Unmarshal(ev.Params, &p)
		o := ojson.Members{}
		o.Set("uri", ojson.String(p.URI))
		l.conn.Client().Invalidate("resources/read", o.JSON())
	}
}

// triggerFetch starts a refetch without blocking: notifications arrive on
// the transport's reader, which must stay free to deliver the refetch's
// own answer (on stdio they share one stream).
func (l *listener) triggerFetch(ev client.ListenEvent) {
	key := ev.Method + " " + string(ev.Params)
	if ev.Method != "notifications/resources/updated" {
		key = ev.Method
	}
	l.fetchMu.Lock()
	st := l.fetching[key]
	if st == nil {
		st = &refetchState{}
		l.fetching[key] = st
	}
	if st.running {
		st.again = &ev
		l.fetchMu.Unlock()
		return
	}
	st.running = true
	l.fetchMu.Unlock()
	l.fetchWG.Add(1)
	go func() {
		defer l.fetchWG.Done()
		for next := &ev; next != nil; {
			l.fetch(*next)
			l.fetchMu.Lock()
			next, st.again = st.again, nil
			if next == nil {
				st.running = false
			}
			l.fetchMu.Unlock()
		}
	}()
}

// fetch prints the data a notification announces.
func (l *listener) fetch(ev client.ListenEvent) {
	ctx := context.Background()
	var method, key string
	var params json.RawMessage
	switch ev.Method {
	case "notifications/tools/list_changed":
		method, key = "tools/list", "tools"
	case "notifications/prompts/list_changed":
		method, key = "prompts/list", "prompts"
	case "notifications/resources/list_changed":
		method, key = "resources/list", "resources"
	case "notifications/resources/updated":
		var p struct {
			URI string `json:"uri"`
		}
		_ = json.Unmarshal(ev.Params, &p)
		o := ojson.Members{}
		o.Set("uri", ojson.String(p.URI))
		method, params = "resources/read", o.JSON()
	default:
		return
	}
	var res json.RawMessage
	var err error
	if key != "" {
		res, err = l.conn.Client().ListWith(ctx, method, key, "", true, &client.CallOptions{Refresh: true})
	} else {
		res, err = l.conn.Client().Call(ctx, method, params, &client.CallOptions{Refresh: true})
	}
	if err != nil {
		fmt.Fprintf(l.ios.ErrOut, "mcpctl: --refetch %s: %s\n", method, output.SanitizeMessage(oneLine(err.Error())))
		return
	}
	line := ojson.Members{}
	line.Set("subscriptionId", ev.SubscriptionID)
	line.Set("method", ojson.String(method))
	if params != nil {
		line.Set("params", params)
	}
	line.Set("result", res)
	l.line(line.JSON())
}

func compactJSON(raw json.RawMessage) string {
	var b strings.Builder
	b.Write(raw)
	return b.String()
}
