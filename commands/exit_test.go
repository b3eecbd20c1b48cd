package commands

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/output"
)

func TestExitCode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, 0},
		{"dry run", client.ErrDryRun, 0},
		{"tool error", &ToolError{Name: "x"}, 1},
		{"usage", &UsageError{Msg: "bad flag"}, 2},
		{"usagef", usagef("bad %s", "flag"), 2},
		{"params", &client.ParamsError{Msg: "params must be a JSON object"}, 2},
		{"unknown tool", &client.UnknownToolError{Name: "x"}, 2},
		{"jq", &output.QueryError{Expr: ".[", Compile: true, Err: errors.New("unexpected EOF")}, 2},
		{"connection", &client.ConnError{Msg: "cannot reach"}, 3},
		{"timeout", &client.TimeoutError{Method: "tools/list", After: "1s"}, 3},
		{"protocol", &client.ProtocolError{Msg: "bad"}, 3},
		{"http", &client.HTTPError{Status: 500}, 3},
		{"listing too large", &client.ListTooLargeError{Method: "tools/list", Limit: 1 << 20, Pages: 3}, 3},
		{"listing too slow", &client.ListTimeoutError{Method: "tools/list", After: "1s", Pages: 3}, 3},
		{"rpc", &client.RPCError{Code: -32601, Message: "Method not found"}, 4},
		{"invalid tool", &client.InvalidToolError{Name: "x", Reason: "y"}, 4},
		{"version", &client.VersionError{Ours: []string{"a"}, Theirs: []string{"b"}}, 4},
		{"auth", &client.AuthError{Status: 401}, 5},
		{"input required", &client.InputRequiredError{Requests: []client.InputRequest{{Key: "q", Method: "elicitation/create"}}}, 6},
		{"interrupted", context.Canceled, 130},
		{"unknown error", errors.New("something"), 3},
		{"deadline of the caller", context.DeadlineExceeded, 3},
		// A cancelled operation counts as interrupted even inside another kind.
		{"connection cancelled", &client.ConnError{Msg: "x", Err: context.Canceled}, 130},
	}
	wraps := []struct {
		name string
		wrap func(error) error
	}{
		{"bare", func(e error) error { return e }},
		{"fmt %w", func(e error) error { return fmt.Errorf("context: %w", e) }},
		{"opError", func(e error) error { return wrapOp("tools/call x", e) }},
		{"opError in %w", func(e error) error { return fmt.Errorf("outer: %w", wrapOp("tools/list", e)) }},
		{"%w in opError", func(e error) error { return wrapOp("op", fmt.Errorf("inner: %w", e)) }},
	}
	for _, tc := range tests {
		for _, w := range wraps {
			if tc.err == nil && w.name != "bare" {
				continue
			}
			t.Run(tc.name+"/"+w.name, func(t *testing.T) {
				err := w.wrap(tc.err)
				if got := ExitCode(err); got != tc.want {
					t.Errorf("ExitCode(%v) = %d, want %d", err, got, tc.want)
				}
			})
		}
	}
}

func TestExitCodeConstants(t *testing.T) {
	t.Parallel()
	// The table is documented; pin the numbers.
	got := []int{ExitOK, ExitToolError, ExitUsage, ExitConnection, ExitServerError, ExitAuth, ExitInput, ExitInterrupted}
	want := []int{0, 1, 2, 3, 4, 5, 6, 130}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("constant %d = %d, want %d", i, got[i], want[i])
		}
	}
}

func TestWrapOp(t *testing.T) {
	t.Parallel()
	if wrapOp("x", nil) != nil {
		t.Error("wrapOp(nil) is not nil")
	}
	inner := &client.RPCError{Code: -32602, Message: "Invalid params"}
	err := wrapOp("tools/call echo", inner)
	if err.Error() != "tools/call echo: server error -32602: Invalid params" {
		t.Errorf("Error() = %q", err.Error())
	}
	var rpc *client.RPCError
	if !errors.As(err, &rpc) || rpc != inner {
		t.Error("errors.As cannot reach the cause")
	}
}
