package fakemcp

import (
	"encoding/json"
	"strings"
)

// Mode "outputs" (issue 25, item 3): tools with an outputSchema, most of
// whose results break it. Each tool answers with its own result:
//
//   - good: a result that matches (its members in an odd order, an integer
//     past 2^53), which must reach the user byte for byte;
//   - notobject: structuredContent an array where the schema wants an object;
//   - missing: a required field missing;
//   - deep: a wrong type deep inside (forecast[1].temp a string);
//   - nostructured: no structuredContent at all;
//   - badschema: an outputSchema that does not compile (required a string);
//   - fails: isError: true, with a structuredContent that breaks the schema;
//   - hostile: a required field whose name holds escape sequences and a
//     line break;
//   - ask: asks for input (elicitation/create) first, then answers with a
//     wrong type deep inside, for resume;
//   - task: runs as a task (the Tasks extension) whose result, from
//     tasks/get, has a wrong type deep inside;
//   - drift: its outputSchema says count is a string until fake/rename,
//     then an integer, as after a redeploy; its result always has an
//     integer. fake/count counts the requests of each method.
func (s *server) outputs(req request) (reply, bool) {
	if s.mode != "outputs" {
		return reply{}, false
	}
	s.mu.Lock()
	redeployed := s.calls["fake/rename"] > 0
	s.mu.Unlock()
	switch req.Method {
	case "fake/rename":
		return reply{messages: []string{result(req.ID, `{}`)}, exit: -1}, true
	case "tools/list":
		countType := "string"
		if redeployed {
			countType = "integer"
		}
		defs := strings.ReplaceAll(outputTools, "{{COUNT}}", countType)
		return reply{messages: []string{result(req.ID, `{"tools":[`+defs+`],"ttlMs":0}`)}, exit: -1}, true
	case "tasks/get":
		return reply{messages: []string{result(req.ID, outputTask("complete", "completed", `,"result":`+outputResults["ask"]))}, exit: -1}, true
	case "tools/call":
		var p struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(req.Params, &p)
		if p.Name == "ask" && !strings.Contains(string(req.Params), `"inputResponses"`) {
			return reply{messages: []string{result(req.ID, `{"resultType":"input_required","inputRequests":{"q":{"method":"elicitation/create","params":{"message":"Which city?","requestedSchema":{"type":"object","properties":{"city":{"type":"string"}}}}}},"requestState":"s1"}`)}, exit: -1}, true
		}
		if p.Name == "task" {
			return reply{messages: []string{result(req.ID, outputTask("task", "working", ""))}, exit: -1}, true
		}
		if res, ok := outputResults[p.Name]; ok {
			return reply{messages: []string{result(req.ID, res)}, exit: -1}, true
		}
	}
	return s.echo(req), true
}

const weatherOut = `{"type":"object","properties":{"location":{"type":"string"},"humidity":{"type":"integer","minimum":0,"maximum":100},` +
	`"forecast":{"type":"array","items":{"type":"object","properties":{"day":{"type":"string"},"temp":{"type":"number"}},"required":["temp"]}}},` +
	`"required":["location","humidity"]}`

var outputTools = strings.Join([]string{
	`{"name":"good","inputSchema":{"type":"object"},"outputSchema":` + weatherOut + `}`,
	`{"name":"notobject","inputSchema":{"type":"object"},"outputSchema":` + weatherOut + `}`,
	`{"name":"missing","inputSchema":{"type":"object"},"outputSchema":` + weatherOut + `}`,
	`{"name":"deep","inputSchema":{"type":"object"},"outputSchema":` + weatherOut + `}`,
	`{"name":"nostructured","inputSchema":{"type":"object"},"outputSchema":` + weatherOut + `}`,
	`{"name":"badschema","inputSchema":{"type":"object"},"outputSchema":{"type":"object","required":"humidity"}}`,
	`{"name":"fails","inputSchema":{"type":"object"},"outputSchema":` + weatherOut + `}`,
	`{"name":"hostile","inputSchema":{"type":"object"},"outputSchema":{"type":"object","required":["evil\u001b[2J\u001b]0;pwned\u0007\nline"]}}`,
	`{"name":"ask","inputSchema":{"type":"object"},"outputSchema":` + weatherOut + `}`,
	`{"name":"task","inputSchema":{"type":"object"},"outputSchema":` + weatherOut + `}`,
	`{"name":"drift","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"count":{"type":"{{COUNT}}"}},"required":["count"]}}`,
}, ",")

// outputTask is the task of tool task, as resultType says (task when it
// is created, complete for tasks/get).
func outputTask(resultType, status, extra string) string {
	return `{"resultType":"` + resultType + `","taskId":"task-outputs","status":"` + status + `","createdAt":"2026-01-01T00:00:00Z",` +
		`"lastUpdatedAt":"2026-01-01T00:00:00Z","ttlMs":null,"pollIntervalMs":100` + extra + `}`
}

func structured(sc string) string {
	return `{"content":[{"type":"text","text":"see structuredContent"}],"structuredContent":` + sc + `}`
}

var outputResults = map[string]string{
	"good":         structured(`{"z":1,"location":"SF","humidity":40,"big":9007199254740993,"forecast":[{"temp":1.50,"day":"mon"}]}`),
	"notobject":    structured(`["SF",40]`),
	"missing":      structured(`{"location":"SF"}`),
	"deep":         structured(`{"location":"SF","humidity":40,"forecast":[{"temp":1},{"temp":"warm"}]}`),
	"nostructured": `{"content":[{"type":"text","text":"SF, 40%"}]}`,
	"badschema":    structured(`{"humidity":"high"}`),
	"fails":        `{"content":[{"type":"text","text":"no weather today"}],"structuredContent":{"error":"down"},"isError":true}`,
	"hostile":      structured(`{}`),
	"drift":        structured(`{"count":3}`),
	"ask":          structured(`{"location":"SF","humidity":40,"forecast":[{"temp":1},{"temp":"warm"}]}`),
}
