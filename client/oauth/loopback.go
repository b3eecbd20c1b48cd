package oauth

// The browser step with a loopback redirect (RFC 8252 §7.3): a listener
// on 127.0.0.1 receives the authorization response. The authorization
// URL goes to Notice (the CLI prints it) and Open (a browser, if any);
// with Paste set, a redirect URL pasted there is taken too, for a browser
// on another machine. Any local user can send a request to the listener:
// one whose state is not this authorization's is answered 400 and
// ignored, and the wait goes on for the real one.

import (
	"bufio"
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"
)

// Loopback implements Browser.
type Loopback struct {
	// Port to listen on (0: any free port).
	Port int
	// Name is the program the page after the redirect names ("" for
	// none).
	Name string
	// Notice receives the authorization URL before anything else happens.
	Notice func(authURL string)
	// Open opens the URL in a browser; nil opens nothing.
	Open func(authURL string) error
	// Paste, when set, is read for a pasted redirect URL.
	Paste io.Reader

	ln       net.Listener
	srv      *http.Server
	redirect string
	got      chan url.Values
	state    atomic.Value // string: the state of the authorization under way
}

// Start implements Browser.
func (l *Loopback) Start(context.Context) (string, error) {
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", l.Port))
	if err != nil {
		return "", err
	}
	l.ln = ln
	l.got = make(chan url.Values, 1)
	l.state.Store("") // until Authorize knows this authorization's
	l.redirect = fmt.Sprintf("http://127.0.0.1:%d/callback", ln.Addr().(*net.TCPAddr).Port)
	mux := http.NewServeMux()
	mux.HandleFunc("/callback", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		want, _ := l.state.Load().(string)
		if want == "" || subtle.ConstantTimeCompare([]byte(q.Get("state")), []byte(want)) != 1 {
			http.Error(w, "This is not the authorization response being waited for.", http.StatusBadRequest)
			return
		}
		l.deliver(q)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		title, who := "Authorization received", "The authorization response was received"
		if l.Name != "" {
			title = html.EscapeString(l.Name)
			who = title + " received the authorization response"
		}
		fmt.Fprint(w, "<!doctype html><title>"+title+"</title><p>"+who+". You can close this window.</p>")
	})
	l.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = l.srv.Serve(ln) }()
	return l.redirect, nil
}

// deliver hands over the first response of this authorization; later
// ones (a reload) are ignored.
func (l *Loopback) deliver(q url.Values) {
	select {
	case l.got <- q:
	default:
	}
}

// Authorize implements Browser.
func (l *Loopback) Authorize(ctx context.Context, authURL string) (url.Values, error) {
	if u, err := url.Parse(authURL); err == nil {
		l.state.Store(u.Query().Get("state"))
	}
	if l.Notice != nil {
		l.Notice(authURL)
	}
	if l.Open != nil {
		if err := l.Open(authURL); err != nil && l.Paste == nil {
			return nil, &Error{Msg: "cannot open a browser", Err: err}
		}
	}
	if l.Paste != nil {
		go l.readPaste()
	}
	select {
	case q := <-l.got:
		return q, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// readPaste takes the first line that is a URL with a query: the address
// the browser was sent back to.
func (l *Loopback) readPaste() {
	sc := bufio.NewScanner(l.Paste)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if u, err := url.Parse(line); err == nil && u.RawQuery != "" {
			l.deliver(u.Query())
			return
		}
	}
}

// Close implements Browser.
func (l *Loopback) Close() {
	if l.srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if err := l.srv.Shutdown(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
			l.srv.Close()
		}
	}
}
