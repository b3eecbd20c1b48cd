package commands

import (
	"strings"
	"testing"
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
