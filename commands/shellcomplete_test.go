package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/internal/interact"
)

func TestSplitLine(t *testing.T) {
	t.Parallel()
	for line, want := range map[string][]string{
		"":                          {""},
		"mcpctl ":                   {"mcpctl", ""},
		"mcpctl to":                 {"mcpctl", "to"},
		`mcpctl --stdio 'demo x' t`: {"mcpctl", "--stdio", "demo x", "t"},
		`a "b \"c\"" d\ e`:          {"a", `b "c"`, "d e"},
		`a 'unfinished quo`:         {"a", "unfinished quo"},
		"a\tb  ":                    {"a", "b", ""},
	} {
		if got := splitLine(line); !reflect.DeepEqual(got, want) {
			t.Errorf("splitLine(%q) = %q, want %q", line, got, want)
		}
	}
}

// completeFixture sets up a config naming "weather" (stdio: demo) and a
// cache holding its tools, prompts and resources, as earlier calls would
// have left them. No server runs: completion must not need one.
func completeFixture(t *testing.T) *testEnv {
	t.Helper()
	e := isolate(t)
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	e.Setenv("MCPCTL_CONFIG", cfg)
	if err := os.WriteFile(cfg, []byte("servers:\n  weather:\n    command: demo\n  web:\n    url: https://web.example/mcp\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	put := func(server, method, result string) { e.putCached(server, method, result) }
	const tools = `{"ttlMs":1,"tools":[
		{"name":"weather_current","description":"Current weather\nsecond line","inputSchema":{"type":"object","required":["location"],
		 "properties":{"location":{"type":"string"},"units":{"enum":["metric","imperial","kelvin"]},"verbose":{"type":"boolean"}}}},
		{"name":"calculator","inputSchema":{"type":"object"}}]}`
	put("stdio:demo", "tools/list", tools)
	put("stdio:demo", "prompts/list", `{"ttlMs":1,"prompts":[{"name":"weather_report","arguments":[{"name":"location","required":true},{"name":"style"}]}]}`)
	put("stdio:demo", "resources/list", `{"ttlMs":1,"resources":[{"uri":"demo://readme","name":"readme"},{"uri":"demo://logo.png","name":"logo"}]}`)
	put("stdio:demo", "resources/templates/list", `{"ttlMs":1,"resourceTemplates":[{"uriTemplate":"demo://weather/{location}","name":"w"}]}`)
	put("https://web.example/mcp", "tools/list", `{"ttlMs":1,"tools":[{"name":"web_search","inputSchema":{"type":"object"}}]}`)
	return e
}

// putCached stores a result in the cache as an earlier call would have
// (declaring the default capabilities).
func (e *testEnv) putCached(server, method, result string) {
	t := e.t
	t.Helper()
	cache := &client.Cache{Dir: e.Getenv("MCPCTL_CACHE_DIR"), Version: version()}
	k := client.CacheKey{Server: server, Version: client.LatestVersion, Method: method, Params: "{}",
		Caps: client.CapabilitiesDigest((&interact.Config{}).Capabilities(true))}
	if err := cache.Put(k, json.RawMessage(result)); err != nil {
		t.Fatal(err)
	}
}

// complete runs __complete for a bash line and returns the directive and
// candidates.
func (e *testEnv) complete(shell string, args ...string) (string, []string) {
	t := e.t
	t.Helper()
	r := e.run("", append([]string{"__complete", shell, "--"}, args...)...)
	if r.code != ExitOK || r.err != "" {
		t.Fatalf("__complete %q: exit %d, stderr %q", args, r.code, r.err)
	}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	return lines[0], lines[1:]
}

func TestShellComplete(t *testing.T) {
	t.Parallel()
	e := completeFixture(t)
	for _, tc := range []struct {
		line, directive string
		want            []string // exact, or (with a trailing "…") a prefix of the list
	}{
		{"mcpctl to", ":", []string{"tools"}},
		{"mcpctl tools ", ":", []string{"list", "describe", "call"}},
		{"mcpctl w", ":", []string{"weather", "web"}},
		{"mcpctl -s ", ":", []string{"weather", "web"}},
		{"mcpctl --server=w", ":", []string{"weather", "web"}}, // bash replaces what follows the =
		{"mcpctl -s weather tools call ", ":", []string{"weather_current", "calculator"}},
		{"mcpctl -s weather tools call we", ":", []string{"weather_current"}},
		{"mcpctl weather tools call weather_current ", ":nospace", []string{"location=", "units=", "verbose="}},
		{"mcpctl tools call weather_current location=SF u --stdio demo", ":files", nil}, // the current word is the last
		{"mcpctl --stdio demo tools call weather_current location=SF ", ":nospace", []string{"units=", "verbose="}},
		{"mcpctl -s weather tools call weather_current units=", ":", []string{"metric", "imperial", "kelvin"}},
		{"mcpctl -s weather tools call weather_current units=im", ":", []string{"imperial"}},
		{"mcpctl -s weather tools call weather_current verbose=", ":", []string{"true", "false"}},
		{"mcpctl -s weather tools describe ", ":", []string{"weather_current", "calculator"}},
		{"mcpctl -s weather prompts get ", ":", []string{"weather_report"}},
		{"mcpctl -s weather prompts get weather_report location=Oslo ", ":nospace", []string{"style="}},
		{"mcpctl -s weather resources read ", ":", []string{"demo://readme", "demo://logo.png"}},
		{"mcpctl -s weather resources read demo:", ":", []string{"//readme", "//logo.png"}}, // after bash's : break
		{"mcpctl -s weather complete --prompt ", ":", []string{"weather_report"}},
		{"mcpctl -s weather complete --prompt weather_report ", ":nospace", []string{"location=", "style="}},
		{"mcpctl -s weather complete --template 'demo://weather/{location}' ", ":nospace", []string{"location="}},
		{"mcpctl -s weather listen --resource ", ":", []string{"demo://readme", "demo://logo.png"}},
		{"mcpctl -s web tools call ", ":", []string{"web_search"}},
		{"mcpctl -s nosuch tools call ", ":", nil},
		{"mcpctl tools call ", ":", nil}, // no server: nothing to read
		{"mcpctl -o ", ":", []string{"json", "yaml", "table", "text"}},
		{"mcpctl --protocol-version 2025", ":", []string{"2025-11-25", "2025-06-18", "2025-03-26"}},
		{"mcpctl --jq", ":", []string{"--jq"}},
		{"mcpctl --token-store ", ":", []string{"auto", "keychain", "file"}},
		{"mcpctl tools call --no-", ":", []string{"--no-cache", "--no-tasks", "--no-session", "--no-browser", "--no-dpop", "--no-validate", "--no-wait"}},
		{"mcpctl completion ", ":", []string{"bash", "zsh", "fish", "powershell"}},
		{"mcpctl help ex", ":", []string{"exit-codes"}},
		{"mcpctl config show ", ":", []string{"weather", "web"}},
		{"mcpctl resume ", ":files", nil},
		{"mcpctl config trust ", ":files", nil},
		{"mcpctl --cwd ", ":files", nil},
	} {
		directive, got := e.complete("bash", tc.line)
		if directive != tc.directive || !sameSet(got, tc.want) {
			t.Errorf("%q: %s %q, want %s %q", tc.line, directive, got, tc.directive, tc.want)
		}
	}
	// The environment names a server too; the line wins over it.
	e.Setenv("MCPCTL_SERVER", "web")
	if _, got := e.complete("bash", "mcpctl tools call "); !sameSet(got, []string{"web_search"}) {
		t.Errorf("MCPCTL_SERVER: %q", got)
	}
	if _, got := e.complete("bash", "mcpctl -s weather tools call c"); !sameSet(got, []string{"calculator"}) {
		t.Errorf("-s over MCPCTL_SERVER: %q", got)
	}
}

func TestShellCompleteWords(t *testing.T) {
	t.Parallel()
	e := completeFixture(t)
	// zsh and fish pass words; descriptions follow a tab, one line each.
	_, got := e.complete("zsh", "-s", "weather", "tools", "call", "")
	want := []string{"weather_current\tCurrent weather second line", "calculator"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("zsh = %q, want %q", got, want)
	}
	_, got = e.complete("fish", "--stdio", "'demo'", "tools", "call", "weather_current", "units=k")
	if !reflect.DeepEqual(got, []string{"units=kelvin"}) {
		t.Errorf("fish = %q", got)
	}
	// Without words: the commands.
	if _, got := e.complete("zsh"); len(got) < 10 {
		t.Errorf("no words: %q", got)
	}
	r := e.run("", "__complete", "tcsh", "--", "x")
	if r.code != ExitUsage {
		t.Errorf("unknown shell: exit %d", r.code)
	}
}

func sameSet(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	m := map[string]int{}
	for _, g := range got {
		m[g]++
	}
	for _, w := range want {
		m[w]--
	}
	for _, n := range m {
		if n != 0 {
			return false
		}
	}
	return true
}
