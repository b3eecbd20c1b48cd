//go:build linux || darwin

package sessiond

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/mcptest"
)

// A session unused for its idle time ends by itself, with its server,
// leaving nothing behind; a connected invocation keeps it alive.
func TestIdle(t *testing.T) {
	t.Parallel()
	b := newBench(t, byMethod(false, echo))
	b.cfg.Idle = 300 * time.Millisecond
	b.start()
	pr := b.raw()
	time.Sleep(3 * b.cfg.Idle)
	if st, err := Status(b.p); err != nil || st == nil || st.Idle != "0s" || st.IdleTimeout != "300ms" {
		t.Fatalf("with an invocation connected: %+v, %v", st, err)
	}
	pr.conn.Close()
	if err := b.wait(10 * time.Second); err != nil {
		t.Errorf("Serve: %v", err)
	}
	if f := b.files(); len(f) != 0 {
		t.Errorf("left behind: %v", f)
	}
	if b.closes.Load() != 1 {
		t.Errorf("the server was shut down %d times, want once", b.closes.Load())
	}
	if log := b.log.String(); !strings.Contains(log, "stopping: unused for 300ms") {
		t.Errorf("log:\n%s", log)
	}
}

// Asked to stop, a session answers, shuts its server down, closes its
// invocations' connections and removes its files; so it does when its
// context ends.
func TestStopRequest(t *testing.T) {
	t.Parallel()
	b := newBench(t, byMethod(false, echo)).start()
	tr := b.transport()
	if _, err := toolCall(context.Background(), tr, 1, "echo", nil, nil); err != nil {
		t.Fatal(err)
	}
	res, hello, err := request(b.p, stopMethod)
	if err != nil || string(res) != "{}" || hello.Name != "test" {
		t.Fatalf("stop: %s %+v %v", res, hello, err)
	}
	if err := b.wait(10 * time.Second); err != nil {
		t.Errorf("Serve: %v", err)
	}
	if f := b.files(); len(f) != 0 {
		t.Errorf("left behind: %v", f)
	}
	if b.closes.Load() != 1 {
		t.Errorf("the server was shut down %d times, want once", b.closes.Load())
	}
	_, err = toolCall(context.Background(), tr, 2, "echo", nil, nil)
	var ce *client.ConnError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "the session test ended") {
		t.Errorf("an invocation's request after the stop: %v", err)
	}

	c := newBench(t, byMethod(false, echo)).start()
	c.cancel()
	if err := c.wait(10 * time.Second); err != nil || len(c.files()) != 0 || c.closes.Load() != 1 {
		t.Errorf("context ended: %v, left %v, server shut down %d times", err, c.files(), c.closes.Load())
	}
}

// Stop, List and Status against a session in a process of its own (this
// test binary, running TestHelperSession): Stop returns once the process
// is gone.
func TestStopAnotherProcess(t *testing.T) {
	t.Parallel()
	base := shortBase(t)
	dir, err := OpenDir(base, true)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperSession$")
	cmd.Env = append(os.Environ(), "SESSIOND_HELPER_DIR="+base)
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }() // reaped, so that it is gone once it exits
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	p := Paths{Dir: dir, ID: ID("helper")}
	waitUntil(t, "the helper's session answers", func() bool { kc, _ := Dial(p); return kc != nil && kc.Close() == nil })
	list := List(dir)
	if len(list) != 1 || list[0].Name != "helper" || list[0].PID != cmd.Process.Pid || list[0].Era != client.EraModern || list[0].Paths != p {
		t.Fatalf("List: %+v", list)
	}
	hello, err := Stop(p)
	if err != nil || hello == nil || hello.PID != cmd.Process.Pid {
		t.Fatalf("Stop: %+v, %v", hello, err)
	}
	if _, _, running := procStart(hello.PID); running { // (a zombie has exited)
		t.Error("Stop returned before the session's process was gone")
	}
	if entries, _ := os.ReadDir(dir.Path()); len(entries) != 0 {
		t.Errorf("left behind: %v\n%s", entries, out.String())
	}
	if hello, err := Stop(p); hello != nil || err != nil {
		t.Errorf("Stop with none running: %+v, %v", hello, err)
	}
	if List(dir) != nil {
		t.Error("List after the stop")
	}
}

// TestHelperSession is the session process of TestStopAnotherProcess.
func TestHelperSession(t *testing.T) {
	base := os.Getenv("SESSIOND_HELPER_DIR")
	if base == "" {
		t.Skip("run by TestStopAnotherProcess")
	}
	dir, err := OpenDir(base, false)
	if err != nil {
		t.Fatal(err)
	}
	srv := mcptest.NewServer(byMethod(false, echo))
	err = Serve(context.Background(), Config{Dir: dir, ID: ID("helper"), Name: "helper", Server: "helper", Idle: time.Minute,
		Connect: func(ctx context.Context, wrap func(client.Transport) client.Transport) (*client.Client, func(), error) {
			c := client.New(wrap(client.NewConn(srv.Conn(), client.ConnOptions{})), client.Options{})
			return c, func() { c.Close() }, nil
		}}, nil)
	if err != nil {
		t.Fatal(err)
	}
}

// A config Serve cannot use is its error, and leaves no socket or record
// (nor lock nor log) behind; a session already running is left be.
func TestConfigItCannotUse(t *testing.T) {
	t.Parallel()
	t.Run("connect fails", func(t *testing.T) {
		t.Parallel()
		b := newBench(t, byMethod(false, echo))
		b.refuseConnect(errRefused)
		if err := Serve(context.Background(), b.cfg, nil); !errors.Is(err, errRefused) {
			t.Errorf("Serve: %v", err)
		}
		if f := b.files(); len(f) != 0 {
			t.Errorf("left behind: %v", f)
		}
	})
	t.Run("probe fails", func(t *testing.T) {
		t.Parallel()
		b := newBench(t, func(ctx context.Context, r *mcptest.Request) (any, error) {
			return nil, &mcptest.Error{Code: client.CodeMethodNotFound, Message: "nothing here"}
		})
		if err := Serve(context.Background(), b.cfg, nil); err == nil || !strings.Contains(err.Error(), "nothing here") {
			t.Errorf("Serve: %v", err)
		}
		if f := b.files(); len(f) != 0 || b.closes.Load() != 1 {
			t.Errorf("left behind: %v; the connection closed %d times", f, b.closes.Load())
		}
	})
	t.Run("socket path too long", func(t *testing.T) {
		t.Parallel()
		b := newBench(t, byMethod(false, echo))
		deep := filepath.Join(b.p.Dir.Path(), strings.Repeat("x", 100))
		if err := os.Mkdir(deep, 0o700); err != nil {
			t.Fatal(err)
		}
		dir, err := OpenDir(deep, true)
		if err != nil {
			t.Fatal(err)
		}
		b.cfg.Dir = dir
		var long *SocketPathError
		if err := Serve(context.Background(), b.cfg, nil); !errors.As(err, &long) || long.Max != maxSocketPath {
			t.Errorf("Serve: %v", err)
		}
		if entries, _ := os.ReadDir(dir.Path()); len(entries) != 0 || b.connects.Load() != 0 {
			t.Errorf("left behind: %v; connected %d times", entries, b.connects.Load())
		}
	})
	t.Run("cannot listen", func(t *testing.T) {
		t.Parallel()
		b := newBench(t, byMethod(false, echo))
		if err := os.MkdirAll(filepath.Join(b.p.Socket(), "in-the-way"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := Serve(context.Background(), b.cfg, nil); err == nil || !strings.Contains(err.Error(), "cannot listen on") {
			t.Errorf("Serve: %v", err)
		}
		if f := b.files(); len(f) != 1 || b.closes.Load() != 1 {
			t.Errorf("left behind: %v (want only what was in the way); the server shut down %d times", f, b.closes.Load())
		}
	})
	t.Run("lock held", func(t *testing.T) {
		t.Parallel()
		running := newBench(t, byMethod(false, echo)).start()
		second := newBench(t, byMethod(false, echo))
		second.cfg.Dir = running.p.Dir
		if err := Serve(context.Background(), second.cfg, nil); !errors.Is(err, ErrLocked) {
			t.Errorf("Serve: %v, want ErrLocked", err)
		}
		if second.connects.Load() != 0 {
			t.Error("the second session connected to its server")
		}
		for _, f := range []string{running.p.Socket(), running.p.Record()} {
			if _, err := os.Lstat(f); err != nil {
				t.Errorf("the running session's file: %v", err)
			}
		}
		if _, err := toolCall(context.Background(), running.transport(), 1, "echo", nil, nil); err != nil {
			t.Errorf("the running session: %v", err)
		}
	})
}

// Asking a session how it is (session list) is no use of it: the time
// it has been unused goes on growing, and it still ends once unused for
// its idle time, however often it is asked.
func TestStatusIsNoUse(t *testing.T) {
	t.Parallel()
	b := newBench(t, byMethod(false, echo))
	b.cfg.Idle = 1500 * time.Millisecond
	b.start()
	tr := b.transport()
	if _, err := toolCall(context.Background(), tr, 1, "echo", map[string]any{}, nil); err != nil {
		t.Fatal(err)
	}
	tr.Close()
	var idles []string
	deadline := time.After(30 * time.Second)
	for {
		select {
		case err := <-b.errc:
			b.errc <- err // for Cleanup
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
			if !slices.ContainsFunc(idles, func(s string) bool { return s != "0s" }) {
				t.Errorf("asked %d times, it said it was idle for %q: never more than 0s", len(idles), idles)
			}
			return
		case <-deadline:
			t.Fatalf("asked every 100ms, the session never ended (idle %q)", idles)
		case <-time.After(100 * time.Millisecond):
			if st, err := Status(b.p); err == nil && st != nil {
				idles = append(idles, st.Idle)
			}
		}
	}
}
