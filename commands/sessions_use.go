package commands

// An invocation's side of a session: when a session is running for the
// server the flags name, for this caller (sessionID: the server, and what
// decides who the server sees), the invocation speaks to the session's
// socket instead of starting the server or connecting to it, with the era
// the session's hello gives (no probe). A server entry with keepAlive
// starts its session on first use, given its settings on a pipe.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/internal/argv"
	"github.com/mcpctl/mcpctl/internal/sessiond"
	"github.com/mcpctl/mcpctl/output"
)

// sessionDir is the sessions folder under the runtime directory, open
// (sessiond.OpenDir: with create it is made when missing; either way it
// and the folder holding it are checked). Another user's folder is no
// place for sessions: the way out is a folder of the user's own.
func (f *Factory) sessionDir(create bool) (*sessiond.Dir, error) {
	if !sessiond.Supported {
		return nil, sessiond.ErrUnsupported
	}
	base, err := f.Dirs().RuntimeDir()
	if err != nil {
		return nil, err
	}
	dir, err := sessiond.OpenDir(base, create)
	var unsafe *sessiond.UnsafeError
	if errors.As(err, &unsafe) && unsafe.Foreign {
		return nil, &sessiond.UnsafeError{Msg: unsafe.Msg + " (set XDG_RUNTIME_DIR, or MCPCTL_STATE_DIR, to a private folder of yours)", Foreign: true}
	}
	return dir, err
}

// sessionPaths are the files of the session of the server in st; what is
// wrong with the folder is a usage error.
func (f *Factory) sessionPaths(st *connSettings, create bool) (sessiond.Paths, error) {
	dir, err := f.sessionDir(create)
	if err != nil {
		return sessiond.Paths{}, usagef("%v", err)
	}
	return sessiond.Paths{Dir: dir, ID: st.sessionID}, nil
}

// sessionID names the session that may serve the caller in st: a hash
// (sessiond.ID) of the server and of all that decides who the server sees
// and what it runs with (docs/sessions.md, "Who a session serves"). A
// caller that differs in any of it never reaches another's session. No
// credential is in it but as a hash, so none reaches a file name.
//
//   - HTTP: the URL (a password or token in it hashed, as in serverID);
//     every header sent with each request (-H, the entry's headers,
//     --bearer as Authorization); with no Authorization among them, the
//     OAuth login's settings (the auth flags and the entry's auth, the
//     folder of the token store); --insecure.
//   - stdio: the command, the variables given to it (--env and the
//     entry's env, their values hashed) and the folder it starts in
//     (--cwd or the entry's cwd from the working directory, else the
//     working directory itself, as the server inherits it).
func sessionID(f *Factory, st *connSettings) string {
	if !st.http {
		return sessiond.ID(serverID("", st.ep.argv, st.ep.env, serverDir(f, st.ep.cwd)))
	}
	var headers []string
	for k, vs := range st.header {
		for _, v := range vs {
			headers = append(headers, k+": "+v)
		}
	}
	sort.Strings(headers)
	parts := []string{st.serverID, "headers " + client.HashCredential(headers...)}
	if _, fixed := st.header["Authorization"]; !fixed {
		// How a login would go, and where its tokens are: two callers with
		// the same settings get the same token.
		login := []string{string(st.g.settings(oauthSetting))}
		if st.ep.named != nil {
			login = append(login, kvStrings(st.ep.named.Auth)...)
		}
		if dir, err := f.oauthDir(); err == nil {
			login = append(login, dir)
		}
		parts = append(parts, "oauth "+client.HashCredential(login...))
	}
	if st.insecure {
		parts = append(parts, "insecure")
	}
	return sessiond.ID(strings.Join(parts, "\x00"))
}

// oauthSetting says which global flags decide an OAuth login's identity:
// the authorization flags, but those about how a login at a terminal goes.
func oauthSetting(flag string) bool {
	if flag == "callback-port" || flag == "no-browser" {
		return false
	}
	for _, fl := range append(authFlags(), dpopFlags()...) {
		if argv.FlagName(fl) == flag {
			return true
		}
	}
	return false
}

// serverDir is the folder a stdio server starts in: dir (--cwd, the
// entry's cwd) from the working directory, else the working directory,
// which the server inherits.
func serverDir(f *Factory, dir string) string {
	wd, err := f.Getwd()
	if err != nil {
		wd = ""
	}
	switch {
	case dir == "":
		return wd
	case filepath.IsAbs(dir):
		return filepath.Clean(dir)
	}
	return filepath.Join(wd, dir)
}

// keepalive finds (or, for a keepAlive server, starts) the session of the
// server in the settings, and connects to it; nil when the invocation
// reaches the server itself.
func (s *connection) keepalive(ctx context.Context) *sessiond.Conn {
	if s.dryRun || s.g.NoSession || !sessiond.Supported {
		return nil
	}
	warn := func(err error) {
		fmt.Fprintln(s.ios.ErrOut, "mcpctl: warning: "+output.SanitizeMessage(err.Error())+"; not using the session")
	}
	keep := s.keepAliveFor()
	dir, err := s.f.sessionDir(keep > 0)
	if err != nil {
		var unsafe *sessiond.UnsafeError
		if errors.As(err, &unsafe) {
			warn(err)
		}
		return nil
	}
	defer dir.Close()
	p := sessiond.Paths{Dir: dir, ID: s.sessionID}
	kc, err := sessiond.Dial(p)
	if err == nil && kc == nil && keep > 0 {
		if s.trace {
			fmt.Fprintf(s.ios.ErrOut, "# session: starting one (keepAlive %s)\n", keep)
		}
		_, err = startKeepalive(s.f, s.connSettings, keep, "")
		var se *sessiond.Error
		if errors.As(err, &se) && se.Code == ExitUsage {
			// Another invocation is starting it: wait for that.
			kc, err = awaitSession(p, 30*time.Second)
		} else if err == nil {
			kc, err = sessiond.Dial(p)
		}
		if kc == nil && err == nil {
			err = errors.New("the session did not start")
		}
		if err != nil {
			// The one-shot run that follows says what is wrong, in its
			// usual words.
			if s.trace {
				fmt.Fprintln(s.ios.ErrOut, "# session: could not start: "+output.SanitizeMessage(err.Error()))
			}
			return nil
		}
	}
	var unresponsive *sessiond.UnresponsiveError
	if errors.As(err, &unresponsive) && unresponsive.Name != "" {
		err = fmt.Errorf("%w (end it with 'mcpctl session stop %s')", err, unresponsive.Name)
	}
	if err != nil {
		warn(err)
		return nil
	}
	if kc == nil {
		return nil
	}
	if v := s.g.ProtocolVersion; s.g.IsSet("protocol-version") && v != kc.Hello.Version {
		if s.trace {
			fmt.Fprintf(s.ios.ErrOut, "# session: %s speaks %s, not the pinned %s; not using it\n", output.ShowName(kc.Hello.Name, s.ios.StderrToTerminal()), kc.Hello.Version, v)
		}
		kc.Close()
		return nil
	}
	if s.trace {
		fmt.Fprintf(s.ios.ErrOut, "# session: %s (pid %d)\n", output.ShowName(kc.Hello.Name, s.ios.StderrToTerminal()), kc.Hello.PID)
	}
	return kc
}

// awaitSession waits for a session another process is starting: until its
// socket answers, or its starter lets the lock go without one.
func awaitSession(p sessiond.Paths, limit time.Duration) (*sessiond.Conn, error) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		kc, err := sessiond.Dial(p)
		if kc != nil || err != nil {
			return kc, err
		}
		if !p.Held() {
			return sessiond.Dial(p) // nobody is starting it any more
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil, nil
}

// keepAliveFor is the keepAlive duration the server's entry (or the
// config's defaults) gives: 0 for none.
func (s *connection) keepAliveFor() time.Duration {
	if s.ep.named != nil && s.ep.named.KeepAlive > 0 {
		return s.ep.named.KeepAlive
	}
	if s.ep.named == nil {
		return 0 // only configured servers keep themselves alive
	}
	return s.f.config(s.g).keepAlive // read where the defaults were applied
}

// dialKeepalive is the transport over a session's socket: the connection
// made when the session was found, then (listen reconnecting) new ones.
func (s *connection) dialKeepalive() (client.Transport, func(), error) {
	kc := s.ks
	s.ks = nil
	if kc == nil {
		dir, err := s.f.sessionDir(false)
		if err == nil {
			kc, err = sessiond.Dial(sessiond.Paths{Dir: dir, ID: s.sessionID})
			dir.Close()
		}
		if err != nil {
			return nil, nil, err
		}
		if kc == nil {
			return nil, nil, &client.ConnError{Msg: "the session has ended"}
		}
	}
	var trace client.Tracer
	if s.trace {
		trace = newTracer(s.ios.ErrOut)
	}
	return sessiond.NewTransport(kc, client.ConnOptions{Trace: trace, MaxLine: s.maxMessage, Malformed: s.malformed()}), func() {}, nil
}

// sessionOptions makes the client speak the era the session's server
// speaks, without a probe.
func sessionOptions(hello sessiond.Hello, opts *client.Options) {
	opts.ProtocolVersion = hello.Version
	opts.Era = hello.Era
	opts.Initialized = hello.Initialize
}

// startKeepalive starts the session process for the server in st and
// waits until it has connected the server (or failed to).
func startKeepalive(f *Factory, st *connSettings, idle time.Duration, name string) (*sessiond.Hello, error) {
	p, err := f.sessionPaths(st, true)
	if err != nil {
		return nil, err
	}
	defer p.Dir.Close()
	if err := p.CheckLength(); err != nil {
		return nil, sessionFileError(err, st)
	}
	var unresponsive *sessiond.UnresponsiveError
	if kc, err := sessiond.Dial(p); errors.As(err, &unresponsive) && unresponsive.Name != "" {
		return nil, usagef("%v: end it with 'mcpctl session stop %s', or start again with --replace", err, unresponsive.Name)
	} else if err != nil {
		return nil, usagef("%v", err)
	} else if kc != nil {
		kc.Close()
		return nil, &sessiond.Error{Code: ExitUsage, Msg: fmt.Sprintf("%s already has a session (%s, pid %d): use it, stop it with 'mcpctl session stop %s', or start again with --replace",
			redactTarget(st), kc.Hello.Name, kc.Hello.PID, kc.Hello.Name)}
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	// Only what is no secret goes in the arguments, which every user can
	// read (ps): the settings go on a pipe of their own.
	args := []string{"session", "serve", "--idle=" + idle.String(), "--name=" + sessionName(st, name), "--ready-fd=3", "--settings-fd=4"}
	logf, err := p.CreateLog()
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	sr, sw, err := os.Pipe()
	if err != nil {
		w.Close()
		return nil, err
	}
	cmd := exec.Command(exe, args...)
	// Named as the program is, whatever the file is called (a test
	// binary stands in for mcpctl by its name).
	cmd.Args[0] = "mcpctl"
	cmd.Env = f.Environ()
	if wd, err := f.Getwd(); err == nil {
		cmd.Dir = wd
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.ExtraFiles = []*os.File{w, sr}
	cmd.SysProcAttr = sessiond.Detached()
	err = cmd.Start()
	w.Close()
	sr.Close()
	if err != nil {
		sw.Close()
		return nil, fmt.Errorf("starting the session process: %w", err)
	}
	go func() {
		// A pipe holds only so much: written while the process reads it
		// (if it dies first, the ready pipe says so).
		_, _ = sw.Write(sessionSettings(st.g))
		sw.Close()
	}()
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	line, _ := bufio.NewReader(r).ReadBytes('\n')
	var ready struct {
		sessiond.Hello
		Error string `json:"error"`
		Exit  int    `json:"exit"`
	}
	if json.Unmarshal(line, &ready) != nil {
		<-exited
		return nil, &client.ConnError{Msg: "the session process ended before it was ready" + logTail(p)}
	}
	if ready.Error != "" {
		<-exited
		return nil, &sessiond.Error{Msg: ready.Error, Code: ready.Exit}
	}
	return &ready.Hello, nil
}

// logTail is the last lines of a session's log, for an error message.
func logTail(p sessiond.Paths) string {
	data, _ := p.ReadLog()
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) == 0 || lines[0] == "" {
		return ""
	}
	lines = lines[max(0, len(lines)-3):]
	return " (its log: " + strings.Join(lines, " | ") + ")"
}

// sessionSettings are the global options of this command for the session
// process, which resolves the server from them exactly as this one did
// (GlobalOptions.settings). Flags about this command's output, or that
// mean nothing to a session, stay behind.
func sessionSettings(g *GlobalOptions) []byte {
	skip := map[string]bool{"output": true, "jq": true, "dry-run": true, "no-session": true, "progress": true,
		"server-stderr": true, "refresh": true, "trace": true}
	return g.settings(func(name string) bool {
		// (the session process reads no stdin)
		return !skip[name] && !(name == "answers" && g.Answers == "-")
	})
}
