package main

// The latency mode (-latency, tests/bench/latency.sh): what a call costs
// against a remote server that sends ttlMs 0, as both official SDKs do by
// default (issue 16, item 3). The demo runs with --ttl-ms 0 behind a
// loopback TCP proxy that holds every byte back -delay in each direction
// (50 ms of round-trip time by default), with the counting proxy behind
// it so the run can show what reached the server. mcpctl's warm call is
// compared with one curl POST of the same request through the same
// proxies; a cold call (an empty cache directory) is timed for context.

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

var (
	latencyMode = flag.Bool("latency", false, "time only the latency comparison (a warm call against a server that sends ttlMs 0, through a proxy adding -delay each way) and write that section alone to -out")
	oneWay      = flag.Duration("delay", 25*time.Millisecond, "with -latency: the delay the proxy adds to each direction")
)

// delayProxy forwards TCP connections to target, delivering each chunk
// of bytes delay after it arrived, in order, in both directions: a link
// with 2×delay of round-trip time and ample bandwidth. The TCP handshake
// with the proxy itself is not delayed, for mcpctl and curl alike.
type delayProxy struct {
	ln    net.Listener
	delay time.Duration
}

func startDelayProxy(target string, delay time.Duration) (*delayProxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &delayProxy{ln: ln, delay: delay}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.serve(c, target)
		}
	}()
	return p, nil
}

// close stops accepting; connections still open end with the harness.
func (p *delayProxy) close() { _ = p.ln.Close() }

func (p *delayProxy) serve(c net.Conn, target string) {
	defer c.Close()
	up, err := net.Dial("tcp", target)
	if err != nil {
		return
	}
	defer up.Close()
	done := make(chan struct{}, 2)
	go func() { p.pipe(up, c); done <- struct{}{} }()
	go func() { p.pipe(c, up); done <- struct{}{} }()
	<-done
	<-done
}

type chunk struct {
	at   time.Time
	data []byte // nil: end of stream
}

// pipe copies src to dst, each chunk delay late; the end of src is passed
// on (a half close) as late as the bytes before it.
func (p *delayProxy) pipe(dst, src net.Conn) {
	q := make(chan chunk, 1024)
	go func() {
		for {
			buf := make([]byte, 64<<10)
			n, err := src.Read(buf)
			if n > 0 {
				q <- chunk{time.Now(), buf[:n]}
			}
			if err != nil {
				q <- chunk{time.Now(), nil}
				close(q)
				return
			}
		}
	}()
	for ch := range q {
		time.Sleep(time.Until(ch.at.Add(p.delay)))
		if ch.data == nil {
			if tc, ok := dst.(*net.TCPConn); ok {
				_ = tc.CloseWrite()
			}
			return
		}
		if _, err := dst.Write(ch.data); err != nil {
			_ = src.Close() // unblocks the reader, which then ends
			go func() {
				for range q { // what the reader still sends
				}
			}()
			return
		}
	}
}

type latencyReport struct {
	delay   time.Duration
	comps   []*comparison
	checks  []wireCheck
	curl    []string
	started time.Time
	load    string
}

func runLatency() error {
	rep := &latencyReport{delay: *oneWay, started: time.Now(), load: "unknown"}
	if data, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(data)); len(f) >= 3 {
			rep.load = strings.Join(f[:3], " ") + " (1, 5, 15 min)"
		}
	}
	var err error
	if scratch, err = os.MkdirTemp("", "mcpctl-bench-"); err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	if *curlBin, err = lookCurl(); err != nil {
		return err
	}
	demo, err := startDemoTTL("0")
	if err != nil {
		return err
	}
	defer demo.stop()
	counter, err := startProxy(demo.url)
	if err != nil {
		return err
	}
	defer counter.srv.Close()
	cu, err := url.Parse(counter.url)
	if err != nil {
		return err
	}
	slow, err := startDelayProxy(cu.Host, rep.delay)
	if err != nil {
		return err
	}
	defer slow.close()
	remote := "http://" + slow.ln.Addr().String() + cu.Path
	fmt.Fprintf(os.Stderr, "harness: demo (ttlMs 0) at %s, behind %s (+%v each way)\n", demo.url, remote, rep.delay)

	warmDir, err := os.MkdirTemp(scratch, "cache")
	if err != nil {
		return err
	}
	call := []string{"tools", "call", "weather_current", "location=SF"}
	mcpctlCall := append([]string{*mcpctlBin, "--url", remote}, call...)
	warmEnv := childEnv("MCPCTL_CACHE_DIR=" + warmDir)
	// The first call finds the era and keeps the tool list (stale at
	// once); the dry run then prints the request a warm call sends.
	if _, err := (job{argv: mcpctlCall, env: warmEnv, want: wantText}).run(); err != nil {
		return err
	}
	req, err := httpRequest(remote, "MCPCTL_CACHE_DIR="+warmDir)
	if err != nil {
		return err
	}
	rep.curl = curlArgv(remote, req)
	counter.take()
	check := func(what, want string, j job) error {
		if _, err := j.run(); err != nil {
			return err
		}
		got := counter.take()
		rep.checks = append(rep.checks, wireCheck{what: what, how: "counting proxy", got: got,
			want: len(strings.Split(want, ",")), ok: strings.Join(got, ",") == want})
		return nil
	}
	wireWarm := func(when string) error {
		return check("mcpctl, warm cache ("+when+")", "POST tools/call", job{argv: mcpctlCall, env: warmEnv, want: wantText})
	}
	if err := wireWarm("before"); err != nil {
		return err
	}
	if err := check("curl", "POST tools/call", job{argv: rep.curl, env: childEnv(), want: wantText}); err != nil {
		return err
	}

	curlSide := side{label: "curl", show: "curl -sS --fail-with-body -X POST URL -H … --data-binary REQUEST", make: func(int) (job, error) {
		return job{argv: rep.curl, env: childEnv(), want: wantText}, nil
	}}
	rep.comps = []*comparison{
		{
			name:   fmt.Sprintf("HTTP, ttlMs 0, +%v RTT, warm", 2*rep.delay),
			target: 1.05,
			a: side{label: "mcpctl", show: "MCPCTL_CACHE_DIR=<warmed> mcpctl --url URL " + strings.Join(call, " "), make: func(int) (job, error) {
				return job{argv: mcpctlCall, env: warmEnv, want: wantText}, nil
			}},
			b: curlSide,
		},
		{
			// What every warm call cost before stale lists were kept: the
			// era is remembered, the tool list fetched first.
			name: fmt.Sprintf("HTTP, ttlMs 0, +%v RTT, --no-cache", 2*rep.delay),
			a: side{label: "mcpctl", show: "MCPCTL_CACHE_DIR=<warmed> mcpctl --no-cache --url URL " + strings.Join(call, " "), make: func(int) (job, error) {
				return job{argv: append([]string{*mcpctlBin, "--no-cache"}, mcpctlCall[1:]...), env: warmEnv, want: wantText}, nil
			}},
			b: curlSide,
		},
		{
			name: fmt.Sprintf("HTTP, ttlMs 0, +%v RTT, cold", 2*rep.delay),
			a: side{label: "mcpctl", show: "MCPCTL_CACHE_DIR=<new empty dir> mcpctl --url URL " + strings.Join(call, " "), make: func(int) (job, error) {
				d, err := os.MkdirTemp(scratch, "cache")
				if err != nil {
					return job{}, err
				}
				return job{argv: mcpctlCall, env: childEnv("MCPCTL_CACHE_DIR=" + d), want: wantText,
					cleanup: func() { os.RemoveAll(d) }}, nil
			}},
			b: curlSide,
		},
	}
	for _, c := range rep.comps {
		fmt.Fprintf(os.Stderr, "harness: %s: %d warm-up + %d measured pairs\n", c.name, *warmup, *pairs)
		if err := c.measure(*pairs, *warmup); err != nil {
			return err
		}
	}
	counter.take()
	if err := wireWarm("after"); err != nil {
		return err
	}
	r := &report{comps: rep.comps}
	fmt.Println(r.table())
	for _, c := range rep.checks {
		fmt.Printf("wire: %-40s %d request(s) %v ok=%v\n", c.what, len(c.got), c.got, c.ok)
		if !c.ok {
			return errors.New("a wire check failed; see above")
		}
	}
	md := rep.markdown(time.Since(rep.started))
	if *outFile != "" {
		if err := os.WriteFile(*outFile, []byte(md), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "harness: wrote %s\n", *outFile)
	}
	return nil
}

func lookCurl() (string, error) {
	path, err := exec.LookPath(*curlBin)
	if err != nil {
		return "", fmt.Errorf("curl is needed: %w", err)
	}
	return path, nil
}

func (l *latencyReport) markdown(elapsed time.Duration) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	rtt := 2 * l.delay
	p("## A remote server that sends ttlMs 0\n\n")
	p("`%s` (%s, %d CPUs, %s; load %s; %d measured + %d warm-up pairs; %s in all).\n",
		*command, l.started.UTC().Format("2006-01-02 15:04 UTC"), runtime.NumCPU(), runtime.Version(), l.load, *pairs, *warmup, elapsed.Round(time.Second))
	p("Both official SDKs send `ttlMs: 0` on tools/list, so nothing there is ever fresh. The demo runs with `--ttl-ms 0`\n")
	p("behind a loopback TCP proxy that delivers every byte %v late in each direction (%v of round-trip time), with the\n", l.delay, rtt)
	p("counting proxy behind it. The TCP handshake with the proxy is not delayed, for either side: on a real link both\n")
	p("would pay one more round trip for it, so the ratios here are the stricter ones. *Warm*: the cache\n")
	p("directory holds the stale tool list of an earlier call, which mcpctl uses as a hint to build the call (docs/caching.md);\n")
	p("*--no-cache*: the era remembered but no list kept, so tools/list goes first, as every warm call did before stale\n")
	p("lists were kept (issue 16 measured 1.85× there); *cold*: a new empty directory each run (era probe, tools/list, then\n")
	p("tools/call). B is one curl POST of the request `mcpctl --dry-run` prints, through the same proxies.\n\n")
	r := &report{comps: l.comps}
	p("%s\n", r.table())
	p("%s", r.verdicts(""))
	p("\nRequests that reached the server (counting proxy): ")
	var parts []string
	for _, c := range l.checks {
		parts = append(parts, fmt.Sprintf("%s: %s", c.what, strings.Join(c.got, ", ")))
	}
	p("%s.\n", strings.Join(parts, "; "))
	return b.String()
}
