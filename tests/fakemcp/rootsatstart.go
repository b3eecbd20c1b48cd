package fakemcp

// Issue 25, item 6: "legacyrootsatstart" is a legacy server that asks for
// the client's roots once it is initialized, as server-filesystem does,
// after a moment's start-up work of its own (it reads nothing meanwhile),
// and takes them as it reads the answer. Its one tool, known_roots,
// answers with the roots it knew when it read the call ("none" before an
// answer): a client that sent its first request before its answer to the
// start-up question is seen to have done so, however fast it answers.

import (
	"encoding/json"
	"time"
)

const rootsAtStartMode = "legacyrootsatstart"

// rootsAtStartID is the id of the start-up question, by which its answer
// is known.
const rootsAtStartID = `"roots-at-start"`

const rootsAtStartTools = `{"tools":[{"name":"known_roots","description":"The roots the server has been given","inputSchema":{"type":"object"}}]}`

// rootsAtStartWork is the start-up work done before the question.
const rootsAtStartWork = 200 * time.Millisecond

// rootsAtStart asks for the roots when the client says it is initialized,
// without waiting for the answer (the reader takes it: tookRoots).
func (l *legacySession) rootsAtStart(notification string) {
	if l.srv.mode != rootsAtStartMode || notification != "notifications/initialized" {
		return
	}
	time.Sleep(rootsAtStartWork)
	l.notify(`{"jsonrpc":"2.0","id":` + rootsAtStartID + `,"method":"roots/list"}`)
}

// tookRoots keeps the roots of an answer to the start-up question; false
// for any other message.
func (l *legacySession) tookRoots(id string, raw []byte) bool {
	if l.srv.mode != rootsAtStartMode || id != rootsAtStartID {
		return false
	}
	var m struct {
		Result struct {
			Roots []struct {
				URI string `json:"uri"`
			} `json:"roots"`
		} `json:"result"`
	}
	_ = json.Unmarshal(raw, &m)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.roots = l.roots[:0]
	for _, r := range m.Result.Roots {
		l.roots = append(l.roots, r.URI)
	}
	l.logf("fakemcp: took roots %v", l.roots)
	return true
}

// rootsAtStartReply answers req in the legacyrootsatstart mode.
func (l *legacySession) rootsAtStartReply(req request) (string, bool) {
	if l.srv.mode != rootsAtStartMode {
		return "", false
	}
	switch req.Method {
	case "tools/list":
		return result(req.ID, rootsAtStartTools), true
	case "tools/call":
		l.mu.Lock()
		known := "none"
		if len(l.roots) > 0 {
			b, _ := json.Marshal(l.roots)
			known = string(b)
		}
		l.mu.Unlock()
		return result(req.ID, textContent(known)), true
	}
	return "", false
}
