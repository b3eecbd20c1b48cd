// Command fakemcp runs the misbehaving test server on its own, for
// benchmarks and by hand: "fakemcp MODE" on stdio, or
// "fakemcp --http 127.0.0.1:0 MODE" on Streamable HTTP (it prints its URL).
package main

import (
	"fmt"
	"net"
	"net/http"
	"os"

	"github.com/mcpctl/mcpctl/tests/fakemcp"
)

func main() {
	if len(os.Args) == 4 && os.Args[1] == "--http" {
		ln, err := net.Listen("tcp", os.Args[2])
		if err != nil {
			fmt.Fprintln(os.Stderr, "fakemcp:", err)
			os.Exit(1)
		}
		fmt.Printf("listening on http://%s/mcp\n", ln.Addr())
		fmt.Fprintln(os.Stderr, http.Serve(ln, fakemcp.Handler(os.Args[3])))
		os.Exit(1)
	}
	os.Exit(fakemcp.Main())
}
