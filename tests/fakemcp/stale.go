package fakemcp

import (
	"encoding/json"
	"strings"
)

// Issue 16, item 3: a server whose lists carry ttlMs 0, as both official
// SDKs send by default, so a client can only keep them as hints. Mode
// "stale": tools/list offers echo, fails (answers isError), picky (always
// refused with -32602, as if its arguments were wrong) and old; after a
// fake/rename request old is called new, as after a redeploy, and a
// tools/call of a tool not offered now is refused with -32602 "Unknown
// tool", as the spec says. A client that declares roots is offered
// rooted too. fake/count counts the requests of each method.
func (s *server) stale(req request) (reply, bool) {
	if s.mode != "stale" {
		return reply{}, false
	}
	s.mu.Lock()
	renamed := s.calls["fake/rename"] > 0
	s.mu.Unlock()
	tools := []string{"echo", "fails", "picky", "old"}
	if renamed {
		tools[3] = "new"
	}
	if declaresRoots(req.Params) {
		tools = append(tools, "rooted")
	}
	switch req.Method {
	case "fake/rename":
		return reply{messages: []string{result(req.ID, `{}`)}, exit: -1}, true
	case "tools/list":
		var defs []string
		for _, t := range tools {
			defs = append(defs, `{"name":"`+t+`","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}`)
		}
		return reply{messages: []string{result(req.ID, `{"tools":[`+strings.Join(defs, ",")+`],"ttlMs":0,"cacheScope":"public"}`)}, exit: -1}, true
	case "tools/call":
		var p struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(req.Params, &p)
		known := false
		for _, t := range tools {
			known = known || t == p.Name
		}
		switch {
		case !known:
			return reply{status: 400, messages: []string{rpcError(req.ID, -32602, "Unknown tool: "+p.Name, "")}, exit: -1}, true
		case p.Name == "picky":
			return reply{status: 400, messages: []string{rpcError(req.ID, -32602, "Invalid params: text is not what picky wants", "")}, exit: -1}, true
		case p.Name == "fails":
			return reply{messages: []string{result(req.ID, `{"content":[{"type":"text","text":"it broke"}],"isError":true}`)}, exit: -1}, true
		}
	}
	return s.echo(req), true
}

// declaresRoots reports whether a request's _meta declares the roots
// capability.
func declaresRoots(params json.RawMessage) bool {
	var p struct {
		Meta struct {
			Caps struct {
				Roots json.RawMessage `json:"roots"`
			} `json:"io.modelcontextprotocol/clientCapabilities"`
		} `json:"_meta"`
	}
	_ = json.Unmarshal(params, &p)
	return p.Meta.Caps.Roots != nil
}
