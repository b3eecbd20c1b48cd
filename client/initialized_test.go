package client

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mcpctl/mcpctl/client/mcptest"
)

// A handshake done on the client's behalf (Options.Initialized: a session
// holding the server's connection) is taken as the client's own: no
// initialize is sent, server/discover answers from it, and what follows a
// handshake (the log level asked for) is still done, once.
func TestInitializedByAnother(t *testing.T) {
	t.Parallel()
	srv := mcptest.NewServer(func(_ context.Context, r *mcptest.Request) (any, error) {
		if r.Method == "logging/setLevel" {
			return json.RawMessage(`{}`), nil
		}
		if r.Method == "tools/list" {
			return json.RawMessage(`{"tools":[]}`), nil
		}
		return nil, &mcptest.Error{Code: CodeMethodNotFound, Message: "Method not found"}
	})
	init := json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"logging":{}},"serverInfo":{"name":"held","version":"1"}}`)
	c := New(NewConn(srv.Conn(), ConnOptions{}), Options{Era: EraLegacy, ProtocolVersion: "2025-11-25", Initialized: init, LogLevel: "info"})
	defer c.Close()
	if _, err := c.Call(context.Background(), "tools/list", nil, nil); err != nil {
		t.Fatal(err)
	}
	got, err := c.Call(context.Background(), "server/discover", nil, nil)
	if err != nil || string(got) != string(init) {
		t.Errorf("server/discover %s, %v; want the given InitializeResult", got, err)
	}
	if m := srv.Methods(); len(m) != 2 || m[0] != "logging/setLevel" || m[1] != "tools/list" {
		t.Errorf("the server got %q; want logging/setLevel and tools/list, no initialize", m)
	}
}
