package client

import (
	"reflect"
	"strings"
	"testing"
)

// A crash's tail is the line naming the error, and what follows it up to
// the stack trace; without a trace, the last lines.
func TestStderrTailShowsTheError(t *testing.T) {
	for _, c := range []struct {
		name, stderr string
		want         []string
	}{
		{"node", "node:internal/modules/cjs/loader:1210\n  throw err;\n  ^\n\nError: Cannot find module 'x'\nRequire stack:\n- /srv/[eval]\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)\n    at Module._load (node:internal/modules/cjs/loader:1038:27) {\n  code: 'MODULE_NOT_FOUND',\n  requireStack: [ '/srv/[eval]' ]\n}\n\nNode.js v20.20.2\n",
			[]string{"Error: Cannot find module 'x'", "Require stack:", "- /srv/[eval]"}},
		{"node esm", "node:internal/modules/esm/resolve:854\n  throw new ERR_MODULE_NOT_FOUND(packageName, fileURLToPath(base), null);\n        ^\n\nError [ERR_MODULE_NOT_FOUND]: Cannot find package 'p' imported from /srv/a.js\n    at packageResolve (node:internal/modules/esm/resolve:854:9) {\n  code: 'ERR_MODULE_NOT_FOUND'\n}\n\nNode.js v20.20.2\n",
			[]string{"Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'p' imported from /srv/a.js"}},
		{"python", "Traceback (most recent call last):\n  File \"/srv/server.py\", line 3, in <module>\n    import mcp\nModuleNotFoundError: No module named 'mcp'\n",
			[]string{"ModuleNotFoundError: No module named 'mcp'"}},
		{"python chained", "Traceback (most recent call last):\n  File \"a.py\", line 1\n    x()\nKeyError: 'k'\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n  File \"a.py\", line 3\n    y()\nRuntimeError: config broken\n",
			[]string{"RuntimeError: config broken"}},
		{"go", "panic: open config.json: no such file or directory\n\ngoroutine 1 [running]:\nmain.main()\n\t/src/main.go:9 +0x4c\nexit status 2\n",
			[]string{"panic: open config.json: no such file or directory"}},
		{"java", "Exception in thread \"main\" java.lang.IllegalStateException: no port\n\tat Server.main(Server.java:5)\n",
			[]string{"Exception in thread \"main\" java.lang.IllegalStateException: no port"}},
		{"no trace", "starting\nError: the cache is cold\nwarming up\nfatal: out of disk\n",
			[]string{"starting", "Error: the cache is cold", "warming up", "fatal: out of disk"}},
		{"a trace logged long ago", "TypeError: x is undefined\n    at f (a.js:1:1)\n" + strings.Repeat("served a request\n", 9) + "bye\n",
			[]string{"served a request", "served a request", "served a request", "served a request", "bye"}},
		{"unterminated", "Traceback (most recent call last):\n  File \"a.py\", line 1\nValueError: bad", []string{"ValueError: bad"}},
		{"plain", "one\ntwo\nthree\nfour\nfive\nsix\n", []string{"two", "three", "four", "five", "six"}},
	} {
		w := newTailWriter(nil, 5)
		// Written in small pieces, as a pipe may deliver it.
		for s := c.stderr; s != ""; {
			n := min(len(s), 7)
			_, _ = w.Write([]byte(s[:n]))
			s = s[n:]
		}
		if got := w.Tail(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: Tail() = %q, want %q", c.name, got, c.want)
		}
	}
}
