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
	"github.com/mcpctl/mcpctl/output"
)

// inOurWords is err's message as mcpctl says it. The client library names
// no flag and no program: where a way out depends on how it is called,
// its errors carry typed fields instead (the limit that was hit, what a
// login needs, the id the server answered). Each such error is said here
// from its fields (ourWords), and the errors that wrap it keep their own
// words around it: their message holds the wrapped error's message, which
// is put back in ours. Nothing a server said is touched.
func inOurWords(err error) string {
	if s, ok := ourWords(err); ok {
		return s
	}
	msg := err.Error()
	var inner []error
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		inner = []error{u.Unwrap()}
	case interface{ Unwrap() []error }:
		inner = u.Unwrap()
	}
	for _, e := range inner {
		if e == nil {
			continue
		}
		if sub := e.Error(); sub != "" {
			if i := strings.Index(msg, sub); i >= 0 {
				msg = msg[:i] + inOurWords(e) + msg[i+len(sub):]
			}
		}
	}
	return msg
}

// ourWords says one of the library's errors that names, or leaves to its
// caller, a flag, a command or the program: false for the others.
func ourWords(err error) (string, bool) {
	switch e := err.(type) {
	case *client.ResponseIDError:
		if e.Sent == 0 {
			return "protocol error: the server answered a request id mcpctl never sent: " + e.ShownID(), true
		}
		return fmt.Sprintf("protocol error: the server answered request id %s, but mcpctl sent id %d", e.ShownID(), e.Sent), true
	case *client.HTTPError:
		if e.Retry != nil {
			return e.Describe(retryWords(e.Retry)), true
		}
	case *client.VersionError:
		return e.Describe("mcpctl"), true
	case *client.NotServerError:
		if e.Echo {
			return e.Error(), true
		}
		// Silence: a slow server's start counts in the probe's bound. The
		// server's stderr follows the way out, as for a timeout.
		return e.Reason() + " (a slow one needs a larger " + timeoutFlag(e.Bound) + ")" + strings.TrimPrefix(e.Error(), e.Reason()), true
	case *client.InvalidToolError:
		return fmt.Sprintf("tool %q has an invalid definition, so mcpctl will not call it: %s", e.Name, e.Reason), true
	case *client.InputRequiredError:
		if e.RoundLimit > 0 && e.Reason != "" {
			// The reason ends the message.
			return e.Error() + " (--max-rounds)", true
		}
	case *client.UnknownToolError:
		return unknownToolWords(e), true
	case *client.EraError:
		if flag := eraTimeoutFlag(e); flag != "" {
			return inOurWords(&eraWords{e}) + " (a slow one needs a larger " + flag + ")", true
		}
	case *client.TimeoutError:
		// The reason starts the message; the server's stderr follows it.
		return e.Reason() + " (raise it with " + timeoutFlag(e.Bound) + ")" + strings.TrimPrefix(e.Error(), e.Reason()), true
	case *client.AckTimeoutError:
		// Listen's acknowledgment waits as long as a request may.
		return e.Error() + " (raise it with --timeout)", true
	case *oauth.Error:
		if e.Needs != "" {
			return e.Describe(authWords(e)), true
		}
	}
	return "", false
}

// eraWords is an EraError whose own words are said without a hint, so
// that inOurWords puts the errors it holds in mcpctl's words; the hint
// for a slow server follows.
type eraWords struct{ e *client.EraError }

func (w *eraWords) Error() string   { return w.e.Error() }
func (w *eraWords) Unwrap() []error { return w.e.Unwrap() }

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
	for _, p := range []struct{ lib, ours string }{
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

// notef writes a note: a line of mcpctl's own on stderr that says what a
// command did (a file written, a session started or stopped, where a task
// can be followed), which a script has no need of; --quiet leaves it out.
// Errors, warnings, what a command waits on the user for (a login's URL),
// progress and --trace are not notes. docs/output.md lists the notes.
func notef(ios *output.IOStreams, format string, args ...any) {
	if ios.Quiet() {
		return
	}
	fmt.Fprintf(ios.ErrOut, "mcpctl: "+format+"\n", args...)
}
