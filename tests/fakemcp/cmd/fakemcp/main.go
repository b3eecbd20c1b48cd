// Command fakemcp runs the misbehaving test server on its own, for
// benchmarks, the fault suite and by hand: "fakemcp MODE" on stdio,
// "fakemcp --http 127.0.0.1:0 MODE" on Streamable HTTP, or "--https" for
// the same over TLS with a certificate no one trusts (it prints its URL).
package main

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/mcpctl/mcpctl/tests/fakemcp"
)

func main() {
	if len(os.Args) == 4 && (os.Args[1] == "--http" || os.Args[1] == "--https") {
		ln, err := net.Listen("tcp", os.Args[2])
		if err != nil {
			fmt.Fprintln(os.Stderr, "fakemcp:", err)
			os.Exit(1)
		}
		if os.Args[1] == "--https" {
			srv := httptest.NewUnstartedServer(fakemcp.Handler(os.Args[3]))
			srv.Listener = ln
			srv.StartTLS()
			fmt.Printf("listening on %s/mcp\n", srv.URL)
			select {}
		}
		fmt.Printf("listening on http://%s/mcp\n", ln.Addr())
		fmt.Fprintln(os.Stderr, http.Serve(ln, fakemcp.Handler(os.Args[3])))
		os.Exit(1)
	}
	os.Exit(fakemcp.Main())
}
