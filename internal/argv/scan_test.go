package argv

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/internal/exitcode"
)

// testApp is a command tree shaped like mcpctl's (package commands builds
// the real one): global flags that take a value or not, with aliases and
// placeholders in their usage, command groups with subcommands, and
// commands with flags of their own.
func testApp() *cli.App {
	jsonFlag := &cli.StringFlag{Name: "json", Usage: "arguments as a JSON object: `'{…}'`, @FILE or - (stdin)"}
	leaf := func(name string, flags ...cli.Flag) *cli.Command { return &cli.Command{Name: name, Flags: flags} }
	return &cli.App{
		Name: "mcpctl",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "server", Aliases: []string{"s"}, Usage: "use the configured server `NAME`"},
			&cli.StringFlag{Name: "url", Usage: "the server's endpoint `URL`"},
			&cli.StringFlag{Name: "stdio", Usage: "run the server as a subprocess: `'CMD ARGS…'`"},
			&cli.StringSliceFlag{Name: "header", Aliases: []string{"H"}, Usage: "add an HTTP header `'Name: value'` (repeatable)"},
			&cli.DurationFlag{Name: "timeout", Usage: "bound every request by `DURATION`", Value: 60 * time.Second},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "output `FORMAT`"},
			&cli.StringFlag{Name: "jq", Usage: "filter the JSON result with a jq `EXPR`"},
			&cli.BoolFlag{Name: "trace", Usage: "print every message"},
			&cli.BoolFlag{Name: "dry-run", Usage: "send nothing"},
			&cli.BoolFlag{Name: "insecure", Usage: "skip TLS checks"},
		},
		Commands: []*cli.Command{
			{Name: "tools", Subcommands: []*cli.Command{
				leaf("list", &cli.StringFlag{Name: "cursor", Usage: "fetch only the page at `CURSOR`"}),
				leaf("call", jsonFlag, &cli.BoolFlag{Name: "no-validate", Usage: "send the arguments as given"}),
			}},
			{Name: "resources", Subcommands: []*cli.Command{
				leaf("read", &cli.StringFlag{Name: "out", Usage: "write the decoded contents to `FILE`"}),
			}},
			leaf("complete", &cli.StringSliceFlag{Name: "context", Usage: "an argument already resolved, `K=V` (repeatable)"}),
			leaf("call", &cli.StringFlag{Name: "params", Usage: "the request's params"}),
			leaf("ping"),
			leaf("discover"),
			leaf("listen", &cli.IntFlag{Name: "count", Usage: "stop after `N` notifications"}),
		},
	}
}

func TestNormalize(t *testing.T) {
	t.Parallel()
	app := testApp()
	tests := []struct {
		name string
		in   string // split on "|"
		want string
	}{
		{"empty", "", ""},
		{"already in order", "--url|http://x|tools|list", "--url|http://x|tools|list"},
		{"global flag after the subcommand", "tools|list|--url|http://x", "--url|http://x|tools|list"},
		{"global flag between command words", "tools|--url|http://x|list", "--url|http://x|tools|list"},
		{"global flags after positionals", "tools|call|echo|text=hi|--trace|-o|json",
			"--trace|-o|json|tools|call|--|echo|text=hi"},
		{"global alias with a value", "tools|list|-H|X-A: 1|-H|X-B: 2", "-H|X-A: 1|-H|X-B: 2|tools|list"},
		{"value that looks like a command is carried", "tools|list|--stdio|tools", "--stdio|tools|tools|list"},
		{"value that looks like a flag is carried", "tools|list|--jq|-r", "--jq|-r|tools|list"},
		{"inline global value", "tools|list|--url=http://x", "--url=http://x|tools|list"},
		{"single-dash inline global", "tools|list|-o=yaml", "-o=yaml|tools|list"},
		{"global bool takes no value", "tools|call|--dry-run|echo|a=1", "--dry-run|tools|call|--|echo|a=1"},
		{"command flag after positionals", "tools|call|echo|a=1|--json|{\"b\":2}",
			"tools|call|--json|{\"b\":2}|--|echo|a=1"},
		{"command flag inline", "tools|call|echo|--json={}", "tools|call|--json={}|--|echo"},
		{"command flag before positionals", "tools|list|--cursor|abc", "tools|list|--cursor|abc"},
		{"command flag of a nested command", "resources|read|file:///x|--out|f.txt|--url|u",
			"--url|u|resources|read|--out|f.txt|--|file:///x"},
		{"repeatable command flag", "complete|--context|a=1|x|--context|b=2",
			"complete|--context|a=1|--context|b=2|--|x"},
		{"user -- ends processing", "tools|call|echo|--|--url|x|-o", "tools|call|--|echo|--url|x|-o"},
		{"user -- right after the command", "tools|call|--|--weird-tool-name|a=1", "tools|call|--|--weird-tool-name|a=1"},
		{"global flags before a user --", "--trace|call|ping|--url|u|--|--json", "--trace|--url|u|call|--|ping|--json"},
		{"unknown flag stays with the command", "tools|list|--bogus", "tools|list|--bogus"},
		{"unknown flag after positionals", "tools|call|echo|--bogus|x", "tools|call|--bogus|--|echo|x"},
		{"dash alone is positional", "call|ping|-", "call|--|ping|-"},
		{"dash alone then flags", "tools|call|echo|--json|-|--url|u", "--url|u|tools|call|--json|-|--|echo"},
		{"command words after a positional are positional", "tools|call|list|call", "tools|call|--|list|call"},
		{"unknown command is positional", "bogus|--url|u", "--url|u|--|bogus"},
		{"bare server name before a command", "weather|tools|list", "--server|weather|tools|list"},
		{"bare server name after global flags", "-o|json|weather|tools|call|x", "-o|json|--server|weather|tools|call|--|x"},
		{"flags between a bare name and its command", "weather|--timeout|5s|discover", "--server|weather|--timeout|5s|discover"},
		{"a bare name alongside -s is no server", "-s|a|weather|tools|list", "-s|a|--|weather|tools|list"},
		{"a bare name needs a command after it", "weather|list", "--|weather|list"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Normalize(app, split(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if want := split(tc.want); !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
				t.Errorf("Normalize(%q)\n got %q\nwant %q", split(tc.in), got, want)
			}
		})
	}
}

func split(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "|")
}

// The input slice is not modified.
func TestNormalizeKeepsInput(t *testing.T) {
	t.Parallel()
	in := split("tools|call|echo|a=1|--url|u")
	orig := append([]string(nil), in...)
	_, _ = Normalize(testApp(), in)
	if !reflect.DeepEqual(in, orig) {
		t.Errorf("input changed to %q", in)
	}
}

func TestSplitFlag(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in     string
		name   string
		inline bool
	}{
		{"--url", "url", false},
		{"-H", "H", false},
		{"--url=http://x?a=b", "url", true},
		{"-o=json", "o", true},
		{"--json={\"a\":\"=\"}", "json", true},
	}
	for _, tc := range tests {
		name, inline := SplitFlag(tc.in)
		if name != tc.name || inline != tc.inline {
			t.Errorf("SplitFlag(%q) = %q, %v; want %q, %v", tc.in, name, inline, tc.name, tc.inline)
		}
	}
}

// A line that ends in a flag that takes a value is refused, naming the
// flag; it used to be moved to the front and take the command's name as
// its value ("tools|list|--url" became "--url|tools|list": --url tools).
func TestNormalizeFlagWithoutValue(t *testing.T) {
	t.Parallel()
	app := testApp()
	for _, tc := range []struct{ in, want string }{
		{"tools|list|--url", "--url needs a value: write --url URL; see 'mcpctl tools list --help'"},
		{"tools|list|-s", "-s needs a value: write -s NAME; see 'mcpctl tools list --help'"},
		{"--stdio", "--stdio needs a value: write --stdio 'CMD ARGS…'; see 'mcpctl --help'"},
		{"tools|call|echo|--timeout", "--timeout needs a value: write --timeout DURATION; see 'mcpctl tools call --help'"},
		{"tools|call|echo|--json", "--json needs a value: write --json '{…}'; see 'mcpctl tools call --help'"},
		{"ping|-H", "-H needs a value: write -H 'Name: value'; see 'mcpctl ping --help'"},
	} {
		got, err := Normalize(app, split(tc.in))
		var ue *exitcode.UsageError
		if !errors.As(err, &ue) || ue.Msg != tc.want {
			t.Errorf("Normalize(%q) = %q, %v; want the usage error %q", split(tc.in), got, err, tc.want)
		}
	}
}
