package fakemcp

// Issue 23, item 7: a server that sends log messages while several
// requests are in flight, so that a test can count how often a client
// shows each one (once: a log message on a shared connection belongs to no
// request in particular).
//
//	logs:N           modern, stdio: every tools/call waits until N are in
//	                 flight together (5s at most); then the call that made
//	                 N sends six log messages (notifications/message), and
//	                 all of them answer
//	legacylogs:N     the same as a legacy server (2025-11-25), over stdio
//	                 and Streamable HTTP (there the messages go on the
//	                 stream of the call that made N)
//	legacysselogs:N  the same over HTTP+SSE

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"
)

// logBurst is how many log messages the gathered calls bring.
const logBurst = 6

// gathering holds tools/call requests until N are in flight together.
type gathering struct {
	want int
	mu   sync.Mutex
	held int
	open chan struct{} // closed when the group is complete
}

// gatherSize is N of a logs mode, or 0 for another mode.
func gatherSize(mode string) int {
	for _, prefix := range []string{"logs:", "legacylogs:", "legacysselogs:"} {
		if arg, ok := strings.CutPrefix(mode, prefix); ok {
			n, err := strconv.Atoi(arg)
			if err == nil && n > 0 {
				return n
			}
		}
	}
	return 0
}

// gatherer is the server's gathering (one group at a time), nil when its
// mode gathers nothing.
func (s *server) gatherer() *gathering {
	n := gatherSize(s.mode)
	if n == 0 {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gather == nil {
		s.gather = &gathering{want: n, open: make(chan struct{})}
	}
	return s.gather
}

// join waits until the group is complete (or 5s have passed); the call
// that completes it sends the log messages first, through send.
func (g *gathering) join(send func(string)) {
	g.mu.Lock()
	g.held++
	open := g.open
	last := g.held == g.want
	if last {
		g.held, g.open = 0, make(chan struct{})
	}
	g.mu.Unlock()
	if last {
		for i := 1; i <= logBurst; i++ {
			send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"burst","data":"message %d of %d"}}`, i, logBurst))
		}
		close(open)
		return
	}
	select {
	case <-open:
	case <-time.After(5 * time.Second):
	}
}

// gatherReply serves a tools/call of a legacy logs mode.
func (l *legacySession) gatherReply(req request, send func(string)) (string, bool) {
	g := l.srv.gatherer()
	if g == nil || req.Method != "tools/call" {
		return "", false
	}
	g.join(send)
	return result(req.ID, textContent("gathered")), true
}

// serveLogsStdio plays logs:N on stdio, each tools/call on a goroutine of
// its own; ok is false for other modes.
func serveLogsStdio(mode string, in io.Reader, out, errOut io.Writer) (code int, ok bool) {
	if !strings.HasPrefix(mode, "logs:") || gatherSize(mode) == 0 {
		return 0, false
	}
	s := newServer(mode)
	var outMu sync.Mutex
	write := func(msg string) {
		outMu.Lock()
		defer outMu.Unlock()
		fmt.Fprintln(out, msg)
	}
	fmt.Fprintf(errOut, "fakemcp: mode %s ready\n", mode)
	var calls sync.WaitGroup
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var req request
		if json.Unmarshal(sc.Bytes(), &req) != nil || len(req.ID) == 0 {
			continue
		}
		switch req.Method {
		case "server/discover":
			write(result(req.ID, discoverResult))
		case "tools/call":
			calls.Go(func() {
				s.gatherer().join(write)
				write(result(req.ID, textContent("gathered")))
			})
		default:
			write(s.echo(req).messages[0])
		}
	}
	calls.Wait()
	return 0, true
}
