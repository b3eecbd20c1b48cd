package output

import (
	"context"
	"testing"
)

// render runs Render on Test streams in terminal or pipe mode, colour off.
func render(t *testing.T, tty bool, opts Options, kind Kind, raw string) string {
	t.Helper()
	ios, _, out, errOut := Test()
	ios.SetStdoutTTY(tty)
	if err := Render(context.Background(), ios, opts, kind, []byte(raw)); err != nil {
		t.Fatalf("Render: %v", err)
	}
	if errOut.Len() != 0 {
		t.Errorf("Render wrote to stderr: %q", errOut.String())
	}
	return out.String()
}

func mode(tty bool) string {
	if tty {
		return "tty"
	}
	return "pipe"
}
