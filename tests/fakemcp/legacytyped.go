package fakemcp

import "encoding/json"

// Issue 15, item 1: "legacytyped" is the well-behaved legacy server with
// one tool, typedTool (arguments of every JSON type), whose call answers
// with the arguments it got: a dry run's typing and handshake can be
// compared with those of a real call to a legacy server.
func (l *legacySession) typedReply(req request) (string, bool) {
	if l.srv.mode != "legacytyped" {
		return "", false
	}
	switch req.Method {
	case "tools/list":
		return result(req.ID, `{"tools":[`+typedTool+`]}`), true
	case "tools/call":
		var p struct {
			Arguments json.RawMessage `json:"arguments"`
		}
		_ = json.Unmarshal(req.Params, &p)
		return result(req.ID, textContent(compact(p.Arguments))), true
	}
	return "", false
}
