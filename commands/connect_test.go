package commands

import (
	"errors"
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

func TestParseHeaders(t *testing.T) {
	t.Parallel()
	got, err := parseHeaders([]string{
		"Authorization: Bearer abc",
		"x-custom:   spaced value  ",
		"X-Custom: second",
		"X-Time: 12:00:01",
		"X-Empty:",
		"  X-Padded-Name : v",
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"Authorization": {"Bearer abc"},
		"X-Custom":      {"spaced value", "second"},
		"X-Time":        {"12:00:01"},
		"X-Empty":       {""},
		"X-Padded-Name": {"v"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseHeaders\n got %q\nwant %q", got, want)
	}

	if h, err := parseHeaders(nil); err != nil || len(h) != 0 {
		t.Errorf("no headers: %v, %v", h, err)
	}
}

func TestParseHeadersErrors(t *testing.T) {
	t.Parallel()
	for _, v := range []string{
		"NoColon",
		"",
		": value",
		"   : value",
		"Bad Name: v",
		"Tab\tName: v",
		"X-A: a\r\nX-Injected: b",
		"X-A: trailing newline\n",
		"X-A: cr\r",
		"X\rY: v",
	} {
		_, err := parseHeaders([]string{"Good: 1", v})
		var ue *UsageError
		if !errors.As(err, &ue) {
			t.Errorf("parseHeaders(%q) err = %v, want *UsageError", v, err)
		}
	}
}

func TestChildEnv(t *testing.T) {
	t.Parallel()
	e := isolate(t)
	if env, err := childEnv(e.Environ, nil); env != nil || err != nil {
		t.Errorf("childEnv(nil) = %q, %v; want nil (inherit)", env, err)
	}

	e.Setenv("MCPCTL_TEST_CHILD_ENV", "old")
	env, err := childEnv(e.Environ, []string{"MCPCTL_TEST_CHILD_ENV=new", "MCPCTL_TEST_EMPTY=", "MCPCTL_TEST_EQ=a=b"})
	if err != nil {
		t.Fatal(err)
	}
	base := e.Environ()
	if len(env) != len(base)+3 || !reflect.DeepEqual(env[:len(base)], base) {
		t.Fatalf("childEnv does not extend our environment: %d entries, ours %d", len(env), len(base))
	}
	if got := env[len(base):]; !reflect.DeepEqual(got, []string{"MCPCTL_TEST_CHILD_ENV=new", "MCPCTL_TEST_EMPTY=", "MCPCTL_TEST_EQ=a=b"}) {
		t.Errorf("appended %q", got)
	}

	// The later value wins in the child.
	cmd := exec.Command("sh", "-c", `printf '%s|%s|%s' "$MCPCTL_TEST_CHILD_ENV" "${MCPCTL_TEST_EMPTY-unset}" "$MCPCTL_TEST_EQ"`)
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != "new||a=b" {
		t.Errorf("child saw %q, want %q", out, "new||a=b")
	}
}

func TestChildEnvErrors(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"NOEQUALS", "=value", ""} {
		_, err := childEnv(isolate(t).Environ, []string{"OK=1", v})
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.Contains(ue.Msg, "KEY=VALUE") {
			t.Errorf("childEnv(%q) err = %v, want *UsageError", v, err)
		}
	}
}
