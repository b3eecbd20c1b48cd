package commands

import (
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
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

// The cache keeps a server's private results apart per credential, the
// bearer's too: one caller's never answer another's.
func TestCredentialIDOfBearer(t *testing.T) {
	t.Parallel()
	ids := map[string]string{}
	for _, args := range [][]string{{"--bearer", "alice"}, {"--bearer", "bob"}, {"-H", "Authorization: Bearer alice"}} {
		e := isolate(t)
		r := e.runCommand("tools", func(f *Factory) *cli.Command {
			return newCmdToolsList(f, func(o *listOptions) error {
				st, err := resolve(f, o.Globals, ConnectOptions{})
				if err == nil {
					ids[strings.Join(args, " ")] = st.credentialID
				}
				return err
			})
		}, append([]string{"--url", "http://127.0.0.1:1/mcp"}, append(args, "tools", "list")...)...)
		if r.code != ExitOK {
			t.Fatalf("%v: %s", args, r.err)
		}
	}
	if a, b, h := ids["--bearer alice"], ids["--bearer bob"], ids["-H Authorization: Bearer alice"]; a == "" || a == b || a != h {
		t.Errorf("credential ids: --bearer alice %q, --bearer bob %q, -H Authorization: Bearer alice %q", a, b, h)
	}
}
