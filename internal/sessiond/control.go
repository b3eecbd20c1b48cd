package sessiond

// What the session commands ask a running session: how it is, and to
// stop.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"syscall"
	"time"

	"github.com/mcpctl/mcpctl/client"
)

// State is how a running session says it is: a row of session list.
type State struct {
	Name        string     `json:"name"`
	Server      string     `json:"server"`
	Era         client.Era `json:"era"`
	Version     string     `json:"protocolVersion"`
	PID         int        `json:"pid"`
	Started     string     `json:"started"` // RFC 3339, UTC
	Idle        string     `json:"idle"`    // how long unused (0s while in use)
	IdleTimeout string     `json:"idleTimeout"`
	Requests    int64      `json:"requests"` // served so far
	// Paths are its files.
	Paths Paths `json:"-"`
}

// Status asks the session in p how it is: nil, nil when none is running.
func Status(p Paths) (*State, error) {
	res, _, err := request(p, statusMethod)
	if err != nil || res == nil {
		return nil, err
	}
	var st State
	if err := json.Unmarshal(res, &st); err != nil {
		return nil, fmt.Errorf("the session at %s answered its status with %s", p.Socket(), res)
	}
	st.Paths = p
	return &st, nil
}

// List asks every session in the sessions folder dir how it is, by name;
// stale ones are cleaned up on the way, and those that do not answer
// left out.
func List(dir string) []State {
	var out []State
	for _, id := range sessionIDs(dir) {
		if st, err := Status(Paths{Dir: dir, ID: id}); err == nil && st != nil {
			out = append(out, *st)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Stop asks the session in p to stop and waits until its process is gone,
// its server shut down (nil Hello: none was running).
func Stop(p Paths) (*Hello, error) {
	_, hello, err := request(p, stopMethod)
	if hello == nil {
		return nil, err
	}
	if err != nil {
		// It answered the hello but not the stop: SIGTERM stops it the
		// same way. (The pid is that of the process behind a socket
		// checked to be ours, peer included.)
		if proc, ferr := os.FindProcess(hello.PID); ferr == nil {
			_ = proc.Signal(syscall.SIGTERM)
		}
	}
	// The session shuts its server down in order (as a one-shot run does,
	// up to the kill): wait for that.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for !processGone(hello.PID) {
		select {
		case <-ctx.Done():
			return hello, &client.ConnError{Msg: fmt.Sprintf("session %s (pid %d) did not stop within 30s", hello.Name, hello.PID)}
		case <-time.After(20 * time.Millisecond):
		}
	}
	return hello, nil
}

// request sends a request of the daemon's own (status, stop) on a fresh
// connection: nil Hello when no session is running.
func request(p Paths, method string) (json.RawMessage, *Hello, error) {
	kc, err := Dial(p)
	if err != nil || kc == nil {
		return nil, nil, err
	}
	if _, err := kc.Write([]byte(controlLine + "\n")); err != nil {
		kc.Close()
		return nil, &kc.Hello, err
	}
	t := client.NewConn(kc, client.ConnOptions{Binding: Binding})
	defer t.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	msg, err := t.RoundTrip(ctx, &client.Request{ID: 1, Method: method}, nil)
	if err != nil {
		return nil, &kc.Hello, err
	}
	if msg.Error != nil {
		return nil, &kc.Hello, msg.Error
	}
	return msg.Result, &kc.Hello, nil
}

// processGone reports whether pid has exited (it is not our child).
func processGone(pid int) bool {
	proc, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	return proc.Signal(syscall.Signal(0)) != nil
}
