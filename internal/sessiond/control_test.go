//go:build linux || darwin

package sessiond

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mcpctl/mcpctl/client"
)

// The session's control methods are answered only on a connection that
// says it is the session commands' own in its first line: an invocation's
// request naming one (a batch line, mcpctl call) is refused with a usage
// error, never obeyed nor sent to the server, and the session serves on.
func TestControlOnlyOnControlConnection(t *testing.T) {
	t.Parallel()
	b := newBench(t, byMethod(false, echo)).start()
	tr := b.transport()
	for i, method := range []string{stopMethod, statusMethod, sessionMethods + "anything"} {
		_, err := tr.RoundTrip(context.Background(), &client.Request{ID: int64(i + 1), Method: method, Version: "2026-07-28"}, nil)
		var se *Error
		if !errors.As(err, &se) || se.Code != 2 || !strings.Contains(se.Msg, "reserved for the session itself") {
			t.Errorf("%s from an invocation: %v, want a usage error", method, err)
		}
	}
	// A raw line, as a client other than mcpctl's would write it.
	pr := b.raw()
	pr.request("x", stopMethod, nil)
	got := pr.waitFor("the refusal", func(m []*client.Message) bool { return responses(m)[`"x"`] != nil })
	if e := responses(got)[`"x"`].Error; e == nil || e.Code != codeSessionFailed {
		t.Errorf("a raw stop: %s", dump(got))
	}
	if _, err := toolCall(context.Background(), tr, 9, "echo", map[string]any{"text": "still here"}, nil); err != nil {
		t.Fatalf("the session stopped serving: %v", err)
	}
	for _, m := range b.srv.Methods() {
		if strings.HasPrefix(m, sessionMethods) {
			t.Errorf("the server was sent %s", m)
		}
	}
	// On a control connection, only control methods.
	kc, err := Dial(b.p)
	if err != nil || kc == nil {
		t.Fatalf("Dial: %v", err)
	}
	if _, err := kc.Write([]byte(controlLine + "\n")); err != nil {
		t.Fatal(err)
	}
	ct := NewTransport(kc, client.ConnOptions{})
	defer ct.Close()
	if _, err := toolCall(context.Background(), ct, 1, "echo", nil, nil); err == nil || !strings.Contains(err.Error(), "not a control method") {
		t.Errorf("a tools/call on a control connection: %v", err)
	}
	if n := count(b.srv, "tools/call"); n != 1 {
		t.Errorf("the server got %d calls, want the one invocation's", n)
	}
	if st, err := Status(b.p); err != nil || st == nil || st.Name != "test" {
		t.Errorf("Status: %+v, %v", st, err)
	}
}
