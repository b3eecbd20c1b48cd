package sessiond

// What the session commands ask a running session: how it is, and to
// stop; and how one that does not answer is listed and stopped all the
// same.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
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
	// Unresponsive: its process holds the socket but does not answer
	// (UnresponsiveError); the rest is from its record, Idle and Requests
	// unknown.
	Unresponsive bool `json:"unresponsive,omitempty"`
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
// stale ones are cleaned up on the way. One whose process does not answer
// is listed from its record, marked Unresponsive; one that cannot be
// trusted, or answers wrongly, is left out.
func List(dir *Dir) []State {
	var out []State
	for _, id := range dir.sessionIDs() {
		p := Paths{Dir: dir, ID: id}
		st, err := Status(p)
		var un *UnresponsiveError
		switch {
		case err == nil && st != nil:
			out = append(out, *st)
		case errors.As(err, &un):
			out = append(out, p.unresponsive(un))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// unresponsive is the row of a session that does not answer: what its
// record says, when the record is of the process behind the socket.
func (p Paths) unresponsive(un *UnresponsiveError) State {
	st := State{Name: p.ID[:min(8, len(p.ID))], PID: un.PID, Idle: "?", Unresponsive: true, Paths: p}
	if rec, err := p.readRecord(); err == nil && rec.PID == un.PID {
		st.Name, st.Server, st.Era, st.Version = rec.Name, rec.Server, rec.Era, rec.Version
		st.Started, st.IdleTimeout = rec.Started.UTC().Format(time.RFC3339), rec.Idle
	}
	return st
}

// Stop asks the session in p to stop and waits until its process is gone,
// its server shut down (nil Hello: none was running). A session whose
// process does not answer is ended by its pid (kill).
func Stop(p Paths) (*Hello, error) {
	_, hello, err := request(p, stopMethod)
	var un *UnresponsiveError
	if errors.As(err, &un) {
		return p.kill(un)
	}
	if hello == nil {
		return nil, err
	}
	if err != nil {
		// It answered the hello but not the stop: SIGTERM stops it the
		// same way. (The pid is that of the process behind a socket
		// checked to be ours, peer included.)
		signalTo(hello.PID, sigTerm)
	}
	// The session shuts its server down in order (as a one-shot run does,
	// up to the kill): wait for that.
	if !waitGone(hello.PID, "", 30*time.Second) {
		return hello, &client.ConnError{Msg: fmt.Sprintf("session %s (pid %d) did not stop within 30s", hello.Name, hello.PID)}
	}
	return hello, nil
}

// killGrace is how long a session that does not answer gets, once sent
// SIGTERM, to stop as it would when asked, before SIGKILL.
const killGrace = 5 * time.Second

// kill ends the process of a session that does not answer: SIGTERM (and
// SIGCONT, for a stopped one takes its signals only once it runs), then
// SIGKILL after killGrace. Only a process that is the session's for sure
// is signalled: the one behind the socket, which the session's record
// names, and which started when the record says (a pid alone may be
// another process's by now). Its files are removed once it is gone.
func (p Paths) kill(un *UnresponsiveError) (*Hello, error) {
	rec, err := p.readRecord()
	if err != nil {
		return nil, fmt.Errorf("%v, and its record cannot be read (%v): mcpctl does not know which process to end", un, err)
	}
	hello := &Hello{Session: 1, Name: rec.Name, PID: rec.PID, Era: rec.Era, Version: rec.Version}
	start, _, alive := procStart(rec.PID)
	switch {
	case !alive:
		cleanStale(p)
		return hello, nil // gone meanwhile
	case rec.PID != un.PID || rec.ProcStart == "" || start != rec.ProcStart:
		return nil, &UnsafeError{Msg: fmt.Sprintf("%v, but its record %s does not name that process; mcpctl does not signal it", un, p.Record())}
	}
	signalTo(rec.PID, sigTerm)
	signalTo(rec.PID, sigCont)
	if !waitGone(rec.PID, rec.ProcStart, killGrace) {
		if start, _, alive := procStart(rec.PID); alive && start == rec.ProcStart {
			signalTo(rec.PID, sigKill)
		}
		if !waitGone(rec.PID, rec.ProcStart, 5*time.Second) {
			return hello, &client.ConnError{Msg: fmt.Sprintf("session %s (pid %d) did not end, even killed", rec.Name, rec.PID)}
		}
	}
	cleanStale(p)
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

// waitGone waits up to limit for process pid to end (it is not our
// child: the system says it no longer runs, or runs as another process,
// one started at another time than start; "" when unknown).
func waitGone(pid int, start string, limit time.Duration) bool {
	deadline := time.Now().Add(limit)
	for {
		now, _, alive := procStart(pid)
		if !alive || (start != "" && now != start) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}
