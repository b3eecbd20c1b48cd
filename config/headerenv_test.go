package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestParseHeaders(t *testing.T) {
	got, err := ParseHeaders([]string{
		"Authorization: Bearer abc",
		"x-custom:   spaced value  ",
		"X-Time: 12:00:01",
		"X-Url: https://a.example:8443/p",
		"X-Empty:",
		"X-Space: ",
		"  X-Padded-Name : v",
		"X-Tab: a\tb",
		"X-Utf8: café",
		"!#$%&'*+-.^_`|~09az: token characters",
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []KV{
		{"Authorization", "Bearer abc"},
		{"x-custom", "spaced value"},
		{"X-Time", "12:00:01"},
		{"X-Url", "https://a.example:8443/p"},
		{"X-Empty", ""},
		{"X-Space", ""},
		{"X-Padded-Name", "v"},
		{"X-Tab", "a\tb"},
		{"X-Utf8", "café"},
		{"!#$%&'*+-.^_`|~09az", "token characters"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseHeaders\n got %q\nwant %q", got, want)
	}
	if got, err := ParseHeaders(nil); got != nil || err != nil {
		t.Errorf("ParseHeaders(nil) = %q, %v", got, err)
	}
}

func TestParseHeadersErrors(t *testing.T) {
	for _, tc := range []struct{ in, msg string }{
		{"Bad Name: v", `invalid header "Bad …": write it as 'Name: value'`},
		{"Authorization Bearer s3cr3t", `invalid header "Authorization …": write it as 'Name: value'`},
		{"NoColon", `invalid header "NoColon": write it as 'Name: value'`},
		{"", `invalid header "": write it as 'Name: value'`},
		{": value", `invalid header ": …": write it as 'Name: value'`},
		{"   :v", `invalid header ":v": write it as 'Name: value'`},
		{"Tab\tName: v", `invalid header "Tab\tName: …": write it as 'Name: value'`},
		{"X\rY: v", `invalid header "X\rY: …": write it as 'Name: value'`},
		{"X\nY: v", `invalid header "X\nY: …": write it as 'Name: value'`},
		{"X(Y): v", `invalid header "X(Y): …": write it as 'Name: value'`},
		{"Café: v", `invalid header "Café: …": write it as 'Name: value'`},
		{"X: a\r\nb", `invalid header "X": the value contains a line break`},
		{"X-A: a\r\nX-Injected: b", `invalid header "X-A": the value contains a line break`},
		{"X: trailing newline\n", `invalid header "X": the value contains a line break`},
		{"X: cr\r", `invalid header "X": the value contains a line break`},
		{"X: a\x00b", `invalid header "X": the value contains a control character`},
		{"X: a\x7fb", `invalid header "X": the value contains a control character`},
		{"X: a\x1bb", `invalid header "X": the value contains a control character`},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseHeaders([]string{"Good: 1", tc.in})
			var he *HeaderError
			if got != nil || !errors.As(err, &he) || err.Error() != tc.msg {
				t.Errorf("ParseHeaders(%q) = %q, %v; want *HeaderError %s", tc.in, got, err, tc.msg)
			}
		})
	}
}

func TestCheckHeader(t *testing.T) {
	for _, tc := range []struct{ name, value, msg string }{
		{"Authorization", "Bearer a:b", ""},
		{"X-Empty", "", ""},
		{"X-Tab", "\ta\t", ""},
		{"Bad Name", "v", `invalid header "Bad …": write it as 'Name: value'`},
		{"", "v", `invalid header "": write it as 'Name: value'`},
		{"X:Y", "v", `invalid header "X:Y": write it as 'Name: value'`},
		{"X\x00", "v", `invalid header "X\x00": write it as 'Name: value'`},
		{"X", "a\rb", `invalid header "X": the value contains a line break`},
		{"X", "a\nb", `invalid header "X": the value contains a line break`},
		{"X", "a\x00b", `invalid header "X": the value contains a control character`},
	} {
		err := CheckHeader(tc.name, tc.value)
		var he *HeaderError
		switch {
		case tc.msg == "" && err != nil:
			t.Errorf("CheckHeader(%q, %q) = %v", tc.name, tc.value, err)
		case tc.msg != "" && (!errors.As(err, &he) || err.Error() != tc.msg):
			t.Errorf("CheckHeader(%q, %q) = %v; want *HeaderError %s", tc.name, tc.value, err, tc.msg)
		}
	}
}

func TestParseEnv(t *testing.T) {
	got, err := ParseEnv([]string{"A=1", "EMPTY=", "EQ=a=b", "SPACE= x ", "lower_case=v"})
	if err != nil {
		t.Fatal(err)
	}
	want := []KV{{"A", "1"}, {"EMPTY", ""}, {"EQ", "a=b"}, {"SPACE", " x "}, {"lower_case", "v"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseEnv\n got %q\nwant %q", got, want)
	}
	for _, tc := range []struct{ in, msg string }{
		{"A", `invalid --env "A": write it as KEY=VALUE`},
		{"=v", `invalid --env "=v": write it as KEY=VALUE`},
		{"=", `invalid --env "=": write it as KEY=VALUE`},
		{"", `invalid --env "": write it as KEY=VALUE`},
		{"K=a\x00b", `invalid --env "K": the value contains a NUL byte`},
		{"K\x00=v", `invalid --env "K\x00": the name contains a NUL byte`},
	} {
		got, err := ParseEnv([]string{"OK=1", tc.in})
		var ee *EnvError
		if got != nil || !errors.As(err, &ee) || err.Error() != tc.msg {
			t.Errorf("ParseEnv(%q) = %q, %v; want *EnvError %s", tc.in, got, err, tc.msg)
		}
	}
}

func TestCheckEnv(t *testing.T) {
	for _, tc := range []struct{ key, value, msg string }{
		{"A", "", ""},
		{"A", "x=y", ""},
		{"", "v", `invalid env "": a name must not be empty or contain "="`},
		{"A=B", "v", `invalid env "A=B": a name must not be empty or contain "="`},
		{"A", "a\x00b", `invalid env "A": the value contains a NUL byte`},
		{"A\x00", "v", `invalid env "A\x00": the name contains a NUL byte`},
	} {
		err := CheckEnv(tc.key, tc.value)
		var ee *EnvError
		switch {
		case tc.msg == "" && err != nil:
			t.Errorf("CheckEnv(%q, %q) = %v", tc.key, tc.value, err)
		case tc.msg != "" && (!errors.As(err, &ee) || err.Error() != tc.msg):
			t.Errorf("CheckEnv(%q, %q) = %v; want *EnvError %s", tc.key, tc.value, err, tc.msg)
		}
	}
}

// TestResolveChecksHeadersAndEnv: an entry of any file is held to the
// rule when it is used, after expansion, and the error names the entry.
func TestResolveChecksHeadersAndEnv(t *testing.T) {
	dir := t.TempDir()
	own := filepath.Join(dir, "config.yaml")
	write := func(path, text string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(own, `servers:
  badname:
    url: https://x.example/mcp
    headers: {"Bad Name": v}
  crvalue:
    url: https://x.example/mcp
    headers: {X: "a\r\nb"}
  fromvar:
    url: https://x.example/mcp
    headers: {X: "${TOKEN}"}
  bearer:
    url: https://x.example/mcp
    auth: {bearer: "${TOKEN}"}
  emptykey:
    command: srv
    env: {"": v}
  eqkey:
    command: srv
    env: {"A=B": v}
  nul:
    command: srv
    env: {A: "a\0b"}
  envfile:
    command: srv
    envFile: `+filepath.Join(dir, "nul.env")+`
  good:
    url: https://x.example/mcp
    headers: {"X-Empty": "", X-Time: "12:00"}
`)
	write(filepath.Join(dir, "nul.env"), "A=a\x00b\n")
	write(filepath.Join(dir, ".mcp.json"), `{"mcpServers": {
  "projbad": {"url": "https://x.example/mcp", "headers": {"Bad Name": "v"}},
  "projenv": {"command": "srv", "env": {"A=B": "v"}}
}}`)
	set := mustLoad(t, trusting(t, Options{File: own, Foreign: true, Cwd: dir}))
	vars := env(map[string]string{"TOKEN": "a\nb"})
	for _, tc := range []struct{ name, msg string }{
		{"badname", `server "badname" (` + own + `:2:3): invalid header "Bad …": write it as 'Name: value'`},
		{"crvalue", `server "crvalue" (` + own + `:5:3): invalid header "X": the value contains a line break`},
		{"fromvar", `server "fromvar" (` + own + `:8:3): invalid header "X": the value contains a line break`},
		{"bearer", `server "bearer" (` + own + `:11:3): invalid header "Authorization": the value contains a line break`},
		{"emptykey", `server "emptykey" (` + own + `:14:3): invalid env "": a name must not be empty or contain "="`},
		{"eqkey", `server "eqkey" (` + own + `:17:3): invalid env "A=B": a name must not be empty or contain "="`},
		{"nul", `server "nul" (` + own + `:20:3): invalid env "A": the value contains a NUL byte`},
		{"envfile", `server "envfile" (` + own + `:23:3): invalid env "A": the value contains a NUL byte`},
		{"projbad", `server "projbad" (` + filepath.Join(dir, ".mcp.json") + `): invalid header "Bad …": write it as 'Name: value'`},
		{"projenv", `server "projenv" (` + filepath.Join(dir, ".mcp.json") + `): invalid env "A=B": a name must not be empty or contain "="`},
	} {
		srv, err := set.Lookup(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		ep, err := srv.Resolve(vars)
		var ee *EntryError
		if ep != nil || !errors.As(err, &ee) || err.Error() != tc.msg {
			t.Errorf("%s: Resolve = %v, %v; want %s", tc.name, ep, err, tc.msg)
			continue
		}
		var he *HeaderError
		var ve *EnvError
		if !errors.As(err, &he) && !errors.As(err, &ve) {
			t.Errorf("%s: %v does not carry a *HeaderError or *EnvError", tc.name, err)
		}
	}
	good, _ := set.Lookup("good")
	if ep, err := good.Resolve(vars); err != nil || !reflect.DeepEqual(ep.Headers, []KV{{"X-Empty", ""}, {"X-Time", "12:00"}}) {
		t.Errorf("good: Resolve = %+v, %v", ep, err)
	}
}
