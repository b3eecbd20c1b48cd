package fakemcp

// Issue 25, item 4: tool results with binary content, for --out and for
// text at a terminal.
//
//	binaries   tools/call answers by the tool's name:
//	           one      an image, and structuredContent repeating it (as
//	                    server-filesystem's read_media_file does)
//	           several  text, an image, audio, a resource link, and an
//	                    embedded blob of a MIME type nobody knows whose
//	                    uri and name climb out of any folder
//	           oddmime  an image whose MIME type is a path with escapes
//	           none     text only

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
)

// The binaries mode's contents, decoded: text, so that a script can hold
// them (tests/testdata/script/tools_out.txtar), though not ASCII.
var (
	BinaryPNG  = []byte("«image» from fakemcp binaries, long enough to be seen in base64\n")
	BinaryWAV  = []byte("«audio» from fakemcp binaries\n")
	BinaryBlob = []byte("«blob» from fakemcp binaries\n")
)

// B64 is data as a tool result carries it.
func B64(data []byte) string { return base64.StdEncoding.EncodeToString(data) }

const binaryTools = `{"tools":[` +
	`{"name":"one","inputSchema":{"type":"object"}},{"name":"several","inputSchema":{"type":"object"}},` +
	`{"name":"oddmime","inputSchema":{"type":"object"}},{"name":"none","inputSchema":{"type":"object"}}]}`

// BinaryResult is the binaries mode's result for a tool.
func BinaryResult(tool string) string {
	png, wav, blob := strconv.Quote(B64(BinaryPNG)), strconv.Quote(B64(BinaryWAV)), strconv.Quote(B64(BinaryBlob))
	image := `{"type":"image","data":` + png + `,"mimeType":"image/png"}`
	switch tool {
	case "one":
		return `{"content":[` + image + `],"structuredContent":{"content":[` + image + `]}}`
	case "several":
		return `{"content":[{"type":"text","text":"three files"},` + image + `,` +
			`{"type":"audio","data":` + wav + `,"mimeType":"audio/wav"},` +
			`{"type":"resource_link","uri":"file:///../../../tmp/mcpctl-escaped-link","name":"../../escaped-link.txt"},` +
			`{"type":"resource","resource":{"uri":"file:///../../../tmp/mcpctl-escaped","name":"../../escaped.bin","mimeType":"application/x-mcpctl-unknown","blob":` + blob + `}}],` +
			`"structuredContent":{"files":3}}`
	case "oddmime":
		return `{"content":[{"type":"image","data":` + png + `,"mimeType":"image/../../../tmp/mcpctl-escaped\u001b]0;title\u0007"}]}`
	}
	return `{"content":[{"type":"text","text":"no pictures today"}]}`
}

func (s *server) binaries(req request) (reply, bool) {
	if s.mode != "binaries" {
		return reply{}, false
	}
	switch req.Method {
	case "tools/list":
		return reply{exit: -1, messages: []string{result(req.ID, binaryTools)}}, true
	case "tools/call":
		var p struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(req.Params, &p)
		return reply{exit: -1, messages: []string{result(req.ID, BinaryResult(p.Name))}}, true
	}
	return s.echo(req), true
}
