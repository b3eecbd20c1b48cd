package tests

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// ptySession runs mcpctl with stdin and stderr on a real pseudo-terminal,
// as a person would, and stdout on a pipe, so that prompts and results can
// be told apart. expect/send drive it like a user at the keyboard.
type ptySession struct {
	t      *testing.T
	cmd    *exec.Cmd
	master *os.File
	screen syncBuffer
	stdout bytes.Buffer
	pos    int
	done   chan error
}

func startPTY(t *testing.T, env []string, args ...string) *ptySession {
	t.Helper()
	return startPTYWith(t, false, env, args...)
}

// startPTYWith is startPTY; with ctty the pty is also mcpctl's
// controlling terminal, in a session of its own, so that a ^C typed
// raises SIGINT as at a shell (else it is only a byte of input).
func startPTYWith(t *testing.T, ctty bool, env []string, args ...string) *ptySession {
	t.Helper()
	dir := linkBinaries(t)
	bin := buildDemo(t)
	master, slave, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	if err := pty.Setsize(master, &pty.Winsize{Rows: 40, Cols: 100}); err != nil {
		t.Fatal(err)
	}
	s := &ptySession{t: t, master: master, done: make(chan error, 1)}
	s.cmd = exec.Command(filepath.Join(dir, "mcpctl"), args...)
	s.cmd.Stdin, s.cmd.Stderr, s.cmd.Stdout = slave, slave, &s.stdout
	s.cmd.Env = append(os.Environ(), "PATH="+bin+":"+dir+":"+os.Getenv("PATH"), "NO_COLOR=1",
		"MCPCTL_CACHE_DIR="+t.TempDir(), "MCPCTL_STATE_DIR="+t.TempDir())
	s.cmd.Env = append(s.cmd.Env, env...)
	if ctty {
		s.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0} // 0: the child's stdin
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	go func() { _, _ = io.Copy(&s.screen, master) }()
	go func() { s.done <- s.cmd.Wait() }()
	t.Cleanup(func() {
		_ = s.cmd.Process.Kill()
		master.Close()
	})
	return s
}

// expect waits until the terminal shows text matching re after what the
// last expect matched.
func (s *ptySession) expect(re string) {
	s.t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		screen := s.screen.String()
		if loc := rx.FindStringIndex(screen[s.pos:]); loc != nil {
			s.pos += loc[1]
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	s.t.Fatalf("the terminal never showed %q; it shows:\n%s", re, s.screen.String()[s.pos:])
}

func (s *ptySession) send(line string) {
	s.t.Helper()
	if _, err := s.master.Write([]byte(line + "\r")); err != nil {
		s.t.Fatal(err)
	}
}

// wait returns the exit status and stdout once mcpctl ends.
func (s *ptySession) wait() (int, string) {
	s.t.Helper()
	select {
	case err := <-s.done:
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		return code, s.stdout.String()
	case <-time.After(20 * time.Second):
		s.t.Fatalf("mcpctl did not finish; the terminal shows:\n%s", s.screen.String())
	}
	return -1, ""
}

// A form elicitation at a terminal: every field type, defaults, re-prompts.
func TestPTYFormElicitation(t *testing.T) {
	s := startPTY(t, nil, "--stdio", "demo", "tools", "call", "signup_form")
	s.expect(`The server asks: Sign up for the demo service`)
	s.expect(`Full name \(required\)[\s\S]*text: `)
	s.send("")
	s.expect(`this field is required`)
	s.send("Ada Lovelace")
	s.expect(`Email address \(required\)[\s\S]*an email address: `)
	s.send("not-an-email")
	s.expect(`is not an email address; try again`)
	s.send("ada@example.com")
	s.expect(`Website[\s\S]*a URL: `)
	s.send("")
	s.expect(`Birthday[\s\S]*YYYY-MM-DD\): `)
	s.send("1815-12-10")
	s.expect(`Intro call[\s\S]*: `)
	s.send("2026-07-28T09:30:00Z")
	s.expect(`Age[\s\S]*whole number from 0 to 150: `)
	s.send("200")
	s.expect(`must be at most 150; try again`)
	s.send("36")
	s.expect(`Height \(m\)[\s\S]*number from 0.5 to 3: `)
	s.send("1.65")
	s.expect(`Subscribe to the newsletter[\s\S]*yes or no \[yes\]: `)
	s.send("")
	s.expect(`Plan[\s\S]*1\) free[\s\S]*choose one \(number or value\) \[free\]: `)
	s.send("2")
	s.expect(`Support tier[\s\S]*1\) Basic \(community\)[\s\S]*: `)
	s.send("3")
	s.expect(`Topics[\s\S]*comma-separated\): `)
	s.send("go, mcp")
	s.expect(`Favourite colours[\s\S]*1\) Red[\s\S]*comma-separated\): `)
	s.send("Red,3")
	s.expect(`Send this to the server\? \[Y\]es / \[d\]ecline / \[c\]ancel: `)
	s.send("y")
	code, out := s.wait()
	if code != 0 {
		t.Fatalf("exit %d; terminal:\n%s", code, s.screen.String())
	}
	for _, want := range []string{`\"name\":\"Ada Lovelace\"`, `\"email\":\"ada@example.com\"`, `\"age\":36`, `\"height\":1.65`,
		`\"newsletter\":true`, `\"plan\":\"pro\"`, `\"topics\":[\"go\",\"mcp\"]`, `\"colors\":[\"#ff0000\",\"#0000ff\"]`, `\"birthday\":\"1815-12-10\"`} {
		if !strings.Contains(out, want) {
			t.Errorf("result lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, "website") {
		t.Errorf("an optional field left empty was sent:\n%s", out)
	}
}

// !decline at a prompt answers the whole form with decline.
func TestPTYDecline(t *testing.T) {
	s := startPTY(t, nil, "--stdio", "demo", "tools", "call", "signup_form")
	s.expect(`Full name \(required\)[\s\S]*: `)
	s.send("!decline")
	code, out := s.wait()
	if code != 0 || !strings.Contains(out, "signup declined") {
		t.Fatalf("exit %d, stdout %s; terminal:\n%s", code, out, s.screen.String())
	}
}

// A URL elicitation: the URL and host are shown, nothing is opened without
// consent, and the call goes on once the user says they are done.
func TestPTYURLElicitation(t *testing.T) {
	s := startPTY(t, nil, "--stdio", "demo", "tools", "call", "open_dashboard")
	s.expect(`The server asks you to visit a web page: Open the dashboard`)
	s.expect(`URL:  https://example.com/connect\?session=`)
	s.expect(`Host: example.com`)
	s.expect(`Open it in your browser\? \[y/N\]: `)
	s.send("n")
	s.expect(`Press Enter when you have finished in the browser`)
	s.send("")
	code, out := s.wait()
	if code != 0 || !strings.Contains(out, `"text":"connected"`) {
		t.Fatalf("exit %d, stdout %s; terminal:\n%s", code, out, s.screen.String())
	}
	if strings.Contains(s.screen.String(), "Opened in your browser") {
		t.Error("the page was opened without consent")
	}
}

// Progress is drawn as a bar on a terminal's stderr, and log lines appear
// above it.
func TestPTYProgressBar(t *testing.T) {
	s := startPTY(t, nil, "--stdio", "demo", "--log-level", "info", "tools", "call", "long_job", "steps=4", "delay_ms=30")
	s.expect(`\[info\] long_job: starting 4 steps`)
	s.expect(`\[#####---------------\]  25% 1/4`)
	s.expect(`\[####################\] 100% 4/4 step 4 of 4`)
	code, out := s.wait()
	if code != 0 || !strings.Contains(out, "done after 4 steps") {
		t.Fatalf("exit %d, stdout %s; terminal:\n%s", code, out, s.screen.String())
	}
}

// A task with an input phase, at a terminal: its status is shown while it
// runs, the confirmation is asked as a form, and its result printed.
func TestPTYTask(t *testing.T) {
	s := startPTY(t, nil, "--stdio", "demo", "tools", "call", "slow_task")
	s.expect(`task [0-9a-f-]+: (working|input_required)`)
	s.expect(`Continue\? \(required\)[\s\S]*yes or no \[yes\]: `)
	s.send("")
	s.expect(`Send this to the server\?`)
	s.send("")
	code, out := s.wait()
	if code != 0 || !strings.Contains(out, "task finished (confirmed: true)") {
		t.Fatalf("exit %d, stdout %s; terminal:\n%s", code, out, s.screen.String())
	}
}
