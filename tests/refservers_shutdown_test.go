package tests

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 16, item 4, against the npm reference servers: a one-shot call
// prints the answer, exits 0 and leaves nothing running, whatever the
// grace after stdin is closed (the default, none, or a server entry's
// shutdownGrace), also when the server runs below a shell, as under a
// wrapper (npx): its SIGTERM reaches the whole process group. How long it
// takes is measured by tests/bench/legacy.sh, not here.
func TestRefServersShutdown(t *testing.T) {
	nm := refServers(t)
	bin := faultBinaries(t)
	files := t.TempDir()
	script := func(name string) string {
		return filepath.Join(nm, "@modelcontextprotocol", name, "dist", "index.js")
	}
	servers := []struct {
		name, stdio string
		call        []string
		want        string
	}{
		{"everything", "node " + script("server-everything") + " stdio", []string{"get-sum", "a=2", "b=3"}, "The sum of 2 and 3 is 5."},
		// A shell between mcpctl and node, which stays (the ; keeps it from
		// exec'ing node): node is a grandchild.
		{"everything_below_shell", "sh -c 'node " + script("server-everything") + " stdio; :'", []string{"get-sum", "a=2", "b=3"}, "The sum of 2 and 3 is 5."},
		{"filesystem", "node " + script("server-filesystem") + " " + files, []string{"list_allowed_directories"}, files},
		{"memory", "env MEMORY_FILE_PATH=" + filepath.Join(files, "memory.jsonl") + " node " + script("server-memory"), []string{"read_graph"}, "entities"},
	}
	for _, s := range servers {
		for _, grace := range []string{"default", "0", "config 0", "1s"} {
			t.Run(s.name+"/"+strings.ReplaceAll(grace, " ", "_"), func(t *testing.T) {
				t.Parallel()
				marker := fmt.Sprintf("mcpctl-refshutdown-%d-%s-%s", os.Getpid(), s.name, strings.ReplaceAll(grace, " ", "_"))
				args := []string{"--stdio", s.stdio}
				var env []string
				switch grace {
				case "default":
				case "config 0":
					cfg := filepath.Join(t.TempDir(), "config.yaml")
					doc := fmt.Sprintf("servers:\n  srv:\n    command: sh\n    args: [-c, %q]\n    shutdownGrace: 0\n", "exec "+s.stdio)
					if err := os.WriteFile(cfg, []byte(doc), 0o600); err != nil {
						t.Fatal(err)
					}
					env = append(env, "MCPCTL_CONFIG="+cfg)
					args = []string{"-s", "srv"}
				default:
					args = append(args, "--shutdown-grace", grace)
				}
				args = append(append(args, "--server-stderr", "discard", "tools", "call"), s.call...)
				r := runFault(t, bin, env, marker, time.Minute, args...)
				if r.code != 0 || !strings.Contains(string(r.stdout), s.want) {
					t.Errorf("exit %d, stdout %.300q, stderr:\n%s", r.code, r.stdout, tail(r.stderr))
				}
				if lines := errorLines(r.stderr); len(lines) > 0 {
					t.Errorf("error lines on success:\n%s", tail(r.stderr))
				}
				noneLeft(t, marker)
			})
		}
	}
}
