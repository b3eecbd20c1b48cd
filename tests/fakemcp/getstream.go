package fakemcp

// Issue 25, item 2: legacy Streamable HTTP servers and their own stream
// (the GET stream), which a session keeps open and passes on.
//
//	legacynostream     answers GET with 405: it has no stream of its own
//	legacyshortstream  ends each GET stream once it has sent one
//	                   notifications/tools/list_changed on it
//	legacygetstream    tools/call echo sends its progress and a log message
//	                   on the GET stream rather than the call's own, then
//	                   asks the client a ping there and answers once the
//	                   ping is answered (so both arrived before the answer)

import (
	"encoding/json"
	"net/http"
	"strings"
)

// getStream answers a GET in the modes above; false for the others.
func (h *legacyHTTP) getStream(w http.ResponseWriter, r *http.Request, hs *httpSession) bool {
	switch h.srv.mode {
	case "legacynostream":
		w.Header().Set("Allow", "POST, DELETE")
		w.WriteHeader(http.StatusMethodNotAllowed)
		return true
	case "legacyshortstream":
		if !strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
			w.WriteHeader(http.StatusNotAcceptable)
			return true
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		w.WriteHeader(http.StatusOK)
		hs.event(w, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`)
		hs.logf("fakemcp: closed the GET stream of session %s", hs.id)
		return true
	}
	return false
}

// getStreamReply serves legacygetstream's echo; ok is false for others.
func (l *legacySession) getStreamReply(req request) (string, bool) {
	if l.srv.mode != "legacygetstream" || req.Method != "tools/call" {
		return "", false
	}
	var p legacyParams
	_ = json.Unmarshal(req.Params, &p)
	if p.Name != "echo" {
		return "", false
	}
	if tok := p.Meta.ProgressToken; len(tok) > 0 && string(tok) != "null" {
		l.notify(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":` + string(tok) + `,"progress":1,"total":2,"message":"on the GET stream"}}`)
	}
	l.notify(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"fake","data":"echoing, on the GET stream"}}`)
	if _, err := l.ask("ping", `{}`, l.notify); err != nil {
		return rpcError(req.ID, -32603, err.Error(), ""), true
	}
	return result(req.ID, textContent(p.Arguments.Text)), true
}
