package tests

import (
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Every process pays for package initialisation, `mcpctl --version`
// included. Argument validation (client/schema and what it imports) must
// cost nothing there: a validator that compiles meta-schemas in init (as
// github.com/santhosh-tekuri/jsonschema/v6 does: 1.7 MB and 21,000
// allocations) would break the start-up target in BENCHMARKS.md.
// TestSchemaInitCost bounds the memory those packages allocate in init,
// which GODEBUG=inittrace=1 reports exactly (a memory bound, not a timing).
func TestSchemaInitCost(t *testing.T) {
	const maxInitBytes = 64 << 10
	bin := filepath.Join(faultBinaries(t), "mcpctl")
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}",
		"github.com/mcpctl/mcpctl/client/schema").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		deps[p] = true
	}
	if !deps["github.com/mcpctl/mcpctl/client/schema"] {
		t.Fatalf("go list -deps listed %v", deps)
	}

	total := 0
	for _, in := range initTrace(t, bin) {
		if !deps[in.pkg] {
			continue
		}
		total += in.bytes
		t.Logf("init %s: %d bytes, %d allocs", in.pkg, in.bytes, in.allocs)
	}
	if total > maxInitBytes {
		t.Errorf("client/schema and its dependencies allocate %d bytes in package init, more than %d", total, maxInitBytes)
	}
}

// mcpctl's own packages must not do in init what only some commands need:
// every process pays for it before main, `mcpctl --version` included. Issue
// 23 found two regexps compiled there (which line of a server's stderr
// names its crash, the flag package's error for a bad value) and the
// exit-code table of --help rendered there: 52 kB of the 55 kB those
// packages allocated in init. Compile such things on first use
// (sync.OnceValue) and put help together when it is printed.
// TestOwnInitCost bounds what mcpctl's packages allocate in init.
func TestOwnInitCost(t *testing.T) {
	const maxInitBytes = 16 << 10
	bin := filepath.Join(faultBinaries(t), "mcpctl")
	total, seen := 0, 0
	for _, in := range initTrace(t, bin) {
		if !strings.HasPrefix(in.pkg, "github.com/mcpctl/mcpctl/") {
			continue
		}
		seen++
		total += in.bytes
		t.Logf("init %s: %d bytes, %d allocs", in.pkg, in.bytes, in.allocs)
	}
	if seen < 3 {
		t.Fatalf("GODEBUG=inittrace=1 named %d of mcpctl's packages", seen)
	}
	if total > maxInitBytes {
		t.Errorf("mcpctl's packages allocate %d bytes in package init, more than %d", total, maxInitBytes)
	}
}

// initRecord is one package's line of GODEBUG=inittrace=1.
type initRecord struct {
	pkg           string
	bytes, allocs int
}

// initTrace runs `bin --version` with GODEBUG=inittrace=1 and returns what
// each package's init allocated.
func initTrace(t *testing.T, bin string) []initRecord {
	t.Helper()
	cmd := exec.Command(bin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	trace, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("mcpctl --version: %v\n%s", err, trace)
	}
	// init PATH @0.12 ms, 0.010 ms clock, 1234 bytes, 12 allocs
	line := regexp.MustCompile(`(?m)^init (\S+) @\S+ ms, \S+ ms clock, (\d+) bytes, (\d+) allocs$`)
	matches := line.FindAllStringSubmatch(string(trace), -1)
	if len(matches) < 5 {
		t.Fatalf("GODEBUG=inittrace=1 printed %d init lines:\n%s", len(matches), trace)
	}
	var out []initRecord
	for _, m := range matches {
		pkg, err := url.PathUnescape(m[1]) // gopkg.in/yaml%2ev3
		if err != nil {
			t.Fatalf("init line for %q: %v", m[1], err)
		}
		n, _ := strconv.Atoi(m[2])
		a, _ := strconv.Atoi(m[3])
		out = append(out, initRecord{pkg, n, a})
	}
	return out
}
