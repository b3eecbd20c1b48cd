package commands

import "testing"

func TestServerLabel(t *testing.T) {
	for _, c := range []struct {
		ep   endpoint
		want string
	}{
		{endpoint{name: "docs"}, "docs"},
		{endpoint{name: "team.json:docs"}, "team.json_docs"},
		{endpoint{url: "https://mcp.example.com:8443/mcp"}, "mcp.example.com_8443"},
		{endpoint{argv: []string{"/usr/bin/node", "server.js"}}, "node"},
		{endpoint{name: ".."}, "server"},
		{endpoint{name: "a/../../b"}, "a_.._.._b"},
		{endpoint{}, "server"},
	} {
		if got := serverLabel(&c.ep); got != c.want {
			t.Errorf("serverLabel(%+v) = %q, want %q", c.ep, got, c.want)
		}
	}
}

func TestCleanRel(t *testing.T) {
	for _, ok := range []string{"SKILL.md", "references/GUIDE.md", "a/b/c.txt", "..hidden"} {
		if _, err := cleanRel(ok); err != nil {
			t.Errorf("cleanRel(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"", "../x", "a/../../x", "/etc/passwd", "a//b", "./a", `a\b`, "c:x", "a/\x1b[2J", "GUIDE\u202edm.txt", "refer\u200bences/x", "\u0085x", "a/\xff"} {
		if _, err := cleanRel(bad); err == nil {
			t.Errorf("cleanRel(%q) accepted it", bad)
		}
	}
}
