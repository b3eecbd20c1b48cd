package commands

import (
	"testing"
)

// TestBadFlagValue: a flag or MCPCTL_* value that does not parse is one
// line naming the flag (or variable), the value and what fits, not the
// flag package's `invalid value "abc" for flag -timeout: parse error`.
func TestBadFlagValue(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{nil, []string{"--timeout", "abc", "tools", "list"}, "mcpctl: --timeout abc: want a duration such as 30s or 2m; see 'mcpctl --help'\n"},
		{nil, []string{"tools", "list", "--timeout=5q"}, "mcpctl: --timeout 5q: want a duration such as 30s or 2m; see 'mcpctl --help'\n"},
		{nil, []string{"--cache-ttl", "zz", "tools", "list"}, "mcpctl: --cache-ttl zz: want a duration such as 30s or 2m; see 'mcpctl --help'\n"},
		{nil, []string{"--max-rounds", "x", "tools", "list"}, "mcpctl: --max-rounds x: want a whole number such as 10; see 'mcpctl --help'\n"},
		{nil, []string{"--insecure=maybe", "tools", "list"}, "mcpctl: --insecure maybe: want true or false; see 'mcpctl --help'\n"},
		{nil, []string{"listen", "--count", "two words"}, "mcpctl: --count \"two words\": want a whole number such as 10; see 'mcpctl listen --help'\n"},
		{nil, []string{"tools", "list", "--timeout="}, "mcpctl: --timeout \"\": want a duration such as 30s or 2m; see 'mcpctl --help'\n"},
		{map[string]string{"MCPCTL_TIMEOUT": "abc"}, []string{"tools", "list"}, "mcpctl: MCPCTL_TIMEOUT=abc (--timeout): want a duration such as 30s or 2m; see 'mcpctl --help'\n"},
		{map[string]string{"MCPCTL_CACHE_TTL": "1 h"}, []string{"tools", "list"}, "mcpctl: MCPCTL_CACHE_TTL=\"1 h\" (--cache-ttl): want a duration such as 30s or 2m; see 'mcpctl --help'\n"},
		{map[string]string{"MCPCTL_NO_CACHE": "maybe"}, []string{"tools", "list"}, "mcpctl: MCPCTL_NO_CACHE=maybe (--no-cache): want true or false; see 'mcpctl --help'\n"},
	} {
		e := isolate(t)
		for k, v := range tc.env {
			e.Setenv(k, v)
		}
		r := e.run("", tc.args...)
		if r.code != ExitUsage || r.err != tc.want {
			t.Errorf("%v %q: exit %d, stderr %q; want exit %d, %q", tc.env, tc.args, r.code, r.err, ExitUsage, tc.want)
		}
	}
}
