package config

import (
	"strings"
	"testing"
	"time"
)

// keepAlive (sessions, docs/sessions.md): a duration in a server entry,
// and a key of defaults; anything else makes the entry unusable.
func TestKeepAlive(t *testing.T) {
	y, err := parseYAML("c.yaml", []byte("defaults:\n  keepAlive: 5m\nservers:\n  a:\n    command: srv\n    keepAlive: 10m\n  b:\n    command: srv\n    keepAlive: soon\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(y.defaults) != 1 || y.defaults[0].Key != "keepAlive" || y.defaults[0].Value != "5m" {
		t.Errorf("defaults: %+v", y.defaults)
	}
	if y.servers[0].KeepAlive != 10*time.Minute || y.servers[0].Problem != "" {
		t.Errorf("a: %v %q", y.servers[0].KeepAlive, y.servers[0].Problem)
	}
	if !strings.Contains(y.servers[1].Problem, `keepAlive is "soon", not a duration`) {
		t.Errorf("b: %q", y.servers[1].Problem)
	}
}
