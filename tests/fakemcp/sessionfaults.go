package fakemcp

// Issue 24, items 6 and 8: servers that try what a session holds for its
// callers, and how it ends.
//
//	legacyflood               a legacy server whose tool "flood" (arguments
//	                          count and size) sends count
//	                          notifications/resources/updated of size bytes
//	                          each, as fast as they are read, then answers
//	legacyendlesspages:BYTES  a legacy server (tools listChanged) whose
//	                          tools/list pages never end, each with one tool
//	                          of BYTES and a nextCursor no other listing
//	                          uses
//	deaf                      ignores SIGTERM and the end of its input,
//	                          writes nothing once its input ended, and
//	                          starts no child: only SIGKILL ends it (stdio)

import (
	"encoding/json"
	"fmt"
	"io"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// sessionFaultReply serves the legacy modes above; ok is false for others.
func (l *legacySession) sessionFaultReply(req request, send func(string)) (string, bool) {
	mode, arg, _ := strings.Cut(l.srv.mode, ":")
	switch {
	case mode == "legacyflood" && req.Method == "tools/call":
		var p struct {
			Name      string `json:"name"`
			Arguments struct {
				Count int `json:"count"`
				Size  int `json:"size"`
			} `json:"arguments"`
		}
		_ = json.Unmarshal(req.Params, &p)
		if p.Name != "flood" {
			return "", false
		}
		line := `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"fake://note","pad":"` + strings.Repeat("x", p.Arguments.Size) + `"}}`
		for range p.Arguments.Count {
			send(line)
		}
		l.logf("fakemcp: flooded %d notifications of %d bytes", p.Arguments.Count, p.Arguments.Size)
		return result(req.ID, textContent("flooded")), true
	case mode == "legacyendlesspages" && req.Method == "tools/list":
		var p struct {
			Cursor string `json:"cursor"`
		}
		_ = json.Unmarshal(req.Params, &p)
		listing, page := "", 0
		if before, after, ok := strings.Cut(p.Cursor, "-p"); ok {
			listing = before
			page, _ = strconv.Atoi(after)
		} else {
			listing = "L" + strconv.Itoa(l.srv.count("fake/listing"))
		}
		size, _ := strconv.Atoi(arg)
		return result(req.ID, fmt.Sprintf(`{"tools":[%s],"nextCursor":"%s-p%d"}`, pageItem("tools", page, strings.Repeat("x", size)), listing, page+1)), true
	}
	return "", false
}

// serveDeaf plays deaf: it answers like echo until its input ends, then
// lingers, deaf to SIGTERM, and to SIGPIPE should it write where nobody
// reads any more (it writes nothing more).
func serveDeaf(in io.Reader, out, errOut io.Writer) int {
	signal.Ignore(syscall.SIGTERM, syscall.SIGPIPE)
	serveLines(in, out, errOut, newServer("echo"))
	time.Sleep(60 * time.Second)
	return 0
}
