package commands

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/mcptest"
)

// inProcess answers every session of a test factory from a scripted
// server in the same process, and records the settings each transport
// was dialled with.
type inProcess struct {
	mu     sync.Mutex
	dialed []connSettings
	server *mcptest.Server
}

func newInProcess() *inProcess {
	return &inProcess{server: mcptest.NewServer(func(_ context.Context, r *mcptest.Request) (any, error) {
		switch r.Method {
		case "server/discover":
			return json.RawMessage(`{"supportedVersions":["` + client.LatestVersion + `"],"capabilities":{"tools":{}}}`), nil
		case "tools/list":
			return json.RawMessage(`{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}`), nil
		}
		return nil, &mcptest.Error{Code: -32601, Message: "Method not found"}
	})}
}

func (p *inProcess) transport(st *connSettings) (client.Transport, error) {
	p.mu.Lock()
	p.dialed = append(p.dialed, *st)
	p.mu.Unlock()
	return client.NewConn(p.server.Conn(), client.ConnOptions{}), nil
}

// inProcessConnect is the real Connect of f, dialling p's server.
func (p *inProcess) connect(f *Factory) ConnectFunc {
	return func(ctx context.Context, g *GlobalOptions, how ConnectOptions) (Connection, error) {
		return connectVia(ctx, f, g, how, p.transport)
	}
}

// Building a connection changes nothing but the connection: two
// connections from one command line have equal settings, a reconnect
// dials with the same settings and leaves them as they were, and the
// connection still works.
func TestSessionSettingsResolvedOnce(t *testing.T) {
	t.Parallel()
	for _, server := range [][]string{
		{"--url", "http://127.0.0.1:1/mcp", "-H", "X-A: 1", "--bearer", "tok", "--max-message-size", "1MiB"},
		{"--stdio", "demo-server --flag", "--env", "K=V", "--cwd", "/tmp", "--server-stderr", "discard"},
	} {
		t.Run(server[0], func(t *testing.T) {
			t.Parallel()
			e := isolate(t)
			p := newInProcess()
			var first, second, afterReconnect connSettings
			var listed string
			build := func(f *Factory) *cli.Command {
				f.Connect = p.connect(f)
				return newCmdToolsList(f, func(o *listOptions) error {
					c1, err := o.Connect(o.ctx())
					if err != nil {
						return err
					}
					first = *c1.(*connection).connSettings
					c1.Close()
					c2, err := o.Connect(o.ctx())
					if err != nil {
						return err
					}
					defer c2.Close()
					second = *c2.(*connection).connSettings
					if err := c2.Reconnect(); err != nil {
						return err
					}
					afterReconnect = *c2.(*connection).connSettings
					raw, _, err := c2.Client().ListTools(o.ctx(), "", true)
					listed = string(raw)
					return err
				})
			}
			r := e.runCommand("tools", build, append(server, "--protocol-version", client.LatestVersion, "tools", "list")...)
			if r.code != ExitOK {
				t.Fatalf("exit %d, stderr %q", r.code, r.err)
			}
			if !reflect.DeepEqual(first, second) {
				t.Errorf("two connections from one line differ:\n%+v\n%+v", first, second)
			}
			if !reflect.DeepEqual(second, afterReconnect) {
				t.Errorf("a reconnect changed the settings:\n%+v\n%+v", second, afterReconnect)
			}
			if len(p.dialed) != 3 {
				t.Fatalf("%d transports dialled, want 3 (two connections and a reconnect)", len(p.dialed))
			}
			for i, d := range p.dialed {
				if !reflect.DeepEqual(d, first) {
					t.Errorf("transport %d dialled with\n%+v\nwant\n%+v", i, d, first)
				}
			}
			if !strings.Contains(listed, `"name":"echo"`) {
				t.Errorf("after the reconnect tools/list gave %s", listed)
			}
		})
	}
	// What the settings say, for each kind of server.
	e := isolate(t)
	var st *connSettings
	build := func(f *Factory) *cli.Command {
		return newCmdToolsList(f, func(o *listOptions) error {
			var err error
			st, err = resolve(o.f, o.Globals, ConnectOptions{})
			return err
		})
	}
	if r := e.runCommand("tools", build, "--url", "http://127.0.0.1:1/mcp", "--bearer", "tok", "-H", "X-A: 1", "tools", "list"); r.code != ExitOK {
		t.Fatalf("exit %d, stderr %q", r.code, r.err)
	}
	if !st.http || st.target != "http://127.0.0.1:1/mcp" || st.conn.url != st.target ||
		!reflect.DeepEqual(st.header, map[string][]string{"X-A": {"1"}, "Authorization": {"Bearer tok"}}) || st.maxMessage != 64<<20 {
		t.Errorf("HTTP settings %+v", st)
	}
	if _, given := st.ep.header["Authorization"]; given {
		t.Error("--bearer was written into the endpoint's headers")
	}
	if r := e.runCommand("tools", build, "--stdio", "srv a", "--env", "K=V", "tools", "list"); r.code != ExitOK {
		t.Fatalf("exit %d, stderr %q", r.code, r.err)
	}
	if st.http || st.target != "srv a" || st.conn.stdio != "srv a" || st.childEnv[len(st.childEnv)-1] != "K=V" || !strings.Contains(strings.Join(st.childEnv, "\n"), "PATH=") {
		t.Errorf("stdio settings %+v", st)
	}
}

// A stdio server gets the factory's environment, not the process's, with
// --env on top.
func TestStdioServerEnvironmentFromFactory(t *testing.T) {
	t.Parallel()
	e := isolate(t)
	e.Setenv("MCPCTL_TEST_FROM_FACTORY", "factory")
	server := `read l; printf '{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"%s-%s"}]}}\n' "$MCPCTL_TEST_FROM_FACTORY" "$MCPCTL_TEST_FROM_FLAG"`
	for _, tc := range []struct {
		extra []string
		want  string
	}{
		{nil, `"name":"factory-"`},
		{[]string{"--env", "MCPCTL_TEST_FROM_FLAG=flag"}, `"name":"factory-flag"`},
	} {
		args := append([]string{"--protocol-version", client.LatestVersion, "--stdio", "sh -c '" + strings.ReplaceAll(server, "'", `'\''`) + "'", "tools", "list"}, tc.extra...)
		r := e.run("", args...)
		if r.code != ExitOK || !strings.Contains(r.stdout, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %s", tc.extra, r.code, r.stdout, r.err, tc.want)
		}
	}
}
