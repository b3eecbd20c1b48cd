package oauth

// Communication security (2026-07-28 basic/authorization, security
// considerations; the same words in 2025-11-25): "All authorization
// server endpoints MUST be served over HTTPS." Every OAuth URL this
// package would send something to is checked before anything is sent:
// https, or plain http only to a loopback host, where nothing crosses a
// network (the tests' and the conformance suite's servers, a local
// development authorization server). The checks are on the URLs as
// written, so a refusal never costs a DNS lookup or a connection.

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/mcpctl/mcpctl/client"
)

// ErrNotHTTPS is wrapped by every refusal of a plain-HTTP OAuth URL; the
// refusal's message says what and where.
var ErrNotHTTPS = errors.New("a plain-HTTP OAuth endpoint on a host that is not loopback")

// loopbackHost reports whether host (no port) is the name "localhost"
// or an IP literal in 127.0.0.0/8 or ::1. Nothing else counts, not even
// names under .localhost or ones that happen to resolve to loopback: the
// check is on the URL as written, and a name is only as local as the
// resolver says (RFC 8252 §8.3), so only the name every resolver keeps
// local passes, as the spec's "localhost" redirect URIs do.
func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// plainHTTP reports whether rawURL is an http URL to a host that is not
// loopback: one that must not carry OAuth traffic. Other schemes are left
// to the checks that want http(s) at all.
func plainHTTP(rawURL string) bool {
	u, err := url.Parse(rawURL)
	return err == nil && strings.EqualFold(u.Scheme, "http") && u.Host != "" && !loopbackHost(u.Hostname())
}

// sameOrigin reports whether a and b have the same scheme, host and port.
func sameOrigin(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	return err1 == nil && err2 == nil && strings.EqualFold(ua.Scheme, ub.Scheme) && strings.EqualFold(ua.Host, ub.Host)
}

// notHTTPS is the refusal of value, found in field of doc (at docURL);
// more, if any, is the way out.
func notHTTPS(doc, docURL, field, value, more string) *Error {
	msg := fmt.Sprintf("%q is plain HTTP to a host that is not loopback; OAuth endpoints must use https "+
		"(plain http only to localhost, 127.0.0.0/8 or ::1), and nothing was sent there", client.RedactURL(value))
	if more != "" {
		msg += "; " + more
	}
	return &Error{Doc: doc, URL: docURL, Field: field, Msg: msg, Err: ErrNotHTTPS}
}
