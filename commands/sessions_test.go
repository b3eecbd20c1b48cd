package commands

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/internal/secrets"
)

func TestSessionFlags(t *testing.T) {
	t.Parallel()
	checkFlags(t, "session", newCmdSessionStart, []flagCase[sessionStartOptions]{
		{args: []string{"session", "start"}, want: &sessionStartOptions{idle: defaultIdle}},
		{args: []string{"session", "start", "--idle", "30s", "--name", "x", "--replace"}, want: &sessionStartOptions{idle: 30 * time.Second, name: "x", replace: true}},
		{args: []string{"session", "start", "--idle", "0s"}, err: "--idle must be positive"},
		{args: []string{"session", "start", "extra"}, err: "usage: mcpctl session start"},
	})
	checkFlags(t, "session", newCmdSessionStop, []flagCase[sessionStopOptions]{
		{args: []string{"session", "stop", "a", "b"}, want: &sessionStopOptions{names: []string{"a", "b"}}},
		{args: []string{"session", "stop", "--all"}, want: &sessionStopOptions{names: []string{}, all: true}},
		{args: []string{"session", "stop"}, err: "usage: mcpctl session stop NAME… | --all"},
		{args: []string{"session", "stop", "--all", "a"}, err: "usage: mcpctl session stop NAME… | --all"},
	})
	checkFlags(t, "session", newCmdSessionLogs, []flagCase[sessionLogsOptions]{
		{args: []string{"session", "logs", "a"}, want: &sessionLogsOptions{name: "a"}},
		{args: []string{"session", "logs"}, err: "usage: mcpctl session logs NAME"},
	})
	checkFlags(t, "session", newCmdSessionList, []flagCase[sessionListOptions]{
		{args: []string{"session", "list", "-o", "table"}, want: &sessionListOptions{}},
	})
}

// sessionIDFor is the session a command line (run in cwd, with vars)
// would use.
func sessionIDFor(t *testing.T, cwd string, vars map[string]string, args ...string) string {
	t.Helper()
	e := isolate(t)
	if cwd != "" {
		e.cwd = cwd
	}
	e.Setenv("MCPCTL_STATE_DIR", "/state")
	for k, v := range vars {
		e.Setenv(k, v)
	}
	var id string
	r := e.runCommand("tools", func(f *Factory) *cli.Command {
		return newCmdToolsList(f, func(o *listOptions) error {
			st, err := resolve(f, o.Globals, ConnectOptions{})
			if err == nil {
				id = st.sessionID
			}
			return err
		})
	}, append(args, "tools", "list")...)
	if r.code != ExitOK || id == "" {
		t.Fatalf("%v: exit %d: %s", args, r.code, r.err)
	}
	return id
}

// A session serves only callers the server would see as the one that
// started it (docs/sessions.md, "Who a session serves"): what decides
// who the server sees is part of the session's identity; what is the
// invocation's own (its output, its answers to the server's questions)
// is not.
func TestSessionIdentity(t *testing.T) {
	t.Parallel()
	const url = "http://127.0.0.1:1/mcp"
	http := func(args ...string) []string { return append([]string{"--url", url}, args...) }
	stdio := func(args ...string) []string { return append([]string{"--stdio", "srv --flag"}, args...) }
	type line struct {
		cwd  string
		vars map[string]string
		args []string
	}
	bearer := map[string]string{"MCPCTL_BEARER": "alice"}
	for _, tc := range []struct {
		name string
		a, b line
		same bool
	}{
		{"the bearer, by flag or variable", line{args: http("--bearer", "alice")}, line{vars: bearer, args: http()}, true},
		{"the invocation's own flags", line{args: http("--bearer", "alice")},
			line{args: http("--bearer", "alice", "--trace", "-o", "yaml", "--root", "/r", "--answer", "k.f=v", "--timeout", "5s", "--no-cache")}, true},
		{"another bearer", line{args: http("--bearer", "alice")}, line{args: http("--bearer", "bob")}, false},
		{"an Authorization header", line{args: http("--bearer", "alice")}, line{args: http("-H", "Authorization: Bearer carol")}, false},
		{"no credential", line{args: http("--bearer", "alice")}, line{args: http()}, false},
		{"another header", line{args: http("--bearer", "alice")}, line{args: http("--bearer", "alice", "-H", "X-Tenant: b")}, false},
		{"--insecure", line{args: http()}, line{args: http("--insecure")}, false},
		{"another OAuth client", line{args: http()}, line{args: http("--client-id", "other")}, false},
		{"another token store", line{args: http()}, line{vars: map[string]string{"MCPCTL_STATE_DIR": "/elsewhere"}, args: http()}, false},
		{"how a login goes at a terminal", line{args: http()}, line{args: http("--no-browser", "--callback-port", "8123")}, true},
		{"an HTTP caller's folder", line{cwd: "/a", args: http()}, line{cwd: "/b", args: http()}, true},
		{"a stdio caller's folder", line{cwd: "/a", args: stdio()}, line{cwd: "/b", args: stdio()}, false},
		{"--cwd to the same folder", line{cwd: "/a", args: stdio()}, line{cwd: "/b", args: stdio("--cwd", "/a")}, true},
		{"a relative --cwd", line{cwd: "/a", args: stdio("--cwd", "x")}, line{cwd: "/b", args: stdio("--cwd", "/a/x")}, true},
		{"another --env", line{cwd: "/a", args: stdio("--env", "K=1")}, line{cwd: "/a", args: stdio("--env", "K=2")}, false},
		{"the bearer to a stdio server", line{cwd: "/a", args: stdio()}, line{cwd: "/a", vars: bearer, args: stdio()}, true},
	} {
		a, b := sessionIDFor(t, tc.a.cwd, tc.a.vars, tc.a.args...), sessionIDFor(t, tc.b.cwd, tc.b.vars, tc.b.args...)
		if (a == b) != tc.same {
			t.Errorf("%s: the same session: %v, want %v", tc.name, a == b, tc.same)
		}
		for _, secret := range []string{"alice", "bob", "carol"} {
			if strings.Contains(a+b, secret) {
				t.Errorf("%s: a session's name holds the credential %q", tc.name, secret)
			}
		}
	}
}

// untiedLogs is a transport whose every way of handing over what is tied
// to no request (Notifications, Watch, OpenEvents) gives one log message.
type untiedLogs struct{ msg client.Notification }

func (u untiedLogs) RoundTrip(context.Context, *client.Request, func(client.Notification)) (*client.Message, error) {
	return nil, nil
}
func (u untiedLogs) Close() error { return nil }
func (u untiedLogs) Capabilities() client.Capabilities {
	return client.Capabilities{
		Notifications: func(fn func(client.Notification)) { fn(u.msg) },
		Watch:         func(_ context.Context, fn func(client.Notification)) error { fn(u.msg); return nil },
		OpenEvents:    func(_ context.Context, fn func(client.Notification)) { fn(u.msg) },
	}
}

// What a session relays of a server's log messages tied to no request (on
// stdio, on a legacy HTTP server's GET stream) has the session's
// credentials redacted, as those of a request have.
func TestSessionRedactsUntiedLogs(t *testing.T) {
	t.Parallel()
	const token = "s3cr3t-token-value"
	set := &secrets.Set{}
	set.Add(token)
	params := json.RawMessage(`{"level":"info","data":"you sent ` + token + `"}`)
	caps := redactErrors(untiedLogs{client.Notification{Method: "notifications/message", Params: params, Raw: params}}, set).Capabilities()
	var got []string
	note := func(n client.Notification) { got = append(got, string(n.Params), string(n.Raw)) }
	caps.Notifications(note)
	_ = caps.Watch(context.Background(), note)
	caps.OpenEvents(context.Background(), note)
	if len(got) != 6 {
		t.Fatalf("got %d, want 6: %q", len(got), got)
	}
	for _, s := range got {
		if strings.Contains(s, token) || !strings.Contains(s, secrets.Redacted) {
			t.Errorf("relayed %s", s)
		}
	}
}
