package commands

import (
	"strings"
	"testing"

	"github.com/mcpctl/mcpctl/client"
)

func TestServerIDHidesEnvValues(t *testing.T) {
	t.Parallel()
	a := serverID("", []string{"srv", "--flag"}, []string{"API_KEY=sekrit-1", "B=2"}, "")
	b := serverID("", []string{"srv", "--flag"}, []string{"B=2", "API_KEY=sekrit-2"}, "")
	if strings.Contains(a, "sekrit") || !strings.Contains(a, "API_KEY=") {
		t.Errorf("serverID = %q: the variable should be named, its value hashed", a)
	}
	if a == b {
		t.Error("different values must give different IDs")
	}
	if c := serverID("", []string{"srv", "--flag"}, []string{"B=2", "API_KEY=sekrit-1"}, ""); c != a {
		t.Errorf("the order of --env must not matter: %q vs %q", c, a)
	}
	if u := serverID("https://x/mcp", nil, []string{"A=1"}, "/tmp"); u != "https://x/mcp" {
		t.Errorf("URL server ID = %q", u)
	}
}

// Completion looks under the capability digest of every set of
// capabilities mcpctl may declare, the default first: a list fetched with
// --root or --sampling-cmd is found too.
func TestCapabilityDigests(t *testing.T) {
	d := capabilityDigests()
	if len(d) != 8 || d[0] != client.CapabilitiesDigest((&inputConfig{}).capabilities(true)) {
		t.Fatalf("digests %q: want 8, the default first", d)
	}
	seen := map[string]bool{}
	for _, x := range d {
		if x == "" || seen[x] {
			t.Errorf("digest %q empty or repeated in %q", x, d)
		}
		seen[x] = true
	}
	for _, ic := range []*inputConfig{{roots: []root{{URI: "file:///tmp"}}}, {samplingCmd: []string{"cat"}},
		{roots: []root{{URI: "file:///tmp"}}, samplingCmd: []string{"cat"}}} {
		for _, tasks := range []bool{true, false} {
			if x := client.CapabilitiesDigest(ic.capabilities(tasks)); !seen[x] {
				t.Errorf("the capabilities %s (digest %s) are not looked under", ic.capabilities(tasks), x)
			}
		}
	}
}
