package commands

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/oauth"
	"github.com/mcpctl/mcpctl/client/schema"
	"github.com/mcpctl/mcpctl/internal/argv"
)

// inOurWords is err's message as mcpctl says it. The client library names
// no flag and no program: where a way out depends on how it is called,
// its errors carry typed fields instead (the limit that was hit, what a
// login needs, the id the server answered), and here each such part of
// the message is put in mcpctl's words: the flag to raise, the command to
// run. Every replacement is of a phrase the typed error itself made, so
// nothing a server said is touched.
func inOurWords(err error) string {
	msg := err.Error()
	for _, p := range ourPhrases(err) {
		msg = strings.Replace(msg, p.lib, p.ours, 1)
	}
	return msg
}

type phrase struct{ lib, ours string }

func ourPhrases(err error) []phrase {
	var out []phrase
	var (
		rid     *client.ResponseIDError
		httpErr *client.HTTPError
		version *client.VersionError
		invalid *client.InvalidToolError
		input   *client.InputRequiredError
		unknown *client.UnknownToolError
		authE   *oauth.Error
		era     *client.EraError
		timeout *client.TimeoutError
		ack     *client.AckTimeoutError
		task    *client.TaskInterruptedError
	)
	if errors.As(err, &rid) {
		if rid.Sent == 0 {
			out = append(out, phrase{"a request id that was never sent: ", "a request id mcpctl never sent: "})
		} else {
			out = append(out, phrase{fmt.Sprintf(", but the request had id %d", rid.Sent), fmt.Sprintf(", but mcpctl sent id %d", rid.Sent)})
		}
	}
	if errors.As(err, &httpErr) && httpErr.Retry != nil {
		out = append(out, phrase{httpErr.Retry.String(), retryWords(httpErr.Retry)})
	}
	if errors.As(err, &version) {
		out = append(out, phrase{", this client speaks ", ", mcpctl speaks "})
	}
	if errors.As(err, &invalid) {
		out = append(out, phrase{", so it is not called: ", ", so mcpctl will not call it: "})
	}
	if errors.As(err, &input) && input.RoundLimit > 0 && input.Reason != "" {
		out = append(out, phrase{input.Reason, input.Reason + " (--max-rounds)"})
	}
	if errors.As(err, &unknown) {
		out = append(out, phrase{unknown.Error(), unknownToolWords(unknown)})
	}
	switch {
	case errors.As(err, &task):
		// taskHint says that --timeout ended the wait.
	case errors.As(err, &era):
		if flag := eraTimeoutFlag(era); flag != "" {
			out = append(out, phrase{"; is it an MCP server?", "; is it an MCP server? (a slow one needs a larger " + flag + ")"})
		}
	case errors.As(err, &timeout):
		out = append(out, phrase{timeout.Reason(), timeout.Reason() + " (raise it with " + timeoutFlag(timeout.Bound) + ")"})
	case errors.As(err, &ack):
		// Listen's acknowledgment waits as long as a request may.
		out = append(out, phrase{ack.Error(), ack.Error() + " (raise it with --timeout)"})
	}
	if errors.As(err, &authE) && authE.Needs != "" {
		out = append(out, phrase{authE.Msg, authWords(authE)})
	}
	return out
}

// timeoutFlag is the flag that sets the limit a request ran into.
func timeoutFlag(b client.TimeoutBound) string {
	switch b {
	case client.TimeoutMaxTotal:
		return "--max-timeout"
	case client.TimeoutProbe:
		return "--probe-timeout"
	}
	return "--timeout"
}

// eraTimeoutFlag is the flag to raise when the era probe, initialize or
// both went unanswered: initialize's limit when it timed out (a server
// that answers neither in that long may be slow, or no MCP server),
// else the probe's.
func eraTimeoutFlag(e *client.EraError) string {
	var te *client.TimeoutError
	switch {
	case errors.As(e.Initialize, &te), errors.As(e.Probe, &te):
		return timeoutFlag(te.Bound)
	}
	return ""
}

// retryWords says why mcpctl did not send a request again.
func retryWords(r *client.RetryRefusal) string {
	secs := func(d time.Duration) string {
		return strconv.FormatInt(int64(d.Round(time.Second)/time.Second), 10) + "s"
	}
	switch r.Reason {
	case client.RetryNotIdempotent:
		return "the server asks to retry after " + secs(r.After) + "; mcpctl retries only list requests"
	case client.RetryTooLong:
		return "the server asks to retry after " + secs(r.After) + "; mcpctl waits at most " + secs(r.MaxWait)
	}
	return r.String()
}

// unknownToolWords suggests the closest names the server offers. A name
// with anything in it but printable characters is quoted, escapes and
// all, so that it cannot pass for another (del\u200bete_all for
// delete_all).
func unknownToolWords(e *client.UnknownToolError) string {
	s := e.Error()
	sugg := argv.Closest(e.Name, e.Known, 3)
	if len(sugg) == 0 {
		return s
	}
	shown := make([]string, len(sugg))
	for i, n := range sugg {
		shown[i] = n
		if q := strconv.Quote(n); q[1:len(q)-1] != n {
			shown[i] = q
		}
	}
	return s + "; did you mean " + strings.Join(shown, ", ") + "?"
}

// authWords names the flags and the command that supply what an
// authorization needs.
func authWords(e *oauth.Error) string {
	switch e.Needs {
	case oauth.NeedLogin:
		return fmt.Sprintf("the server needs you to log in: run 'mcpctl --url %s auth login' at a terminal (or set $BROWSER, or pass --bearer TOKEN)", e.Server)
	case oauth.NeedClientID:
		return "the client credentials grant needs --client-id, with --client-secret or --client-key"
	case oauth.NeedClientSecret:
		return "the client credentials grant needs --client-secret or --client-key"
	case oauth.NeedClient:
		return "absent: the server takes no registrations; pass --client-id (and --client-secret) or --client-metadata-url"
	case oauth.NeedNoDPoP:
		return e.Msg + "; pass --no-dpop to ask for a Bearer token instead"
	}
	return e.Msg
}

// schemaWords puts the schema package's own phrases (it calls itself
// "this validator") in mcpctl's words: what an unresolved $ref's problem
// and an unenforced pattern's warning say of the validator. Only the
// phrase at the end is replaced: the text before it quotes the server's
// schema.
func schemaWords(msg string) string {
	for _, p := range []phrase{
		{", which is not fetched", ", which mcpctl does not fetch"},
		{" uses regular-expression features this validator cannot evaluate; it is not enforced", " uses regular-expression features mcpctl cannot evaluate; it is not enforced"},
	} {
		if strings.HasSuffix(msg, p.lib) {
			return strings.TrimSuffix(msg, p.lib) + p.ours
		}
	}
	return msg
}

// dialectWords is the schema's dialect error as mcpctl says it.
func dialectWords(e *schema.DialectError) string {
	return fmt.Sprintf("unsupported JSON Schema dialect %s; mcpctl supports %s", e.Dialect, strings.Join(schema.SupportedDialects, ", "))
}
