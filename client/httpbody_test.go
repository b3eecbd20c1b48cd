package client

import (
	"strings"
	"testing"
)

// A failure body is summed up in a line: a page by its title and first
// text, never its markup; anything else on one line; bounded either way.
func TestBodySummary(t *testing.T) {
	for _, c := range []struct {
		name, body, contentType, want string
	}{
		{"nginx", "<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n", "text/html", "404 Not Found"},
		{"apache", "<!DOCTYPE HTML PUBLIC \"-//IETF//DTD HTML 2.0//EN\">\n<html><head>\n<title>404 Not Found</title>\n</head><body>\n<h1>Not Found</h1>\n<p>The requested URL was not found on this server.</p>\n</body></html>\n", "", "404 Not Found"},
		{"express", "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot POST /api</pre>\n</body>\n</html>\n", "text/html; charset=utf-8", "Error: Cannot POST /api"},
		{"no title", "<html><body><!-- <p>hidden</p> --><script>var x = '<p>no</p>';</script><div>\n  Service <b>moved</b> &amp; gone\n</div></body></html>", "text/html", "Service moved & gone"},
		{"no body tag", "<p>Gateway &lt;upstream&gt; timeout</p>", "text/html", "Gateway <upstream> timeout"},
		{"empty page", "<html><head></head><body></body></html>", "text/html", "an HTML page"},
		{"unclosed tag", "<html><body>Oops <a href=", "text/html", "Oops"},
		{"plain text", "404 page not found\n", "text/plain", "404 page not found"},
		{"plain lines", "upstream trouble:\n  try later\n", "", "upstream trouble: try later"},
		{"empty", "  \n", "text/html", ""},
	} {
		if got := bodySummary(c.body, c.contentType); got != c.want {
			t.Errorf("%s: bodySummary = %q, want %q", c.name, got, c.want)
		}
	}
	long := "<html><head><title>" + strings.Repeat("é", 200) + "</title></head></html>"
	got := bodySummary(long, "text/html")
	if len(got) > maxBodySummary+len("…") || !strings.HasSuffix(got, "…") || !strings.HasPrefix(got, "éé") || strings.ContainsRune(got, '\uFFFD') {
		t.Errorf("a long title is not bounded whole characters: %q (%d bytes)", got, len(got))
	}
}

// The same status to the POST and the GET of a fallback is said once.
func TestBothFailedSaysTheStatusOnce(t *testing.T) {
	page := func(method string) *HTTPError {
		return &HTTPError{Status: 404, StatusText: "Not Found", Body: "<html><head><title>Error</title></head><body><pre>Cannot " + method + " /api</pre></body></html>",
			Header: map[string][]string{"Content-Type": {"text/html"}}}
	}
	got := bothFailed(page("POST"), &ConnError{Msg: "GET http://127.0.0.1:1/api (HTTP+SSE) failed", Err: page("GET")}).Error()
	if want := "initialize failed over Streamable HTTP and over HTTP+SSE alike: HTTP 404 Not Found: Error: Cannot POST /api"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	got = bothFailed(&HTTPError{Status: 405, StatusText: "Method Not Allowed"}, &ConnError{Msg: "GET x (HTTP+SSE) failed", Err: &HTTPError{Status: 404, StatusText: "Not Found"}}).Error()
	if want := "initialize over Streamable HTTP failed (HTTP 405 Method Not Allowed), and over HTTP+SSE too: GET x (HTTP+SSE) failed: HTTP 404 Not Found"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
