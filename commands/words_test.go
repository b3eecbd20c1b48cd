package commands

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/oauth"
	"github.com/mcpctl/mcpctl/client/schema"
	"github.com/mcpctl/mcpctl/internal/argv"
)

// The client library's typed errors are put in mcpctl's words: the flags
// and the command that the library leaves to its caller.
func TestInOurWords(t *testing.T) {
	t.Parallel()
	wrap := func(err error) error { return &opError{Op: "tools/list", Err: err} }
	tests := []struct {
		err  error
		want string
	}{
		{wrap(&client.ResponseIDError{ID: json.RawMessage(`987654`)}),
			`tools/list: protocol error: the server answered a request id mcpctl never sent: "987654"`},
		{wrap(&client.ResponseIDError{ID: json.RawMessage(`987654`), Sent: 1}),
			`tools/list: protocol error: the server answered request id "987654", but mcpctl sent id 1`},
		{wrap(&client.HTTPError{Status: 503, StatusText: "Service Unavailable", Retry: &client.RetryRefusal{After: time.Second, Reason: client.RetryNotIdempotent}}),
			`tools/list: HTTP 503 Service Unavailable (the server asks to retry after 1s; mcpctl retries only list requests)`},
		{wrap(&client.HTTPError{Status: 429, StatusText: "Too Many Requests", Retry: &client.RetryRefusal{After: time.Hour, Reason: client.RetryTooLong, MaxWait: 10 * time.Second}}),
			`tools/list: HTTP 429 Too Many Requests (the server asks to retry after 3600s; mcpctl waits at most 10s)`},
		{wrap(&client.HTTPError{Status: 429, StatusText: "Too Many Requests", Retry: &client.RetryRefusal{Reason: client.RetryExhausted, Retries: 3}}),
			`tools/list: HTTP 429 Too Many Requests (still after 3 retries)`},
		{wrap(&client.VersionError{Ours: []string{"2026-07-28"}, Theirs: []string{"2099-01-01"}}),
			`tools/list: no protocol version in common: the server supports 2099-01-01, mcpctl speaks 2026-07-28`},
		{wrap(&client.VersionError{Ours: []string{"2025-11-25"}, Said: `initialize without a protocolVersion: {"capabilities":{}}`}),
			`tools/list: no protocol version in common: the server named no version (it answered initialize without a protocolVersion: {"capabilities":{}}), mcpctl speaks 2025-11-25`},
		// What is no server: named as the user gave it (Explain), with the
		// flag of the bound that ended a silent one.
		{wrap(&client.NotServerError{Server: "sleep 100", Asked: []string{"server/discover"}, After: "15s", Bound: client.TimeoutProbe, Unread: true}),
			`tools/list: "sleep 100" is not an MCP server: in 15s it neither read its input nor wrote anything (a slow one needs a larger --probe-timeout)`},
		{wrap(&client.NotServerError{Asked: []string{"server/discover", "initialize"}, After: "1s", Stderr: []string{"up"}}),
			`tools/list: not an MCP server: it answered neither server/discover nor initialize in 1s (a slow one needs a larger --timeout) (server stderr: up)`},
		{wrap(&client.NotServerError{Server: "cat", Echo: true, Method: "server/discover"}),
			`tools/list: "cat" is not an MCP server: it sends back what it is sent (its answer to server/discover was the request itself)`},
		{wrap(&client.InvalidToolError{Name: "bad", Reason: "x"}),
			`tools/list: tool "bad" has an invalid definition, so mcpctl will not call it: x`},
		{wrap(&client.InputRequiredError{Reason: "the server kept asking after 3 rounds", RoundLimit: 3, Requests: []client.InputRequest{{Method: "elicitation/create"}}}),
			`tools/list: the server needs input (elicitation/create): the server kept asking after 3 rounds (--max-rounds)`},
		{wrap(&client.AuthError{Status: 401, Err: &oauth.Error{Msg: "the server needs you to log in, and no browser is configured", Err: oauth.ErrNoBrowser, Needs: oauth.NeedLogin, Server: "http://127.0.0.1:9/mcp"}}),
			`tools/list: HTTP 401: the server requires authentication: the server needs you to log in: run 'mcpctl --url http://127.0.0.1:9/mcp auth login' at a terminal (or set $BROWSER, or pass --bearer TOKEN)`},
		{&oauth.Error{Msg: "the client credentials grant needs a client id, with a client secret or key", Needs: oauth.NeedClientID},
			`the client credentials grant needs --client-id, with --client-secret or --client-key`},
		{wrap(errors.New("mcpctl: a client id that was never sent: x")), `tools/list: mcpctl: a client id that was never sent: x`},

		// A timeout names the flag of the limit it ran into.
		{wrap(&client.TimeoutError{Method: "tools/list", After: "2s", Stderr: []string{"starting"}}),
			`tools/list: tools/list timed out after 2s (raise it with --timeout) (server stderr: starting)`},
		{wrap(&client.TimeoutError{Method: "tools/call", After: "1s", Bound: client.TimeoutSinceProgress, Total: 4200 * time.Millisecond}),
			`tools/list: tools/call timed out 1s after its last progress notification, 4.2s in all (raise it with --timeout)`},
		{wrap(&client.TimeoutError{Method: "tools/call", After: "3s", Bound: client.TimeoutMaxTotal, Total: 3100 * time.Millisecond}),
			`tools/list: tools/call timed out after 3s in all, as far as progress may extend the timeout (raise it with --max-timeout)`},
		{wrap(&client.EraError{Probe: &client.TimeoutError{Method: "server/discover", After: "3s", Bound: client.TimeoutProbe}, Initialize: &client.TimeoutError{Method: "initialize", After: "1m0s"}}),
			`tools/list: the server answered neither server/discover (timed out after 3s) nor initialize (timed out after 1m0s); is it an MCP server? (a slow one needs a larger --timeout)`},
		{wrap(&client.EraError{Probe: &client.TimeoutError{Method: "server/discover", After: "3s", Bound: client.TimeoutProbe}, Initialize: &client.RPCError{Code: -32601, Message: "Method not found"}}),
			`tools/list: the server answered neither server/discover (timed out after 3s) nor initialize (server error -32601: Method not found); is it an MCP server? (a slow one needs a larger --probe-timeout)`},
		{&client.AckTimeoutError{After: 300 * time.Millisecond},
			`the server did not acknowledge the subscription within 300ms (raise it with --timeout)`},
		{wrap(&client.ListTimeoutError{Method: "tools/list", After: "3s", Pages: 2}),
			`tools/list: the listing of tools/list did not finish within 3s (2 pages so far)`}, // explain's listHint names --timeout
	}
	for _, tc := range tests {
		if got := inOurWords(tc.err); got != tc.want {
			t.Errorf("inOurWords(%v)\n got %s\nwant %s", tc.err, got, tc.want)
		}
	}
	if got := dialectWords(&schema.DialectError{Dialect: "d3"}); got != "unsupported JSON Schema dialect d3; mcpctl supports "+strings.Join(schema.SupportedDialects, ", ") {
		t.Errorf("dialectWords: %s", got)
	}
}

// An unknown tool comes with the closest names the server offers
// (moved here from the client library with closest).
func TestUnknownToolSuggestions(t *testing.T) {
	t.Parallel()
	known := []string{"weather_current", "weather_forecast", "get_time", "echo"}
	tests := []struct {
		name string
		want []string
	}{
		{"weather", []string{"weather_current", "weather_forecast"}},
		{"ecko", []string{"echo"}},
		{"Echo2", []string{"echo"}},
		{"get-time", []string{"get_time"}},
		{"completely_unrelated_name", nil},
	}
	for _, tc := range tests {
		if got := argv.Closest(tc.name, known, 3); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("argv.Closest(%q) = %q, want %q", tc.name, got, tc.want)
		}
		msg := inOurWords(&client.UnknownToolError{Name: tc.name, Known: known})
		if len(tc.want) > 0 && !strings.Contains(msg, "did you mean "+tc.want[0]) {
			t.Errorf("message %q", msg)
		}
		if len(tc.want) == 0 && strings.Contains(msg, "did you mean") {
			t.Errorf("message %q suggests something", msg)
		}
	}
	msg := inOurWords(&client.UnknownToolError{Name: "delete_all", Known: []string{"del\u200bete_all"}})
	if !strings.Contains(msg, `did you mean "del\u200bete_all"?`) {
		t.Errorf("an invisible character is not shown: %q", msg)
	}
}
