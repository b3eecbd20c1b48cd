//go:build unix

package client

import "testing"

// stdio, with a real server process: it reads the four requests (ids 1
// to 4: the era is given, so there is no probe), then sends a log message
// and the progress of each, then the answers.
func TestRoutingStdio(t *testing.T) {
	tr := shServer(t, `read a; read b; read c; read d
printf '%s\n' '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"for no request in particular"}}'
for i in 1 2 3 4; do printf '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":%s,"progress":1}}\n' $i; done
for i in 1 2 3 4; do printf '{"jsonrpc":"2.0","id":%s,"result":{"content":[]}}\n' $i; done
read end`, StdioOptions{})
	r := newRoutes()
	c := New(tr, Options{Era: EraModern, Hooks: Hooks{OnNotify: r.hook}})
	checkRouting(t, c, r)
}
