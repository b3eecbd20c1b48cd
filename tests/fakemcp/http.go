package fakemcp

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"strings"
)

// Handler plays mode over Streamable HTTP. Besides the shared modes it
// knows HTTP-only ones: failure statuses with and without a JSON-RPC body,
// an HTML answer, an SSE stream with comments and notifications, and
// "headers", which echoes the request headers.
func Handler(mode string) http.Handler {
	if strings.HasPrefix(mode, "legacy") {
		return legacyHandler(mode)
	}
	if mode == "html404" {
		return http.HandlerFunc(notFoundPage)
	}
	s := newServer(mode)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/canary/") {
			s.count("canary") // a client fetched a network $ref: it must not
			writeJSON(w, r, 200, `{"type":"object"}`)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var req request
		_ = json.Unmarshal(body, &req)
		id := req.ID
		if len(id) == 0 {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		if req.Method == "server/discover" && answersDiscover(mode) {
			if mode == "slowdiscover" { // issue 25, item 1 (slowstart.go)
				slowDiscover(r)
			}
			writeJSON(w, r, 200, result(id, discoverResult))
			return
		}
		switch mode {
		case "http404json":
			writeJSON(w, r, 404, rpcError(id, -32601, "Method not found: "+req.Method, ""))
			return
		case "http404":
			http.NotFound(w, r)
			return
		case "http500json":
			writeJSON(w, r, 500, rpcError(id, -32603, "internal failure", ""))
			return
		case "http500":
			w.WriteHeader(500)
			return
		case "http401":
			w.Header().Set("WWW-Authenticate", `Bearer realm="fake", error="invalid_token"`)
			w.WriteHeader(401)
			return
		case "html":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<html>not an MCP server</html>")
			return
		case "headers":
			if req.Method == "tools/list" {
				writeJSON(w, r, 200, result(id, echoTools))
				return
			}
			writeJSON(w, r, 200, result(id, fmt.Sprintf(`{"headers":%s,"params":%s}`, headersJSON(r.Header), orNull(req.Params))))
			return
		case "sse":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, ": keep-alive\n\n")
			fmt.Fprint(w, "id: 1\r\ndata:\r\n\r\n")
			fmt.Fprint(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":5,\"total\":10}}\n\n")
			fmt.Fprint(w, ":\n\n")
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\n", id)
			fmt.Fprint(w, "data: \"result\":{\"content\":[{\"type\":\"text\",\"text\":\"streamed\"}]}}\n\n")
			return
		}
		if s.httpFault(w, r, req) {
			return
		}
		if mode == "echoauth" && echoAuth(w, r, req) { // issue 24, item 9 (hygiene.go)
			return
		}
		if s.bodyFault(w, req) { // issue 13, item 6
			return
		}
		rep := s.handle(req)
		switch {
		case rep.silent:
			if rep.hold {
				w.Header().Set("Content-Type", "text/event-stream")
				w.WriteHeader(200)
				w.(http.Flusher).Flush()
			}
			<-r.Context().Done()
		case rep.stream != nil:
			frame := func(m string) string { return "data: " + m + "\n\n" }
			w.Header().Set("Content-Type", "text/event-stream")
			for k, v := range rep.header {
				w.Header().Set(k, v)
			}
			if rep.header["Content-Type"] == "application/json" {
				frame = func(m string) string { return m }
			}
			rep.stream(w, frame)
			if rep.abort {
				// Cut the connection, as a server that dies mid-answer does.
				w.(http.Flusher).Flush()
				panic(http.ErrAbortHandler)
			}
		case rep.raw != "":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, rep.raw)
		default:
			status := rep.status
			if status == 0 {
				status = 200
			}
			if len(rep.messages) > 1 || rep.hold {
				w.Header().Set("Content-Type", "text/event-stream")
				w.WriteHeader(status)
				for _, m := range rep.messages {
					fmt.Fprintf(w, "data: %s\n\n", m)
				}
				if rep.hold {
					w.(http.Flusher).Flush()
					fmt.Fprint(w, ": keep-alive\n\n")
					w.(http.Flusher).Flush()
					<-r.Context().Done()
				}
				return
			}
			writeJSON(w, r, status, rep.messages[0])
		}
	})
}

func writeJSON(w http.ResponseWriter, r *http.Request, status int, body string) {
	body = strings.ReplaceAll(body, "{{HOST}}", r.Host)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprint(w, body)
}

func orNull(b []byte) string {
	if len(b) == 0 {
		return "null"
	}
	return string(b)
}

// headersJSON renders the MCP-related request headers, names lowercased
// and sorted, so tests can match them exactly.
func headersJSON(h http.Header) string {
	m := map[string]string{}
	for k, v := range h {
		lk := strings.ToLower(k)
		if strings.HasPrefix(lk, "mcp-") || lk == "accept" || lk == "content-type" || lk == "authorization" || strings.HasPrefix(lk, "x-") {
			m[lk] = strings.Join(v, ", ")
		}
	}
	b, _ := json.Marshal(m) // sorts the keys
	return string(b)
}

// notFoundPage is a web framework's 404 for a path that serves no MCP
// (mode html404): a page whose title says little and whose text names
// the method, so the POST of Streamable HTTP and the GET of HTTP+SSE get
// different pages with the same status.
func notFoundPage(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	fmt.Fprintf(w, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Error</title>\n"+
		"<style>\nbody { font-family: sans-serif }\n</style>\n</head>\n<body>\n<pre>Cannot %s %s</pre>\n</body>\n</html>\n",
		r.Method, html.EscapeString(r.URL.Path))
}
