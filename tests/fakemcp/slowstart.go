package fakemcp

import (
	"fmt"
	"io"
	"net/http"
	"time"
)

// Issue 25, item 1: what the era probe meets at first contact. The
// probe used to take three seconds of silence for a legacy server;
// these modes are slower than that, or say nothing, or are no server.
//
//	slowdiscover  HTTP: answers server/discover after slowStart, as a
//	              server warming up does, then like "tools"
//	legacymute    stdio: a legacy server that ignores every request
//	              before initialize, as the spec allows (legacy.go)
//	cat           stdio: copies its input to its output
//	asleep        stdio: neither reads nor writes (sleep)
//	slowgarbage   stdio: after slowStart, a line that is not JSON

// slowStart is longer than the three seconds the probe used to give.
const slowStart = 4 * time.Second

// serveStartFault plays the stdio modes above; false for other modes.
func serveStartFault(mode string, in io.Reader, out, errOut io.Writer) (int, bool) {
	switch mode {
	case "cat":
		_, _ = io.Copy(out, in)
		return 0, true
	case "asleep":
		time.Sleep(60 * time.Second)
		return 0, true
	case "slowgarbage":
		time.Sleep(slowStart)
		fmt.Fprintln(out, "Server ready on stdio")
		_, _ = io.Copy(io.Discard, in)
		return 0, true
	}
	return 0, false
}

// slowDiscover holds a slowdiscover server's answer to server/discover
// for slowStart, or until the client gives up.
func slowDiscover(r *http.Request) {
	select {
	case <-time.After(slowStart):
	case <-r.Context().Done():
	}
}
