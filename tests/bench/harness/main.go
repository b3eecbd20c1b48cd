// Command harness benchmarks mcpctl against the bare minimum that does the
// same work: a single curl POST over Streamable HTTP, and piping the request
// line into the server binary over stdio. tests/bench/run.sh builds the
// binaries and runs it; see BENCHMARKS.md for the results.
//
// Every comparison alternates its two commands (A B, then B A, …) so that
// drift in the machine's load hits both alike. Each run is one process,
// timed from exec to exit with time.Now; its exit status and output are
// checked, so a broken run cannot look fast. Everything a run needs (a
// fresh cache directory, files for its output, the pipe that feeds the
// server) is prepared before the clock starts.
//
// This is a script, not a test: it has no _test.go files, so `go test ./...`
// only builds it.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

const wantText = "Current weather in SF"

// longTTL is the demo's ttlMs for cacheable results (one hour), so a warm
// cache cannot expire during the run.
const longTTL = "3600000"

// demoStdio is the stdio server command line, the same for mcpctl --stdio
// and for the bare pipe; set in run.
var demoStdio []string

var (
	mcpctlBin = flag.String("mcpctl", "", "path to the mcpctl binary (required)")
	demoBin   = flag.String("demo", "", "path to the demo server binary (required)")
	noopBin   = flag.String("noop", "", "path to a Go program that does nothing (start-up floor; optional)")
	curlBin   = flag.String("curl", "curl", "path to curl")
	pairs     = flag.Int("n", 40, "measured pairs per comparison")
	warmup    = flag.Int("warmup", 3, "unmeasured warm-up pairs per comparison")
	outFile   = flag.String("out", "BENCHMARKS.md", "where to write the report (empty: do not write)")
	command   = flag.String("command", "bash tests/bench/run.sh", "the command recorded in the report as the way to reproduce it")
	extra     = flag.String("extra", "", "Markdown files appended to the report as they are, comma-separated (optional)")
	findings  = flag.String("findings", "", "a Markdown file with the hand-written analysis, embedded in the report (optional)")
	variants  variantFlag
)

func init() {
	flag.Var(&variants, "variant", "`LABEL=PATH` of another mcpctl build to time in \"Where the time goes\" (--version and a warm call); repeatable")
}

// variantFlag collects -variant LABEL=PATH values: other builds of mcpctl
// (other build flags, patched dependencies) timed next to the real one.
type variantFlag []struct{ label, path string }

func (v *variantFlag) String() string { return fmt.Sprint(*v) }

func (v *variantFlag) Set(s string) error {
	// The last "=" splits, so a label may contain one (CGO_ENABLED=0).
	i := strings.LastIndex(s, "=")
	if i <= 0 || i == len(s)-1 {
		return errors.New("want LABEL=PATH")
	}
	label, path := s[:i], s[i+1:]
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	*v = append(*v, struct{ label, path string }{label, abs})
	return nil
}

func main() {
	flag.Parse()
	if *mcpctlBin == "" || *demoBin == "" || *pairs < 1 || *warmup < 0 {
		fmt.Fprintln(os.Stderr, "usage: harness -mcpctl PATH -demo PATH [-noop PATH] [-n PAIRS] [-warmup PAIRS] [-out FILE]")
		os.Exit(2)
	}
	sigc := make(chan os.Signal, 1)
	signal.Notify(sigc, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sigc
		fmt.Fprintf(os.Stderr, "harness: %v: stopping\n", s)
		children.killAll()
		os.Exit(130)
	}()
	run := run
	if *latencyMode {
		run = runLatency
	}
	err := run()
	children.killAll()
	if err != nil {
		fmt.Fprintln(os.Stderr, "harness:", err)
		os.Exit(1)
	}
}

// children tracks every process the harness has started and not yet reaped,
// so a signal or an error can stop them all.
var children liveSet

type liveSet struct {
	mu    sync.Mutex
	procs map[*os.Process]bool
}

func (l *liveSet) add(p *os.Process) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.procs == nil {
		l.procs = map[*os.Process]bool{}
	}
	l.procs[p] = true
}

func (l *liveSet) remove(p *os.Process) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.procs, p)
}

func (l *liveSet) killAll() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for p := range l.procs {
		_ = p.Kill()
	}
}

// childEnv is our environment without anything that would change how mcpctl
// or curl behave (MCPCTL_* settings, proxies), plus extra.
func childEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		lk := strings.ToLower(k)
		if strings.HasPrefix(k, "MCPCTL_") || lk == "http_proxy" || lk == "https_proxy" || lk == "all_proxy" || lk == "no_proxy" || lk == "godebug" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

// ---------------------------------------------------------------------------
// Running and timing one process

// job is one process to run: everything is set up before the clock starts.
type job struct {
	argv  []string
	env   []string
	stdin []byte // fed through a real pipe, written and closed before exec
	want  string // the output must contain this ("" = anything)
	// cleanup runs after the process has exited (outside the timing).
	cleanup func()
}

type result struct {
	dur    time.Duration
	stdout []byte
	stderr []byte
}

var scratch string // a temporary directory for output files and cache dirs

func (j job) run() (result, error) {
	if j.cleanup != nil {
		defer j.cleanup()
	}
	cmd := exec.Command(j.argv[0], j.argv[1:]...)
	cmd.Env = j.env
	// Output goes straight into files (no pipe, no copying goroutine), so
	// the harness does no work while the process runs.
	outF, err := os.CreateTemp(scratch, "out")
	if err != nil {
		return result{}, err
	}
	defer os.Remove(outF.Name())
	defer outF.Close()
	errF, err := os.CreateTemp(scratch, "err")
	if err != nil {
		return result{}, err
	}
	defer os.Remove(errF.Name())
	defer errF.Close()
	cmd.Stdout, cmd.Stderr = outF, errF
	if j.stdin != nil {
		r, w, err := os.Pipe()
		if err != nil {
			return result{}, err
		}
		defer r.Close()
		if _, err := w.Write(j.stdin); err != nil {
			w.Close()
			return result{}, err
		}
		w.Close()
		cmd.Stdin = r
	}

	start := time.Now()
	if err := cmd.Start(); err != nil {
		return result{}, err
	}
	children.add(cmd.Process)
	werr := cmd.Wait()
	d := time.Since(start)
	children.remove(cmd.Process)

	stdout, _ := os.ReadFile(outF.Name())
	stderr, _ := os.ReadFile(errF.Name())
	res := result{dur: d, stdout: stdout, stderr: stderr}
	if werr != nil {
		return res, fmt.Errorf("%s: %v\nstdout: %s\nstderr: %s", shellJoin(j.argv), werr, clip(stdout), clip(stderr))
	}
	if j.want != "" && !bytes.Contains(stdout, []byte(j.want)) {
		return res, fmt.Errorf("%s: output lacks %q\nstdout: %s\nstderr: %s", shellJoin(j.argv), j.want, clip(stdout), clip(stderr))
	}
	return res, nil
}

func clip(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 2000 {
		s = s[:2000] + "…"
	}
	return s
}

func shellJoin(argv []string) string {
	var parts []string
	for _, a := range argv {
		if a != "" && !strings.ContainsAny(a, " \t\n'\"\\$`{}[]*?&|;<>()!#~,") {
			parts = append(parts, a)
			continue
		}
		parts = append(parts, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
	}
	return strings.Join(parts, " ")
}

// side is one of the two commands of a comparison. make builds the job for
// iteration i (fresh cache directories and the like are created here,
// outside the timing).
type side struct {
	label string
	show  string // the command, for the report
	make  func(i int) (job, error)
}

type comparison struct {
	name   string
	a, b   side
	target float64 // the ratio A/B must not exceed this; 0 = no target
	// added: A may take at most this much longer than B, in the median
	// of the paired differences; 0 = no such target. For work a few
	// hundred microseconds long, which a ratio of two whole processes
	// hides.
	added  time.Duration
	as, bs []time.Duration
}

// measure runs warm-up pairs, then n pairs, alternating the order within a
// pair (A B, B A, A B, …).
func (c *comparison) measure(n, warm int) error {
	for i := -warm; i < n; i++ {
		order := []*side{&c.a, &c.b}
		if (i+warm)%2 == 1 {
			order = []*side{&c.b, &c.a}
		}
		for _, s := range order {
			j, err := s.make(i)
			if err != nil {
				return err
			}
			r, err := j.run()
			if err != nil {
				return fmt.Errorf("%s, %s: %w", c.name, s.label, err)
			}
			if i < 0 {
				continue
			}
			if s == &c.a {
				c.as = append(c.as, r.dur)
			} else {
				c.bs = append(c.bs, r.dur)
			}
		}
	}
	return nil
}

// ---------------------------------------------------------------------------
// Statistics

type stats struct {
	median, p10, p90, min time.Duration
}

func summarize(ds []time.Duration) stats {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return stats{median: quantile(s, 0.5), p10: quantile(s, 0.1), p90: quantile(s, 0.9), min: s[0]}
}

// quantile interpolates linearly between the closest ranks of sorted s.
func quantile(s []time.Duration, q float64) time.Duration {
	if len(s) == 1 {
		return s[0]
	}
	pos := q * float64(len(s)-1)
	lo := int(math.Floor(pos))
	hi := int(math.Ceil(pos))
	frac := pos - float64(lo)
	return time.Duration(float64(s[lo]) + frac*float64(s[hi]-s[lo]))
}

// pairedRatio is the median of A_i/B_i over the pairs: less sensitive than
// the ratio of medians to a slow stretch that hits both sides.
func pairedRatio(a, b []time.Duration) float64 {
	r := make([]float64, len(a))
	for i := range a {
		r[i] = float64(a[i]) / float64(b[i])
	}
	sort.Float64s(r)
	m := len(r) / 2
	if len(r)%2 == 1 {
		return r[m]
	}
	return (r[m-1] + r[m]) / 2
}

// pairedDiff is the median of A_i - B_i over the pairs.
func pairedDiff(a, b []time.Duration) time.Duration {
	d := make([]time.Duration, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return quantile(d, 0.5)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f", float64(d)/float64(time.Millisecond)) }

// signedMS is a difference in ms with its sign: +0.12, −0.08.
func signedMS(d time.Duration) string {
	if d < 0 {
		return "−" + ms(-d)
	}
	return "+" + ms(d)
}

// ---------------------------------------------------------------------------
// The demo server and a counting proxy in front of it

type server struct {
	cmd *exec.Cmd
	url string
}

func startDemo() (*server, error) {
	// A long TTL so the warm cache cannot expire during the run.
	return startDemoTTL(longTTL)
}

// startDemoTTL starts the demo on Streamable HTTP with ttlMs on its
// cacheable results.
func startDemoTTL(ttl string) (*server, error) {
	cmd := exec.Command(*demoBin, "--http", "127.0.0.1:0", "--ttl-ms", ttl)
	cmd.Env = childEnv()
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	children.add(cmd.Process)
	s := &server{cmd: cmd}
	linec := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		linec <- line
		_, _ = io.Copy(io.Discard, out)
	}()
	select {
	case line := <-linec:
		u, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
		if !ok {
			s.stop()
			return nil, fmt.Errorf("demo printed %q, want \"listening on URL\"", line)
		}
		if pu, err := url.Parse(u); err != nil || !net.ParseIP(pu.Hostname()).IsLoopback() {
			s.stop()
			return nil, fmt.Errorf("demo listens on %q, which is not a loopback URL", u)
		}
		s.url = u
		return s, nil
	case <-time.After(15 * time.Second):
		s.stop()
		return nil, errors.New("demo did not print its URL within 15s")
	}
}

func (s *server) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = s.cmd.Process.Kill()
		<-done
	}
	children.remove(s.cmd.Process)
}

// countingProxy forwards to target and records every request it sees, so the
// report can say how many requests a call puts on the wire.
type countingProxy struct {
	url string
	srv *http.Server
	mu  sync.Mutex
	log []string
}

func startProxy(target string) (*countingProxy, error) {
	tu, err := url.Parse(target)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &countingProxy{url: "http://" + ln.Addr().String() + tu.Path}
	rp := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(&url.URL{Scheme: tu.Scheme, Host: tu.Host})
	}}
	p.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entry := r.Method
		if m := r.Header.Get("Mcp-Method"); m != "" {
			entry += " " + m
		}
		p.mu.Lock()
		p.log = append(p.log, entry)
		p.mu.Unlock()
		rp.ServeHTTP(w, r)
	}), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = p.srv.Serve(ln) }()
	return p, nil
}

func (p *countingProxy) take() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	l := p.log
	p.log = nil
	return l
}

// ---------------------------------------------------------------------------
// The request, exactly as mcpctl sends it

type wireRequest struct {
	headers []string // "Name: value"
	body    string
}

// httpRequest asks mcpctl --dry-run what it would send, so the curl
// baseline sends the same bytes; env adds to its environment (the cache
// directory whose tool list types the arguments).
func httpRequest(serverURL string, env ...string) (wireRequest, error) {
	r, err := job{argv: []string{*mcpctlBin, "--url", serverURL, "--dry-run", "tools", "call", "weather_current", "location=SF"}, env: childEnv(env...)}.run()
	if err != nil {
		return wireRequest{}, err
	}
	// POST URL, header lines, a blank line, the body.
	lines := strings.Split(strings.TrimRight(string(r.stdout), "\n"), "\n")
	if len(lines) < 3 || lines[0] != "POST "+serverURL {
		return wireRequest{}, fmt.Errorf("unexpected --dry-run output:\n%s", r.stdout)
	}
	var req wireRequest
	i := 1
	for ; i < len(lines) && lines[i] != ""; i++ {
		req.headers = append(req.headers, lines[i])
	}
	req.body = strings.Join(lines[i+1:], "\n")
	if !strings.HasPrefix(req.body, `{"jsonrpc":"2.0"`) || !strings.Contains(req.body, `"weather_current"`) {
		return wireRequest{}, fmt.Errorf("unexpected --dry-run body: %q", req.body)
	}
	return req, nil
}

// stdioRequest is the line mcpctl would write to the server's stdin.
func stdioRequest() (string, error) {
	r, err := job{argv: []string{*mcpctlBin, "--stdio", shellJoin(demoStdio), "--dry-run", "tools", "call", "weather_current", "location=SF"}, env: childEnv()}.run()
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(r.stdout), "\n") {
		if strings.HasPrefix(line, `{"jsonrpc":"2.0"`) {
			return line, nil
		}
	}
	return "", fmt.Errorf("no request line in --dry-run output:\n%s", r.stdout)
}

func curlArgv(serverURL string, req wireRequest) []string {
	argv := []string{*curlBin, "-sS", "--fail-with-body", "-X", "POST", serverURL}
	for _, h := range req.headers {
		argv = append(argv, "-H", h)
	}
	return append(argv, "--data-binary", req.body)
}

// ---------------------------------------------------------------------------

type wireCheck struct {
	what, how string
	got       []string
	want      int
	ok        bool
}

type floor struct {
	label, show string
	j           func() job
	ds          []time.Duration
}

type initEntry struct {
	pkg   string
	clock float64 // ms, median over runs
	bytes int
}

// verdicts is a line for each comparison with a target: met, or missed by
// how much, with seeAlso after a miss.
func (r *report) verdicts(seeAlso string) string {
	var b strings.Builder
	for _, c := range r.comps {
		if c.added > 0 {
			d := pairedDiff(c.as, c.bs)
			verdict := "**met**"
			if d > c.added {
				verdict = "**missed**"
			}
			fmt.Fprintf(&b, "- **%s**: target ≤ +%s ms %s (%s ms, the median of the paired differences; %s ms between the medians).\n",
				c.name, ms(c.added), verdict, signedMS(d), signedMS(summarize(c.as).median-summarize(c.bs).median))
			continue
		}
		if c.target == 0 {
			continue
		}
		a, bb := summarize(c.as), summarize(c.bs)
		ratio := float64(a.median) / float64(bb.median)
		if ratio <= c.target {
			fmt.Fprintf(&b, "- **%s**: target ≤ %.2f× **met** (%.2f×; mcpctl adds %s ms per call).\n", c.name, c.target, ratio, ms(a.median-bb.median))
			continue
		}
		allowed := time.Duration(float64(bb.median) * (c.target - 1))
		fmt.Fprintf(&b, "- **%s**: target ≤ %.2f× **missed** by %.0f%% (%.2f×): mcpctl adds %s ms per call where the target allows %s ms%s.\n",
			c.name, c.target, (ratio/c.target-1)*100, ratio, ms(a.median-bb.median), ms(allowed), seeAlso)
	}
	return b.String()
}

type report struct {
	serverURL, stdioLine string
	curl                 []string
	comps                []*comparison
	checks               []wireCheck
	floors               []*floor
	initTotal            float64
	initTop              []initEntry
	started              time.Time
	load                 string
	elapsed              time.Duration
}

func run() error {
	rep := &report{started: time.Now(), load: "unknown"}
	if data, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(data)); len(f) >= 3 {
			rep.load = strings.Join(f[:3], " ") + " (1, 5, 15 min)"
		}
	}
	var err error
	scratch, err = os.MkdirTemp("", "mcpctl-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	for _, p := range []*string{mcpctlBin, demoBin, noopBin} {
		if *p != "" {
			if *p, err = filepath.Abs(*p); err != nil {
				return err
			}
		}
	}
	if *curlBin, err = exec.LookPath(*curlBin); err != nil {
		return fmt.Errorf("curl is needed: %w", err)
	}

	demoStdio = []string{*demoBin, "--ttl-ms", longTTL}
	demo, err := startDemo()
	if err != nil {
		return err
	}
	defer demo.stop()
	rep.serverURL = demo.url
	fmt.Fprintf(os.Stderr, "harness: demo server at %s\n", demo.url)

	req, err := httpRequest(demo.url)
	if err != nil {
		return err
	}
	line, err := stdioRequest()
	if err != nil {
		return err
	}
	rep.stdioLine = line
	rep.curl = curlArgv(demo.url, req)

	newDir := func() (string, error) { return os.MkdirTemp(scratch, "cache") }
	warmDir, err := newDir()
	if err != nil {
		return err
	}
	call := []string{"tools", "call", "weather_current", "location=SF"}
	mcpctlHTTP := append([]string{*mcpctlBin, "--url", demo.url}, call...)
	mcpctlStdio := append([]string{*mcpctlBin, "--stdio", shellJoin(demoStdio)}, call...)

	// Warm the shared cache (for the HTTP server and for the stdio one: the
	// cache key is the URL or the command line) and check the wire before
	// measuring.
	for _, argv := range [][]string{mcpctlHTTP, mcpctlStdio} {
		if _, err := (job{argv: argv, env: childEnv("MCPCTL_CACHE_DIR=" + warmDir), want: wantText}).run(); err != nil {
			return err
		}
	}
	checks, err := wireChecks(demo.url, warmDir, call)
	if err != nil {
		return err
	}

	curlSide := side{label: "curl", show: "curl -sS --fail-with-body -X POST URL -H … --data-binary REQUEST", make: func(int) (job, error) {
		return job{argv: rep.curl, env: childEnv(), want: wantText}, nil
	}}
	pipeSide := side{label: "pipe", show: "printf '%s\\n' REQUEST | demo --ttl-ms " + longTTL, make: func(int) (job, error) {
		return job{argv: demoStdio, env: childEnv(), stdin: []byte(line + "\n"), want: wantText}, nil
	}}
	rep.comps = []*comparison{
		{
			name:   "HTTP, warm cache",
			target: 1.3,
			a: side{label: "mcpctl", show: "MCPCTL_CACHE_DIR=<warmed> mcpctl --url URL " + strings.Join(call, " "), make: func(int) (job, error) {
				return job{argv: mcpctlHTTP, env: childEnv("MCPCTL_CACHE_DIR=" + warmDir), want: wantText}, nil
			}},
			b: curlSide,
		},
		{
			// Issue 25, item 3: the result's structuredContent is checked
			// against weather_current's outputSchema (and the arguments
			// against its inputSchema); --no-validate does neither.
			name:  "HTTP, warm cache: checked vs --no-validate",
			added: 300 * time.Microsecond,
			a: side{label: "mcpctl", show: "MCPCTL_CACHE_DIR=<warmed> mcpctl --url URL " + strings.Join(call, " "), make: func(int) (job, error) {
				return job{argv: mcpctlHTTP, env: childEnv("MCPCTL_CACHE_DIR=" + warmDir), want: wantText}, nil
			}},
			b: side{label: "mcpctl --no-validate", show: "MCPCTL_CACHE_DIR=<warmed> mcpctl --url URL " + strings.Join(call, " ") + " --no-validate", make: func(int) (job, error) {
				return job{argv: append(slices.Clip(mcpctlHTTP), "--no-validate"), env: childEnv("MCPCTL_CACHE_DIR=" + warmDir), want: wantText}, nil
			}},
		},
		{
			name: "HTTP, cold cache",
			a: side{label: "mcpctl", show: "MCPCTL_CACHE_DIR=<new empty dir> mcpctl --url URL " + strings.Join(call, " "), make: func(int) (job, error) {
				d, err := newDir()
				if err != nil {
					return job{}, err
				}
				return job{argv: mcpctlHTTP, env: childEnv("MCPCTL_CACHE_DIR=" + d), want: wantText,
					cleanup: func() { os.RemoveAll(d) }}, nil
			}},
			b: curlSide,
		},
		{
			name:   "stdio, warm cache",
			target: 1.15,
			a: side{label: "mcpctl", show: "MCPCTL_CACHE_DIR=<warmed> mcpctl --stdio 'demo --ttl-ms " + longTTL + "' " + strings.Join(call, " "), make: func(int) (job, error) {
				return job{argv: mcpctlStdio, env: childEnv("MCPCTL_CACHE_DIR=" + warmDir), want: wantText}, nil
			}},
			b: pipeSide,
		},
		{
			name: "stdio, cold cache",
			a: side{label: "mcpctl", show: "MCPCTL_CACHE_DIR=<new empty dir> mcpctl --stdio 'demo --ttl-ms " + longTTL + "' " + strings.Join(call, " "), make: func(int) (job, error) {
				d, err := newDir()
				if err != nil {
					return job{}, err
				}
				return job{argv: mcpctlStdio, env: childEnv("MCPCTL_CACHE_DIR=" + d), want: wantText,
					cleanup: func() { os.RemoveAll(d) }}, nil
			}},
			b: pipeSide,
		},
	}
	if *noopBin != "" {
		// What every invocation pays before doing anything (issue 14): a
		// package init that does real work shows here first.
		rep.comps = append([]*comparison{{
			name:   "start-up",
			target: 2.5,
			a: side{label: "mcpctl", show: "mcpctl --version", make: func(int) (job, error) {
				return job{argv: []string{*mcpctlBin, "--version"}, env: childEnv(), want: "mcpctl"}, nil
			}},
			b: side{label: "noop", show: "noop (tests/bench/noop, an empty main)", make: func(int) (job, error) {
				return job{argv: []string{*noopBin}, env: childEnv()}, nil
			}},
		}}, rep.comps...)
	}
	for _, c := range rep.comps {
		fmt.Fprintf(os.Stderr, "harness: %s: %d warm-up + %d measured pairs\n", c.name, *warmup, *pairs)
		if err := c.measure(*pairs, *warmup); err != nil {
			return err
		}
	}

	// The warm series must still have been warm at its end.
	after, err := wireChecks(demo.url, warmDir, call)
	if err != nil {
		return err
	}
	for i := range checks {
		checks[i].ok = checks[i].ok && after[i].ok
	}
	rep.checks = checks

	fmt.Fprintln(os.Stderr, "harness: start-up floors")
	if rep.floors, err = floors(demo.url, warmDir, call); err != nil {
		return err
	}
	rep.initTotal, rep.initTop, err = initTrace()
	if err != nil {
		return err
	}
	rep.elapsed = time.Since(rep.started)

	fmt.Println(rep.table())
	fmt.Println(rep.floorTable())
	fmt.Printf("package init of mcpctl --version: %.2f ms in total\n%s\n", rep.initTotal, rep.initTable())
	for _, c := range rep.checks {
		fmt.Printf("wire: %-40s %d request(s) %v ok=%v\n", c.what, len(c.got), c.got, c.ok)
	}
	if !rep.checksOK() {
		return errors.New("a wire check failed; see above")
	}
	if *outFile != "" {
		if err := os.WriteFile(*outFile, []byte(rep.markdown()), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "harness: wrote %s\n", *outFile)
	}
	return nil
}

func (r *report) checksOK() bool {
	for _, c := range r.checks {
		if !c.ok {
			return false
		}
	}
	return true
}

// wireChecks counts what reaches the server: through a counting proxy (a
// cold and then a warm call with their own cache directory, and curl), and
// from mcpctl --trace against the server itself with the shared warm cache.
func wireChecks(serverURL, warmDir string, call []string) ([]wireCheck, error) {
	p, err := startProxy(serverURL)
	if err != nil {
		return nil, err
	}
	defer p.srv.Close()
	dir, err := os.MkdirTemp(scratch, "cache")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	viaProxy := append([]string{*mcpctlBin, "--url", p.url}, call...)
	var checks []wireCheck
	for _, c := range []struct{ what, want string }{
		// A new cache directory is a first contact: the era probe
		// (server/discover) comes first, and its answer is cached too.
		{"mcpctl, cold cache", "POST server/discover,POST tools/list,POST tools/call"},
		{"mcpctl, warm cache", "POST tools/call"},
	} {
		if _, err := (job{argv: viaProxy, env: childEnv("MCPCTL_CACHE_DIR=" + dir), want: wantText}).run(); err != nil {
			return nil, err
		}
		got := p.take()
		checks = append(checks, wireCheck{what: c.what, how: "counting proxy", got: got, want: len(strings.Split(c.want, ",")),
			ok: strings.Join(got, ",") == c.want})
	}
	if _, err := (job{argv: curlArgv(p.url, mustRequest(p.url)), env: childEnv(), want: wantText}).run(); err != nil {
		return nil, err
	}
	got := p.take()
	checks = append(checks, wireCheck{what: "curl", how: "counting proxy", got: got, want: 1, ok: strings.Join(got, ",") == "POST tools/call"})

	dir2, err := os.MkdirTemp(scratch, "cache")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir2)

	// --trace against the server, with the cache the benchmark uses.
	r, err := job{argv: append([]string{*mcpctlBin, "--url", serverURL, "--trace"}, call...), env: childEnv("MCPCTL_CACHE_DIR=" + warmDir), want: wantText}.run()
	if err != nil {
		return nil, err
	}
	got = nil
	cacheHit := false
	for _, l := range strings.Split(string(r.stderr), "\n") {
		switch {
		case strings.HasPrefix(l, "> POST "):
			got = append(got, "POST")
		case strings.HasPrefix(l, "> Mcp-Method: ") && len(got) > 0:
			got[len(got)-1] += " " + strings.TrimPrefix(l, "> Mcp-Method: ")
		case strings.HasPrefix(l, "# cache: tools/list"):
			cacheHit = true
		}
	}
	checks = append(checks, wireCheck{what: "mcpctl, warm cache (the benchmark's)", how: "--trace (`> POST` lines)", got: got, want: 1,
		ok: cacheHit && strings.Join(got, ",") == "POST tools/call"})

	for _, c := range []struct {
		what, dir, want string
		hit             bool
	}{
		{"mcpctl --stdio, cold cache", dir2, "server/discover,tools/list,tools/call", false},
		{"mcpctl --stdio, warm cache (the benchmark's)", warmDir, "tools/call", true},
	} {
		r, err = job{argv: append([]string{*mcpctlBin, "--stdio", shellJoin(demoStdio), "--trace"}, call...), env: childEnv("MCPCTL_CACHE_DIR=" + c.dir), want: wantText}.run()
		if err != nil {
			return nil, err
		}
		got, cacheHit = nil, false
		for _, l := range strings.Split(string(r.stderr), "\n") {
			if strings.HasPrefix(l, "# cache: tools/list") {
				cacheHit = true
			}
			if strings.HasPrefix(l, "> {") {
				if m := methodField.FindStringSubmatch(l); len(m) == 2 {
					got = append(got, m[1])
				}
			}
		}
		checks = append(checks, wireCheck{what: c.what, how: "--trace (`> ` lines)", got: got, want: len(strings.Split(c.want, ",")),
			ok: cacheHit == c.hit && strings.Join(got, ",") == c.want})
	}
	return checks, nil
}

func mustRequest(u string) wireRequest {
	r, err := httpRequest(u)
	if err != nil {
		panic(err)
	}
	return r
}

// floors times processes that do part of the work, round-robin, to show
// where a call's time goes: exec itself, the Go runtime, mcpctl's own
// start-up, and everything but the network.
func floors(serverURL, warmDir string, call []string) ([]*floor, error) {
	var fs []*floor
	add := func(label, show string, j func() job) { fs = append(fs, &floor{label: label, show: show, j: j}) }
	add("exec floor", "/bin/true", func() job { return job{argv: []string{"/bin/true"}, env: childEnv()} })
	if *noopBin != "" {
		add("Go runtime floor (tests/bench/noop, an empty main)", "noop", func() job { return job{argv: []string{*noopBin}, env: childEnv()} })
	}
	add("curl start-up", "curl --version", func() job { return job{argv: []string{*curlBin, "--version"}, env: childEnv()} })
	add("mcpctl start-up", "mcpctl --version", func() job {
		return job{argv: []string{*mcpctlBin, "--version"}, env: childEnv()}
	})
	add("mcpctl, no network", "mcpctl --url URL --dry-run "+strings.Join(call, " "), func() job {
		return job{argv: append([]string{*mcpctlBin, "--url", serverURL, "--dry-run"}, call...), env: childEnv("MCPCTL_CACHE_DIR=" + warmDir), want: "weather_current"}
	})
	add("mcpctl, warm call", "mcpctl --url URL "+strings.Join(call, " "), func() job {
		return job{argv: append([]string{*mcpctlBin, "--url", serverURL}, call...), env: childEnv("MCPCTL_CACHE_DIR=" + warmDir), want: wantText}
	})
	curlCall := curlArgv(serverURL, mustRequest(serverURL))
	add("curl, the call", "curl … (as above)", func() job {
		return job{argv: curlCall, env: childEnv(), want: wantText}
	})
	for _, v := range variants {
		add("what-if: "+v.label, "mcpctl --version", func() job {
			return job{argv: []string{v.path, "--version"}, env: childEnv()}
		})
		add("what-if: "+v.label, "mcpctl --url URL "+strings.Join(call, " ")+" (warm)", func() job {
			return job{argv: append([]string{v.path, "--url", serverURL}, call...), env: childEnv("MCPCTL_CACHE_DIR=" + warmDir), want: wantText}
		})
	}
	add("demo start-up", "demo < /dev/null (stdio, exits at EOF)", func() job {
		return job{argv: demoStdio, env: childEnv(), stdin: []byte{}}
	})
	n := *pairs
	for i := -*warmup; i < n; i++ {
		for _, f := range fs {
			r, err := f.j().run()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f.label, err)
			}
			if i >= 0 {
				f.ds = append(f.ds, r.dur)
			}
		}
	}
	return fs, nil
}

var methodField = regexp.MustCompile(`"method":"([^"]+)"`)

var initLine = regexp.MustCompile(`^init (\S+) @[0-9.]+ ms, ([0-9.]+) ms clock, ([0-9]+) bytes`)

// initTrace runs mcpctl --version with GODEBUG=inittrace=1 a few times and
// returns the median total package-init clock time and the slowest
// packages.
func initTrace() (float64, []initEntry, error) {
	const runs = 9
	per := map[string][]float64{}
	bytesOf := map[string]int{}
	var totals []float64
	for i := 0; i < runs; i++ {
		r, err := job{argv: []string{*mcpctlBin, "--version"}, env: childEnv("GODEBUG=inittrace=1")}.run()
		if err != nil {
			return 0, nil, err
		}
		total := 0.0
		for _, l := range strings.Split(string(r.stderr), "\n") {
			m := initLine.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			c, _ := strconv.ParseFloat(m[2], 64)
			b, _ := strconv.Atoi(m[3])
			per[m[1]] = append(per[m[1]], c)
			bytesOf[m[1]] = b
			total += c
		}
		totals = append(totals, total)
	}
	var es []initEntry
	for pkg, cs := range per {
		es = append(es, initEntry{pkg: pkg, clock: medianF(cs), bytes: bytesOf[pkg]})
	}
	sort.Slice(es, func(i, j int) bool { return es[i].clock > es[j].clock })
	if len(es) > 8 {
		es = es[:8]
	}
	return medianF(totals), es, nil
}

func medianF(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// ---------------------------------------------------------------------------
// Output

func (r *report) table() string {
	var b strings.Builder
	fmt.Fprintf(&b, "| comparison | A | A median (p10–p90) ms | B | B median (p10–p90) ms | A/B (medians) | A/B (paired) | target | met |\n")
	fmt.Fprintf(&b, "|---|---|---|---|---|---|---|---|---|\n")
	for _, c := range r.comps {
		a, bb := summarize(c.as), summarize(c.bs)
		ratio := float64(a.median) / float64(bb.median)
		target, met := "—", "—"
		if c.target > 0 {
			target = fmt.Sprintf("≤ %.2f×", c.target)
			met = "yes"
			if ratio > c.target {
				met = fmt.Sprintf("**no** (+%.0f%% over)", (ratio/c.target-1)*100)
			}
		}
		if c.added > 0 {
			d := pairedDiff(c.as, c.bs)
			target = fmt.Sprintf("A − B ≤ +%s ms", ms(c.added))
			met = fmt.Sprintf("yes (%s ms)", signedMS(d))
			if d > c.added {
				met = fmt.Sprintf("**no** (%s ms)", signedMS(d))
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s (%s–%s) | %s | %s (%s–%s) | %.2f× | %.2f× | %s | %s |\n",
			c.name, c.a.label, ms(a.median), ms(a.p10), ms(a.p90), c.b.label, ms(bb.median), ms(bb.p10), ms(bb.p90),
			ratio, pairedRatio(c.as, c.bs), target, met)
	}
	return b.String()
}

func (r *report) floorTable() string {
	var b strings.Builder
	fmt.Fprintf(&b, "| what | command | median (p10–p90) ms |\n|---|---|---|\n")
	for _, f := range r.floors {
		s := summarize(f.ds)
		fmt.Fprintf(&b, "| %s | `%s` | %s (%s–%s) |\n", f.label, f.show, ms(s.median), ms(s.p10), ms(s.p90))
	}
	return b.String()
}

func (r *report) initTable() string {
	var b strings.Builder
	fmt.Fprintf(&b, "| package | init clock ms | heap bytes |\n|---|---|---|\n")
	for _, e := range r.initTop {
		fmt.Fprintf(&b, "| `%s` | %.3f | %d |\n", e.pkg, e.clock, e.bytes)
	}
	return b.String()
}

func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	for _, l := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

func cmdOutput(argv ...string) string {
	out, err := exec.Command(argv[0], argv[1:]...).Output()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
}

func (r *report) markdown() string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("# Benchmarks\n\n")
	p("How much does `mcpctl` cost on top of the least a shell script could do to make the same MCP call?\n")
	p("One run of `%s` compares, in alternating pairs on the same machine and against the same\n", *command)
	p("[demo server](tests/servers/demo) on loopback:\n\n")
	if *noopBin != "" {
		p("- **start-up**: `mcpctl --version` vs an empty Go program (`tests/bench/noop`): what every invocation pays before it does anything;\n")
	}
	p("- **HTTP, warm cache**: `mcpctl tools call weather_current location=SF` with tools/list already cached, vs a single `curl` POST of the same JSON-RPC request;\n")
	p("- **HTTP, warm cache: checked vs --no-validate**: the same warm call, which checks the arguments against the tool's inputSchema and\n")
	p("  the result's structuredContent against its outputSchema, vs the call with `--no-validate`, which checks neither: what the checks add\n")
	p("  (target: at most 0.3 ms, in the median of the paired differences);\n")
	p("- **HTTP, cold cache**: the same call with an empty cache directory, a first contact: mcpctl probes the server's era\n")
	p("  (server/discover), fetches tools/list, then calls; vs the same `curl`;\n")
	p("- **stdio, warm cache**: `mcpctl --stdio demo tools call …` with tools/list cached vs piping the request line straight into the demo binary;\n")
	p("- **stdio, cold cache**: the same with an empty cache directory (mcpctl sends server/discover, tools/list, then tools/call,\n")
	p("  to the one server process).\n\n")
	p("This file is generated by the harness (`tests/bench/harness`); rerun the command below to refresh it.\n\n")

	p("## Reproduce\n\n```\n%s\n```\n\n", *command)
	p("It builds mcpctl as `make build` does (`CGO_ENABLED=0 go build -trimpath -tags urfave_cli_no_docs`, with the Go of go.mod's toolchain line: run.sh exports `GOTOOLCHAIN`) and the demo server with `-trimpath` into a temporary directory, installs curl with apt-get if it is missing,\n")
	p("and runs the harness; `-n PAIRS` (default 40) and `-warmup PAIRS` (default 3) are passed through, e.g. `bash tests/bench/run.sh -n 100`.\n\n")

	p("## Machine\n\n")
	p("| | |\n|---|---|\n")
	p("| date | %s |\n", r.started.UTC().Format("2006-01-02 15:04 MST"))
	p("| CPUs (nproc) | %s |\n", cmdOutput("nproc"))
	p("| CPU model | %s |\n", cpuModel())
	p("| kernel | %s |\n", cmdOutput("uname", "-sr"))
	p("| Go | %s %s/%s |\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	p("| curl | %s |\n", cmdOutput(*curlBin, "--version"))
	p("| load average at start | %s |\n", r.load)
	p("| pairs | %d measured + %d warm-up per comparison; whole run %.0f s |\n\n", *pairs, *warmup, r.elapsed.Seconds())

	p("## Results\n\n")
	p("Wall time of one process, exec to exit. A/B (medians) is the ratio of the medians; A/B (paired) is the median of the\n")
	p("per-pair ratios, which a slow stretch of the machine affects less.\n\n")
	p("%s\n", r.table())
	p("%s", r.verdicts("; see [Where the time goes](#where-the-time-goes)"))
	p("\nThe start-up comparison's mcpctl adds the difference to every process, whatever it does. The cold-cache comparisons have no target: a first contact: mcpctl sends three requests (the era probe server/discover, tools/list, then tools/call) against the baseline's one.\n\n")

	p("## Requests on the wire\n\n")
	p("Checked in the same run, before and after the measurements (the warm cache was still warm at the end):\n\n")
	p("| call | checked with | requests | ok |\n|---|---|---|---|\n")
	for _, c := range r.checks {
		ok := "yes"
		if !c.ok {
			ok = "**no**"
		}
		p("| %s | %s | %d: %s | %s |\n", c.what, c.how, len(c.got), strings.Join(c.got, ", "), ok)
	}
	p("\nA warm-cache `mcpctl tools call` over HTTP is exactly one POST (tools/call), like curl.\n\n")

	p("## Where the time goes\n\n")
	p("Processes that do part of the work, timed round-robin in the same run (%d runs each):\n\n", *pairs)
	p("%s\n", r.floorTable())
	p("Package initialisation of `mcpctl --version` (`GODEBUG=inittrace=1`, median of 9 runs): %.2f ms in total; the slowest packages:\n\n", r.initTotal)
	p("%s\n", r.initTable())
	if *findings != "" {
		data, err := os.ReadFile(*findings)
		if err == nil {
			p("%s\n", strings.TrimSpace(string(data)))
			p("\n_(The analysis above is kept in `%s` and was written by hand when investigating; the tables are from this run.)_\n\n", filepath.ToSlash(relPath(*findings)))
		}
	}

	p("## What is measured\n\n")
	p("- Each sample is one process, from `exec` to its exit, timed by the harness with `time.Now`. Its output goes straight\n")
	p("  to a file; for the stdio baseline, stdin is a pipe that already holds the request and is closed. Everything is\n")
	p("  prepared before the clock starts.\n")
	p("- The two sides of a comparison alternate (A B, B A, …) after %d unmeasured warm-up pairs; every run's exit status is\n", *warmup)
	p("  checked and its output must contain %q, so a failing run cannot look fast.\n", wantText)
	p("- The demo server runs for the whole benchmark in stateless Streamable HTTP mode on `%s` (port picked at random),\n", loopbackHost(r.serverURL))
	p("  with plain JSON responses; each curl and each mcpctl opens its own TCP connection. Its cacheable results get a one-hour\n")
	p("  `ttlMs` (`--ttl-ms 3600000`) so the warm cache cannot expire mid-run.\n")
	p("- Warm runs share one cache directory (`MCPCTL_CACHE_DIR`) warmed by one call before measuring; each cold run gets a\n")
	p("  new empty directory, created before the clock starts and removed after.\n")
	p("- The commands (URL is the demo's, `demo` the built binary):\n\n")
	p("  | comparison | A | B |\n  |---|---|---|\n")
	for _, c := range r.comps {
		p("  | %s | `%s` | `%s` |\n", c.name, c.a.show, strings.ReplaceAll(c.b.show, "|", "\\|"))
	}
	p("\n")
	p("- The curl baseline sends the bytes `mcpctl --dry-run` prints (same headers, same body):\n\n")
	p("  ```\n  %s\n  ```\n\n", shellJoin(append([]string{"curl"}, r.curl[1:]...)))
	p("- The stdio baseline starts the demo binary with this line (and a newline) waiting in a pipe on its stdin; the server answers\n")
	p("  and exits at end of input. mcpctl starts the same binary itself, writes the same line, reads the answer, closes stdin\n")
	p("  and waits for it to exit:\n\n")
	p("  ```\n  %s\n  ```\n", r.stdioLine)
	// Sections other benchmarks keep (tests/bench/listen.sh, era.sh), so
	// that rerunning this one does not drop them.
	for _, f := range strings.Split(*extra, ",") {
		if data, err := os.ReadFile(f); f != "" && err == nil {
			p("\n%s\n", strings.TrimSpace(string(data)))
		}
	}
	return b.String()
}

func loopbackHost(u string) string {
	pu, err := url.Parse(u)
	if err != nil {
		return "127.0.0.1"
	}
	return pu.Hostname()
}

func relPath(p string) string {
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	if r, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}
