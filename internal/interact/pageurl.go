package interact

// URL elicitation hands a server's URL to the user's browser, so the host
// the user is shown must be the host the browser loads. Browsers read a
// URL by the WHATWG rules, which are kinder than Go's net/url: they guess
// a host for "https:evil.example/login", take "\" for "/", drop tabs and
// newlines, read "0x7f.1" as 127.0.0.1 and map "ｅvil。example" to
// evil.example. Only a URL both read the same way is accepted: absolute,
// http or https, "//" and a host, no user name, nothing a browser would
// quietly rewrite. The browser is then handed mcpctl's own spelling of
// it, with the host in ASCII (punycode for an internationalised name),
// exactly as it was shown.

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// pageURL is a URL elicitation's target, checked.
type pageURL struct {
	open string // what the browser is given and the user is shown
	host string // the host the browser loads: ASCII, an IPv6 address in brackets
	// written is the host in Unicode, when that reads differently from
	// host (an internationalised name, or one a browser maps).
	written string
	idn     bool // host has punycode (xn--) labels
}

// hostLine is the host as the user is shown it, with a warning for an
// internationalised name (which can imitate another: "аpple" with a
// Cyrillic а).
func (p *pageURL) hostLine() string {
	switch {
	case p.idn:
		return p.host + " (" + p.written + ": an internationalised name, which can imitate another; check it letter by letter)"
	case p.written != "":
		return p.host + " (written " + p.written + ")"
	}
	return p.host
}

// parsePageURL checks a URL elicitation's url; the error says why it is
// refused.
func parsePageURL(raw string) (*pageURL, error) {
	for _, r := range raw {
		switch {
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			return nil, fmt.Errorf("it contains control characters")
		case unicode.IsSpace(r):
			return nil, fmt.Errorf("it contains spaces")
		case unicode.Is(unicode.Cf, r):
			return nil, fmt.Errorf("it contains invisible formatting characters (%U)", r)
		case r == '\\':
			return nil, fmt.Errorf(`it contains a backslash, which browsers read as "/"`)
		case r == utf8.RuneError:
			return nil, fmt.Errorf("it is not valid UTF-8")
		}
	}
	scheme, rest, hasScheme := strings.Cut(raw, ":")
	if !hasScheme || scheme == "" || strings.ContainsAny(scheme, "/?#") {
		return nil, fmt.Errorf("it is not an absolute URL (mcpctl opens only http:// and https:// URLs)")
	}
	if s := strings.ToLower(scheme); s != "http" && s != "https" {
		return nil, fmt.Errorf("its scheme is %s, and mcpctl opens only http:// and https:// URLs", quoteShort(scheme))
	}
	if !strings.HasPrefix(rest, "//") {
		return nil, fmt.Errorf(`it has no "//" after "%s:", so it names no host (a browser would take one from what follows)`, strings.ToLower(scheme))
	}
	u, err := url.Parse(raw)
	if err != nil {
		if ue, ok := err.(*url.Error); ok {
			err = ue.Err
		}
		return nil, fmt.Errorf("it cannot be read as a URL: %v", err)
	}
	if u.User != nil {
		return nil, fmt.Errorf("it has a user name before \"@\", which can disguise the host (the host is %s)", quoteShort(u.Hostname()))
	}
	if u.Hostname() == "" {
		return nil, fmt.Errorf("it has no host")
	}
	p := &pageURL{}
	if err := p.setHost(u.Hostname()); err != nil {
		return nil, err
	}
	hostport := p.host
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n > 65535 {
			return nil, fmt.Errorf("its port %s is out of range", quoteShort(port))
		}
		hostport = net.JoinHostPort(strings.Trim(p.host, "[]"), port)
	}
	u.Scheme, u.Host = strings.ToLower(u.Scheme), hostport
	// A browser percent-encodes these in the query of an http(s) URL, as
	// net/url does in the path and fragment: doing it first means the URL
	// shown is all ASCII and is what the browser loads. A quote is
	// encoded wherever it is, so that none reaches a $BROWSER command
	// line (the two spellings mean the same to the page's server).
	u.RawQuery = escapeQuery(u.RawQuery)
	p.open = strings.ReplaceAll(u.String(), "'", "%27")
	return p, nil
}

// setHost finds the host a browser loads for the one written: IP
// addresses as such, names mapped and lower-cased as a browser does, each
// label of a non-ASCII name in punycode.
func (p *pageURL) setHost(h string) error {
	if strings.Contains(h, ":") { // net/url keeps the brackets' contents
		ip := net.ParseIP(h)
		if ip == nil || strings.Contains(h, "%") {
			return fmt.Errorf("its host %s is not an IPv6 address a browser accepts", quoteShort(h))
		}
		p.host = "[" + ip.String() + "]"
		return nil
	}
	// What UTS 46 does first: compatibility forms become the plain ones
	// (fullwidth letters, ideographic full stops), then lower case.
	mapped := strings.NewReplacer("\u3002", ".", "\uff0e", ".", "\uff61", ".").Replace(h)
	mapped = strings.ToLower(norm.NFKC.String(mapped))
	labels := strings.Split(mapped, ".")
	if ip, isNumber, err := whatwgIPv4(labels); isNumber {
		if err != nil {
			return fmt.Errorf("its host %s ends in a number but is no IPv4 address; browsers refuse it", quoteShort(h))
		}
		if ip != h {
			return fmt.Errorf("its host %s is an IP address in disguise (a browser loads %s)", quoteShort(h), ip)
		}
		p.host = ip
		return nil
	}
	ascii := make([]string, len(labels))
	shown := make([]string, len(labels))
	for i, l := range labels {
		if l == "" && (i < len(labels)-1 || i == 0) {
			return fmt.Errorf("its host %s has an empty label", quoteShort(h))
		}
		a, u, err := hostLabel(l)
		if err != nil {
			return fmt.Errorf("its host %s %v", quoteShort(h), err)
		}
		ascii[i], shown[i] = a, u
		if strings.HasPrefix(a, "xn--") {
			p.idn = true
		}
	}
	p.host = strings.Join(ascii, ".")
	if w := strings.Join(shown, "."); w != p.host {
		p.written = w
	} else if h != p.host && !strings.EqualFold(h, p.host) {
		p.written = h // mapped: fullwidth letters, other full stops
	}
	return nil
}

// hostLabel gives one label's ASCII form, and its Unicode form for the
// user; the error ends "its host … ".
func hostLabel(l string) (ascii, shown string, err error) {
	for _, r := range l {
		ok := r == '-' || r == '_' || ('a' <= r && r <= 'z') || ('0' <= r && r <= '9') ||
			(r >= 0x80 && (unicode.IsLetter(r) || unicode.IsMark(r) || unicode.Is(unicode.Nd, r)))
		if !ok {
			return "", "", fmt.Errorf("has characters a browser refuses or reads differently (%q)", r)
		}
	}
	if strings.HasPrefix(l, "xn--") {
		u, err := punyDecode(l[4:])
		if err != nil || u == "" {
			return "", "", fmt.Errorf("has an invalid punycode label (%s)", l)
		}
		if _, _, err := hostLabel(u); err != nil || isASCII(u) {
			return "", "", fmt.Errorf("has a punycode label that decodes to what no name may hold (%s)", l)
		}
		return l, u, nil
	}
	if isASCII(l) {
		return l, l, nil
	}
	return "xn--" + punyEncode(l), l, nil
}

func escapeQuery(q string) string {
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		switch c := q[i]; {
		case c >= 0x80 || c == '"' || c == '<' || c == '>':
			fmt.Fprintf(&b, "%%%02X", c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// whatwgIPv4 reads a host as a browser's IPv4 parser does: when its last
// label is a number (decimal, 0x hex or 0-led octal), the whole host is
// an address of up to four numbers, the last filling the remaining bytes.
// isNumber says whether the host is to be read so at all.
func whatwgIPv4(labels []string) (ip string, isNumber bool, err error) {
	if len(labels) > 1 && labels[len(labels)-1] == "" {
		labels = labels[:len(labels)-1]
	}
	last := labels[len(labels)-1]
	if _, ok := ipv4Number(last); !ok && strings.Trim(last, "0123456789") != "" {
		return "", false, nil
	}
	if len(labels) > 4 {
		return "", true, fmt.Errorf("too many parts")
	}
	var addr uint64
	for i, l := range labels {
		n, ok := ipv4Number(l)
		if !ok {
			return "", true, fmt.Errorf("not a number")
		}
		if i < len(labels)-1 {
			if n > 255 {
				return "", true, fmt.Errorf("out of range")
			}
			addr = addr<<8 | n
			continue
		}
		rest := uint(5 - len(labels))
		if n >= 1<<(8*rest) {
			return "", true, fmt.Errorf("out of range")
		}
		addr = addr<<(8*rest) | n
	}
	return fmt.Sprintf("%d.%d.%d.%d", addr>>24, addr>>16&255, addr>>8&255, addr&255), true, nil
}

func ipv4Number(s string) (uint64, bool) {
	base := 10
	switch {
	case s == "":
		return 0, false
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		s, base = s[2:], 16
		if s == "" {
			return 0, true
		}
	case len(s) > 1 && s[0] == '0':
		s, base = s[1:], 8
	}
	n, err := strconv.ParseUint(s, base, 64)
	if err != nil || n > 1<<32 {
		return 0, false
	}
	return n, true
}

// quoteShort quotes a server's text for a message: escapes visible, at
// most 120 characters.
func quoteShort(s string) string {
	if r := []rune(s); len(r) > 120 {
		s = string(r[:120]) + "…"
	}
	return strconv.Quote(s)
}
