package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Error codes the engine acts on.
const (
	CodeParseError                 = -32700
	CodeInvalidRequest             = -32600
	CodeMethodNotFound             = -32601
	CodeInvalidParams              = -32602
	CodeInternalError              = -32603
	CodeResourceNotFoundLegacy     = -32002
	CodeHeaderMismatch             = -32020
	CodeMissingClientCapability    = -32021
	CodeUnsupportedProtocolVersion = -32022
)

// RPCError is a JSON-RPC error answered by the server.
type RPCError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`

	// HTTPStatus is the status of the HTTP response that carried the
	// error, or 0 on stdio.
	HTTPStatus int `json:"-"`
}

func (e *RPCError) Error() string {
	return fmt.Sprintf("server error %d: %s", e.Code, oneLine(e.Message))
}

// ConnError is a failure to reach or keep talking to the server: spawn
// failures, refused connections, a server that died, a timeout.
type ConnError struct {
	Msg string
	Err error
	// Stderr holds the last lines the stdio server wrote to stderr, if any.
	Stderr []string
}

func (e *ConnError) Error() string {
	s := e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	if len(e.Stderr) > 0 {
		s += " (server stderr: " + strings.Join(e.Stderr, " | ") + ")"
	}
	return s
}

func (e *ConnError) Unwrap() error { return e.Err }

// TimeoutError is returned when a request gets no answer in time. Bound
// says which limit ended the wait, so that a caller can name the setting
// that raises it.
type TimeoutError struct {
	Method string
	After  string // the limit, as a duration (Limits.MaxTimeout for TimeoutMaxTotal)
	Bound  TimeoutBound
	// Total is how long the request waited in all, when progress
	// notifications kept it going (TimeoutSinceProgress, TimeoutMaxTotal).
	Total time.Duration
	// Stderr holds the last lines a stdio server wrote, if any.
	Stderr []string
	// During is what the request was waiting for when the time ran out,
	// when it was not the server's answer (an authorization step), or "".
	During string
}

// authCut is an authorization the request's context ended: the context's
// error, with what the authorization was doing then.
type authCut struct {
	cause, err error
}

func (e *authCut) Error() string { return e.cause.Error() }
func (e *authCut) Unwrap() error { return e.cause }

// TimeoutBound is the limit a request ran into.
type TimeoutBound int

const (
	// TimeoutRequest is Options.Timeout, which bounds each request.
	TimeoutRequest TimeoutBound = iota
	// TimeoutSinceProgress is Options.Timeout counted from the request's
	// last progress notification, which starts it again.
	TimeoutSinceProgress
	// TimeoutMaxTotal is Limits.MaxTimeout, how far progress may extend
	// Options.Timeout in all.
	TimeoutMaxTotal
	// TimeoutProbe is Options.ProbeTimeout, which bounds the era probe
	// when it is the shorter.
	TimeoutProbe
)

func (e *TimeoutError) Error() string { return e.Method + " " + e.short() }

// Reason is the message without the server's stderr: the phrase that says
// what timed out and after how long.
func (e *TimeoutError) Reason() string { return e.Method + " " + e.reason() }

func (e *TimeoutError) reason() string {
	total := e.Total.Round(100 * time.Millisecond).String()
	switch e.Bound {
	case TimeoutSinceProgress:
		return fmt.Sprintf("timed out %s after its last progress notification, %s in all", e.After, total)
	case TimeoutMaxTotal:
		return fmt.Sprintf("timed out after %s in all, as far as progress may extend the timeout", e.After)
	}
	if e.During != "" {
		return "timed out after " + e.After + " while authorizing: " + e.During
	}
	return "timed out after " + e.After
}

// short is the message without the method, for an error that names it
// already (EraError).
func (e *TimeoutError) short() string {
	s := e.reason()
	if len(e.Stderr) > 0 {
		s += " (server stderr: " + strings.Join(e.Stderr, " | ") + ")"
	}
	return s
}

// ProtocolError means the server broke the protocol: invalid JSON, an
// unknown response id, an unknown resultType.
type ProtocolError struct{ Msg string }

func (e *ProtocolError) Error() string { return "protocol error: " + e.Msg }

// HTTPError is an HTTP failure status whose body was not a JSON-RPC error.
type HTTPError struct {
	Status     int
	StatusText string
	Body       string
	// Header is kept so callers can explain WWW-Authenticate and similar.
	Header map[string][]string
	// Retry says why a 429 or 503 that carried Retry-After was not (or
	// no longer) retried; nil when it carried none.
	Retry *RetryRefusal
}

func (e *HTTPError) Error() string {
	retry := ""
	if e.Retry != nil {
		retry = e.Retry.String()
	}
	return e.Describe(retry)
}

// Describe is the error's message with retry in place of what Retry says
// (RetryRefusal.String), so that a caller can say why a request was not
// sent again in its own words: which requests it retries, how long it
// waits.
func (e *HTTPError) Describe(retry string) string {
	s := fmt.Sprintf("HTTP %d %s", e.Status, e.StatusText)
	if loc := e.Location(); loc != "" {
		s += " to " + loc
	}
	if retry != "" {
		s += " (" + retry + ")"
	}
	if b := e.BodySummary(); b != "" {
		s += ": " + b
	}
	return s
}

// BodySummary is what the error says of the body: an HTML page's title
// and first line of text, other bodies on one line, bounded either way.
func (e *HTTPError) BodySummary() string {
	ct := ""
	if e.Header != nil {
		if v := e.Header["Content-Type"]; len(v) > 0 {
			ct = v[0]
		}
	}
	return bodySummary(e.Body, ct)
}

// Location is where a redirect (3xx) points, which mcpctl never follows.
func (e *HTTPError) Location() string {
	if e.Status < 300 || e.Status >= 400 || e.Header == nil {
		return ""
	}
	if loc := e.Header["Location"]; len(loc) > 0 {
		return loc[0]
	}
	return ""
}

// AuthError is an authentication or authorization refusal (401/403).
type AuthError struct {
	Status          int
	WWWAuthenticate string
	Err             error
}

func (e *AuthError) Error() string {
	s := fmt.Sprintf("HTTP %d: the server refused the credentials", e.Status)
	if e.Status == 401 {
		s = "HTTP 401: the server requires authentication"
	}
	if e.Status == 0 {
		s = "authorization failed"
	}
	if e.WWWAuthenticate != "" {
		s += " (WWW-Authenticate: " + oneLine(e.WWWAuthenticate) + ")"
	}
	if e.Err != nil {
		s += ": " + oneLine(e.Err.Error())
	}
	return s
}

func (e *AuthError) Unwrap() error { return e.Err }

// VersionError means the server and this client share no protocol
// version.
type VersionError struct {
	Ours, Theirs []string
	// Said is what the server answered when it named no version at all
	// (Theirs empty): an initialize result without protocolVersion, a
	// refusal without a list of versions.
	Said string
}

func (e *VersionError) Error() string { return e.Describe("this client") }

// Describe is the message with us naming the client.
func (e *VersionError) Describe(us string) string {
	var named []string
	for _, v := range e.Theirs {
		if v != "" {
			named = append(named, v)
		}
	}
	theirs := "the server supports " + strings.Join(named, ", ")
	if len(named) == 0 {
		theirs = "the server named no version"
		if e.Said != "" {
			theirs += " (it answered " + e.Said + ")"
		}
	}
	return fmt.Sprintf("no protocol version in common: %s, %s speaks %s", theirs, us, strings.Join(e.Ours, ", "))
}

// NotServerError means what the client reached is no MCP server: it sent
// the client's own request back (cat), or at first contact it answered
// nothing within the era probe's bound (Options.ProbeTimeout, or Timeout
// when shorter). It wraps the *ProtocolError of an echo.
type NotServerError struct {
	// Server names the server as the caller knows it (a command line, a
	// URL), for the message; the client knows it by no such name, so a
	// caller may set it. "" leaves it unnamed.
	Server string
	// Echo: the server sent back the request Method it was sent.
	Echo   bool
	Method string
	// Asked are the requests that went unanswered for After, the bound
	// that ended the wait (Bound). Unread: a stdio server had not even
	// read them from its input.
	Asked  []string
	After  string
	Bound  TimeoutBound
	Unread bool
	// Stderr holds the last lines a stdio server wrote, if any.
	Stderr []string
}

func (e *NotServerError) Error() string {
	s := e.Reason()
	if len(e.Stderr) > 0 {
		s += " (server stderr: " + strings.Join(e.Stderr, " | ") + ")"
	}
	return s
}

// Reason is the message without the server's stderr.
func (e *NotServerError) Reason() string {
	s := "not an MCP server: "
	if e.Server != "" {
		s = strconv.Quote(e.Server) + " is " + s
	}
	switch {
	case e.Echo:
		s += "it sends back what it is sent (its answer to " + e.Method + " was the request itself)"
	case e.Unread:
		s += "in " + e.After + " it neither read its input nor wrote anything"
	case len(e.Asked) == 1:
		s += "it answered nothing to " + e.Asked[0] + " in " + e.After
	default:
		s += "it answered neither " + strings.Join(e.Asked, " nor ") + " in " + e.After
	}
	return s
}

// Unwrap makes an echo a *ProtocolError too, which it is: a transport
// gives the connection up.
func (e *NotServerError) Unwrap() error {
	if !e.Echo {
		return nil
	}
	return &ProtocolError{Msg: "the server sent back the request " + e.Method + " as its own"}
}

// ResponseIDError is a response whose id matches no request: one this
// connection never sent (Sent is 0), or, on a request's own HTTP
// response, another than the request's (Sent). It is a *ProtocolError
// too.
type ResponseIDError struct {
	ID   json.RawMessage // as the server sent it
	Sent int64
}

func (e *ResponseIDError) Error() string { return e.Unwrap().Error() }

// Unwrap makes it a *ProtocolError, which it is.
func (e *ResponseIDError) Unwrap() error {
	if e.Sent == 0 {
		return &ProtocolError{Msg: "the server answered a request id that was never sent: " + e.ShownID()}
	}
	return &ProtocolError{Msg: fmt.Sprintf("the server answered request id %s, but the request had id %d", e.ShownID(), e.Sent)}
}

// ShownID is the id the server answered, quoted and bounded for a message.
func (e *ResponseIDError) ShownID() string { return snippet(e.ID) }

// ErrDryRun is returned by transports in dry-run mode after they reported
// what they would have sent.
var ErrDryRun = errors.New("dry run: nothing sent")

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// truncate bounds s to n bytes without splitting a character.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// MessageTooLargeError means the server sent a message larger than the
// transport accepts (StdioOptions.MaxLine, HTTPOptions.MaxMessage); the
// connection is given up rather than memory.
type MessageTooLargeError struct{ Limit int }

func (e *MessageTooLargeError) Error() string { return e.Unwrap().Error() }

// Unwrap makes it a *ProtocolError too, which it is.
func (e *MessageTooLargeError) Unwrap() error {
	return &ProtocolError{Msg: "the server sent a message larger than " + formatSize(int64(e.Limit))}
}

// formatSize writes a byte count the way people read it: "64 MiB" when it
// is a whole number of KiB, MiB or GiB, else "1500000 bytes".
func formatSize(n int64) string {
	for _, u := range []struct {
		name string
		size int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d %s", n/u.size, u.name)
		}
	}
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}
