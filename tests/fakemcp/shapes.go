package fakemcp

// Mode "shapes" (issue 25, item 5): tools shaped like those of the
// reference servers where mcpctl's words did not match the problem.
//
//   - think (server-sequential-thinking): integers with a minimum, and a
//     nested one with a minimum and a maximum (opts[scale]), so that a
//     key=value number out of bounds is reported by its bound;
//   - edit_file (server-filesystem): an array of objects whose fields have
//     bounds, a pattern, an enum and a default, for tools describe;
//   - query (server-postgres): answers the rows of a query as the text of
//     its one content item, a JSON array of objects, as server-postgres
//     does (JSON.stringify(rows, null, 2), isError false), for -o table.
//
// think and edit_file echo what they were sent.

import "encoding/json"

const shapesTools = `{"tools":[` +
	`{"name":"think","description":"One step of a line of thought","inputSchema":{"type":"object","properties":{` +
	`"thought":{"type":"string","description":"Your current thinking step"},` +
	`"nextThoughtNeeded":{"type":"boolean"},` +
	`"thoughtNumber":{"type":"integer","minimum":1},` +
	`"totalThoughts":{"type":"integer","minimum":1,"description":"Estimated total thoughts needed"},` +
	`"opts":{"type":"object","properties":{"scale":{"type":"integer","minimum":1,"maximum":10,"default":5}},"additionalProperties":false}},` +
	`"required":["thought","nextThoughtNeeded","thoughtNumber","totalThoughts"]}},` +
	`{"name":"edit_file","description":"Make line-based edits to a text file","inputSchema":{"type":"object","properties":{` +
	`"path":{"type":"string","minLength":1,"pattern":"^[^*?]+$"},` +
	`"edits":{"type":"array","minItems":1,"maxItems":50,"description":"The edits, applied in order","items":{"type":"object","properties":{` +
	`"oldText":{"type":"string","minLength":1,"description":"Text to search for: must match exactly"},` +
	`"newText":{"type":"string","maxLength":10000,"description":"Text to replace with"},` +
	`"match":{"type":"string","enum":["exact","whitespace"],"default":"exact"},` +
	`"line":{"type":"integer","minimum":1,"exclusiveMaximum":1000000}},` +
	`"required":["oldText","newText"],"additionalProperties":false}},` +
	`"dryRun":{"type":"boolean","default":false,"description":"Preview the changes as a diff"}},` +
	`"required":["path","edits"],"additionalProperties":false}},` +
	`{"name":"query","description":"Run a read-only SQL query","inputSchema":{"type":"object","properties":{"sql":{"type":"string"}},"required":["sql"]}}` +
	`]}`

// shapesRows is what query answers: rows with a null, a nested value, a
// number past 2^53 and a column only the second row has.
const shapesRows = `[
  {
    "id": 1,
    "name": "Ada",
    "email": "ada@example.com",
    "tags": ["math", "poetry"],
    "manager_id": null
  },
  {
    "id": 9007199254740993,
    "name": "Grace",
    "email": null,
    "tags": [],
    "manager_id": 1,
    "note": "navy"
  }
]`

func (s *server) shapes(req request) reply {
	switch req.Method {
	case "tools/list":
		return reply{messages: []string{result(req.ID, shapesTools)}, exit: -1}
	case "tools/call":
		var p struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(req.Params, &p)
		if p.Name == "query" {
			text, _ := json.Marshal(shapesRows)
			return reply{messages: []string{result(req.ID, `{"content":[{"type":"text","text":`+string(text)+`}],"isError":false}`)}, exit: -1}
		}
	}
	return s.echo(req)
}
