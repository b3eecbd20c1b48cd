package commands

// The global flags, read once. urfave parses the command line; parseGlobals
// then reads every global flag into a GlobalOptions, giving each that the
// line leaves unset the value of its MCPCTL_* variable from the factory's
// environment, and from there on nothing reads a global flag by name but
// this file: commands take their options from the struct, and a server
// entry's settings and the config's defaults (server.go) are applied to a
// copy of it, where no flag or variable gave a value.

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/mcpctl/mcpctl/config"
	"github.com/mcpctl/mcpctl/internal/argv"
	"github.com/urfave/cli/v2"
)

// GlobalOptions are mcpctl's global flags (mcpctl --help, "GLOBAL
// OPTIONS"), each field named by its flag in the tag.
type GlobalOptions struct {
	// Which server, and how to start or reach it.
	Server          string        `flag:"server"`
	URL             string        `flag:"url"`
	Stdio           string        `flag:"stdio"`
	Env             []string      `flag:"env"`
	Cwd             string        `flag:"cwd"`
	Header          []string      `flag:"header"`
	ProtocolVersion string        `flag:"protocol-version"`
	ProbeTimeout    time.Duration `flag:"probe-timeout"`
	Timeout         time.Duration `flag:"timeout"`
	MaxTimeout      time.Duration `flag:"max-timeout"`
	ServerStderr    string        `flag:"server-stderr"`
	ShutdownGrace   time.Duration `flag:"shutdown-grace"`
	Insecure        bool          `flag:"insecure"`
	MaxMessageSize  string        `flag:"max-message-size"`
	NoSession       bool          `flag:"no-session"`
	TrustProject    bool          `flag:"trust-project"`

	// What is printed, and how.
	Output   string `flag:"output"`
	JQ       string `flag:"jq"`
	Progress string `flag:"progress"`
	Quiet    bool   `flag:"quiet"`
	LogLevel string `flag:"log-level"`
	Trace    bool   `flag:"trace"`
	DryRun   bool   `flag:"dry-run"`

	// The result cache.
	Refresh  bool          `flag:"refresh"`
	CacheTTL time.Duration `flag:"cache-ttl"`
	NoCache  bool          `flag:"no-cache"`

	// Answering the server.
	Answer            []string `flag:"answer"`
	Answers           string   `flag:"answers"`
	Elicit            string   `flag:"elicit"`
	Root              []string `flag:"root"`
	SamplingCmd       string   `flag:"sampling-cmd"`
	OpenURLs          bool     `flag:"open-urls"`
	MaxRounds         int      `flag:"max-rounds"`
	NoTasks           bool     `flag:"no-tasks"`
	CancelOnInterrupt bool     `flag:"cancel-on-interrupt"`

	// Authorization.
	Bearer            string `flag:"bearer"`
	ClientID          string `flag:"client-id"`
	ClientSecret      string `flag:"client-secret"`
	ClientMetadataURL string `flag:"client-metadata-url"`
	Grant             string `flag:"grant"`
	ClientKey         string `flag:"client-key"`
	ClientKeyAlg      string `flag:"client-key-alg"`
	CallbackPort      int    `flag:"callback-port"`
	TokenStore        string `flag:"token-store"`
	NoBrowser         bool   `flag:"no-browser"`
	Assertion         string `flag:"assertion"`
	IDPTokenEndpoint  string `flag:"idp-token-endpoint"`
	IDPClientID       string `flag:"idp-client-id"`
	IDPClientSecret   string `flag:"idp-client-secret"`
	IDToken           string `flag:"id-token"`
	DPoP              bool   `flag:"dpop"`
	NoDPoP            bool   `flag:"no-dpop"`

	// given holds the flags the command line or a variable gave a value,
	// fromEnv those of them a variable gave, fromConfig those a server
	// entry or the config's defaults gave (SetFromConfig).
	given, fromEnv, fromConfig map[string]bool
}

// IsSet reports whether the command line, a variable or the config gave
// the flag a value: else it has its default.
func (g *GlobalOptions) IsSet(flag string) bool { return g.given[flag] || g.fromConfig[flag] }

// Typed reports whether the flag was given on the command line, not by
// its variable or the config (config add keeps only what was typed).
func (g *GlobalOptions) Typed(flag string) bool { return g.given[flag] && !g.fromEnv[flag] }

// FromConfig reports whether a server entry or the config's defaults gave
// the flag its value.
func (g *GlobalOptions) FromConfig(flag string) bool { return g.fromConfig[flag] }

// SetFromConfig gives a flag that nothing gave a value yet the config's,
// parsed as the flag parses it: a server entry's settings first, then the
// config's defaults, so that a flag, a variable or the entry wins. A list
// flag (roots) takes all its values at once.
func (g *GlobalOptions) SetFromConfig(flag string, values ...string) error {
	if g.IsSet(flag) {
		return nil
	}
	for _, v := range values {
		if err := g.set(flag, v); err != nil {
			return err
		}
	}
	if g.fromConfig == nil {
		g.fromConfig = map[string]bool{}
	}
	g.fromConfig[flag] = true
	return nil
}

// Clone is a copy that changes independently (its lists and records of
// what was given): the settings of one server are applied to a clone.
func (g *GlobalOptions) Clone() *GlobalOptions {
	c := *g
	c.Env, c.Header, c.Answer, c.Root = slices.Clone(g.Env), slices.Clone(g.Header), slices.Clone(g.Answer), slices.Clone(g.Root)
	c.given, c.fromEnv, c.fromConfig = cloneSet(g.given), cloneSet(g.fromEnv), cloneSet(g.fromConfig)
	return &c
}

func cloneSet(m map[string]bool) map[string]bool {
	out := make(map[string]bool, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// globalField is a field of GlobalOptions and its flag's name.
type globalField struct {
	name  string
	index int
}

// globalFields lists the fields of GlobalOptions by their flags.
var globalFields = sync.OnceValue(func() map[string]globalField {
	t := reflect.TypeFor[GlobalOptions]()
	m := map[string]globalField{}
	for i := range t.NumField() {
		if name := t.Field(i).Tag.Get("flag"); name != "" {
			m[name] = globalField{name: name, index: i}
		}
	}
	return m
})

// field is the value of flag's field, settable; !ok for a flag that is
// not global.
func (g *GlobalOptions) field(flag string) (reflect.Value, bool) {
	gf, ok := globalFields()[flag]
	if !ok {
		return reflect.Value{}, false
	}
	return reflect.ValueOf(g).Elem().Field(gf.index), true
}

// set parses value as the flag parses it (strconv's and time's rules, as
// urfave's flag types): a list flag gets one more item.
func (g *GlobalOptions) set(flagName, value string) error {
	v, ok := g.field(flagName)
	if !ok {
		return usagef("%s is not a global flag", argv.Dashed(flagName))
	}
	switch p := v.Addr().Interface().(type) {
	case *string:
		*p = value
	case *[]string:
		*p = append(*p, value)
	case *bool:
		// The flag package parses it, as it parses the command line's
		// (no typer of ours: TestOneOfEach).
		fs := flag.NewFlagSet(flagName, flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		b := fs.Bool(flagName, false, "")
		if err := fs.Set(flagName, value); err != nil {
			return err
		}
		*p = *b
	case *time.Duration:
		d, err := time.ParseDuration(value)
		if err != nil {
			return err
		}
		*p = d
	case *int:
		n, err := strconv.ParseInt(value, 0, 64)
		if err != nil {
			return err
		}
		*p = int(n)
	}
	return nil
}

// parseGlobals reads the global flags urfave parsed, and gives each the
// line leaves unset the value of its variable: an empty variable sets a
// boolean flag to false and leaves any other alone; a value that does not
// parse is a usage error, in the words of a flag's (badFlagValue).
func parseGlobals(c *cli.Context, lookupEnv func(string) (string, bool)) (*GlobalOptions, error) {
	g := &GlobalOptions{given: map[string]bool{}, fromEnv: map[string]bool{}}
	for _, fl := range c.App.Flags {
		name := argv.FlagName(fl)
		v, ok := g.field(name)
		if !ok {
			continue // --help, --version
		}
		switch p := v.Addr().Interface().(type) {
		case *string:
			*p = c.String(name)
		case *[]string:
			*p = slices.Clone(c.StringSlice(name))
		case *bool:
			*p = c.Bool(name)
		case *time.Duration:
			*p = c.Duration(name)
		case *int:
			*p = c.Int(name)
		}
		if c.IsSet(name) {
			g.given[name] = true
			continue
		}
		if err := g.fromVariable(fl, name, lookupEnv); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// fromVariable gives flag the value of the first of its variables that is
// set.
func (g *GlobalOptions) fromVariable(fl cli.Flag, name string, lookupEnv func(string) (string, bool)) error {
	for _, ev := range flagEnvVars()[name] {
		val, ok := lookupEnv(ev)
		if !ok {
			continue
		}
		if _, boolean := argv.Declared(fl).(*cli.BoolFlag); boolean && val == "" {
			val = "false"
		}
		if val == "" {
			return nil // the flag keeps its default
		}
		if err := g.set(name, val); err != nil {
			return usagef("%s=%s (%s): %s; see 'mcpctl --help'", ev, argv.ShownValue(val), argv.Dashed(name), argv.FlagWants(fl))
		}
		g.given[name], g.fromEnv[name] = true, true
		return nil
	}
	return nil
}

// settings are the flags that were given a value (IsSet), those keep
// says, as a JSON object of each one's values in the text its flag takes
// (a list flag's items, any other flag's one value): how a session
// process is given its settings, on a pipe rather than in its arguments,
// which every user on the machine can read.
func (g *GlobalOptions) settings(keep func(flag string) bool) []byte {
	doc := map[string][]string{}
	for _, fl := range globalFlags() {
		name := argv.FlagName(fl)
		v, ok := g.field(name)
		if !ok || !g.IsSet(name) || !keep(name) {
			continue
		}
		switch p := v.Addr().Interface().(type) {
		case *string:
			doc[name] = []string{*p}
		case *[]string:
			doc[name] = slices.Clone(*p)
		case *bool:
			doc[name] = []string{strconv.FormatBool(*p)}
		case *time.Duration:
			doc[name] = []string{p.String()}
		case *int:
			doc[name] = []string{strconv.Itoa(*p)}
		}
	}
	b, _ := json.Marshal(doc) // the flags sorted by name
	return b
}

// applySettings gives the flags of a settings document (settings) their
// values, as if they had been typed: they replace what a variable gave.
func (g *GlobalOptions) applySettings(doc []byte) error {
	var flags map[string][]string
	if err := json.Unmarshal(doc, &flags); err != nil {
		return fmt.Errorf("the settings given are not a JSON object of flags: %w", err)
	}
	for name, values := range flags {
		v, ok := g.field(name)
		if !ok {
			return usagef("%s is not a global flag", argv.Dashed(name))
		}
		v.Set(reflect.Zero(v.Type()))
		for _, value := range values {
			if err := g.set(name, value); err != nil {
				return usagef("the setting of %s given does not parse: %v", argv.Dashed(name), err)
			}
		}
		if g.given == nil {
			g.given, g.fromEnv = map[string]bool{}, map[string]bool{}
		}
		g.given[name] = true
		delete(g.fromEnv, name)
	}
	return nil
}

// settingText is a flag's value as a config entry writes it: a duration
// as config.FormatDuration writes it, anything else as given.
func (g *GlobalOptions) settingText(flag string) string {
	v, ok := g.field(flag)
	if !ok {
		return ""
	}
	switch p := v.Addr().Interface().(type) {
	case *string:
		return *p
	case *time.Duration:
		return config.FormatDuration(*p)
	case *bool:
		return strconv.FormatBool(*p)
	case *int:
		return strconv.Itoa(*p)
	}
	return ""
}
