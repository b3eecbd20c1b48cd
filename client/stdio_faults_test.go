//go:build unix

package client

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// A server that dies halfway through writing a message: the error says so
// and quotes what came.
func TestStdioPartialMessage(t *testing.T) {
	tr := shServer(t, `read l; printf '%s' '{"jsonrpc":"2.0","id":1,"res'; exit 3`, StdioOptions{})
	_, err := call(tr, 1, 3*time.Second, nil)
	var ce *ConnError
	if !errors.As(err, &ce) || !strings.Contains(ce.Msg, "the server exited in the middle of a message (exit status 3)") ||
		!strings.Contains(ce.Msg, `\"res"`) {
		t.Fatalf("got %v (%T); want *ConnError naming the cut message and the exit status", err, err)
	}
}

// A whole message without the final newline still counts.
func TestStdioLastLineWithoutNewline(t *testing.T) {
	tr := shServer(t, `read l; printf '%s' '{"jsonrpc":"2.0","id":1,"result":{"ok":true}}'`, StdioOptions{})
	msg, err := call(tr, 1, 3*time.Second, nil)
	if err != nil || string(msg.Result) != `{"ok":true}` {
		t.Fatalf("got %+v, %v; want the result", msg, err)
	}
}

// A second answer to the same request is ignored, the first one counts,
// and the connection stays usable.
func TestStdioDuplicateResponse(t *testing.T) {
	tr := shServer(t, `while read l; do id=$(printf '%s' "$l" | sed 's/.*"id":\([0-9]*\).*/\1/'); `+
		`echo "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"n\":1}}"; echo "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"n\":2}}"; done`, StdioOptions{})
	for id := int64(1); id <= 2; id++ {
		msg, err := call(tr, id, 3*time.Second, nil)
		if err != nil || string(msg.Result) != `{"n":1}` {
			t.Fatalf("call %d: got %+v, %v; want the first answer", id, msg, err)
		}
	}
}

// A server that closed its stdin: writing to it fails at once, saying so.
func TestStdioServerClosedInput(t *testing.T) {
	tr := shServer(t, `read l; exec 0<&-; echo '{"jsonrpc":"2.0","id":1,"result":{}}'; sleep 5`, StdioOptions{})
	if _, err := call(tr, 1, 3*time.Second, nil); err != nil {
		t.Fatal(err)
	}
	_, err := call(tr, 2, 3*time.Second, nil)
	var ce *ConnError
	if !errors.As(err, &ce) || ce.Msg != "cannot write to the server: it closed its input" {
		t.Fatalf("got %v (%T); want *ConnError saying the server closed its input", err, err)
	}
}

// A message over MaxLine is a *MessageTooLargeError, and so a protocol
// error, naming the limit in readable units.
func TestStdioTooLarge(t *testing.T) {
	tr := shServer(t, `read l; head -c 3000 /dev/zero | tr '\0' x; echo; sleep 5`, StdioOptions{MaxLine: 2048})
	_, err := call(tr, 1, 3*time.Second, nil)
	var tl *MessageTooLargeError
	var pe *ProtocolError
	if !errors.As(err, &tl) || !errors.As(err, &pe) || err.Error() != "protocol error: the server sent a message larger than 2 KiB" {
		t.Fatalf("got %v (%T)", err, err)
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[int64]string{64 << 20: "64 MiB", 1 << 30: "1 GiB", 3 << 10: "3 KiB", 1500000: "1500000 bytes", 1: "1 byte"} {
		if got := formatSize(n); got != want {
			t.Errorf("formatSize(%d) = %q, want %q", n, got, want)
		}
	}
}
