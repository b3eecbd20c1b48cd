//go:build linux || darwin

package sessiond_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/mcptest"
	"github.com/mcpctl/mcpctl/internal/sessiond"
)

// A session for a server (here one in the same process), and an
// invocation that calls a tool through it: Serve holds the connection,
// Dial finds the session, NewTransport speaks to it, and the Hello pins
// the era so that the invocation's client sends no probe.
func Example() {
	base, _ := os.MkdirTemp("", "sd")
	defer os.RemoveAll(base)
	_ = os.Chmod(base, 0o700)
	dir, err := sessiond.OpenDir(base, true) // the folder sessions/ in it, checked and held open
	if err != nil {
		fmt.Println(err)
		return
	}
	defer dir.Close()

	srv := mcptest.NewServer(func(ctx context.Context, r *mcptest.Request) (any, error) {
		switch r.Method {
		case "server/discover":
			return json.RawMessage(`{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"serverInfo":{"name":"demo","version":"1"}}`), nil
		case "tools/call":
			return json.RawMessage(`{"content":[{"type":"text","text":"hello"}]}`), nil
		}
		return nil, &mcptest.Error{Code: client.CodeMethodNotFound, Message: "no " + r.Method}
	})
	cfg := sessiond.Config{
		Dir: dir, ID: sessiond.ID("stdio:demo"), Name: "demo", Server: "demo", Idle: time.Minute,
		// As a one-shot run would connect, with every transport wrapped.
		Connect: func(ctx context.Context, wrap func(client.Transport) client.Transport) (*client.Client, func(), error) {
			c := client.New(wrap(client.NewConn(srv.Conn(), client.ConnOptions{})), client.Options{})
			return c, func() { c.Close() }, nil
		},
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	ready, served := make(chan sessiond.Hello, 1), make(chan error, 1)
	go func() { served <- sessiond.Serve(ctx, cfg, func(h sessiond.Hello) { ready <- h }) }()
	hello := <-ready
	fmt.Println("serving:", hello.Name, hello.Era, hello.Version)

	conn, err := sessiond.Dial(sessiond.Paths{Dir: cfg.Dir, ID: cfg.ID})
	if err != nil || conn == nil {
		fmt.Println("no session:", err)
		return
	}
	c := client.New(sessiond.NewTransport(conn, client.ConnOptions{}),
		client.Options{Era: conn.Hello.Era, ProtocolVersion: conn.Hello.Version})
	res, err := c.Call(ctx, "tools/call", json.RawMessage(`{"name":"greet"}`), nil)
	fmt.Println(string(res), err)
	c.Close()

	stop()
	fmt.Println("stopped:", <-served)
	// Output:
	// serving: demo modern 2026-07-28
	// {"content":[{"type":"text","text":"hello"}]} <nil>
	// stopped: <nil>
}
