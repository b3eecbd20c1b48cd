package interact

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/cli/browser"
	"github.com/kballard/go-shellquote"
)

// OpenURL opens a URL in the user's browser, for a login and for a URL
// elicitation alike: $BROWSER if set, else the platform's opener. getenv
// reads the environment (the factory's: the process's, or a test's).
func OpenURL(u string, getenv func(string) string) error {
	if b := getenv("BROWSER"); b != "" {
		return openWithBrowserEnv(b, u)
	}
	return openBrowser(u)
}

// openWithBrowserEnv runs $BROWSER with the URL: in place of %s if it has
// one, else as its last argument.
func openWithBrowserEnv(cmdline, u string) error {
	argv, err := shellquote.Split(cmdline)
	if err != nil || len(argv) == 0 {
		return fmt.Errorf("cannot split $BROWSER %q", cmdline)
	}
	replaced := false
	for i, a := range argv {
		if strings.Contains(a, "%s") {
			argv[i] = strings.ReplaceAll(a, "%s", u)
			replaced = true
		}
	}
	if !replaced {
		argv = append(argv, u)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = nil, nil
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("$BROWSER: %w", err)
	}
	go func() { _ = cmd.Wait() }()
	return nil
}

// openerGrace is how long openBrowser waits for the platform's opener to
// fail. One that is still running then has started a browser that stays
// in the foreground (xdg-open runs some browsers and waits for them): the
// page is open, and the login or the prompt must not wait for the browser
// to be closed.
const openerGrace = time.Second

// quietOpener sends what the platform's opener prints to /dev/null, once:
// stdout is for results. (A nil writer, not io.Discard: exec then needs
// no pipe, which a browser the opener starts would hold open.)
var quietOpener sync.Once

// openBrowser opens a URL with the platform's opener, github.com/cli/browser
// (OpenURL prefers $BROWSER): xdg-open, x-www-browser, www-browser or
// wslview on Linux, open on macOS, ShellExecute on Windows.
func openBrowser(u string) error {
	quietOpener.Do(func() { browser.Stdout, browser.Stderr = nil, nil })
	done := make(chan error, 1)
	go func() { done <- browser.OpenURL(u) }()
	var err error
	select {
	case err = <-done:
	case <-time.After(openerGrace):
		return nil
	}
	var notFound *exec.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &notFound) && errors.Is(notFound.Err, exec.ErrNotFound):
		return fmt.Errorf("no browser opener found (%s), and $BROWSER is not set", strings.ReplaceAll(notFound.Name, ",", ", "))
	}
	return fmt.Errorf("the system's browser opener failed: %w", err)
}
