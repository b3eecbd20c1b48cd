package client

import (
	"context"
	"encoding/json"
	"testing"
)

// A task handle is reported to OnCreated when it arrives, also when the
// caller does not wait for it (issue 13, item 7), and returned as it is.
func TestTaskHandleReportedWithoutWait(t *testing.T) {
	handle := `{"resultType":"task","taskId":"t1","status":"working","pollIntervalMs":5}`
	ft := &fakeTransport{handle: answers(handle)}
	opts := testOptions()
	opts.Tasks.Declared = true
	var got []string
	opts.Tasks.OnCreated = func(h json.RawMessage) { got = append(got, string(h)) }
	c := New(ft, opts)
	res, err := c.Call(context.Background(), "tools/call", json.RawMessage(`{"name":"x"}`), &CallOptions{NoWait: true})
	if err != nil {
		t.Fatal(err)
	}
	if string(res) != handle {
		t.Errorf("result %s, want the handle as sent", res)
	}
	if len(got) != 1 || got[0] != handle {
		t.Errorf("OnCreated got %q, want the handle once", got)
	}
	if n := len(ft.requests()); n != 1 {
		t.Errorf("%d requests; --no-wait must not poll", n)
	}
}

// A "task" answer without a taskId cannot be followed: it is refused
// whether or not the caller waits, and never reported.
func TestTaskHandleWithoutID(t *testing.T) {
	for _, noWait := range []bool{true, false} {
		ft := &fakeTransport{handle: answers(`{"resultType":"task","status":"working"}`)}
		opts := testOptions()
		opts.Tasks.Declared = true
		opts.Tasks.OnCreated = func(h json.RawMessage) { t.Errorf("OnCreated(%s) for a handle without a taskId", h) }
		c := New(ft, opts)
		_, err := c.Call(context.Background(), "tools/call", json.RawMessage(`{"name":"x"}`), &CallOptions{NoWait: noWait})
		if !isErr[*ProtocolError](err) {
			t.Errorf("NoWait %v: err = %v (%T), want a *ProtocolError", noWait, err, err)
		}
	}
}
