// Command legacycmp times a one-shot `mcpctl tools call` to the npm
// reference servers over stdio (legacy servers: initialize first) against
// the bare minimum that makes the same call (tests/bench/legacydirect:
// initialize, notifications/initialized, tools/call, then stdin closed
// and SIGTERM at once), and writes a Markdown section for BENCHMARKS.md.
// tests/bench/legacy.sh builds the binaries and runs it.
//
// The sides alternate within each round (rotated: A B C, B C A, C A B, …)
// so that drift in the machine's load hits all alike. Each run is one
// process, timed from exec to exit; its exit status and output are
// checked, so a broken run cannot look fast. mcpctl runs with a cache
// directory of its own, warmed up first, so the era is remembered (no
// probe): what a script's second and later calls cost.
//
// This is a script, not a test: it has no _test.go files.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/mcpctl/mcpctl/client"
)

var (
	mcpctlBin = flag.String("mcpctl", "", "the mcpctl binary (required)")
	directBin = flag.String("direct", "", "the legacydirect binary (required)")
	modules   = flag.String("refservers", "", "node_modules folder with @modelcontextprotocol/server-* (required)")
	rounds    = flag.Int("n", 30, "measured rounds per server")
	warmup    = flag.Int("warmup", 3, "unmeasured warm-up rounds per server")
	outFile   = flag.String("out", "", "write the Markdown section here (empty: stdout only)")
	command   = flag.String("command", "bash tests/bench/legacy.sh", "the command line to name in the report")
)

// target is the ratio mcpctl's median may be of the direct driver's.
const target = 1.10

// A server under test: how to start it, the call to make, and what its
// answer must contain.
type server struct {
	name, call string
	argv       []string
	env        []string // added to the server's environment
	tool, json string   // for legacydirect
	args       []string // for mcpctl tools call
	want       string

	results map[string][]time.Duration
	ownExit time.Duration // how long it takes to exit by itself after EOF
}

func main() {
	flag.Parse()
	if *mcpctlBin == "" || *directBin == "" || *modules == "" || *rounds < 1 {
		fmt.Fprintln(os.Stderr, "usage: legacycmp -mcpctl BIN -direct BIN -refservers NODE_MODULES [-n N] [-out FILE]")
		os.Exit(2)
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "legacycmp:", err)
		os.Exit(1)
	}
}

func run() error {
	tmp, err := os.MkdirTemp("", "mcpctl-legacycmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	root := filepath.Join(tmp, "files")
	if err := os.MkdirAll(root, 0o755); err != nil {
		return err
	}
	mod := func(s string) string { return filepath.Join(*modules, "@modelcontextprotocol", s, "dist", "index.js") }
	servers := []*server{
		{name: "server-everything", call: "get-sum a=2 b=3", argv: []string{"node", mod("server-everything"), "stdio"},
			tool: "get-sum", json: `{"a":2,"b":3}`, args: []string{"get-sum", "a=2", "b=3"}, want: "The sum of 2 and 3 is 5."},
		{name: "server-filesystem", call: "list_allowed_directories", argv: []string{"node", mod("server-filesystem"), root},
			tool: "list_allowed_directories", json: `{}`, args: []string{"list_allowed_directories"}, want: root},
		{name: "server-memory", call: "read_graph", argv: []string{"node", mod("server-memory")},
			env:  []string{"MEMORY_FILE_PATH=" + filepath.Join(tmp, "memory.jsonl")},
			tool: "read_graph", json: `{}`, args: []string{"read_graph"}, want: `entities`},
	}
	load, _ := os.ReadFile("/proc/loadavg")
	started := time.Now()
	for _, s := range servers {
		if err := s.measure(tmp); err != nil {
			return err
		}
	}
	md := report(servers, started, strings.Join(strings.Fields(string(load))[:3], " "))
	fmt.Print(md)
	if *outFile != "" {
		return os.WriteFile(*outFile, []byte(md), 0o644)
	}
	return nil
}

// The sides of a comparison, in the report's order.
const (
	sideDirect = "direct"
	sideMcpctl = "mcpctl"
	sideZero   = "mcpctl --shutdown-grace 0"
)

func (s *server) command(side, tmp string) *exec.Cmd {
	quoted := make([]string, len(s.argv))
	for i, a := range s.argv {
		quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	var cmd *exec.Cmd
	switch side {
	case sideDirect:
		cmd = exec.Command(*directBin, append([]string{s.tool, s.json}, s.argv...)...)
	default:
		args := []string{"--stdio", strings.Join(quoted, " "), "--server-stderr", "discard"}
		if side == sideZero {
			args = append(args, "--shutdown-grace", "0")
		}
		cmd = exec.Command(*mcpctlBin, append(append(args, "tools", "call"), s.args...)...)
	}
	cmd.Env = append(cleanEnv(), s.env...)
	cmd.Env = append(cmd.Env, "MCPCTL_CACHE_DIR="+filepath.Join(tmp, "cache"), "MCPCTL_CONFIG="+filepath.Join(tmp, "config.yaml"))
	return cmd
}

// once runs one side once and returns its wall time.
func (s *server) once(side, tmp string) (time.Duration, error) {
	cmd := s.command(side, tmp)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil || !strings.Contains(out.String(), s.want) {
		return 0, fmt.Errorf("%s, %s: %v; stdout %.300q; stderr %.300q", s.name, side, err, out.String(), errOut.String())
	}
	return d, nil
}

func (s *server) measure(tmp string) error {
	sides := []string{sideDirect, sideMcpctl, sideZero}
	s.results = map[string][]time.Duration{}
	fmt.Fprintf(os.Stderr, "legacycmp: %s: %d warm-up + %d measured rounds\n", s.name, *warmup, *rounds)
	for i := -*warmup; i < *rounds; i++ {
		k := (i + *warmup) % len(sides)
		for j := range sides {
			side := sides[(j+k)%len(sides)]
			d, err := s.once(side, tmp)
			if err != nil {
				return err
			}
			if i >= 0 {
				s.results[side] = append(s.results[side], d)
			}
		}
	}
	// How long the server takes to leave by itself once its input ends:
	// what a longer grace would wait for.
	var own []time.Duration
	re := regexp.MustCompile(`exited (\S+) after`)
	for range 5 {
		cmd := s.command(sideDirect, tmp)
		cmd.Args = append([]string{cmd.Args[0], "-exit", "eof"}, cmd.Args[1:]...)
		var errOut bytes.Buffer
		cmd.Stderr = &errOut
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%s, direct -exit eof: %v: %s", s.name, err, errOut.String())
		}
		m := re.FindStringSubmatch(errOut.String())
		if m == nil {
			return fmt.Errorf("%s, direct -exit eof: no time in %q", s.name, errOut.String())
		}
		d, err := time.ParseDuration(m[1])
		if err != nil {
			return err
		}
		own = append(own, d)
	}
	s.ownExit = median(own)
	return nil
}

// cleanEnv is our environment without MCPCTL_* settings, which would
// change what mcpctl does.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MCPCTL_") {
			env = append(env, kv)
		}
	}
	return env
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// paired is the median of the per-round ratios a[i]/b[i], which a slow
// stretch of the machine, hitting both sides of a round, affects less.
func paired(a, b []time.Duration) float64 {
	r := make([]float64, len(a))
	for i := range a {
		r[i] = float64(a[i]) / float64(b[i])
	}
	sort.Float64s(r)
	if len(r)%2 == 1 {
		return r[len(r)/2]
	}
	return (r[len(r)/2-1] + r[len(r)/2]) / 2
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f", float64(d)/float64(time.Millisecond)) }

func report(servers []*server, started time.Time, load string) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	nodeVersion, _ := exec.Command("node", "--version").Output()
	p("## One-shot calls to legacy stdio servers\n\n")
	p("`%s` (%s, %d CPUs, %s, node %s, load %s at start, %.0f s in all):\n",
		*command, started.UTC().Format("2006-01-02 15:04 MST"), runtime.NumCPU(), runtime.Version(), strings.TrimSpace(string(nodeVersion)), load, time.Since(started).Seconds())
	p("median wall time of %d runs of each, exec to exit, in ms, the three sides rotated within each round after %d warm-up rounds.\n", *rounds, *warmup)
	p("*direct* is `tests/bench/legacydirect`: it starts the server, sends `initialize`, `notifications/initialized` and one\n")
	p("`tools/call`, and as soon as the answer is in closes the server's stdin and sends SIGTERM at once. *mcpctl* is\n")
	p("`mcpctl --stdio 'node …/dist/index.js …' tools call TOOL ARGS` with the era remembered from the warm-up (no probe); it also\n")
	p("fetches `tools/list` to type and check the arguments, then closes stdin and waits up to `--shutdown-grace` (default %s)\n", client.DefaultCloseGrace)
	p("for the server to exit before SIGTERM. *Exits by itself* is how long the server takes to leave after its stdin is closed,\n")
	p("with no signal (median of 5). Target: mcpctl within %.1f× of direct.\n\n", target)
	p("| server | call | direct | mcpctl | mcpctl / direct (medians) | (paired) | target ≤ %.1f× | mcpctl --shutdown-grace 0 | exits by itself |\n", target)
	p("|---|---|---|---|---|---|---|---|---|\n")
	for _, s := range servers {
		d, m, z := median(s.results[sideDirect]), median(s.results[sideMcpctl]), median(s.results[sideZero])
		ratio := float64(m) / float64(d)
		verdict := "met"
		if ratio > target {
			verdict = fmt.Sprintf("missed by %s ms", ms(m-time.Duration(float64(d)*target)))
		}
		p("| %s | `%s` | %s | %s | %.2f× | %.2f× | %s | %s (%.2f×) | %s |\n", s.name, s.call, ms(d), ms(m), ratio,
			paired(s.results[sideMcpctl], s.results[sideDirect]), verdict, ms(z), float64(z)/float64(d), ms(s.ownExit))
	}
	p("\n")
	for _, s := range servers {
		d, m, z := median(s.results[sideDirect]), median(s.results[sideMcpctl]), median(s.results[sideZero])
		if float64(m)/float64(d) <= target {
			continue
		}
		p("- **%s** misses the target by %s ms (%.2f×). It takes %s ms to leave by itself once its stdin is closed, longer than\n",
			s.name, ms(m-time.Duration(float64(d)*target)), float64(m)/float64(d), ms(s.ownExit))
		p("  the grace, so mcpctl waits the whole %s and then sends SIGTERM, where the direct driver sends it at once.\n", client.DefaultCloseGrace)
		if s.name == "server-everything" {
			p("  (server-everything arms a 350 ms timer at `notifications/initialized`, to ask for roots, which keeps Node\n")
			p("  running however soon its input ends.)\n")
		}
		p("  With `--shutdown-grace 0`, or `shutdownGrace: 0` in its config entry, mcpctl takes %s ms (%.2f×).\n", ms(z), float64(z)/float64(d))
	}
	p("\nThe grace is what lets a server that leaves when its input ends (these Node servers do within about 10 ms when idle)\n")
	p("exit on its own, as the stdio binding asks a client to allow, before a signal; it bounds the wait for one that\n")
	p("does not. mcpctl's other costs here are its own start-up and the `tools/list` request.\n")
	return b.String()
}
