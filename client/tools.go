package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// UnknownToolError names a tool the server does not offer, with the
// closest names it does.
type UnknownToolError struct {
	Name        string
	Suggestions []string
}

func (e *UnknownToolError) Error() string {
	s := fmt.Sprintf("the server has no tool %q", e.Name)
	if len(e.Suggestions) > 0 {
		s += "; did you mean " + strings.Join(e.Suggestions, ", ") + "?"
	}
	return s
}

// InvalidToolError is a tool whose definition a client must refuse.
type InvalidToolError struct {
	Name   string
	Reason string
}

func (e *InvalidToolError) Error() string {
	return fmt.Sprintf("tool %q has an invalid definition, so mcpctl will not call it: %s", e.Name, e.Reason)
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
	if err != nil || c.t.Kind() != "http" {
		return raw, nil, err
	}
	return dropInvalidTools(raw)
}

func dropInvalidTools(raw json.RawMessage) (json.RawMessage, []string, error) {
	fields, err := splitObject(raw)
	if err != nil {
		return nil, nil, &ProtocolError{Msg: "tools/list result is not a JSON object"}
	}
	var tools []json.RawMessage
	if t := getField(fields, "tools"); t != nil {
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
	return joinObject(setField(fields, "tools", joinArray(kept))), warnings, nil
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
	return nil, &UnknownToolError{Name: name, Suggestions: Closest(name, names, 3)}
}

// CallTool calls a tool with raw arguments (a JSON object or nil).
//
// Over HTTP the tool's definition is needed first, to mirror x-mcp-header
// parameters into Mcp-Param-* headers and to refuse invalid tools; a
// HeaderMismatch answer refreshes it once and retries. Over stdio the call
// goes straight out, and the tool list is only fetched to explain a
// failure for a tool that does not exist.
func (c *Client) CallTool(ctx context.Context, name string, args json.RawMessage, co *CallOptions) (json.RawMessage, error) {
	n, _ := json.Marshal(name)
	body := joinObject([]field{{"name", n}, {"arguments", argsOrEmpty(args)}})
	if c.t.Kind() != "http" {
		res, err := c.Call(ctx, "tools/call", body, co)
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
	for attempt := 0; ; attempt++ {
		list, err := c.List(ctx, "tools/list", "tools", "", true)
		if err != nil {
			return nil, err
		}
		tool, err := FindTool(list, name)
		if err != nil {
			return nil, err
		}
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
		callOpts := CallOptions{Header: h}
		if co != nil {
			callOpts.OnNotify = co.OnNotify
			for k, v := range co.Header {
				callOpts.Header[k] = v
			}
		}
		res, err := c.Call(ctx, "tools/call", body, &callOpts)
		var rpc *RPCError
		if attempt == 0 && errors.As(err, &rpc) && rpc.Code == CodeHeaderMismatch {
			continue // the definition changed under us: fetch it again once
		}
		return res, err
	}
}

func argsOrEmpty(args json.RawMessage) json.RawMessage {
	if len(args) == 0 {
		return json.RawMessage(`{}`)
	}
	return args
}

// Closest returns up to n candidates nearest to name by edit distance,
// closest first; prefix and substring matches count as close.
func Closest(name string, candidates []string, n int) []string {
	type scored struct {
		s string
		d int
	}
	var out []scored
	lname := strings.ToLower(name)
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := editDistance(lname, lc)
		if strings.Contains(lc, lname) || strings.Contains(lname, lc) {
			d = min(d, 1)
		}
		if d <= max(2, len(name)/2) {
			out = append(out, scored{c, d})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].d < out[j].d })
	var res []string
	for i := 0; i < len(out) && i < n; i++ {
		res = append(res, out[i].s)
	}
	return res
}

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
