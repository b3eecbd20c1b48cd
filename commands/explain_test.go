package commands

import (
	"fmt"
	"testing"

	"github.com/mcpctl/mcpctl/client"
)

// A 404 at a path that is not an MCP endpoint's asks after the path; at
// one that looks like it, or for another failure, nothing is said.
func TestPathHint(t *testing.T) {
	notFound := fmt.Errorf("tools/list: %w", &client.HTTPError{Status: 404, StatusText: "Not Found"})
	const hint = "is the path right? MCP servers usually serve /mcp"
	for _, c := range []struct {
		url  string
		err  error
		want string
	}{
		{"http://127.0.0.1:8080/api", notFound, hint},
		{"http://127.0.0.1:8080", notFound, hint},
		{"http://127.0.0.1:8080/", notFound, hint},
		{"http://127.0.0.1:8080/v1/messages", &client.HTTPError{Status: 405}, hint},
		{"http://127.0.0.1:8080/mcp", notFound, ""},
		{"http://127.0.0.1:8080/MCP/", notFound, ""},
		{"http://127.0.0.1:8080/api/mcp", notFound, ""},
		{"http://127.0.0.1:8080/sse", notFound, ""},
		{"http://127.0.0.1:8080/mcp/v1", notFound, ""},
		{"http://127.0.0.1:8080/github-mcp", notFound, ""},
		{"http://127.0.0.1:8080/api", &client.HTTPError{Status: 500}, ""},
		{"http://127.0.0.1:8080/api", &client.RPCError{Code: -32601, HTTPStatus: 404}, ""},
	} {
		if got := pathHint(c.err, c.url); got != c.want {
			t.Errorf("pathHint(%v, %s) = %q, want %q", c.err, c.url, got, c.want)
		}
	}
}
