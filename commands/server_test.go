package commands

import (
	"strings"
	"testing"
)

func TestPickServer(t *testing.T) {
	t.Parallel()
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	for _, tc := range []struct {
		name     string
		flags    serverChoice
		env      map[string]string
		want     serverChoice
		errorHas string
	}{
		{name: "nothing", want: serverChoice{}},
		{name: "flag", flags: serverChoice{name: "a"}, want: serverChoice{name: "a"}},
		{name: "a flag beats every variable", flags: serverChoice{url: "http://x"},
			env: map[string]string{"MCPCTL_SERVER": "b", "MCPCTL_STDIO": "srv"}, want: serverChoice{url: "http://x"}},
		{name: "-s beats MCPCTL_URL", flags: serverChoice{name: "a"}, env: map[string]string{"MCPCTL_URL": "http://x"}, want: serverChoice{name: "a"}},
		{name: "variable", env: map[string]string{"MCPCTL_SERVER": "b"}, want: serverChoice{name: "b"}},
		{name: "two flags", flags: serverChoice{name: "a", stdio: "srv"}, errorHas: "both -s/--server and --url or --stdio given"},
		{name: "two variables", env: map[string]string{"MCPCTL_URL": "http://x", "MCPCTL_STDIO": "srv"}, errorHas: "both --url and --stdio given"},
	} {
		env = tc.env
		got, err := pickServer(tc.flags, getenv)
		switch {
		case tc.errorHas != "":
			if err == nil || !strings.Contains(err.Error(), tc.errorHas) || ExitCode(err) != ExitUsage {
				t.Errorf("%s: err = %v", tc.name, err)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case got.url != tc.want.url || got.stdio != tc.want.stdio || got.name != tc.want.name:
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestCheckServerName(t *testing.T) {
	t.Parallel()
	for name, ok := range map[string]bool{
		"weather": true, "my-server_2": true, "": false, "-x": false, "a b": false, "f.json:x": false, "a/b": false,
	} {
		if err := checkServerName(name); (err == nil) != ok {
			t.Errorf("checkServerName(%q) = %v", name, err)
		}
	}
}
