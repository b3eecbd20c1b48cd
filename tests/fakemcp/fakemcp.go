// Package fakemcp is a misbehaving MCP server for mcpctl's tests. One
// process or handler plays one mode: a server that writes garbage, dies,
// never answers, sends ids nobody asked for, fails with HTTP statuses,
// echoes what it received, and so on. The same modes serve stdio and
// Streamable HTTP where the behaviour makes sense on both.
package fakemcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// request is the part of an incoming message a mode looks at.
type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// reply is what a mode answers: messages to send (notifications first)
// or a raw line to write instead.
type reply struct {
	messages []string                                     // JSON texts; each one line
	raw      string                                       // written verbatim (stdio) or as the body (HTTP)
	exit     int                                          // stdio: exit with this status after writing (-1: stay)
	silent   bool                                         // never answer
	hold     bool                                         // HTTP: keep the stream open after the messages
	stream   func(w io.Writer, frame func(string) string) // writes many messages (a flood)
	abort    bool                                         // HTTP: cut the connection after stream
	status   int                                          // HTTP status (0: 200)
	header   map[string]string                            // HTTP: response headers (Content-Type: application/json frames nothing)
}

// server holds the state a mode keeps across requests.
type server struct {
	mode   string
	mu     sync.Mutex
	calls  map[string]int
	gather *gathering // the logs modes (logburst.go)
}

func newServer(mode string) *server { return &server{mode: mode, calls: map[string]int{}} }

func result(id json.RawMessage, res string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, id, res)
}

func rpcError(id json.RawMessage, code int, msg, data string) string {
	if data != "" {
		data = `,"data":` + data
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%q%s}}`, id, code, msg, data)
}

func (s *server) count(method string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls[method]++
	return s.calls[method]
}

// Tool definitions shared by the modes that list tools.
const echoTools = `{"tools":[{"name":"echo","description":"Echo the arguments back","inputSchema":{"type":"object","properties":{"text":{"type":"string"},"region":{"type":"string","x-mcp-header":"Region"},"count":{"type":"integer","x-mcp-header":"Count"}}}},` +
	`{"name":"bad_header","description":"Annotation on a number","inputSchema":{"type":"object","properties":{"ratio":{"type":"number","x-mcp-header":"Ratio"}}}},` +
	typedTool + `,` + remoteTool + `]}`

// typedTool exercises typing from the schema: every JSON type, enums of
// mixed types, nested objects, arrays, local $refs and anyOf.
const typedTool = `{"name":"typed","description":"Arguments of every type","inputSchema":{"type":"object",` +
	`"$defs":{"level":{"enum":[1,2,"high"]},"limits":{"type":"object","properties":{"max":{"type":"integer","minimum":0}},"additionalProperties":false}},` +
	`"properties":{"count":{"type":"integer"},"ratio":{"type":"number"},"flag":{"type":"boolean"},"nothing":{"type":"null"},` +
	`"level":{"$ref":"#/$defs/level"},"code":{"type":"string"},"limits":{"$ref":"#/$defs/limits"},` +
	`"tags":{"type":"array","items":{"type":"integer"}},"choice":{"anyOf":[{"type":"integer"},{"type":"boolean"}]},` +
	`"mode":{"type":"string","enum":["fast","safe"],"default":"safe"}},"required":["count"],"additionalProperties":false}}`

// remoteTool's schema points at a network $ref, which a client must never
// fetch; the HTTP handler fills in its own address and counts fetches.
const remoteTool = `{"name":"remote","description":"A schema with a network $ref","inputSchema":{"type":"object",` +
	`"properties":{"id":{"type":"string"},"profile":{"$ref":"http://{{HOST}}/canary/profile-schema.json"}}}}`

func (s *server) handle(req request) reply {
	if req.Method == "fake/count" {
		return reply{messages: []string{result(req.ID, s.counts())}, exit: -1}
	}
	n := s.count(req.Method)
	id := req.ID
	if req.Method == "initialize" && answersDiscover(s.mode) {
		// A modern-only server names the versions it speaks, as the spec asks.
		return reply{messages: []string{rpcError(id, -32022, "initialize is not a method of revision 2026-07-28", `{"supported":["2026-07-28"],"requested":"2025-11-25"}`)}, exit: -1}
	}
	if r, ok := s.skills(req); ok { // issue 17, item 1 (skills.go): its own discover
		return r
	}
	if req.Method == "server/discover" && answersDiscover(s.mode) {
		// A modern server, whatever its fault: mcpctl's era probe learns
		// that much, and the fault shows on the request under test.
		return reply{messages: []string{result(id, discoverResult)}, exit: -1}
	}
	if strings.HasPrefix(s.mode, "cached") {
		return s.cached(req)
	}
	if s.mode == "evolving" {
		return s.evolving(req, n)
	}
	if r, ok := s.stale(req); ok { // issue 16, item 3 (stale.go)
		return r
	}
	if r, ok := s.outputs(req); ok { // issue 25, item 3 (outputs.go)
		return r
	}
	if strings.HasPrefix(s.mode, "listen") {
		return s.listen(req)
	}
	if s.mode == "hostilenames" { // issue 13: completion injection
		return s.hostileNames(req)
	}
	if r, ok := s.faultReply(req); ok {
		return r
	}
	if r, ok := s.hiddenText(req); ok { // issue 24, item 9 (hygiene.go)
		return r
	}
	if r, ok := s.binaries(req); ok { // issue 25, item 4 (binaries.go)
		return r
	}
	if r, ok := s.echoEnv(req); ok {
		return r
	}
	// Issue 13, item 8: tasks that never end (tasks.go).
	if r, ok := s.taskReply(req); ok {
		return r
	}
	if r, ok := s.elicitReply(req); ok { // issue 13, items 3 and 10 (elicit.go)
		return r
	}
	if r, ok := s.pagingReply(req); ok { // issue 13, item 2
		return r
	}
	switch s.mode {
	case "nonjson":
		return reply{raw: "hello from a server that logs to stdout", exit: -1}
	case "exit":
		return reply{exit: 3}
	case "silent":
		return reply{silent: true}
	case "badjson":
		return reply{raw: fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"tools":[`, id), exit: -1}
	case "unknownid":
		return reply{messages: []string{result([]byte("987654"), `{"tools":[]}`)}, exit: -1}
	case "resulttype":
		return reply{messages: []string{result(id, `{"resultType":"mystery","tools":[]}`)}, exit: -1}
	case "inputrequired":
		return reply{messages: []string{result(id, `{"resultType":"input_required","inputRequests":{"q":{"method":"elicitation/create","params":{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}}}}`)}, exit: -1}
	case "version":
		// The first request of every process is refused, as a modern
		// server that does not speak the requested version would.
		if s.total() == 1 {
			return reply{status: 400, messages: []string{rpcError(id, -32022, "Unsupported protocol version", `{"supported":["2026-07-28"],"requested":"x"}`)}, exit: -1}
		}
		return s.echo(req)
	case "noversion":
		return reply{status: 400, messages: []string{rpcError(id, -32022, "Unsupported protocol version", `{"supported":["2099-01-01","2098-01-01"],"requested":"2026-07-28"}`)}, exit: -1}
	case "askunknown":
		// An input request of a kind no client knows.
		return reply{messages: []string{result(id, `{"resultType":"input_required","inputRequests":{"spell":{"method":"wizard/castSpell","params":{}},"ok":{"method":"roots/list","params":{}}}}`)}, exit: -1}
	case "askmalformed":
		return reply{messages: []string{result(id, `{"resultType":"input_required","inputRequests":{"q":{"method":"elicitation/create","params":{"message":"?","requestedSchema":"not a schema"}}}}`)}, exit: -1}
	case "askforever":
		// Never satisfied: asks again on every retry, with a new state.
		return reply{messages: []string{result(id, fmt.Sprintf(`{"resultType":"input_required","inputRequests":{"again":{"method":"elicitation/create","params":{"message":"Once more (%d)","requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}}},"requestState":"round-%d"}`, n, n))}, exit: -1}
	case "notfound32002":
		// How servers before 2026-07-28 said "resource not found".
		return reply{messages: []string{rpcError(id, -32002, "Resource not found", `{"uri":"x"}`)}, exit: -1}
	case "rpcerror":
		return reply{messages: []string{rpcError(id, -32603, "database is on fire", "")}, exit: -1}
	case "paginate":
		if req.Method == "tools/list" {
			var p struct {
				Cursor string `json:"cursor"`
			}
			_ = json.Unmarshal(req.Params, &p)
			switch p.Cursor {
			case "":
				return reply{messages: []string{result(id, `{"tools":[{"name":"t1","inputSchema":{"type":"object"}}],"nextCursor":"page2","x-vendor":{"kept":true}}`)}, exit: -1}
			case "page2":
				return reply{messages: []string{result(id, `{"tools":[{"name":"t2","inputSchema":{"type":"object"}}],"nextCursor":"page3"}`)}, exit: -1}
			default:
				return reply{messages: []string{result(id, `{"tools":[{"name":"t3","inputSchema":{"type":"object"}}]}`)}, exit: -1}
			}
		}
		return s.echo(req)
	case "loopcursor":
		return reply{messages: []string{result(id, `{"tools":[],"nextCursor":"again"}`)}, exit: -1}
	case "notify":
		return reply{messages: []string{
			`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1,"total":2,"message":"half way"}}`,
			`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"fake","data":"working \u001b[31mhard\u001b[0m"}}`,
			result(id, `{"content":[{"type":"text","text":"done"}]}`),
		}, exit: -1}
	case "fidelity":
		return reply{messages: []string{result(id, `{"z":1,"a":{"y":2,"b":3},"big":9007199254740993,"exp":1.0e+2,"content":[{"type":"hologram","data":"?"},{"type":"text","text":"evil \u001b]0;pwned\u0007title \u001b[2Jclear"}],"_meta":{"com.example/vendor":{"x":[1,2]}}}`)}, exit: -1}
	case "env":
		// Reports the environment variable FAKE_VAR and the working
		// directory, for --env and --cwd.
		wd, _ := os.Getwd()
		b, _ := json.Marshal(map[string]string{"FAKE_VAR": os.Getenv("FAKE_VAR"), "cwd": filepath.Base(wd)})
		return reply{messages: []string{result(id, string(b))}, exit: -1}
	case "iserror":
		return reply{messages: []string{result(id, `{"content":[{"type":"text","text":"it broke"}],"isError":true}`)}, exit: -1}
	case "tools", "mismatch", "slowdiscover":
		if req.Method == "tools/list" {
			return reply{messages: []string{result(id, echoTools)}, exit: -1}
		}
		if s.mode == "mismatch" && req.Method == "tools/call" && n == 1 {
			return reply{status: 400, messages: []string{rpcError(id, -32020, "Header mismatch: Mcp-Param-Region missing", "")}, exit: -1}
		}
		return s.echo(req)
	case "schemas": // issue 14 item 1: schemas.go
		return s.schemas(req)
	case "shapes": // issue 25 item 5: shapes.go
		return s.shapes(req)
	}
	return s.echo(req)
}

// discoverResult is what the modern modes answer server/discover with.
const discoverResult = `{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{"listChanged":true},"prompts":{},"resources":{}},"serverInfo":{"name":"fakemcp","version":"0"}}`

// answersDiscover: the modes whose fault must meet the era probe too (or
// that answer server/discover their own way) are left alone.
func answersDiscover(mode string) bool {
	switch mode {
	case "silent", "nonjson", "exit", "badjson", "unknownid", "version", "noversion", "echo", "html", "http401", "skills":
		return false
	}
	return !strings.HasPrefix(mode, "cached") && !strings.HasPrefix(mode, "listen") && !strings.HasPrefix(mode, "legacy")
}

// counts reports the requests seen so far per method, as JSON.
func (s *server) counts() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, _ := json.Marshal(s.calls)
	return string(b)
}

func (s *server) total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := 0
	for _, n := range s.calls {
		t += n
	}
	return t
}

// echo answers with the method and params it received, so a test can see
// exactly what mcpctl sent.
func (s *server) echo(req request) reply {
	params := req.Params
	if len(bytes.TrimSpace(params)) == 0 {
		params = []byte("null")
	}
	return reply{messages: []string{result(req.ID, fmt.Sprintf(`{"method":%q,"params":%s}`, req.Method, params))}, exit: -1}
}

// Modes lists the modes, for usage messages.
func Modes() string {
	return strings.Join([]string{"echo", "nonjson", "exit", "silent", "badjson", "unknownid", "resulttype", "inputrequired",
		"version", "noversion", "askunknown", "askmalformed", "askforever", "notfound32002", "rpcerror", "paginate", "loopcursor", "notify", "fidelity", "env", "evolving", "listen", "listenhold", "listennoack", "listenerror", "iserror", "tools", "mismatch",
		"http404json", "http404", "http500json", "http500", "http401", "html", "sse",
		"html404", // issue 15, item 5 (http.go)
		"legacy", "legacyversion", "legacyold", "legacyexpire", "legacysse",
		"noisebefore", "noisebetween", "noiseafter", "halfline", "exitmid", "duplicate", "huge:N", "flood:N", "deep:N", "bigint", "badutf8", "trickle", "progressforever", "escapes",
		"ssecut", "http:CODE[:text|:json]", "busy:CODE:N:SECS", "redirectloop", "ignoreterm", "closestdin", "closestdinnow", "asksampling", "pathtraversal",
		"hostilenames",                                    // issue 13, item 1 (hostilenames.go)
		"taskaskforever", "tasknorequests", "taskworking", // issue 13, item 8 (tasks.go)
		"urlelicit:KIND",                                                        // issue 13, item 10 (elicit.go)
		"endlesspages:BYTES", "slowpages:MS:N", "chunked:N", "gzipbomb:N[:sse]", // issue 13, items 2 and 6
		"invisible", "stderrescapes[:exit]", "stderrflood:N:L", // issue 13, items 4 and 9
		"setsidkeep", "setsiddaemon", "doublefork", // issue 13, item 5
		"logs:N", "legacylogs:N", "legacysselogs:N", // issue 23, item 7 (logburst.go)
		"schemas",                // issue 14, item 1 (schemas.go)
		"shapes",                 // issue 25, item 5 (shapes.go)
		"legacytyped",            // issue 15, item 1 (legacytyped.go)
		"legacytaskworking",      // issue 17, item 6 (legacytasks.go)
		"slowexit",               // issue 16, item 4 (slowexit.go)
		"stale",                  // issue 16, item 3 (stale.go)
		"skills",                 // issue 17, item 1 (skills.go)
		"legacyunasked",          // issue 24, item 7 (unasked.go)
		"legacyrootsatstart",     // issue 25, item 6 (rootsatstart.go)
		"hiddentext", "echoauth", // issue 24, item 9 (hygiene.go)
		"binaries", // issue 25, item 4 (binaries.go)
		// issue 24, items 6 and 8 (sessionfaults.go)
		"legacyflood", "legacyendlesspages:BYTES", "deaf",
		"outputs",                                                // issue 25, item 3 (outputs.go)
		"legacynostream", "legacyshortstream", "legacygetstream", // issue 25, item 2 (getstream.go)
	}, ", ")
}

// cached plays a server whose results carry caching hints ("cached" or
// "cached:TTLMS"): tools/list, prompts/list and server/discover are public,
// resources/read is private, and fake/count reports how many requests of
// each method the server has seen, so tests can count round trips.
func (s *server) cached(req request) reply {
	ttl := "60000"
	if _, t, ok := strings.Cut(s.mode, ":"); ok {
		ttl = t
	}
	id := req.ID
	var res string
	switch req.Method {
	case "server/discover":
		res = `{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"ttlMs":` + ttl + `,"cacheScope":"public"}`
	case "tools/list":
		res = `{"tools":[{"name":"echo","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}],"ttlMs":` + ttl + `,"cacheScope":"public"}`
	case "prompts/list":
		res = `{"prompts":[],"ttlMs":` + ttl + `}`
	case "resources/list":
		res = `{"resources":[]}` // no ttlMs: never cached
	case "resources/read":
		var p struct {
			URI string `json:"uri"`
		}
		_ = json.Unmarshal(req.Params, &p)
		if p.URI == "demo://ask" {
			// An interim answer, wrongly carrying hints: still never cached.
			res = `{"resultType":"input_required","inputRequests":{"q":{"method":"elicitation/create","params":{"message":"Sure?","requestedSchema":{"type":"object","properties":{}}}}},"ttlMs":60000,"cacheScope":"public"}`
			break
		}
		res = fmt.Sprintf(`{"contents":[{"uri":%q,"text":"secret for %s"}],"ttlMs":%s,"cacheScope":"private"}`, p.URI, p.URI, ttl)
	default:
		return s.echo(req)
	}
	return reply{messages: []string{result(id, res)}, exit: -1}
}

// evolving plays a server whose tool list changes after a client cached
// it: the first tools/list (ttlMs 60000) has only "echo"; later ones add
// "added". Its first tools/call of "strict" fails with -32602, as if the
// schema had changed, and later ones succeed.
func (s *server) evolving(req request, n int) reply {
	tool := func(name string) string {
		return `{"name":"` + name + `","inputSchema":{"type":"object"}}`
	}
	switch req.Method {
	case "tools/list":
		tools := tool("echo") + "," + tool("strict")
		if n > 1 {
			tools += "," + tool("added")
		}
		return reply{messages: []string{result(req.ID, `{"tools":[`+tools+`],"ttlMs":60000}`)}, exit: -1}
	case "tools/call":
		var p struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(req.Params, &p)
		if p.Name == "strict" && s.callsOf("strict") == 1 {
			return reply{status: 400, messages: []string{rpcError(req.ID, -32602, "Invalid params: the schema changed", "")}, exit: -1}
		}
	}
	return s.echo(req)
}

// callsOf counts calls of one tool.
func (s *server) callsOf(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls["tool:"+name]++
	return s.calls["tool:"+name]
}

// listen plays subscriptions/listen servers. "listen": a stray notification
// for another subscription, one sent before the acknowledgment, an
// acknowledgment that drops resourceSubscriptions, three tool-list changes
// and a resource update, then a graceful close. "listenhold": the
// acknowledgment and two changes, then the stream stays open.
// "listennoack": never acknowledges. "listenerror": answers with an error.
func (s *server) listen(req request) reply {
	if req.Method == "server/discover" {
		return reply{messages: []string{result(req.ID, `{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{"listChanged":true},"prompts":{"listChanged":true},"resources":{"listChanged":true,"subscribe":true}}}`)}, exit: -1}
	}
	if req.Method != "subscriptions/listen" {
		return s.echo(req)
	}
	var p struct {
		Notifications map[string]json.RawMessage `json:"notifications"`
	}
	_ = json.Unmarshal(req.Params, &p)
	note := func(method, sid, extra string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":{"_meta":{"io.modelcontextprotocol/subscriptionId":%s}%s}}`, method, sid, extra)
	}
	sid := string(req.ID)
	agreed := map[string]json.RawMessage{}
	for k, v := range p.Notifications {
		if k != "resourceSubscriptions" || s.mode == "listenhold" {
			agreed[k] = v
		}
	}
	ack, _ := json.Marshal(agreed)
	if n, ok := strings.CutPrefix(s.mode, "listenflood:"); ok {
		// As many tool-list changes as asked for, as fast as they can be
		// written, then a graceful close: for the listen benchmark.
		count, _ := strconv.Atoi(n)
		return reply{exit: -1, stream: func(w io.Writer, frame func(string) string) {
			bw := bufio.NewWriterSize(w, 64<<10)
			bw.WriteString(frame(note("notifications/subscriptions/acknowledged", sid, `,"notifications":`+string(ack))))
			for i := 0; i < count; i++ {
				bw.WriteString(frame(note("notifications/tools/list_changed", sid, `,"seq":`+strconv.Itoa(i))))
			}
			bw.WriteString(frame(result(req.ID, `{"resultType":"complete"}`)))
			bw.Flush()
		}}
	}
	switch s.mode {
	case "listennoack":
		return reply{silent: true, hold: true}
	case "listenerror":
		return reply{status: 400, messages: []string{rpcError(req.ID, -32602, "Invalid params: unknown notification filter", "")}, exit: -1}
	case "listenhold":
		return reply{messages: []string{
			note("notifications/subscriptions/acknowledged", sid, `,"notifications":`+string(ack)),
			note("notifications/tools/list_changed", sid, ""),
			note("notifications/resources/updated", sid, `,"uri":"demo://counter"`),
		}, exit: -1, hold: true}
	}
	return reply{messages: []string{
		note("notifications/tools/list_changed", "987", ""),
		note("notifications/tools/list_changed", sid, `,"early":true`),
		note("notifications/subscriptions/acknowledged", sid, `,"notifications":`+string(ack)),
		note("notifications/tools/list_changed", sid, `,"n":1`),
		"this line is not JSON",
		note("notifications/tools/list_changed", sid, `,"n":2`),
		note("notifications/resources/updated", sid, `,"uri":"demo://counter","vendor":{"x":[1,2]}`),
		result(req.ID, `{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":`+sid+`}}`),
	}, exit: -1}
}
