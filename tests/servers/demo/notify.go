package main

// Change notifications on demand, for clients of subscriptions/listen:
// toggle_tool, toggle_prompt and toggle_resource add or remove an
// "ephemeral" tool, prompt and resource (a list_changed notification each),
// touch_resource bumps demo://counter (notifications/resources/updated),
// close_listeners ends every open subscription gracefully, and --notify-every
// does the first two on a timer.
//
// The SDK acknowledges subscriptions/listen itself, but keeps one
// subscription per session and type: on stdio, where every listen shares
// one session, a second listen steals the first one's notifications and the
// end of either ends both. So the demo keeps its own list of listeners and
// delivers the notifications itself, and drops the ones the SDK would send
// to listeners. The wire shapes stay the SDK's: the request is decoded and
// acknowledged by the SDK, and the listen result is the SDK's.

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	counterURI   = "demo://counter"
	ephemeralURI = "demo://ephemeral"

	ephemeralTool   = "ephemeral"
	ephemeralPrompt = "ephemeral_prompt"

	subscriptionIDKey = "io.modelcontextprotocol/subscriptionId"

	// What the notification methods are called, and what a filter calls them.
	toolsChanged     = "notifications/tools/list_changed"
	promptsChanged   = "notifications/prompts/list_changed"
	resourcesChanged = "notifications/resources/list_changed"
	resourceUpdated  = "notifications/resources/updated"
	listenAck        = "notifications/subscriptions/acknowledged"
)

var touchResourceSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "uri": {"type": "string", "description": "Resource to announce as updated; demo://counter is also incremented", "default": "demo://counter"}
  },
  "additionalProperties": false
}`)

// notifier is the demo's changeable state and its open subscriptions.
type notifier struct {
	server *mcp.Server
	send   mcp.MethodHandler // the SDK's sending handler, below all middleware

	// awaitAnswered, set on stdio, waits until the responses to the given
	// listen requests (keys from idKey) have been written, so that the
	// result of close_listeners comes after them.
	awaitAnswered func(ids []string, timeout time.Duration)

	mu        sync.Mutex
	count     int  // demo://counter
	tool      bool // ephemeral present
	prompt    bool // ephemeral_prompt present
	resource  bool // demo://ephemeral present
	listeners map[*listener]bool
}

// listener is one subscriptions/listen request, from the moment its
// acknowledgment has been written until it ends.
type listener struct {
	session *mcp.ServerSession
	ctx     context.Context // the listen handler's; sends use it to find the HTTP stream
	cancel  context.CancelFunc
	done    chan struct{} // closed when the SDK's listen handler has returned

	id     any    // the listen request's JSON-RPC id, as the SDK puts it in _meta
	key    string // id as canonical JSON
	filter mcp.NotificationSubscriptions

	mu     sync.Mutex // held while sending, so nothing follows the result
	closed bool
}

type listenerKey struct{}

// ours marks the contexts of the notifications the notifier sends, so its
// sending middleware lets them through.
type ours struct{}

func newNotifier() *notifier {
	return &notifier{listeners: map[*listener]bool{}}
}

// attach adds the tools, the counter resource and the middleware to s.
func (n *notifier) attach(s *mcp.Server) {
	n.server = s
	// Middleware is added from the inside out: sendFilter's next is the
	// SDK's own sending handler as long as it is added first.
	s.AddSendingMiddleware(n.sendFilter)
	s.AddReceivingMiddleware(n.listenMiddleware)

	changes := &mcp.ToolAnnotations{OpenWorldHint: new(false), DestructiveHint: new(false)}
	mcp.AddTool(s, &mcp.Tool{
		Name:        "toggle_tool",
		Title:       "Toggle a tool",
		Description: "Add the tool \"ephemeral\" if it is absent, remove it if present: notifications/tools/list_changed to listeners.",
		InputSchema: noArgsSchema,
		Annotations: changes,
	}, n.toggleTool)
	mcp.AddTool(s, &mcp.Tool{
		Name:        "toggle_prompt",
		Title:       "Toggle a prompt",
		Description: "Add the prompt \"ephemeral_prompt\" if it is absent, remove it if present: notifications/prompts/list_changed to listeners.",
		InputSchema: noArgsSchema,
		Annotations: changes,
	}, n.togglePrompt)
	mcp.AddTool(s, &mcp.Tool{
		Name:        "toggle_resource",
		Title:       "Toggle a resource",
		Description: "Add the resource demo://ephemeral if it is absent, remove it if present: notifications/resources/list_changed to listeners.",
		InputSchema: noArgsSchema,
		Annotations: changes,
	}, n.toggleResource)
	mcp.AddTool(s, &mcp.Tool{
		Name:  "touch_resource",
		Title: "Touch a resource",
		Description: "Announce a resource as updated (notifications/resources/updated to listeners subscribed to it); " +
			"demo://counter, the default, is incremented first.",
		InputSchema: touchResourceSchema,
		Annotations: changes,
	}, n.touchResource)
	mcp.AddTool(s, &mcp.Tool{
		Name:        "close_listeners",
		Title:       "Close subscriptions",
		Description: "End every open subscriptions/listen stream gracefully, with its result.",
		InputSchema: noArgsSchema,
		Annotations: changes,
	}, n.closeListenersTool)

	s.AddResource(&mcp.Resource{
		URI:         counterURI,
		Name:        "counter",
		Title:       "Counter",
		Description: "A number that touch_resource (and --notify-every) increments; subscribe to it for notifications/resources/updated.",
		MIMEType:    "text/plain",
	}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		n.mu.Lock()
		defer n.mu.Unlock()
		return textContents(counterURI, fmt.Sprintf("count: %d", n.count)), nil
	})
}

func textContents(uri, text string) *mcp.ReadResourceResult {
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: text}}}
}

// Every URI may be subscribed to, including ones that do not exist yet
// (demo://ephemeral): refusing one would fail the whole listen request.
func (n *notifier) subscribe(context.Context, *mcp.SubscribeRequest) error     { return nil }
func (n *notifier) unsubscribe(context.Context, *mcp.UnsubscribeRequest) error { return nil }

// listenMiddleware runs the SDK's subscriptions/listen handler with a
// context the demo can cancel, which makes the SDK answer the request: a
// graceful close. The listener is registered by sendFilter when the SDK
// sends the acknowledgment, which carries the subscription id.
func (n *notifier) listenMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		lr, ok := req.(*mcp.SubscriptionsListenRequest)
		if method != "subscriptions/listen" || !ok {
			return next(ctx, method, req)
		}
		ctx, cancel := context.WithCancel(ctx)
		l := &listener{session: lr.Session, ctx: ctx, cancel: cancel, done: make(chan struct{})}
		defer close(l.done)
		defer cancel()
		res, err := next(context.WithValue(ctx, listenerKey{}, l), method, req)
		// The response is written after this returns: stop sending first.
		l.mu.Lock()
		l.closed = true
		l.mu.Unlock()
		n.mu.Lock()
		delete(n.listeners, l)
		n.mu.Unlock()
		return res, err
	}
}

// sendFilter registers listeners when their acknowledgment goes out, and
// drops the SDK's own change notifications except to sessions of the
// initialize-based revisions, which get them without subscribing.
func (n *notifier) sendFilter(next mcp.MethodHandler) mcp.MethodHandler {
	n.send = next
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case listenAck:
			l, _ := ctx.Value(listenerKey{}).(*listener)
			p, ok := req.GetParams().(*mcp.SubscriptionsAcknowledgedParams)
			if l == nil || !ok {
				break
			}
			// Registered before the acknowledgment is written, so that a
			// change the client makes as soon as it reads it is seen; but
			// holding l.mu, so that nothing is sent on l before it.
			l.mu.Lock()
			defer l.mu.Unlock()
			l.id = p.Meta[subscriptionIDKey]
			l.key = idKey(l.id)
			l.filter = p.Notifications
			n.mu.Lock()
			n.listeners[l] = true
			n.mu.Unlock()
			res, err := next(ctx, method, req)
			if err != nil {
				l.closed = true
				n.mu.Lock()
				delete(n.listeners, l)
				n.mu.Unlock()
			}
			return res, err
		case toolsChanged, promptsChanged, resourcesChanged, resourceUpdated:
			if ctx.Value(ours{}) != nil {
				break
			}
			if p := req.GetParams(); p != nil && !reflect.ValueOf(p).IsNil() && p.GetMeta()[subscriptionIDKey] != nil {
				return nil, nil // to a listener: the notifier sends its own
			}
			if ss, ok := req.GetSession().(*mcp.ServerSession); ok {
				if ip := ss.InitializeParams(); ip == nil || ip.ProtocolVersion >= "2026-07-28" {
					return nil, nil // not subscribed, or nothing received yet
				}
			}
		}
		return next(ctx, method, req)
	}
}

// idKey is a JSON-RPC id as canonical JSON, so that the spellings of one id
// (1 and 1.0, or a string escaped differently) give the same key.
func idKey(id any) string {
	var v any = id
	if raw, ok := id.(json.RawMessage); ok {
		if json.Unmarshal(raw, &v) != nil {
			return string(raw)
		}
	}
	if i, ok := v.(int64); ok {
		v = float64(i)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// wants reports whether l asked for the notification.
func (l *listener) wants(method, uri string) bool {
	f := &l.filter
	switch method {
	case toolsChanged:
		return f.ToolsListChanged
	case promptsChanged:
		return f.PromptsListChanged
	case resourcesChanged:
		return f.ResourcesListChanged
	case resourceUpdated:
		for _, u := range f.ResourceSubscriptions {
			if u == uri {
				return true
			}
		}
	}
	return false
}

// notify sends a change notification to every listener that asked for it,
// before returning, so on stdio it precedes the result of the tool call that
// caused it.
func (n *notifier) notify(method, uri string) {
	n.mu.Lock()
	var to []*listener
	for l := range n.listeners {
		if l.wants(method, uri) {
			to = append(to, l)
		}
	}
	n.mu.Unlock()
	for _, l := range to {
		var params mcp.Params
		meta := mcp.Meta{subscriptionIDKey: l.id}
		switch method {
		case toolsChanged:
			params = &mcp.ToolListChangedParams{Meta: meta}
		case promptsChanged:
			params = &mcp.PromptListChangedParams{Meta: meta}
		case resourcesChanged:
			params = &mcp.ResourceListChangedParams{Meta: meta}
		case resourceUpdated:
			params = &mcp.ResourceUpdatedNotificationParams{Meta: meta, URI: uri}
		}
		l.mu.Lock()
		if !l.closed && l.ctx.Err() == nil {
			// The listen's context carries its request id, which routes the
			// message to the listen's SSE stream on HTTP.
			ctx, cancel := context.WithTimeout(context.WithValue(l.ctx, ours{}, true), 10*time.Second)
			n.send(ctx, method, &mcp.ServerRequest[mcp.Params]{Session: l.session, Params: params})
			cancel()
		}
		l.mu.Unlock()
	}
}

// closeListeners ends every open subscription gracefully and returns the
// keys of their request ids once the SDK's handlers have returned.
func (n *notifier) closeListeners() []string {
	n.mu.Lock()
	var all []*listener
	for l := range n.listeners {
		all = append(all, l)
	}
	clear(n.listeners)
	n.mu.Unlock()
	var keys []string
	for _, l := range all {
		l.mu.Lock()
		l.closed = true
		l.mu.Unlock()
		l.cancel()
		keys = append(keys, l.key)
	}
	for _, l := range all {
		select {
		case <-l.done:
		case <-time.After(5 * time.Second):
		}
	}
	return keys
}

func (n *notifier) closeListenersTool(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
	keys := n.closeListeners()
	if n.awaitAnswered != nil {
		n.awaitAnswered(keys, 5*time.Second)
	}
	return textResult("closed %d subscription(s)", len(keys)), nil, nil
}

func (n *notifier) toggleTool(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
	return textResult("%s tool %s", n.flipTool(), ephemeralTool), nil, nil
}

// flipTool adds or removes the ephemeral tool and reports which it did.
func (n *notifier) flipTool() string {
	n.mu.Lock()
	n.tool = !n.tool
	added := n.tool
	if added {
		mcp.AddTool(n.server, &mcp.Tool{
			Name:        ephemeralTool,
			Title:       "Ephemeral tool",
			Description: "A tool that exists only while toggle_tool has it switched on.",
			InputSchema: noArgsSchema,
			Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)},
		}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return textResult("the ephemeral tool is here"), nil, nil
		})
	} else {
		n.server.RemoveTools(ephemeralTool)
	}
	n.mu.Unlock()
	n.notify(toolsChanged, "")
	return addedOrRemoved(added)
}

func (n *notifier) togglePrompt(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
	n.mu.Lock()
	n.prompt = !n.prompt
	added := n.prompt
	if added {
		n.server.AddPrompt(&mcp.Prompt{
			Name:        ephemeralPrompt,
			Title:       "Ephemeral prompt",
			Description: "A prompt that exists only while toggle_prompt has it switched on.",
		}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{
				Role: "user", Content: &mcp.TextContent{Text: "Say hello to the ephemeral prompt."},
			}}}, nil
		})
	} else {
		n.server.RemovePrompts(ephemeralPrompt)
	}
	n.mu.Unlock()
	n.notify(promptsChanged, "")
	return textResult("%s prompt %s", addedOrRemoved(added), ephemeralPrompt), nil, nil
}

func (n *notifier) toggleResource(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
	n.mu.Lock()
	n.resource = !n.resource
	added := n.resource
	if added {
		n.server.AddResource(&mcp.Resource{
			URI:         ephemeralURI,
			Name:        "ephemeral",
			Title:       "Ephemeral resource",
			Description: "A resource that exists only while toggle_resource has it switched on.",
			MIMEType:    "text/plain",
		}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return textContents(ephemeralURI, "here today, gone tomorrow"), nil
		})
	} else {
		n.server.RemoveResources(ephemeralURI)
	}
	n.mu.Unlock()
	n.notify(resourcesChanged, "")
	return textResult("%s resource %s", addedOrRemoved(added), ephemeralURI), nil, nil
}

func addedOrRemoved(added bool) string {
	if added {
		return "added"
	}
	return "removed"
}

type touchInput struct {
	URI string `json:"uri"`
}

// touchResource announces any resource the demo can read as updated.
func (n *notifier) touchResource(ctx context.Context, _ *mcp.CallToolRequest, in touchInput) (*mcp.CallToolResult, any, error) {
	uri := in.URI
	if uri == "" {
		uri = counterURI
	}
	switch {
	case uri == counterURI:
		return textResult("count: %d", n.bump(ctx)), nil, nil
	case uri == readmeURI, uri == logoURI, strings.HasPrefix(uri, weatherURIPrefix) && len(uri) > len(weatherURIPrefix):
	case uri == ephemeralURI:
		n.mu.Lock()
		present := n.resource
		n.mu.Unlock()
		if !present {
			return nil, nil, fmt.Errorf("%s is switched off; toggle_resource adds it", uri)
		}
	default:
		return nil, nil, fmt.Errorf("unknown resource %q", uri)
	}
	n.updated(ctx, uri)
	return textResult("touched %s", uri), nil, nil
}

// bump increments the counter and announces it; it returns the new count.
func (n *notifier) bump(ctx context.Context) int {
	n.mu.Lock()
	n.count++
	c := n.count
	n.mu.Unlock()
	n.updated(ctx, counterURI)
	return c
}

// updated tells listeners subscribed to uri, and sessions of the older
// revisions that used resources/subscribe (through the SDK).
func (n *notifier) updated(ctx context.Context, uri string) {
	n.notify(resourceUpdated, uri)
	n.server.ResourceUpdated(context.WithoutCancel(ctx), &mcp.ResourceUpdatedNotificationParams{URI: uri})
}

// tick bumps the counter and toggles the ephemeral tool every interval
// until ctx is done.
func (n *notifier) tick(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			n.bump(ctx)
			n.flipTool()
		}
	}
}
