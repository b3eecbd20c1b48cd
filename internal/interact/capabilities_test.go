package interact

import (
	"testing"

	"github.com/mcpctl/mcpctl/client"
)

// Completion looks under the capability digest of every set of
// capabilities mcpctl may declare, the default first: a list fetched with
// --root or --sampling-cmd is found too.
func TestCapabilityDigests(t *testing.T) {
	d := CapabilityDigests()
	if len(d) != 8 || d[0] != client.CapabilitiesDigest((&Config{}).Capabilities(true)) {
		t.Fatalf("digests %q: want 8, the default first", d)
	}
	seen := map[string]bool{}
	for _, x := range d {
		if x == "" || seen[x] {
			t.Errorf("digest %q empty or repeated in %q", x, d)
		}
		seen[x] = true
	}
	for _, ic := range []*Config{{Roots: []Root{{URI: "file:///tmp"}}}, {SamplingCmd: []string{"cat"}},
		{Roots: []Root{{URI: "file:///tmp"}}, SamplingCmd: []string{"cat"}}} {
		for _, tasks := range []bool{true, false} {
			if x := client.CapabilitiesDigest(ic.Capabilities(tasks)); !seen[x] {
				t.Errorf("the capabilities %s (digest %s) are not looked under", ic.Capabilities(tasks), x)
			}
		}
	}
}
