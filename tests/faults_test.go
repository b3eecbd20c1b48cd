package tests

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpctl/mcpctl/tests/fakemcp"
)

// The fault suite: the real mcpctl binary against servers that break every
// rule (tests/fakemcp/faults.go), each case over stdio, Streamable HTTP or
// both. Every run must end with the documented exit code and one error
// line naming the problem, within --timeout plus shutdownGrace, with no
// Go panic, no process left behind and mcpctl's peak memory under the
// case's limit. docs/reliability.md lists the cases; keep the two in step.

// defaultMaxRSS is the memory limit of a case that sets none, in MiB. It
// is mcpctl's own peak resident set, or a server's it reaped if larger
// (the fake servers stay small by writing their floods in chunks).
const defaultMaxRSS = 64

// shutdownGrace is how much longer than --timeout a run may take: a stdio
// server gets --shutdown-grace (100ms by default, 1s in the case that
// wants it) to exit after its input is closed and 2s after SIGTERM before
// SIGKILL, and the machine may be busy.
const shutdownGrace = 8 * time.Second

// hugeMessage is the large-message case's text: 64 MiB.
const hugeMessage = 64 << 20

type faultCase struct {
	name     string
	stdio    string // fakemcp mode for --stdio, "" for none
	http     string // fakemcp mode for --url, "" for none
	https    bool   // serve http over TLS with an untrusted certificate
	unpinned bool   // let the era probe run (else --protocol-version 2026-07-28)
	args     []string
	timeout  time.Duration // --timeout; 10s if zero
	exit     int
	msg      string // the error line (exit > 1) must match this
	stdout   string // stdout must match this, if set
	exact    string // stdout must be exactly this plus a newline, if set
	tty      bool   // stdout is a terminal (MCPCTL_FORCE_TTY): nothing terminal-active may reach it
	maxRSS   int    // MiB; defaultMaxRSS if zero
	check    func(t *testing.T, url string, r *faultRun)

	// serverStderr is --server-stderr for stdio ("discard" if empty).
	serverStderr string
	// rawStderr: stderr is a pipe and must carry the server's own bytes,
	// so only mcpctl's error lines on it are held to terminal safety.
	rawStderr bool
}

// stderrTail is the end of an error line that may quote the last lines
// a stdio server wrote to stderr.
const stderrTail = `( \(server stderr: .*\))?$`

var (
	callX     = []string{"call", "tools/call", `{"name":"x"}`}
	toolsList = []string{"tools", "list"}
)

var faultCases = []faultCase{
	// Noise on stdout. A stdio server must keep stdout for JSON-RPC; over
	// HTTP a stray line in an event stream is a field nobody knows, which
	// the SSE rules ignore.
	{name: "noise_before", stdio: "noisebefore", args: callX, exit: 3,
		msg: `^mcpctl: tools/call: protocol error: the server wrote something that is not JSON on stdout: "Server v1.2 starting up..." \(stdio servers must log to stderr\)$`},
	{name: "noise_before", http: "noisebefore", args: callX, stdout: `"text":"ok"`},
	{name: "noise_between", stdio: "noisebetween", args: callX, exit: 3,
		msg: `^mcpctl: tools/call: protocol error: the server wrote something that is not JSON on stdout: "debug: halfway there" \(stdio servers must log to stderr\)$`},
	{name: "noise_between", http: "noisebetween", args: callX, stdout: `"text":"ok"`},
	{name: "noise_after", stdio: "noiseafter", http: "noiseafter", args: callX, stdout: `"text":"ok"`},

	// Servers that die or stop mid-message.
	{name: "half_line_then_exit", stdio: "halfline", args: callX, exit: 3,
		msg: `^mcpctl: tools/call: the server exited in the middle of a message \(exit status 3\): "\{\\"jsonrpc\\":\\"2.0\\",\\"id\\":1,`},
	{name: "half_line_then_exit", http: "halfline", args: callX, exit: 3,
		msg: `^mcpctl: tools/call: the connection broke in the middle of the response from http://127.0.0.1:\d+/mcp: unexpected EOF$`},
	{name: "exit_mid_response", stdio: "exitmid", args: callX, exit: 3,
		msg: `^mcpctl: tools/call: the server exited in the middle of a message \(exit status 1\): "\{\\"jsonrpc\\":\\"2.0\\",\\"id\\":1,\\"result\\":\{\\"content\\":\[\{\\"type\\":\\"text\\",\\"text\\":\\"xxxx`},
	{name: "exit_mid_response", http: "exitmid", args: callX, exit: 3,
		msg: `^mcpctl: tools/call: the connection broke in the middle of the response from http://127.0.0.1:\d+/mcp: unexpected EOF$`},
	{name: "sse_cut_before_response", http: "ssecut", args: callX, exit: 3,
		msg: `^mcpctl: tools/call: the server closed the event stream without answering the request$`},

	// Answers that never come, or come wrong.
	{name: "never_answers", stdio: "silent", http: "silent", args: toolsList, timeout: time.Second, exit: 3,
		msg: `^mcpctl: tools/list: tools/list timed out after 1s \(raise it with --timeout\)` + stderrTail},
	// Unpinned, silence is no server (issue 25, item 1): on stdio
	// initialize follows server/discover once the server has read it (a
	// server slower to start than the bound has read nothing).
	{name: "never_answers_unpinned", stdio: "silent", unpinned: true, args: toolsList, timeout: time.Second, exit: 3,
		msg: `^mcpctl: tools/list: "fakemcp silent [^"]+" is not an MCP server: (it answered neither server/discover nor initialize in 1s|in 1s it neither read its input nor wrote anything) \(a slow one needs a larger --timeout\)` + stderrTail},
	{name: "never_answers_unpinned", http: "silent", unpinned: true, args: toolsList, timeout: time.Second, exit: 3,
		msg: `^mcpctl: tools/list: "http://127\.0\.0\.1:\d+/mcp" is not an MCP server: it answered nothing to server/discover in 1s \(a slow one needs a larger --timeout\)$`},
	// Issue 25, item 1: first contact goes by what the server says. A
	// program that never reads (sleep) is refused after the probe's 15s,
	// one that echoes (cat) at once; garbage after a slow start is
	// reported as garbage, a slow first answer over HTTP waited for.
	{name: "never_reads", stdio: "asleep", unpinned: true, args: toolsList, timeout: 30 * time.Second, exit: 3,
		msg: `^mcpctl: tools/list: "fakemcp asleep [^"]+" is not an MCP server: in 15s it neither read its input nor wrote anything \(a slow one needs a larger --probe-timeout\)$`},
	{name: "echoes_its_input", stdio: "cat", unpinned: true, args: toolsList, exit: 3,
		msg: `^mcpctl: tools/list: "fakemcp cat [^"]+" is not an MCP server: it sends back what it is sent \(its answer to server/discover was the request itself\)$`},
	{name: "garbage_after_slow_start", stdio: "slowgarbage", unpinned: true, args: toolsList, exit: 3,
		msg: `^mcpctl: tools/list: protocol error: the server wrote something that is not JSON on stdout: "Server ready on stdio" \(stdio servers must log to stderr\)$`},
	{name: "slow_first_answer", http: "slowdiscover", unpinned: true, args: toolsList, stdout: `"name":"echo"`},
	{name: "unknown_id", stdio: "unknownid", args: toolsList, exit: 3,
		msg: `^mcpctl: tools/list: protocol error: the server answered a request id mcpctl never sent: "987654"$`},
	{name: "unknown_id", http: "unknownid", args: toolsList, exit: 3,
		msg: `^mcpctl: tools/list: protocol error: the server answered request id "987654", but mcpctl sent id 1$`},
	{name: "duplicate_response", stdio: "duplicate", http: "duplicate", args: callX, stdout: `"text":"first"`,
		check: func(t *testing.T, _ string, r *faultRun) {
			if strings.Contains(string(r.stdout), "second") {
				t.Errorf("the duplicate answer was printed: %s", r.stdout)
			}
		}},
	{name: "invalid_json", stdio: "badjson", http: "badjson", args: toolsList, exit: 3,
		msg: `^mcpctl: tools/list: protocol error: server sent invalid JSON: unexpected EOF: "\{\\"jsonrpc\\":\\"2.0\\",\\"id\\":1,\\"result\\":\{\\"tools\\":\["$`},

	// Size and shape.
	{name: "message_64MiB_refused", stdio: fmt.Sprintf("huge:%d", hugeMessage), http: fmt.Sprintf("huge:%d", hugeMessage), args: callX, exit: 3, maxRSS: 100,
		msg: `^mcpctl: tools/call: protocol error: the server sent a message larger than 64 MiB; raise --max-message-size if it is expected$`},
	{name: "message_over_limit", stdio: "huge:2000000", http: "huge:2000000", args: append([]string{"--max-message-size", "1MiB"}, callX...), exit: 3,
		msg: `^mcpctl: tools/call: protocol error: the server sent a message larger than 1 MiB; raise --max-message-size if it is expected$`},
	{name: "message_64MiB_accepted", stdio: fmt.Sprintf("huge:%d", hugeMessage), http: fmt.Sprintf("huge:%d", hugeMessage), args: append([]string{"--max-message-size", "65MiB"}, callX...), timeout: 30 * time.Second, maxRSS: 400,
		check: func(t *testing.T, _ string, r *faultRun) {
			want := `{"content":[{"type":"text","text":"` + strings.Repeat("x", hugeMessage) + `"}]}` + "\n"
			if string(r.stdout) != want {
				t.Errorf("stdout is %d bytes, not the %d of the message", len(r.stdout), len(want))
			}
		}},
	{name: "notification_flood_1M", stdio: "flood:1000000", http: "flood:1000000", args: callX, timeout: 60 * time.Second, stdout: `"text":"ok"`},
	{name: "nested_100000_deep", stdio: "deep:100000", http: "deep:100000", args: callX, exit: 3,
		msg: `^mcpctl: tools/call: protocol error: server sent JSON nested more than 10000 levels deep: "\{\\"jsonrpc\\":\\"2.0\\",\\"id\\":1,\\"result\\":\{\\"deep\\":\[\[\[`},
	{name: "nested_5000_deep", stdio: "deep:5000", http: "deep:5000", args: callX,
		exact: `{"deep":` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}`},
	{name: "integers_beyond_2_64", stdio: "bigint", http: "bigint", args: callX, exact: fakemcp.BigNumbers},
	{name: "integers_beyond_2_64_jq", stdio: "bigint", http: "bigint", args: append([]string{"--jq", ".beyond64, .beyond128, .negative"}, callX...),
		exact: "18446744073709551617\n340282366920938463463374607431768211457\n-98765432109876543210987654321"},
	{name: "integers_beyond_2_64_yaml", stdio: "bigint", args: append([]string{"-o", "yaml"}, callX...),
		stdout: `(?m)^beyond64: (!!int )?18446744073709551617\nbeyond128: (!!int )?340282366920938463463374607431768211457\nnegative: (!!int )?-98765432109876543210987654321\nhuge: (!!float )?1e400\n`},
	{name: "invalid_utf8_json", stdio: "badutf8", http: "badutf8", args: callX, exact: fakemcp.BadUTF8},
	{name: "invalid_utf8_terminal", stdio: "badutf8", http: "badutf8", args: []string{"tools", "call", "x"}, tty: true,
		stdout: `^bad \x{FFFD}\x{FFFD} bytes \x{FFFD}\x{FFFD} overlong \x{FFFD} surrogate\n$`},

	// HTTP failure statuses, with and without a body.
	{name: "http_500_no_body", http: "http:500", args: toolsList, exit: 3, msg: `^mcpctl: tools/list: HTTP 500 Internal Server Error$`},
	{name: "http_500_text", http: "http:500:text", args: toolsList, exit: 3, msg: `^mcpctl: tools/list: HTTP 500 Internal Server Error: upstream trouble: try later$`},
	{name: "http_500_jsonrpc", http: "http:500:json", args: toolsList, exit: 4, msg: `^mcpctl: tools/list: server error -32603: the backend is down$`},
	{name: "http_502_no_body", http: "http:502", args: toolsList, exit: 3, msg: `^mcpctl: tools/list: HTTP 502 Bad Gateway$`},
	{name: "http_502_text", http: "http:502:text", args: toolsList, exit: 3, msg: `^mcpctl: tools/list: HTTP 502 Bad Gateway: upstream trouble: try later$`},
	{name: "http_502_jsonrpc", http: "http:502:json", args: toolsList, exit: 4, msg: `^mcpctl: tools/list: server error -32603: the backend is down$`},
	{name: "http_503_no_body", http: "http:503", args: toolsList, exit: 3, msg: `^mcpctl: tools/list: HTTP 503 Service Unavailable$`, check: countIs("tools/list", 1)},
	{name: "http_503_text", http: "http:503:text", args: toolsList, exit: 3, msg: `^mcpctl: tools/list: HTTP 503 Service Unavailable: upstream trouble: try later$`},
	{name: "http_503_jsonrpc", http: "http:503:json", args: toolsList, exit: 4, msg: `^mcpctl: tools/list: server error -32603: the backend is down$`},
	{name: "http_429_no_body", http: "http:429", args: toolsList, exit: 3, msg: `^mcpctl: tools/list: HTTP 429 Too Many Requests$`, check: countIs("tools/list", 1)},
	{name: "http_429_text", http: "http:429:text", args: toolsList, exit: 3, msg: `^mcpctl: tools/list: HTTP 429 Too Many Requests: upstream trouble: try later$`},
	{name: "http_429_jsonrpc", http: "http:429:json", args: toolsList, exit: 4, msg: `^mcpctl: tools/list: server error -32603: the backend is down$`},

	// Retry-After: honoured for list requests only, a few times, briefly.
	{name: "retry_after_503_list", http: "busy:503:2:1", args: toolsList, check: countIs("tools/list", 3)},
	{name: "retry_after_429_list", http: "busy:429:2:1", args: toolsList, check: countIs("tools/list", 3)},
	{name: "retry_after_not_for_calls", http: "busy:503:1:1", args: callX, exit: 3,
		msg: `^mcpctl: tools/call: HTTP 503 Service Unavailable \(the server asks to retry after 1s; mcpctl retries only list requests\)$`, check: countIs("tools/call", 1)},
	{name: "retry_after_too_long", http: "busy:429:1:3600", args: toolsList, exit: 3,
		msg: `^mcpctl: tools/list: HTTP 429 Too Many Requests \(the server asks to retry after 3600s; mcpctl waits at most 10s\)$`,
		check: func(t *testing.T, url string, r *faultRun) {
			countIs("tools/list", 1)(t, url, r)
			if r.elapsed > 5*time.Second {
				t.Errorf("took %s: a wait mcpctl will not make must not be started", r.elapsed)
			}
		}},
	{name: "retry_after_bounded", http: "busy:503:100:0", args: toolsList, exit: 3,
		msg: `^mcpctl: tools/list: HTTP 503 Service Unavailable \(still after 3 retries\)$`, check: countIs("tools/list", 4)},

	// Transport-level refusals.
	{name: "redirect_loop", http: "redirectloop", args: toolsList, exit: 3,
		msg:   `^mcpctl: tools/list: HTTP 307 Temporary Redirect to /mcp; mcpctl does not follow redirects: give the final URL to --url$`,
		check: countIs("tools/list", 1)},
	{name: "invalid_tls_certificate", http: "echo", https: true, args: toolsList, exit: 3,
		msg: `^mcpctl: tools/list: cannot reach https://127.0.0.1:\d+/mcp: tls: failed to verify certificate: x509: certificate signed by unknown authority; trust the server's CA \(SSL_CERT_FILE\), or for a test server only pass --insecure$`},
	{name: "slow_server_1_byte_per_second", stdio: "trickle", http: "trickle", args: callX, timeout: 2 * time.Second, exit: 3,
		msg: `^mcpctl: tools/call: tools/call timed out after 2s \(raise it with --timeout\)` + stderrTail},

	{name: "progress_forever", stdio: "progressforever", http: "progressforever", args: append([]string{"--max-timeout", "3s"}, callX...), timeout: time.Second, exit: 3,
		msg: `^mcpctl: tools/call: tools/call timed out after 3s in all, as far as progress may extend the timeout \(raise it with --max-timeout\)` + stderrTail,
		check: func(t *testing.T, _ string, r *faultRun) {
			if r.elapsed < 3*time.Second {
				t.Errorf("gave up after %s: progress should have kept the request going to --max-timeout", r.elapsed)
			}
		}},

	// Processes that will not go. A grace of 1s after stdin closes, then
	// SIGTERM and 2s more, then SIGKILL: at least 3s.
	{name: "server_ignores_sigterm", stdio: "ignoreterm", args: append([]string{"--shutdown-grace", "1s"}, toolsList...), stdout: `"method":"tools/list"`,
		check: func(t *testing.T, _ string, r *faultRun) {
			if r.elapsed < 3*time.Second {
				t.Errorf("finished in %s: the server cannot have been given its grace periods", r.elapsed)
			}
		}},
	// Issue 16, item 4: a server slow to leave once its input ends (30s)
	// is not waited out after its answer: stdin closed, --shutdown-grace
	// (100ms by default), SIGTERM. The server says on stderr when SIGTERM
	// came; the bounds are loose, the order is exact.
	{name: "server_slow_exit", stdio: "slowexit", serverStderr: "inherit", rawStderr: true, args: toolsList, stdout: `"method":"tools/list"`,
		check: sigtermAfterEOF(0, time.Second)},
	{name: "server_slow_exit_grace", stdio: "slowexit", serverStderr: "inherit", rawStderr: true, args: append([]string{"--shutdown-grace", "700ms"}, toolsList...), stdout: `"method":"tools/list"`,
		check: sigtermAfterEOF(700*time.Millisecond, 5*time.Second)},
	{name: "server_slow_exit_no_grace", stdio: "slowexit", serverStderr: "inherit", rawStderr: true, args: append([]string{"--shutdown-grace", "0"}, toolsList...), stdout: `"method":"tools/list"`,
		check: stderrMatches(`(?m)^fakemcp: SIGTERM (before my input closed|\d+ms after my input closed)$`)},
	// Deaf to SIGTERM too, with its child: SIGKILL follows 2s after it.
	{name: "server_ignores_sigterm_no_grace", stdio: "ignoreterm", args: append([]string{"--shutdown-grace", "0"}, toolsList...), stdout: `"method":"tools/list"`,
		check: func(t *testing.T, _ string, r *faultRun) {
			if r.elapsed < 2*time.Second || r.elapsed > 10*time.Second {
				t.Errorf("finished in %s: SIGKILL should follow SIGTERM after 2s", r.elapsed)
			}
		}},
	{name: "server_closes_stdin", stdio: "closestdin", unpinned: true, args: toolsList, exit: 3,
		msg: `^mcpctl: tools/list: cannot write to the server: it closed its input` + stderrTail},
	// Whether the request reaches the pipe before the server closes it is
	// a race: then it is lost, and the timeout tells.
	{name: "server_closes_stdin_at_start", stdio: "closestdinnow", args: toolsList, timeout: 2 * time.Second, exit: 3,
		msg: `^mcpctl: tools/list: (cannot write to the server: it closed its input|tools/list timed out after 2s \(raise it with --timeout\))` + stderrTail},

	// Terminal escapes from the server: stripped from text at a terminal,
	// shown as escapes in names (issue 13, item 9), kept byte for byte in
	// JSON on a pipe, and never on stderr.
	{name: "escapes_tool_list_terminal", stdio: "escapes", http: "escapes", args: toolsList, tty: true,
		stdout: `^evil\\u001b\[31mred\\u001b\[0m \\u001b\]0;pwned\\u0007title .* back\\u0008space cr\\u000dret c1\\u009b31m del\\u007f bidi\\u202eend — D red title link clip clear bell backspace cr\n`},
	{name: "escapes_tool_table_terminal", stdio: "escapes", args: append([]string{"-o", "table"}, toolsList...), tty: true, stdout: `\nevil\\u001b\[31mred\\u001b\[0m \\u001b\]0;pwned`},
	{name: "escapes_tool_describe_terminal", stdio: "escapes", args: []string{"tools", "describe", escapedToolName()}, tty: true, stdout: `P red title`},
	{name: "escapes_resource_text_terminal", stdio: "escapes", http: "escapes", args: []string{"resources", "read", "fake://evil"}, tty: true, stdout: `(?s)^R red title .*\nsecond line\n$`},
	{name: "escapes_log_and_content_terminal", stdio: "escapes", http: "escapes", args: []string{"tools", "call", escapedToolName()}, tty: true, stdout: `C red title`,
		check: stderrMatches(`(?m)^\[warning\] Lred title .*: M red title link`)},
	{name: "escapes_error_message", stdio: "escapes", http: "escapes", args: []string{"call", "tools/call", `{"name":"fail"}`}, exit: 4,
		msg: `^mcpctl: tools/call: server error -32603: E red title link clip clear bell backspace cr ?ret c1 del bidi\\u202eend$`},
	{name: "escapes_json_pipe_exact", stdio: "escapes", http: "escapes", args: []string{"resources", "read", "fake://evil"},
		exact: `{"contents":[{"uri":"fake://evil","mimeType":"text/plain","text":"R ` + fakemcp.EscapeText + `\nsecond line"}]}`},
	{name: "escapes_json_pipe_exact_tools", stdio: "escapes", args: toolsList,
		stdout: regexp.QuoteMeta(`"description":"D ` + fakemcp.EscapeText + `"`)},

	// Issue 13, item 8: tasks that never end (tests/fakemcp/tasks.go). A
	// task that keeps asking for input mcpctl declined or cancelled, or
	// stays input_required asking nothing, ends after --max-rounds polls
	// (one tasks/get a round, and the one that finds the limit) with exit
	// 6, answered once; --timeout is given so that a client without the
	// limit ends with the wrong message instead of hanging the suite. A
	// wait that --timeout ends says so.
	{name: "task_declined_input_forever", http: "taskaskforever", args: []string{"--elicit", "decline", "tools", "call", "slow"}, timeout: 5 * time.Second, exit: 6,
		msg:   `^mcpctl: tools/call slow: the server kept asking for input to task task-taskaskforever that was declined, for 10 rounds; ` + taskRoundsHint("task-taskaskforever") + `$`,
		check: httpCountsAre(map[string]int{"tasks/get": 11, "tasks/update": 1})},
	{name: "task_cancelled_input_forever", http: "taskaskforever", args: []string{"--elicit", "cancel", "--max-rounds", "3", "tools", "call", "slow"}, timeout: 5 * time.Second, exit: 6,
		msg:   `^mcpctl: tools/call slow: the server kept asking for input to task task-taskaskforever that was cancelled, for 3 rounds; ` + taskRoundsHint("task-taskaskforever") + `$`,
		check: httpCountsAre(map[string]int{"tasks/get": 4, "tasks/update": 1})},
	{name: "task_input_required_no_requests", http: "tasknorequests", args: []string{"--elicit", "decline", "tools", "call", "slow"}, timeout: 5 * time.Second, exit: 6,
		msg:   `^mcpctl: tools/call slow: task task-tasknorequests still waited for input after 10 rounds; ` + taskRoundsHint("task-tasknorequests") + `$`,
		check: httpCountsAre(map[string]int{"tasks/get": 11, "tasks/update": 0})},
	{name: "task_wait_timeout", http: "taskworking", args: []string{"tools", "call", "slow"}, timeout: time.Second, exit: 3,
		msg: `^mcpctl: tools/call slow: stopped waiting for task task-taskworking after 1s, which keeps running; --timeout ended the wait: 'mcpctl tasks wait task-taskworking' picks it up again$`},
	// Issue 17, item 6: the same of a 2025-11-25 server's task, which the
	// tool requires (tests/fakemcp/legacytasks.go).
	{name: "legacy_task_wait_timeout", http: "legacytaskworking", unpinned: true, args: []string{"tools", "call", "slow"}, timeout: time.Second, exit: 3,
		msg: `^mcpctl: tools/call slow: stopped waiting for task task-legacytaskworking after 1s, which keeps running; --timeout ended the wait: 'mcpctl tasks wait task-legacytaskworking' picks it up again$`},
	// Issue 25, item 6: over stdio, without a session, the server and its
	// tasks end with the command: the same waits say so, and name no
	// command that would find the task again.
	{name: "task_declined_input_forever", stdio: "taskaskforever", args: []string{"--elicit", "decline", "tools", "call", "slow"}, timeout: 5 * time.Second, exit: 6,
		msg: `^mcpctl: tools/call slow: the server kept asking for input to task task-taskaskforever that was declined, for 10 rounds; ` + taskEndsRoundsHint + `$`},
	{name: "task_cancelled_input_forever", stdio: "taskaskforever", args: []string{"--elicit", "cancel", "--max-rounds", "3", "tools", "call", "slow"}, timeout: 5 * time.Second, exit: 6,
		msg: `^mcpctl: tools/call slow: the server kept asking for input to task task-taskaskforever that was cancelled, for 3 rounds; ` + taskEndsRoundsHint + `$`},
	{name: "task_input_required_no_requests", stdio: "tasknorequests", args: []string{"--elicit", "decline", "tools", "call", "slow"}, timeout: 5 * time.Second, exit: 6,
		msg: `^mcpctl: tools/call slow: task task-tasknorequests still waited for input after 10 rounds; ` + taskEndsRoundsHint + `$`},
	{name: "task_wait_timeout", stdio: "taskworking", args: []string{"tools", "call", "slow"}, timeout: time.Second, exit: 3,
		msg: `^mcpctl: tools/call slow: stopped waiting for task task-taskworking after 1s, which ends with its server; --timeout ended the wait; ` + sessionForTasks + `$`},
	{name: "legacy_task_wait_timeout", stdio: "legacytaskworking", unpinned: true, args: []string{"tools", "call", "slow"}, timeout: time.Second, exit: 3,
		msg: `^mcpctl: tools/call slow: stopped waiting for task task-legacytaskworking after 1s, which ends with its server; --timeout ended the wait; ` + sessionForTasks + `$`},
	// --no-wait there would print the id of a task about to end: refused
	// before the server starts (nothing else is asked of it).
	{name: "task_no_wait_without_session", stdio: "taskworking", args: []string{"tools", "call", "slow", "--no-wait"}, exit: 2,
		msg: `^mcpctl: --no-wait: a stdio server's tasks live only as long as its process, which ends with this command, so the task's id would be dead once printed; ` + sessionForTasks + `; or leave out --no-wait to wait for the task here$`},

	// Issue 13, item 10: URL elicitations whose host a browser reads
	// otherwise than a naive display shows, or that name none. In a
	// script (no terminal) they are refused with a warning and answered
	// cancel; the server's reply is printed.
	refusedURL("url_elicitation_no_slashes", "noslashes", `it has no "//" after "https:", so it names no host`),
	refusedURL("url_elicitation_userinfo", "userinfo", `it has a user name before "@", which can disguise the host \(the host is "evil.example"\)`),
	refusedURL("url_elicitation_userinfo_fake_host", "fakehost", `it has a user name before "@", which can disguise the host \(the host is "evil.example"\)`),
	refusedURL("url_elicitation_javascript", "javascript", `its scheme is "javascript", and mcpctl opens only http:// and https:// URLs`),
	refusedURL("url_elicitation_relative", "relative", `it is not an absolute URL`),
	refusedURL("url_elicitation_scheme_relative", "schemeless", `it is not an absolute URL`),
	refusedURL("url_elicitation_backslash", "backslash", `it contains a backslash, which browsers read as "/"`),
	refusedURL("url_elicitation_ipv4_disguised", "ipv4hex", `its host "0x7f.1" is an IP address in disguise \(a browser loads 127.0.0.1\)`),
	refusedURL("url_elicitation_control_characters", "controls", `it contains control characters`),
	// Well-formed ones still wait for a person: exit 6 and a continuation,
	// the error naming the host the browser would load.
	{name: "url_elicitation_idn_host", stdio: "urlelicit:idn", http: "urlelicit:idn", args: callX, exit: 6,
		msg: `^mcpctl: tools/call: the server needs input \(elicitation/create\): the server asks you to visit https://xn--pple-43d\.example/login \(host xn--pple-43d\.example \(\x{0430}pple\.example: an internationalised name, which can imitate another; check it letter by letter\)\) in a browser`},
	{name: "url_elicitation_plain", stdio: "urlelicit:ok", http: "urlelicit:ok", args: callX, exit: 6,
		msg: `^mcpctl: tools/call: the server needs input \(elicitation/create\): the server asks you to visit https://good\.example/connect\?session=1 \(host good\.example\) in a browser`},

	// Issue 13, item 2: a listing is bounded as a whole, all its pages
	// together: by --max-message-size for their sizes added up, by one
	// --timeout for their time. Cursors that never repeat are not taken
	// for a loop, however many there are.
	{name: "pagination_endless_big_pages", stdio: "endlesspages:1048576", http: "endlesspages:1048576", args: append([]string{"--max-message-size", "8MiB"}, toolsList...), exit: 3,
		msg: `^mcpctl: tools/list: the pages of tools/list came to more than 8 MiB in all \(8 pages\); raise --max-message-size, or page by hand with --cursor$`},
	{name: "pagination_endless_tiny_pages", stdio: "endlesspages:0", http: "endlesspages:0", args: toolsList, timeout: 3 * time.Second, exit: 3,
		msg: `^mcpctl: tools/list: the listing of tools/list did not finish within 3s \(\d+ pages so far\); raise --timeout, or page by hand with --cursor$`},
	{name: "pagination_timeout_all_pages", stdio: "slowpages:400:10", http: "slowpages:400:10", args: toolsList, timeout: time.Second, exit: 3,
		msg: `^mcpctl: tools/list: the listing of tools/list did not finish within 1s \(\d+ pages? so far\); raise --timeout, or page by hand with --cursor$`},

	// Issue 13, item 6: bodies that do not say how long they are (chunked,
	// or gzip-compressed: 1 GiB of JSON in about 1 MB) are read no further
	// than the limit, into a buffer no larger than it.
	{name: "body_chunked_over_limit", http: "chunked:1073741824", args: callX, exit: 3, maxRSS: 100,
		msg: `^mcpctl: tools/call: protocol error: the server sent a message larger than 64 MiB; raise --max-message-size if it is expected$`},
	{name: "body_gzip_bomb", http: "gzipbomb:1073741824", args: callX, exit: 3, maxRSS: 100,
		msg: `^mcpctl: tools/call: protocol error: the server sent a message larger than 64 MiB; raise --max-message-size if it is expected$`},
	{name: "body_gzip_bomb_sse", http: "gzipbomb:1073741824:sse", args: callX, exit: 3, maxRSS: 100,
		msg: `^mcpctl: tools/call: protocol error: the server sent a message larger than 64 MiB; raise --max-message-size if it is expected$`},

	// Issue 13, item 4: a stdio server's stderr, passed on (the default
	// --server-stderr inherit), is sanitised line by line when mcpctl's
	// stderr is a terminal, long lines cut, and kept byte for byte when it
	// is not; the tail quoted in errors works either way.
	{name: "server_stderr_escapes_terminal", stdio: "stderrescapes", serverStderr: "inherit", tty: true, args: toolsList, stdout: `tools/list`,
		check: stderrHas(`S red title link clip clear bell backspace crret c1 del bidi\u202eend`+"\nsecond line\tafter a tab\n", fakemcp.StderrLast)},
	{name: "server_stderr_tail_terminal", stdio: "stderrescapes:exit", serverStderr: "inherit", tty: true, args: toolsList, exit: 3,
		msg:   `^mcpctl: tools/list: the server (exited|closed its output) \(exit status 1\) \(server stderr: S red title link clip clear bell backspace cr ?ret c1 del bidi\\u202eend \| second line after a tab \| ` + fakemcp.StderrLast + `\)$`,
		check: stderrHas(`S red title link clip clear bell backspace crret c1 del bidi\u202eend` + "\n")},
	{name: "server_stderr_raw_pipe", stdio: "stderrescapes", serverStderr: "inherit", rawStderr: true, args: toolsList, stdout: `tools/list`,
		check: stderrHas("S " + decodeJSONString(fakemcp.EscapeText) + "\nsecond line\tafter a tab\n" + fakemcp.StderrLast)},
	{name: "server_stderr_tail_pipe", stdio: "stderrescapes:exit", serverStderr: "inherit", rawStderr: true, args: toolsList, exit: 3,
		msg:   `^mcpctl: tools/list: the server (exited|closed its output) \(exit status 1\) \(server stderr: S red title link clip clear bell backspace cr ?ret c1 del bidi\\u202eend \| second line after a tab \| ` + fakemcp.StderrLast + `\)$`,
		check: stderrHas("S " + decodeJSONString(fakemcp.EscapeText) + "\n")},
	{name: "server_stderr_flood_long_lines_terminal", stdio: fmt.Sprintf("stderrflood:%d:%d", 50<<20, 1<<20), serverStderr: "inherit", tty: true,
		args: toolsList, timeout: 30 * time.Second, stdout: `tools/list`, check: stderrLines(`^F?x+… \(line cut at 4096 bytes\)$`, 50, 1<<20)},
	{name: "server_stderr_flood_short_lines_terminal", stdio: fmt.Sprintf("stderrflood:%d:%d", 50<<20, 100), serverStderr: "inherit", tty: true,
		args: toolsList, timeout: 30 * time.Second, stdout: `tools/list`, check: stderrText("[Fx]+", strings.Repeat("F"+strings.Repeat("x", 94), 50<<20/100))},

	// Issue 13, item 9: invisible and direction-changing characters in
	// names, URIs and keys are shown as escapes at a terminal, in every
	// format; JSON to a pipe keeps them byte for byte.
	{name: "invisible_names_terminal", stdio: "invisible", http: "invisible", args: toolsList, tty: true,
		check: stdoutHas(append(invisibleToolNames, `    args: con\u061cfirm*, pa\u2066th`)...)},
	{name: "invisible_names_table", stdio: "invisible", http: "invisible", args: append([]string{"-o", "table"}, toolsList...), tty: true,
		check: stdoutHas(invisibleToolNames...)},
	{name: "invisible_names_yaml", stdio: "invisible", args: append([]string{"-o", "yaml"}, toolsList...), tty: true,
		check: stdoutHas(`- name: "del\u200Bete_all"`, `name: "\u202Eevil"`, `name: "safe\uFEFF"`, `name: "soft\u00ADhyphen"`,
			`name: "tag\U000E0041\U000E0042"`, `name: "l\u200Erm\u200F"`, `name: "wj\u2060x\u180E"`, `name: "nb\u00A0sp"`,
			`name: "vs\uFE0F"`, `name: "ko\u3164"`, `"con\u061Cfirm":`, `"pa\u2066th":`, `"read\u200COnlyHint": false`)},
	{name: "invisible_names_json_terminal", stdio: "invisible", args: append([]string{"-o", "json"}, toolsList...), tty: true,
		check: stdoutHas(`"name": "del\u200bete_all"`, `"name": "\u202eevil"`, `"name": "tag\udb40\udc41\udb40\udc42"`, `"con\u061cfirm": {`, `"nb\u00a0sp"`)},
	{name: "invisible_names_json_pipe_exact", stdio: "invisible", http: "invisible", args: toolsList, exact: fakemcp.InvisibleTools},
	{name: "invisible_names_describe", stdio: "invisible", http: "invisible", args: []string{"tools", "describe", "del\u200bete_all"}, tty: true,
		check: func(t *testing.T, url string, r *faultRun) {
			stdoutHas("del\\u200bete_all\n", `  con\u061cfirm (boolean, required) — Really`, `  pa\u2066th (string)`, `  read\u200cOnlyHint: false`)(t, url, r)
			usageCallsTool(t, r.stdout, "del\u200bete_all")
		}},
	{name: "invisible_names_resources", stdio: "invisible", http: "invisible", args: []string{"resources", "list"}, tty: true,
		check: stdoutHas(`re\u061cport <file:///srv/re\u2066port.txt> (text/pl\u200bain)`)},
	{name: "invisible_names_prompts", stdio: "invisible", args: []string{"prompts", "list"}, tty: true,
		check: stdoutHas(`sum\u200dmarize — Summarise`, `    args: to\u200bpic*`)},
	{name: "invisible_names_content", stdio: "invisible", args: []string{"tools", "call", "--no-validate", "del\u200bete_all"}, tty: true,
		check: stdoutHas(`[resource link: li\u200bnk <file:///a\ufeffb>]`)},
	{name: "invisible_names_error_line", stdio: "invisible", http: "invisible", args: []string{"tools", "call", "delete_all"}, exit: 2,
		msg: `^mcpctl: tools/call delete_all: the server has no tool "delete_all"; did you mean "del\\u200bete_all"\?$`},

	// Issue 24, item 9: free text that hides text from a person (tag
	// characters, runs of zero-width characters, a bidi override) shows it
	// as escapes at a terminal; JSON to a pipe keeps it byte for byte.
	{name: "hidden_text_descriptions_terminal", stdio: "hiddentext", http: "hiddentext", args: toolsList, tty: true,
		check: stdoutHas("notes — Adds a note."+escaped(fakemcp.Tags(fakemcp.HiddenWords))+"\n", `zw — Zero\u200b\u200c\u200c\u200b\u200c`, `turned — abc\u202edef`)},
	{name: "hidden_text_descriptions_table", stdio: "hiddentext", args: append([]string{"-o", "table"}, toolsList...), tty: true,
		check: stdoutHas(`Adds a note.\U000e0049\U000e0067`, `Zero\u200b\u200c`, `abc\u202edef`)},
	{name: "hidden_text_content_terminal", stdio: "hiddentext", http: "hiddentext", args: []string{"tools", "call", "notes"}, tty: true,
		stdout: `^c1 bidi\\u202ex zw\\u200b\\u200by tag\\U000e0041 bad\x{FFFD}\n$`},
	{name: "hidden_text_json_pipe_exact", stdio: "hiddentext", http: "hiddentext", args: toolsList, exact: fakemcp.HiddenTools},

	// Issue 25, item 4: binary content. At a terminal, text shows each
	// item's size and the --out hint, never its base64, not even where
	// structuredContent repeats it; --out refuses what it cannot write,
	// before the tool runs where it can tell.
	{name: "binary_result_terminal", stdio: "binaries", http: "binaries", args: []string{"tools", "call", "one"}, tty: true,
		check: func(t *testing.T, url string, r *faultRun) {
			stdoutHas("[image: image/png, 66 B; use --out FILE to save it]")(t, url, r)
			if b64 := fakemcp.B64(fakemcp.BinaryPNG); strings.Contains(string(r.stdout), b64[:24]) {
				t.Errorf("base64 at the terminal:\n%s", r.stdout)
			}
		}},
	{name: "binary_out_no_binary", stdio: "binaries", http: "binaries", args: []string{"tools", "call", "none", "--out", "-"}, exit: 2,
		msg: `^mcpctl: tools/call none: the result has no image, audio or blob content for --out; nothing is written$`},
	{name: "binary_out_no_folder", stdio: "binaries", http: "binaries", args: []string{"tools", "call", "one", "--out", "/nonexistent-mcpctl-folder/"}, exit: 2,
		msg:   `^mcpctl: --out /nonexistent-mcpctl-folder/: there is no folder /nonexistent-mcpctl-folder/ to write in; create it first$`,
		check: httpCountsAre(map[string]int{"tools/call": 0})},

	// Issue 13, item 5: descendants that left the server's process group
	// with setsid(), out of reach of a signal to the group. The server
	// exits when its input ends; what it started must not outlive mcpctl.
	{name: "grandchild_setsid_keeps_stdout", stdio: "setsidkeep", args: toolsList, stdout: `"method":"tools/list"`},
	{name: "grandchild_setsid_daemon", stdio: "setsiddaemon", args: toolsList, stdout: `"method":"tools/list"`},
	{name: "grandchild_double_fork", stdio: "doublefork", args: toolsList, stdout: `"method":"tools/list"`},

	// Issue 25, item 3: structured results that break the tool's
	// outputSchema (tests/fakemcp/outputs.go). A warning line names the
	// tool, the first failing place and what was expected, and the result
	// is printed as it came; --strict makes it an error (exit 3).
	{name: "output_schema_not_object", stdio: "outputs", http: "outputs", args: []string{"tools", "call", "notobject"},
		stdout: `"structuredContent":\["SF",40\]`, check: oneWarning(`^mcpctl: warning: tools/call notobject: the result does not match the tool's outputSchema: structuredContent: got array, want object \(--strict makes this an error\)$`)},
	{name: "output_schema_not_object_strict", stdio: "outputs", http: "outputs", args: []string{"tools", "call", "notobject", "--strict"}, exit: 3,
		msg: `^mcpctl: tools/call notobject: the result does not match the tool's outputSchema: structuredContent: got array, want object \(without --strict it is printed, with a warning\)$`},
	{name: "output_schema_missing_required", stdio: "outputs", http: "outputs", args: []string{"tools", "call", "missing"},
		stdout: `"structuredContent":\{"location":"SF"\}`, check: oneWarning(`: missing required field structuredContent\.humidity \(integer\) \(--strict makes this an error\)$`)},
	{name: "output_schema_missing_required_strict", stdio: "outputs", http: "outputs", args: []string{"tools", "call", "missing", "--strict"}, exit: 3,
		msg: `^mcpctl: tools/call missing: the result does not match the tool's outputSchema: missing required field structuredContent\.humidity \(integer\)`},
	{name: "output_schema_wrong_type_deep", stdio: "outputs", http: "outputs", args: []string{"tools", "call", "deep"},
		stdout: `"temp":"warm"`, check: oneWarning(`: structuredContent\.forecast\[1\]\.temp: got string, want number \(--strict makes this an error\)$`)},
	{name: "output_schema_wrong_type_deep_strict", stdio: "outputs", http: "outputs", args: []string{"tools", "call", "deep", "--strict"}, exit: 3,
		msg: `^mcpctl: tools/call deep: the result does not match the tool's outputSchema: structuredContent\.forecast\[1\]\.temp: got string, want number`},
	{name: "output_schema_does_not_compile", stdio: "outputs", http: "outputs", args: []string{"tools", "call", "badschema"},
		stdout: `"structuredContent":\{"humidity":"high"\}`, check: oneWarning(`^mcpctl: warning: tools/call badschema: the result is not checked: its outputSchema is not a valid JSON Schema 2020-12: .*"#/required": got string, want array$`)},
	{name: "output_schema_does_not_compile_strict", stdio: "outputs", http: "outputs", args: []string{"tools", "call", "badschema", "--strict"},
		stdout: `"structuredContent":\{"humidity":"high"\}`, check: oneWarning(`: the result is not checked: its outputSchema is not a valid JSON Schema`)},
	{name: "output_schema_iserror_not_checked", stdio: "outputs", http: "outputs", args: []string{"tools", "call", "fails", "--strict"}, exit: 1,
		stdout: `"isError":true`, check: oneWarning("")},
	{name: "output_schema_escapes", stdio: "outputs", http: "outputs", args: []string{"tools", "call", "hostile"},
		check: oneWarning(`: missing required field structuredContent\.evil line \(--strict makes this an error\)$`)},
}

// oneWarning wants exactly one warning line on stderr, matching re; none
// for "".
func oneWarning(re string) func(*testing.T, string, *faultRun) {
	return func(t *testing.T, _ string, r *faultRun) {
		t.Helper()
		var warnings []string
		for _, l := range strings.Split(r.stderr, "\n") {
			if strings.HasPrefix(l, "mcpctl: warning: ") {
				warnings = append(warnings, l)
			}
		}
		switch {
		case re == "" && len(warnings) > 0:
			t.Errorf("warnings, want none:\n%s", tail(r.stderr))
		case re != "" && (len(warnings) != 1 || !regexp.MustCompile(re).MatchString(warnings[0])):
			t.Errorf("want one warning line matching %s; stderr:\n%s", re, tail(r.stderr))
		}
	}
}

// taskRoundsHint is the way out mcpctl names when a task kept asking past
// --max-rounds (issue 13, item 8).
// sessionForTasks is the words that say how a stdio server's task could
// have outlived the command (a session), as a pattern.
var sessionForTasks = regexp.QuoteMeta(`a session ('mcpctl session start' with the same server flags) keeps the server and its tasks between commands`)

// taskEndsRoundsHint is the hint after a task's round limit when the task
// ends with the command's server.
var taskEndsRoundsHint = regexp.QuoteMeta(`it ends with its server: answer it on the command line (--answer, --answers) or wait longer with a larger --max-rounds; `) + sessionForTasks

func taskRoundsHint(id string) string {
	return regexp.QuoteMeta(`it keeps running: 'mcpctl tasks get ` + id + `' shows what it asks, 'mcpctl tasks update ` + id + `' answers it, a larger --max-rounds waits longer`)
}

// httpCountsAre checks, over HTTP, how many requests of each method the
// fake server saw (a stdio server's counts die with it).
func httpCountsAre(want map[string]int) func(*testing.T, string, *faultRun) {
	return func(t *testing.T, url string, _ *faultRun) {
		t.Helper()
		if url == "" {
			return
		}
		got := fakeCounts(t, url)
		for method, n := range want {
			if got[method] != n {
				t.Errorf("the server saw %d %s requests, want %d", got[method], method, n)
			}
		}
	}
}

// refusedURL is a fault case of a URL elicitation mcpctl will not show.
func refusedURL(name, kind, why string) faultCase {
	return faultCase{name: name, stdio: "urlelicit:" + kind, http: "urlelicit:" + kind, args: callX,
		stdout: `"text":"the client answered cancel"`,
		check:  stderrMatches(`(?m)^mcpctl: warning: refused the server's URL elicitation "page" \(.*\): ` + why + `.*; answered cancel$`)}
}

// escapedToolName is the escapes mode's tool name as the server means it.
func escapedToolName() string { return decodeJSONString("evil" + fakemcp.EscapeText) }

func countIs(method string, want int) func(*testing.T, string, *faultRun) {
	return func(t *testing.T, url string, _ *faultRun) {
		t.Helper()
		if got := fakeCounts(t, url)[method]; got != want {
			t.Errorf("the server saw %d %s requests, want %d", got, method, want)
		}
	}
}

// sigtermAfterEOF wants the slowexit server to have seen its input end,
// then SIGTERM, within [min, max) of it, and mcpctl to be done long
// before the server's own 30s.
func sigtermAfterEOF(min, max time.Duration) func(*testing.T, string, *faultRun) {
	rx := regexp.MustCompile(`(?m)^fakemcp: input closed; leaving in 30s\nfakemcp: SIGTERM (\d+)ms after my input closed$`)
	return func(t *testing.T, _ string, r *faultRun) {
		t.Helper()
		m := rx.FindStringSubmatch(r.stderr)
		if m == nil {
			t.Fatalf("the server did not see its input end, then SIGTERM:\n%s", tail(r.stderr))
		}
		ms, _ := strconv.Atoi(m[1])
		if d := time.Duration(ms) * time.Millisecond; d < min || d >= max {
			t.Errorf("SIGTERM came %s after the server's input closed, want at least %s and under %s", d, min, max)
		}
		if r.elapsed > 15*time.Second {
			t.Errorf("took %s: the server's slow exit was waited out", r.elapsed)
		}
	}
}

func stderrMatches(re string) func(*testing.T, string, *faultRun) {
	rx := regexp.MustCompile(re)
	return func(t *testing.T, _ string, r *faultRun) {
		t.Helper()
		if !rx.MatchString(r.stderr) {
			t.Errorf("stderr does not match %s:\n%s", re, tail(r.stderr))
		}
	}
}

func TestFaults(t *testing.T) {
	bin := faultBinaries(t)
	for _, c := range faultCases {
		for _, transport := range []string{"stdio", "http"} {
			if (transport == "stdio" && c.stdio == "") || (transport == "http" && c.http == "") {
				continue
			}
			t.Run(c.name+"/"+transport, func(t *testing.T) {
				t.Parallel()
				runFaultCase(t, bin, c, transport)
			})
		}
	}
}

func runFaultCase(t *testing.T, bin string, c faultCase, transport string) {
	marker := fmt.Sprintf("mcpctl-fault-%d-%s-%s", os.Getpid(), transport, c.name)
	timeout := c.timeout
	if timeout == 0 {
		timeout = 10 * time.Second
	}
	var args []string
	url := ""
	if transport == "stdio" {
		serverStderr := c.serverStderr
		if serverStderr == "" {
			serverStderr = "discard"
		}
		args = []string{"--stdio", "fakemcp " + c.stdio + " " + marker, "--server-stderr", serverStderr}
	} else {
		url = startFakeHTTP(t, bin, c.http, c.https)
		args = []string{"--url", url}
	}
	args = append(args, "--timeout", timeout.String())
	if !c.unpinned {
		args = append(args, "--protocol-version", "2026-07-28")
	}
	args = append(args, c.args...)
	var env []string
	if c.tty {
		env = append(env, "MCPCTL_FORCE_TTY=1")
	}
	limit := c.maxRSS
	if limit == 0 {
		limit = defaultMaxRSS
	}
	// Far past its limit a run is failing anyway: kill it before it eats
	// the machine (an unbounded listing once reached 6 GiB).
	r := runFaultCapped(t, bin, env, marker, timeout+shutdownGrace+30*time.Second, 2*limit+64, args...)
	t.Logf("exit %d in %s, peak RSS %d MiB", r.code, r.elapsed.Round(time.Millisecond), r.maxRSS/1024)

	if r.elapsed > timeout+shutdownGrace {
		t.Errorf("took %s: more than --timeout %s plus %s", r.elapsed, timeout, shutdownGrace)
	}
	if goCrash.MatchString(r.stderr) {
		t.Errorf("Go crashed:\n%s", tail(r.stderr))
	}
	if r.code != c.exit {
		t.Errorf("exit %d, want %d; stderr:\n%s", r.code, c.exit, tail(r.stderr))
	}
	lines := errorLines(r.stderr)
	switch {
	case c.exit > 1 && (len(lines) != 1 || !regexp.MustCompile(c.msg).MatchString(lines[0])):
		t.Errorf("want one error line matching %s; stderr:\n%s", c.msg, tail(r.stderr))
	case c.exit == 0 && len(lines) > 0:
		t.Errorf("error lines on success:\n%s", tail(r.stderr))
	}
	if c.exit > 1 && c.exit != 6 && len(r.stdout) > 0 {
		t.Errorf("stdout is not empty after a failure: %.300q", r.stdout)
	}
	if c.stdout != "" && !regexp.MustCompile(c.stdout).Match(r.stdout) {
		t.Errorf("stdout does not match %s: %.500q", c.stdout, r.stdout)
	}
	if c.exact != "" && string(r.stdout) != c.exact+"\n" {
		t.Errorf("stdout is not the server's result byte for byte:\n got %.500q\nwant %.500q", r.stdout, c.exact+"\n")
	}
	if c.rawStderr {
		for _, l := range lines {
			if what, bad := terminalActive([]byte(l)); bad {
				t.Errorf("the error line carries %s", what)
			}
		}
	} else if what, bad := terminalActive([]byte(r.stderr)); bad {
		t.Errorf("stderr carries %s", what)
	}
	if c.tty {
		if what, bad := terminalActive(r.stdout); bad {
			t.Errorf("terminal stdout carries %s", what)
		}
	}
	if r.maxRSS > int64(limit)<<10 {
		t.Errorf("peak RSS %d MiB, over the limit of %d MiB", r.maxRSS>>10, limit)
	}
	noneLeft(t, marker)
	if c.check != nil {
		c.check(t, url, r)
	}
}
