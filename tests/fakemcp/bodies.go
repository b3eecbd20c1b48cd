package fakemcp

// Issue 13, item 6: HTTP answers that do not say how long they are. Every
// request (but the era probe) is answered with a message whose text is N
// bytes long, with no Content-Length, written as it is generated so that
// the server itself stays small however large N is:
//
//	chunked:N          a JSON body, sent chunked
//	gzipbomb:N         a JSON body with Content-Encoding: gzip: N bytes of
//	                   JSON in about N/1000 on the wire
//	gzipbomb:N:sse     the same as an event stream (one event)

import (
	"bufio"
	"compress/gzip"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// bodyFault plays the modes above; it reports whether it answered.
func (s *server) bodyFault(w http.ResponseWriter, req request) bool {
	mode, arg, _ := strings.Cut(s.mode, ":")
	if mode != "chunked" && mode != "gzipbomb" {
		return false
	}
	sizeStr, framing, _ := strings.Cut(arg, ":")
	n, _ := strconv.Atoi(sizeStr)
	s.count(req.Method)
	msg := result(req.ID, `{"content":[{"type":"text","text":"@"}]}`)
	w.Header().Set("Content-Type", "application/json")
	if framing == "sse" {
		w.Header().Set("Content-Type", "text/event-stream")
		msg = "data: " + msg + "\n\n"
	}
	var out io.Writer = w
	if mode == "gzipbomb" {
		w.Header().Set("Content-Encoding", "gzip")
		gz, _ := gzip.NewWriterLevel(w, gzip.BestCompression)
		defer gz.Close()
		out = gz
	}
	w.WriteHeader(http.StatusOK)
	head, tail, _ := strings.Cut(msg, "@")
	bw := bufio.NewWriterSize(out, 64<<10)
	bw.WriteString(head)
	chunk := strings.Repeat("x", 64<<10)
	for left := n; left > 0; left -= len(chunk) {
		if _, err := bw.WriteString(chunk[:min(left, len(chunk))]); err != nil {
			return true // the client gave up, as it should
		}
	}
	bw.WriteString(tail)
	bw.Flush()
	return true
}
