package commands

// `mcpctl session`: kept-alive server connections (docs/sessions.md).

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/output"
)

const defaultIdle = 10 * time.Minute

// checkLength refuses a socket path too long to listen on.
func (p ksPaths) checkLength() error {
	if n := len(p.socket()); n > maxSocketPath {
		return usagef("the session socket's path %s is %d bytes long, more than a local socket's %d: set XDG_RUNTIME_DIR (or MCPCTL_STATE_DIR) to a shorter folder", p.socket(), n, maxSocketPath)
	}
	return nil
}

// maxSocketPath is the longest path a local socket may have everywhere
// sessions work (sun_path: 108 bytes on Linux, 104 on macOS, with its NUL).
const maxSocketPath = 103

func keepaliveCommand(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "session",
		Usage: "keep a server's connection alive in the background for the commands that follow",
		Description: "'session start' with the usual server selection (-s NAME, --url, --stdio, --env, --cwd, auth\n" +
			"flags, --root, --sampling-cmd) starts a background process that holds the connection: a stdio\n" +
			"server runs (and is initialized) once, an HTTP server's legacy session is kept. While it runs,\n" +
			"every mcpctl command naming the same server goes through it (--no-session bypasses it;\n" +
			"--trace says '# session: NAME (pid N)'), and the server's state lives from one command to the\n" +
			"next. A server entry with 'keepAlive: 10m' (or defaults.keepAlive) starts its session on first\n" +
			"use. Many commands may use one session at once (a legacy server is sent one request at a\n" +
			"time, so that its questions reach the right command). The socket lives in\n" +
			"$XDG_RUNTIME_DIR/mcpctl/sessions (else the state directory's sessions/); Linux and macOS only.",
		Subcommands: []*cli.Command{
			newCmdSessionStart(f, nil), newCmdSessionList(f, nil), newCmdSessionStop(f, nil),
			newCmdSessionLogs(f, nil), newCmdSessionServe(f, nil),
		},
	}
}

type sessionStartOptions struct {
	invocation
	idle    time.Duration
	name    string
	replace bool
}

func newCmdSessionStart(f *Factory, runF func(*sessionStartOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "start",
		Usage:     "start a session for the server the flags name; returns once the server is connected",
		ArgsUsage: " ",
		Flags: []cli.Flag{
			&cli.DurationFlag{Name: "idle", Usage: "end the session after `DURATION` unused", Value: defaultIdle},
			&cli.StringFlag{Name: "name", Usage: "call the session `NAME` (default: the configured server's name, else a short id)"},
			&cli.BoolFlag{Name: "replace", Usage: "stop the server's running session first"},
		},
		Action: actionOf(func(c *cli.Context) (*sessionStartOptions, error) {
			if err := needArgs(c, 0, 0, ""); err != nil {
				return nil, err
			}
			if c.Duration("idle") <= 0 {
				return nil, usagef("--idle must be positive")
			}
			return &sessionStartOptions{invoked(f, c), c.Duration("idle"), c.String("name"), c.Bool("replace")}, nil
		}, runF, runSessionStart),
	}
}

func runSessionStart(o *sessionStartOptions) error {
	if !keepaliveSupported {
		return usagef("%v", errKeepaliveUnsupported)
	}
	if o.Globals.DryRun {
		return usagef("--dry-run cannot start a session: a session holds a real connection")
	}
	st, err := resolve(o.f, o.Globals, ConnectOptions{})
	if err != nil {
		return err
	}
	dir, err := o.f.sessionDir(true)
	if err != nil {
		return usagef("%v", err)
	}
	p := ksPaths{dir: dir, id: ksID(st.serverID)}
	if o.replace {
		if _, err := stopSession(p); err != nil {
			return err
		}
	}
	hello, err := startKeepalive(o.f, st, o.idle, o.name)
	if err != nil {
		return err
	}
	fmt.Fprintf(o.f.IOStreams.ErrOut, "mcpctl: session %s started (pid %d, %s %s); it ends after %s unused, or with 'mcpctl session stop %s'\n",
		hello.Name, hello.PID, hello.Era, hello.Version, o.idle, hello.Name)
	return nil
}

// sessionName is what a session is called: the configured server's name,
// else a short id.
func sessionName(st *connSettings, given string) string {
	switch {
	case given != "":
		return given
	case st.ep.name != "":
		return st.ep.name
	}
	return ksID(st.serverID)[:8]
}

// startKeepalive starts the session process for the server in st and
// waits until it has connected the server (or failed to).
func startKeepalive(f *Factory, st *connSettings, idle time.Duration, name string) (*ksHello, error) {
	dir, err := f.sessionDir(true)
	if err != nil {
		return nil, usagef("%v", err)
	}
	p := ksPaths{dir: dir, id: ksID(st.serverID)}
	if err := p.checkLength(); err != nil {
		return nil, err
	}
	if kc, err := dialSession(p); err != nil {
		return nil, usagef("%v", err)
	} else if kc != nil {
		kc.Close()
		return nil, &sessionError{Code: ExitUsage, Msg: fmt.Sprintf("%s already has a session (%s, pid %d): use it, stop it with 'mcpctl session stop %s', or start again with --replace",
			redactTarget(st), kc.hello.Name, kc.hello.PID, kc.hello.Name)}
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	args := append(passFlags(st.g), "session", "serve", "--idle="+idle.String(), "--name="+sessionName(st, name), "--ready-fd=3")
	logf, err := os.OpenFile(p.log(), os.O_CREATE|os.O_WRONLY|os.O_TRUNC|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	cmd := exec.Command(exe, args...)
	// Named as the program is, whatever the file is called (a test
	// binary stands in for mcpctl by its name).
	cmd.Args[0] = "mcpctl"
	cmd.Env = f.Environ()
	if wd, err := f.Getwd(); err == nil {
		cmd.Dir = wd
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.ExtraFiles = []*os.File{w}
	cmd.SysProcAttr = detached()
	if err := cmd.Start(); err != nil {
		w.Close()
		return nil, fmt.Errorf("starting the session process: %w", err)
	}
	w.Close()
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	line, _ := bufio.NewReader(r).ReadBytes('\n')
	var ready struct {
		ksHello
		Error string `json:"error"`
		Exit  int    `json:"exit"`
	}
	if json.Unmarshal(line, &ready) != nil {
		<-exited
		return nil, &client.ConnError{Msg: "the session process ended before it was ready" + logTail(p.log())}
	}
	if ready.Error != "" {
		<-exited
		return nil, &sessionError{Msg: ready.Error, Code: ready.Exit}
	}
	return &ready.ksHello, nil
}

// logTail is the last lines of a log, for an error message.
func logTail(path string) string {
	data, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) == 0 || lines[0] == "" {
		return ""
	}
	lines = lines[max(0, len(lines)-3):]
	return " (its log: " + strings.Join(lines, " | ") + ")"
}

// redactTarget names the server for messages: its URL without
// credentials, or its command.
func redactTarget(st *connSettings) string {
	if st.http {
		return client.RedactURL(st.target)
	}
	return strconv.Quote(st.target)
}

// passFlags are the global flags given to this command, for the session
// process, which resolves the server from them exactly as this one did.
// Flags about this command's output, or that mean nothing to a session,
// stay behind.
func passFlags(g *GlobalOptions) []string {
	skip := map[string]bool{"output": true, "jq": true, "dry-run": true, "no-session": true, "progress": true,
		"server-stderr": true, "refresh": true, "trace": true}
	return g.flagArgs(func(name string) bool {
		// (the session process reads no stdin)
		return !skip[name] && !(name == "answers" && g.Answers == "-")
	})
}

type sessionListOptions struct{ invocation }

func newCmdSessionList(f *Factory, runF func(*sessionListOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "list",
		Usage:     "list the running sessions: name, server, era, pid, started, idle, requests served",
		ArgsUsage: " ",
		Action: actionOf(func(c *cli.Context) (*sessionListOptions, error) {
			return &sessionListOptions{invoked(f, c)}, needArgs(c, 0, 0, "")
		}, runF, runSessionList),
	}
}

// ksStatus is one row of session list.
type ksStatus struct {
	Name        string `json:"name"`
	Server      string `json:"server"`
	Era         string `json:"era"`
	Version     string `json:"protocolVersion"`
	PID         int    `json:"pid"`
	Started     string `json:"started"`
	Idle        string `json:"idle"`
	IdleTimeout string `json:"idleTimeout"`
	Requests    int64  `json:"requests"`
}

// liveSessions asks every session in the folder how it is; stale ones
// are cleaned up on the way.
func liveSessions(f *Factory) ([]ksStatus, map[string]ksPaths, error) {
	if !keepaliveSupported {
		return nil, nil, usagef("%v", errKeepaliveUnsupported)
	}
	dir, err := f.sessionDir(false)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, usagef("%v", err)
	}
	var out []ksStatus
	paths := map[string]ksPaths{}
	for _, id := range sessionFiles(dir) {
		p := ksPaths{dir: dir, id: id}
		res, _, err := ksRequest(p, ksStatusMethod)
		if err != nil || res == nil {
			continue
		}
		var st ksStatus
		if json.Unmarshal(res, &st) == nil {
			out = append(out, st)
			paths[st.Name+"\x00"+strconv.Itoa(st.PID)] = p
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, paths, nil
}

func runSessionList(o *sessionListOptions) error {
	ios := o.f.IOStreams
	list, _, err := liveSessions(o.f)
	if err != nil {
		return err
	}
	eff, err := effectiveOptions(o.Globals, o.f.config())
	if err != nil {
		return err
	}
	render, err := renderOptions(eff, ios)
	if err != nil {
		return err
	}
	if render.Format == output.FormatTable || render.Format == output.FormatText {
		if render.Query == nil {
			if len(list) == 0 {
				fmt.Fprintln(ios.ErrOut, "mcpctl: no sessions are running")
				return nil
			}
			tw := tabwriter.NewWriter(ios.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tSERVER\tERA\tPID\tSTARTED\tIDLE\tREQUESTS")
			for _, s := range list {
				fmt.Fprintf(tw, "%s\t%s\t%s %s\t%d\t%s\t%s\t%d\n", output.SanitizeLine(s.Name), output.SanitizeLine(s.Server),
					s.Era, s.Version, s.PID, s.Started, s.Idle, s.Requests)
			}
			return tw.Flush()
		}
	}
	if list == nil {
		list = []ksStatus{}
	}
	b, _ := json.Marshal(map[string]any{"sessions": list})
	return output.Render(o.ctx(), ios, render, output.KindGeneric, b)
}

type sessionStopOptions struct {
	invocation
	names []string
	all   bool
}

func newCmdSessionStop(f *Factory, runF func(*sessionStopOptions) error) *cli.Command {
	return &cli.Command{
		Name:        "stop",
		Usage:       "stop sessions: their servers shut down as a one-shot run ends them",
		ArgsUsage:   "NAME… | --all",
		Description: "With no NAME, -s NAME (or MCPCTL_SERVER) names the session, as for session start.",
		Flags:       []cli.Flag{&cli.BoolFlag{Name: "all", Usage: "stop every running session"}},
		Action: actionOf(func(c *cli.Context) (*sessionStopOptions, error) {
			o := &sessionStopOptions{invoked(f, c), c.Args().Slice(), c.Bool("all")}
			if len(o.names) == 0 && !o.all && o.Globals.Server != "" {
				// mcpctl -s NAME session stop: the session start -s NAME made
				o.names = []string{o.Globals.Server}
			}
			if o.all == (len(o.names) > 0) {
				return nil, usagef("usage: %s NAME… | --all", c.Command.HelpName)
			}
			return o, nil
		}, runF, runSessionStop),
	}
}

func runSessionStop(o *sessionStopOptions) error {
	list, paths, err := liveSessions(o.f)
	if err != nil {
		return err
	}
	var names []string
	for _, s := range list {
		names = append(names, s.Name)
	}
	for _, want := range o.names {
		if !contains(names, want) {
			msg := fmt.Sprintf("no session is called %q", want)
			if len(names) > 0 {
				msg += " (running: " + strings.Join(names, ", ") + ")"
			} else {
				msg += " (none is running)"
			}
			return usagef("%s", msg)
		}
	}
	for _, s := range list {
		if !o.all && !contains(o.names, s.Name) {
			continue
		}
		if _, err := stopSession(paths[s.Name+"\x00"+strconv.Itoa(s.PID)]); err != nil {
			return err
		}
		fmt.Fprintf(o.f.IOStreams.ErrOut, "mcpctl: stopped session %s (pid %d)\n", s.Name, s.PID)
	}
	return nil
}

// stopSession asks the session in p to stop and waits until its process
// is gone (nil hello: none was running).
func stopSession(p ksPaths) (*ksHello, error) {
	_, hello, err := ksRequest(p, ksStopMethod)
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

type sessionLogsOptions struct {
	invocation
	name string
}

func newCmdSessionLogs(f *Factory, runF func(*sessionLogsOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "logs",
		Usage:     "print a session's log: its server's stderr and the session's own notes (the last MiB)",
		ArgsUsage: "NAME",
		Action: actionOf(func(c *cli.Context) (*sessionLogsOptions, error) {
			if err := needArgs(c, 1, 1, "NAME"); err != nil {
				return nil, err
			}
			return &sessionLogsOptions{invoked(f, c), c.Args().First()}, nil
		}, runF, runSessionLogs),
	}
}

func runSessionLogs(o *sessionLogsOptions) error {
	list, paths, err := liveSessions(o.f)
	if err != nil {
		return err
	}
	var names []string
	for _, s := range list {
		if s.Name == o.name {
			data, err := os.ReadFile(paths[s.Name+"\x00"+strconv.Itoa(s.PID)].log())
			if err != nil {
				return err
			}
			if o.f.IOStreams.IsStdoutTTY() {
				for _, l := range strings.SplitAfter(string(data), "\n") {
					fmt.Fprint(o.f.IOStreams.Out, output.SanitizeLine(strings.TrimSuffix(l, "\n")))
					if strings.HasSuffix(l, "\n") {
						fmt.Fprintln(o.f.IOStreams.Out)
					}
				}
				return nil
			}
			_, err = o.f.IOStreams.Out.Write(data)
			return err
		}
		names = append(names, s.Name)
	}
	msg := fmt.Sprintf("no session is called %q", o.name)
	if len(names) > 0 {
		msg += " (running: " + strings.Join(names, ", ") + ")"
	} else {
		msg += " (none is running)"
	}
	return usagef("%s", msg)
}
