package fakemcp

// Issue 16, item 4: a server slow to leave once its input ends. mcpctl
// must not wait out such an exit after the answer has arrived: stdin
// closed, a short grace (--shutdown-grace), then SIGTERM.

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// serveSlowExit answers like echo; when its input ends it says so on
// stderr and lingers 30 seconds before exiting. SIGTERM ends it at once,
// with a line on stderr saying how long after the end of its input it
// came (or that it came first), so a test can see the order.
func serveSlowExit(in io.Reader, out, errOut io.Writer) int {
	var mu sync.Mutex // orders the two lines on stderr
	var eof time.Time
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM)
	go func() {
		<-term
		mu.Lock()
		if eof.IsZero() {
			fmt.Fprintln(errOut, "fakemcp: SIGTERM before my input closed")
		} else {
			fmt.Fprintf(errOut, "fakemcp: SIGTERM %dms after my input closed\n", time.Since(eof).Milliseconds())
		}
		os.Exit(143)
	}()
	serveLines(in, out, errOut, newServer("echo"))
	mu.Lock()
	eof = time.Now()
	fmt.Fprintln(errOut, "fakemcp: input closed; leaving in 30s")
	mu.Unlock()
	time.Sleep(30 * time.Second)
	return 0
}
