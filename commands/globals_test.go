package commands

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/internal/argv"
)

// Every global flag has its field in GlobalOptions, of its flag's type,
// and every field its flag: a flag added without a field would be parsed
// by urfave and never read.
func TestGlobalOptionsCoverTheFlags(t *testing.T) {
	t.Parallel()
	want := map[string]reflect.Type{}
	for _, fl := range globalFlags() {
		var typ reflect.Type
		switch fl.(type) {
		case *cli.StringFlag:
			typ = reflect.TypeFor[string]()
		case *cli.BoolFlag:
			typ = reflect.TypeFor[bool]()
		case *cli.DurationFlag:
			typ = reflect.TypeFor[time.Duration]()
		case *cli.IntFlag:
			typ = reflect.TypeFor[int]()
		case *cli.StringSliceFlag:
			typ = reflect.TypeFor[[]string]()
		default:
			t.Fatalf("flag %s is a %T: GlobalOptions has no rule for it", argv.FlagName(fl), fl)
		}
		want[argv.FlagName(fl)] = typ
	}
	got := map[string]reflect.Type{}
	rt := reflect.TypeFor[GlobalOptions]()
	for i := range rt.NumField() {
		if name := rt.Field(i).Tag.Get("flag"); name != "" {
			got[name] = rt.Field(i).Type
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("GlobalOptions fields\n got %v\nwant %v", got, want)
	}
}

// globalsFor parses a command line's global flags with env as the
// environment.
func globalsFor(t *testing.T, env map[string]string, args ...string) *GlobalOptions {
	t.Helper()
	e := isolate(t)
	for k, v := range env {
		e.Setenv(k, v)
	}
	var got *GlobalOptions
	r := e.runCommand("tools", func(f *Factory) *cli.Command {
		return newCmdToolsList(f, func(o *listOptions) error { got = o.Globals; return nil })
	}, append(args, "tools", "list")...)
	if r.code != ExitOK || got == nil {
		t.Fatalf("exit %d, stderr %q", r.code, r.err)
	}
	return got
}

func TestGlobalOptionsSources(t *testing.T) {
	t.Parallel()
	g := globalsFor(t, map[string]string{"MCPCTL_OUTPUT": "yaml", "MCPCTL_PROGRESS": "", "MCPCTL_TRACE": ""},
		"--timeout", "7s", "-H", "A: 1", "-H", "B: 2", "--root", "/r")
	switch {
	case g.Timeout != 7*time.Second || !g.Typed("timeout"):
		t.Errorf("--timeout %v typed %v", g.Timeout, g.Typed("timeout"))
	case !slices.Equal(g.Header, []string{"A: 1", "B: 2"}):
		t.Errorf("-H %q", g.Header)
	case g.Output != "yaml" || !g.IsSet("output") || g.Typed("output"):
		t.Errorf("MCPCTL_OUTPUT: %q set %v typed %v; want yaml, set, not typed", g.Output, g.IsSet("output"), g.Typed("output"))
	case g.Progress != "auto" || g.IsSet("progress"):
		t.Errorf("an empty MCPCTL_PROGRESS: %q set %v; want the default, unset", g.Progress, g.IsSet("progress"))
	case g.Trace || !g.IsSet("trace"):
		t.Errorf("an empty MCPCTL_TRACE: %v set %v; want false, set", g.Trace, g.IsSet("trace"))
	case g.ProbeTimeout != 15*time.Second || g.MaxRounds != 10 || g.TokenStore != "auto":
		t.Errorf("defaults: probe %v, rounds %d, store %q", g.ProbeTimeout, g.MaxRounds, g.TokenStore)
	}
}

// The config gives a flag its value only where no flag or variable did,
// the server's entry before the defaults; a clone is changed on its own.
func TestGlobalOptionsFromConfig(t *testing.T) {
	t.Parallel()
	g := globalsFor(t, map[string]string{"MCPCTL_OUTPUT": "yaml"}, "--timeout", "7s")
	eff := g.Clone()
	for _, set := range []struct{ flag, value string }{
		{"timeout", "1s"},  // typed: kept
		{"output", "json"}, // a variable: kept
		{"cache-ttl", "5m"},
		{"cache-ttl", "9m"}, // the entry came first: kept
	} {
		if err := eff.SetFromConfig(set.flag, set.value); err != nil {
			t.Fatal(err)
		}
	}
	if err := eff.SetFromConfig("root", "/a", "/b"); err != nil {
		t.Fatal(err)
	}
	switch {
	case eff.Timeout != 7*time.Second || eff.Output != "yaml":
		t.Errorf("the config overrode a flag or variable: timeout %v, output %q", eff.Timeout, eff.Output)
	case eff.CacheTTL != 5*time.Minute || !eff.FromConfig("cache-ttl"):
		t.Errorf("cache-ttl %v from config %v; want the first setting, 5m", eff.CacheTTL, eff.FromConfig("cache-ttl"))
	case !slices.Equal(eff.Root, []string{"/a", "/b"}):
		t.Errorf("roots %q", eff.Root)
	case g.CacheTTL != 0 || g.FromConfig("cache-ttl") || len(g.Root) != 0:
		t.Errorf("the original changed with its clone: %+v", g)
	}
	if err := eff.SetFromConfig("max-rounds", "many"); err == nil {
		t.Error("a max-rounds of many was taken")
	}
}

// What a session process is given on its settings pipe says the same as
// the command line that started it, and wins over the session's own
// variables as a typed flag would.
func TestGlobalOptionsSettings(t *testing.T) {
	t.Parallel()
	g := globalsFor(t, map[string]string{"MCPCTL_TIMEOUT": "9s", "MCPCTL_BEARER": "tok"},
		"--stdio", "srv a", "--env", "K=V", "--env", "L=W", "--max-rounds", "3", "--insecure", "--trace")
	doc := sessionSettings(g)
	var flags map[string][]string
	if err := json.Unmarshal(doc, &flags); err != nil {
		t.Fatalf("%s: %v", doc, err)
	}
	want := map[string][]string{"stdio": {"srv a"}, "env": {"K=V", "L=W"}, "timeout": {"9s"}, "insecure": {"true"},
		"max-rounds": {"3"}, "bearer": {"tok"}}
	if !reflect.DeepEqual(flags, want) {
		t.Errorf("sessionSettings\n got %s\nwant %v", doc, want)
	}
	// The session's own variables and flags yield to the settings.
	again := globalsFor(t, map[string]string{"MCPCTL_TIMEOUT": "1s"}, "--env", "OTHER=1")
	if err := again.applySettings(doc); err != nil {
		t.Fatal(err)
	}
	for flag := range want {
		a, _ := g.field(flag)
		b, _ := again.field(flag)
		if !reflect.DeepEqual(a.Interface(), b.Interface()) || !again.Typed(flag) {
			t.Errorf("%s: %v, then %v from the settings (typed: %v)", flag, a, b, again.Typed(flag))
		}
	}
	if again.Trace {
		t.Error("--trace was passed on: it is about this command's output")
	}
	for _, bad := range []string{`{"no-such-flag":["1"]}`, `{"max-rounds":["many"]}`, `["--stdio=x"]`} {
		if err := globalsFor(t, nil).applySettings([]byte(bad)); err == nil {
			t.Errorf("settings %s were taken", bad)
		}
	}
}
