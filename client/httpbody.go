package client

import (
	"html"
	"mime"
	"strings"
)

// maxBodySummary bounds what an error quotes of a failure body: enough for
// a page's title or a proxy's one-line excuse, never the page itself.
const maxBodySummary = 160

// bodySummary is what an error says of a failure body: for an HTML page
// (a wrong path answered by a web server or a proxy) its title and first
// line of text, not the markup; for anything else the body on one line.
// Either way bounded; the whole body is in the trace.
func bodySummary(body, contentType string) string {
	b := strings.TrimSpace(body)
	if b == "" {
		return ""
	}
	if !isHTML(b, contentType) {
		return oneLine(truncate(b, 200))
	}
	title := oneLine(html.UnescapeString(stripTags(between(b, "<title", "</title>"))))
	text := firstTextLine(afterTag(b, "<body"))
	if text == "" && title == "" {
		text = firstTextLine(b)
	}
	s := title
	switch {
	case s == "":
		s = text
	case text != "" && !strings.Contains(strings.ToLower(title), strings.ToLower(text)):
		// Express says "Error" in the title and what went wrong in the
		// body ("Cannot POST /api"); nginx and Apache repeat the title.
		s += ": " + text
	}
	if s == "" {
		return "an HTML page"
	}
	return truncate(s, maxBodySummary)
}

// isHTML reports whether a body is a web page, by its Content-Type or,
// when a server did not say, by how it begins.
func isHTML(body, contentType string) bool {
	if mt, _, err := mime.ParseMediaType(contentType); err == nil && (mt == "text/html" || mt == "application/xhtml+xml") {
		return true
	}
	head := strings.ToLower(body[:min(len(body), 64)])
	return strings.HasPrefix(head, "<!doctype html") || strings.HasPrefix(head, "<html") || strings.HasPrefix(head, "<?xml") && strings.Contains(strings.ToLower(body[:min(len(body), 512)]), "<html")
}

// between is the text after the tag that opens with open (up to its '>')
// and before close, both matched without regard to case; "" without them.
func between(s, open, close string) string {
	rest := afterTag(s, open)
	if rest == "" {
		return ""
	}
	if i := strings.Index(strings.ToLower(rest), close); i >= 0 {
		return rest[:i]
	}
	return ""
}

// afterTag is s after the first tag opening with open, "" without one.
func afterTag(s, open string) string {
	i := strings.Index(strings.ToLower(s), open)
	if i < 0 {
		return ""
	}
	j := strings.IndexByte(s[i:], '>')
	if j < 0 {
		return ""
	}
	return s[i+j+1:]
}

// firstTextLine is the first non-empty line of a page's text: tags,
// scripts, styles and comments dropped, a block element ending a line,
// entities decoded.
func firstTextLine(page string) string {
	for _, line := range strings.Split(stripTags(page), "\n") {
		if l := oneLine(html.UnescapeString(line)); l != "" {
			return l
		}
	}
	return ""
}

// blockTags end a line of a page's text.
var blockTags = map[string]bool{
	"address": true, "article": true, "aside": true, "blockquote": true, "body": true, "br": true,
	"center": true, "dd": true, "div": true, "dl": true, "dt": true, "footer": true, "form": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "head": true,
	"header": true, "hr": true, "html": true, "li": true, "main": true, "nav": true, "ol": true,
	"p": true, "pre": true, "section": true, "table": true, "td": true, "th": true, "title": true,
	"tr": true, "ul": true,
}

// stripTags is a page's text: each tag dropped, a block tag turned into a
// line break, and what script, style and comments hold dropped with them.
// A tag left open at the end drops the rest.
func stripTags(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		s = s[i:]
		if strings.HasPrefix(s, "<!--") {
			end := strings.Index(s, "-->")
			if end < 0 {
				return b.String()
			}
			s = s[end+3:]
			continue
		}
		end := strings.IndexByte(s, '>')
		if end < 0 {
			return b.String()
		}
		inside := s[1:end]
		name := tagName(inside)
		s = s[end+1:]
		if (name == "script" || name == "style") && !strings.HasPrefix(inside, "/") {
			closing := strings.Index(strings.ToLower(s), "</"+name)
			if closing < 0 {
				return b.String()
			}
			s = s[closing:]
			continue
		}
		if blockTags[name] {
			b.WriteByte('\n')
		}
	}
}

// tagName is the lower-case name of the tag whose inside is t ("/p",
// "div class=x", "br/").
func tagName(t string) string {
	t = strings.TrimPrefix(t, "/")
	end := strings.IndexAny(t, " \t\r\n/")
	if end >= 0 {
		t = t[:end]
	}
	return strings.ToLower(t)
}
