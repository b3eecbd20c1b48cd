package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/mcpctl/mcpctl/client/ojson"
)

// UnknownToolError names a tool the server does not offer, with the names
// it does offer (for suggestions).
type UnknownToolError struct {
	Name  string
	Known []string
}

func (e *UnknownToolError) Error() string { return fmt.Sprintf("the server has no tool %q", e.Name) }

// InvalidToolError is a tool whose definition a client must refuse.
type InvalidToolError struct {
	Name   string
	Reason string
}

func (e *InvalidToolError) Error() string {
	return fmt.Sprintf("tool %q has an invalid definition, so it is not called: %s", e.Name, e.Reason)
}

type toolPeek struct {
	Name        string          `json:"name"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// ListTools returns tools/list (every page, or the page at cursor). Over
// HTTP, tools whose x-mcp-header annotations are invalid are left out, as
// the Streamable HTTP binding requires; each is reported in warnings.
func (c *Client) ListTools(ctx context.Context, cursor string, all bool) (json.RawMessage, []string, error) {
	raw, err := c.List(ctx, "tools/list", "tools", cursor, all)
	if err != nil || !c.base.Headers || c.Legacy() {
		return raw, nil, err
	}
	return dropInvalidTools(raw)
}

func dropInvalidTools(raw json.RawMessage) (json.RawMessage, []string, error) {
	fields, err := ojson.SplitObject(raw)
	if err != nil {
		return nil, nil, &ProtocolError{Msg: "tools/list result is not a JSON object"}
	}
	var tools []json.RawMessage
	if t := fields.Get("tools"); t != nil {
		if err := json.Unmarshal(t, &tools); err != nil {
			return nil, nil, &ProtocolError{Msg: `tools/list: "tools" is not an array`}
		}
	}
	var kept []json.RawMessage
	var warnings []string
	for _, t := range tools {
		var p toolPeek
		_ = json.Unmarshal(t, &p)
		if _, herr := ToolHeaderParams(p.InputSchema); herr != nil {
			warnings = append(warnings, fmt.Sprintf("tool %q left out: %v", p.Name, herr))
			continue
		}
		kept = append(kept, t)
	}
	if len(warnings) == 0 {
		return raw, nil, nil
	}
	if kept == nil {
		kept = []json.RawMessage{}
	}
	fields.Set("tools", ojson.JoinArray(kept))
	return fields.JSON(), warnings, nil
}

// FindTool returns the raw definition of name from a tools/list result.
func FindTool(list json.RawMessage, name string) (json.RawMessage, error) {
	var l struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(list, &l); err != nil {
		return nil, &ProtocolError{Msg: "tools/list result is malformed: " + err.Error()}
	}
	var names []string
	for _, t := range l.Tools {
		var p toolPeek
		_ = json.Unmarshal(t, &p)
		if p.Name == name {
			return t, nil
		}
		names = append(names, p.Name)
	}
	return nil, &UnknownToolError{Name: name, Known: names}
}

// CallTool calls a tool with raw arguments (a JSON object or nil).
//
// The tool's definition comes first: co.Tool when the caller has it
// already (from an earlier ListTools), else tools/list. A cached list
// serves, fresh or stale, so a warm call is one request on the wire even
// when the server's ttlMs is 0: a stale list is not an answer, but it is
// what the server offered last time, and the server tells when it was
// wrong. The definition lets co.PrepareArgs type and validate the
// arguments, and over HTTP it says which arguments to mirror into
// Mcp-Param-* headers and whether the tool must be refused.
//
// A cached definition is fetched again and the call retried, once, only
// on an answer that proves it wrong before the tool could run: the tool
// is not in it, the server answers -32602 (an unknown tool, arguments it
// refuses) or HeaderMismatch, or, for a stale one, the arguments are
// refused by it locally. Never after a result, isError, a timeout or any
// other error: the tool may have run. A list fetched for this call is
// trusted (but for HeaderMismatch, which the server sends before running
// anything), and a definition the caller gave is used as it is.
//
// Over stdio with no PrepareArgs the definition is not needed: the call
// goes straight out, and the list is fetched only to explain a failure for
// a tool that does not exist.
func (c *Client) CallTool(ctx context.Context, name string, args json.RawMessage, co *CallOptions) (json.RawMessage, error) {
	if co == nil {
		co = &CallOptions{}
	}
	if co.Tool != nil {
		var p toolPeek
		if err := json.Unmarshal(co.Tool, &p); err != nil || p.Name != name {
			return nil, &ParamsError{Msg: fmt.Sprintf("the tool definition given is not one of tool %q", name)}
		}
		res, _, err := c.callWith(ctx, name, co.Tool, args, co)
		return res, err
	}
	if !c.base.Headers && co.PrepareArgs == nil && !co.Task {
		// A legacy server's tools may need to run as tasks, which only
		// their definitions tell.
		if tasks, err := c.legacyToolTasks(ctx); err != nil || !tasks {
			return c.callToolDirect(ctx, name, args, co)
		}
	}
	for attempt := 0; ; attempt++ {
		fromCache, stale := false, false
		list, err := c.ListWith(ctx, "tools/list", "tools", "", true,
			&CallOptions{Refresh: attempt > 0, Hint: attempt == 0, FromCache: &fromCache, Stale: &stale})
		if err != nil {
			if attempt == 0 && fromCache && ctx.Err() == nil {
				// A later page the cache did not hold, fetched with a
				// cursor from a stale one: start again from the server.
				c.logf("cache: tools/list from the cache could not be completed: fetching it again")
				continue
			}
			return nil, err
		}
		retry := attempt == 0 && fromCache
		tool, err := FindTool(list, name)
		if err != nil {
			if retry {
				c.logf("cache: the cached tools/list has no tool %q: fetching it again", name)
				continue // a tool added since the list was cached
			}
			return nil, err
		}
		res, sent, err := c.callWith(ctx, name, tool, args, co)
		if !sent && retry && stale {
			c.logf("cache: the arguments of tools/call %q are refused by the stale tools/list: fetching it again", name)
			continue
		}
		var rpc *RPCError
		if sent && attempt == 0 && errors.As(err, &rpc) &&
			(rpc.Code == CodeHeaderMismatch || (retry && rpc.Code == CodeInvalidParams)) {
			c.logf("cache: tools/call %q refused (%d) before it ran: fetching tools/list again and retrying once", name, rpc.Code)
			continue // the definition changed under us: fetch it again, once
		}
		return res, err
	}
}

// callWith calls name with the definition tool; sent says the call went
// out (the arguments and headers were fine).
func (c *Client) callWith(ctx context.Context, name string, tool, args json.RawMessage, co *CallOptions) (json.RawMessage, bool, error) {
	sent := args
	var err error
	if co.PrepareArgs != nil {
		if sent, err = co.PrepareArgs(tool, args); err != nil {
			return nil, false, err
		}
	}
	callOpts := CallOptions{OnNotify: co.OnNotify, NoWait: co.NoWait, Header: http.Header{}}
	if c.caps().Headers && !c.Legacy() {
		if callOpts.Header, err = toolHeaders(name, tool, sent); err != nil {
			return nil, false, err
		}
	}
	for k, v := range co.Header {
		callOpts.Header[k] = v
	}
	asTask, err := c.runAsTask(ctx, name, tool, co.Task)
	if err != nil {
		return nil, false, err
	}
	body := toolCallBody(name, sent)
	if !asTask {
		res, err := c.Call(ctx, "tools/call", body, &callOpts)
		return res, true, err
	}
	// The legacy task's own answer comes at once; waiting (or not, with
	// NoWait) is legacyTaskCreated's.
	callOpts.NoWait = false
	res, err := c.Call(ctx, "tools/call", withTask(body), &callOpts)
	if err != nil {
		return nil, true, err
	}
	res, err = c.legacyTaskCreated(ctx, res, co)
	return res, true, err
}

func (c *Client) callToolDirect(ctx context.Context, name string, args json.RawMessage, co *CallOptions) (json.RawMessage, error) {
	res, err := c.Call(ctx, "tools/call", toolCallBody(name, args), co)
	var rpc *RPCError
	if errors.As(err, &rpc) {
		if list, lerr := c.List(ctx, "tools/list", "tools", "", true); lerr == nil {
			if _, ferr := FindTool(list, name); ferr != nil {
				return nil, ferr
			}
		}
	}
	return res, err
}

// toolHeaders validates a tool's x-mcp-header annotations and returns the
// Mcp-Param-* headers for args.
func toolHeaders(name string, tool, args json.RawMessage) (http.Header, error) {
	var p toolPeek
	_ = json.Unmarshal(tool, &p)
	hp, err := ToolHeaderParams(p.InputSchema)
	if err != nil {
		return nil, &InvalidToolError{Name: name, Reason: err.Error()}
	}
	h, err := ParamHeaders(hp, args)
	if err != nil {
		return nil, &ParamsError{Msg: err.Error()}
	}
	return h, nil
}

func toolCallBody(name string, args json.RawMessage) json.RawMessage {
	n, _ := json.Marshal(name)
	return ojson.Members{{Key: "name", Value: n}, {Key: "arguments", Value: argsOrEmpty(args)}}.JSON()
}

func argsOrEmpty(args json.RawMessage) json.RawMessage {
	if len(args) == 0 {
		return json.RawMessage(`{}`)
	}
	return args
}
