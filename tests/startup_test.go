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

	cmd := exec.Command(bin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	trace, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("mcpctl --version: %v\n%s", err, trace)
	}
	// init PATH @0.12 ms, 0.010 ms clock, 1234 bytes, 12 allocs
	line := regexp.MustCompile(`(?m)^init (\S+) @\S+ ms, \S+ ms clock, (\d+) bytes, (\d+) allocs$`)
	inits := line.FindAllStringSubmatch(string(trace), -1)
	if len(inits) < 5 {
		t.Fatalf("GODEBUG=inittrace=1 printed %d init lines:\n%s", len(inits), trace)
	}
	total := 0
	for _, m := range inits {
		pkg, err := url.PathUnescape(m[1]) // gopkg.in/yaml%2ev3
		if err != nil || !deps[pkg] {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		total += n
		t.Logf("init %s: %s bytes, %s allocs", pkg, m[2], m[3])
	}
	if total > maxInitBytes {
		t.Errorf("client/schema and its dependencies allocate %d bytes in package init, more than %d:\n%s", total, maxInitBytes, trace)
	}
}
