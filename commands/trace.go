package commands

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/internal/secrets"
	"github.com/mcpctl/mcpctl/output"
)

// What --trace and --dry-run print: every message as it is sent and
// received (credentials redacted), and the requests a dry run would send.
//
// Credentials are redacted twice over: by name where mcpctl shows what it
// sends (headers named like credentials, a URL's password and keys), and
// by value wherever it prints what a server says (errors, --trace, log
// lines, the session's log): every credential value the command sends is
// kept in the factory's secrets.Set and replaced with [REDACTED] on
// stderr, since a server may echo the token it was sent.

// secretHeader matches header names whose values are credentials (a DPoP
// proof is one: a signed JWT another could replay within its lifetime).
var secretHeader = sync.OnceValue(func() *regexp.Regexp { // compiled on first use, not in every process's init
	return regexp.MustCompile(`(?i)^(authorization|proxy-authorization|cookie|set-cookie|dpop)$|api[-_]?key|token|secret|password|session`)
})

// redact hides a credential but keeps an auth scheme, so a trace still
// shows that "Bearer" was sent.
func redact(name, value string) string {
	if !secretHeader().MatchString(name) {
		return value
	}
	if scheme, _, ok := strings.Cut(value, " "); ok && strings.Contains(strings.ToLower(name), "authorization") {
		return scheme + " [REDACTED]"
	}
	return "[REDACTED]"
}

// withSecrets gives f a set of secrets, with its stderr redacted by it
// (once: a batch line or the session's connection shares its command's).
func (f *Factory) withSecrets() *Factory {
	if f.secrets != nil {
		return f
	}
	g := *f
	g.secrets = &secrets.Set{}
	ios := *f.IOStreams
	ios.ErrOut = g.secrets.Writer(ios.ErrOut)
	g.IOStreams = &ios
	return &g
}

// noteSecrets adds to the factory's secrets the credentials the settings
// send: the values of headers named like credentials (the token of an
// Authorization, --bearer's among them), the URL's password and keys (and
// the Basic credentials Go's HTTP client makes of its user and password),
// and the values of --env variables (and a stdio entry's env) named like
// credentials.
func (f *Factory) noteSecrets(st *connSettings) {
	if u, err := url.Parse(st.ep.url); err == nil && u.User != nil {
		if p, ok := u.User.Password(); ok {
			f.secrets.Add(base64.StdEncoding.EncodeToString([]byte(u.User.Username() + ":" + p)))
		}
	}
	for k, vs := range st.header {
		if secretHeader().MatchString(k) {
			for _, v := range vs {
				if _, cred, ok := strings.Cut(v, " "); ok && strings.Contains(strings.ToLower(k), "authorization") {
					v = cred // after its scheme
				}
				f.secrets.Add(v)
			}
		}
	}
	f.secrets.Add(client.URLCredentials(st.ep.url)...)
	for _, kv := range st.ep.env {
		if k, v, _ := strings.Cut(kv, "="); secretHeader().MatchString(k) {
			f.secrets.Add(v)
		}
	}
}

func writeHeaders(w io.Writer, prefix string, h http.Header) {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		for _, v := range h[k] {
			fmt.Fprintf(w, "%s%s: %s\n", prefix, k, output.SanitizeLine(redact(k, v)))
		}
	}
}

// newTracer prints wire events to w: "> " for what mcpctl sends, "< " for
// what it receives.
func newTracer(w io.Writer) client.Tracer {
	var mu sync.Mutex
	return func(ev client.TraceEvent) {
		mu.Lock()
		defer mu.Unlock()
		arrow := "<"
		if ev.Dir == "send" {
			arrow = ">"
		}
		switch {
		case ev.HTTPMethod != "":
			fmt.Fprintf(w, "%s %s %s\n", arrow, ev.HTTPMethod, client.RedactURL(ev.URL))
			writeHeaders(w, arrow+" ", ev.Header)
		case ev.Status != "":
			fmt.Fprintf(w, "%s HTTP %s\n", arrow, ev.Status)
			writeHeaders(w, arrow+" ", ev.Header)
		}
		if len(ev.Body) > 0 {
			fmt.Fprintf(w, "%s %s\n", arrow, output.SanitizeLine(string(ev.Body)))
		}
	}
}

// printDryRun shows what would be sent. Credentials are redacted here too:
// dry runs end up in CI logs.
func printDryRun(w io.Writer, r client.DryRunRequest) {
	if r.HTTPMethod != "" {
		fmt.Fprintf(w, "%s %s\n", r.HTTPMethod, client.RedactURL(r.URL))
		writeHeaders(w, "", r.Header)
		fmt.Fprintf(w, "\n%s\n", r.Body)
		return
	}
	fmt.Fprintf(w, "# stdio: %s\n", shellJoin(r.Command))
	if r.Dir != "" {
		fmt.Fprintf(w, "# cwd: %s\n", r.Dir)
	}
	fmt.Fprintf(w, "%s\n", r.Body)
}

// shellWord quotes a name to be pasted into bash or zsh: as shellJoin
// does, unless it holds a character a terminal would not show; then as
// $'…', with each such character written as the escape SanitizeName shows
// (\u200b), which $'…' turns back into the character, so that the word
// pasted is the name itself.
func shellWord(s string) string {
	if output.SanitizeName(s) == s {
		return shellJoin([]string{s})
	}
	var b strings.Builder
	b.WriteString("$'")
	for _, r := range s {
		switch r {
		case '\\', '\'':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteString(output.SanitizeName(string(r)))
		}
	}
	b.WriteByte('\'')
	return b.String()
}

func shellJoin(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		if a != "" && !strings.ContainsAny(a, " \t\n'\"\\$`|&;<>()*?[]#~{}!") {
			parts[i] = a
			continue
		}
		parts[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(parts, " ")
}

// A dry run shows what a real run would send, and sends nothing: the
// client reads the era remembered from an earlier run (and shows the
// legacy handshake when that era is legacy), and tools call takes the
// tool's definition from the cached tool list, which types the arguments
// and names the Mcp-Param-* headers as a real call's would. Neither the
// era nor the cache is written.

// dryToolCall shows a tools/call as CallTool would send it. The tool's
// definition comes from the cached tools/list only, fresh or stale (a
// real run builds its call from a stale one too): fetching it would send
// a request. Without it the arguments are shown as given, and a note
// on stderr says so.
func dryToolCall(ctx context.Context, conn Connection, ios *output.IOStreams, name string, args json.RawMessage, co *client.CallOptions) (json.RawMessage, error) {
	cl := conn.Client()
	list, err := cl.ListWith(ctx, "tools/list", "tools", "", true, &client.CallOptions{CacheOnly: true, Hint: true})
	if err == nil {
		tool, ferr := client.FindTool(list, name)
		if ferr == nil {
			co.Tool = tool
			return cl.CallTool(ctx, name, args, co)
		}
		err = ferr
	}
	var unknown *client.UnknownToolError
	if !errors.Is(err, client.ErrNotCached) && !errors.As(err, &unknown) {
		return nil, err
	}
	// A real run needs the definition to type the arguments, and over HTTP
	// to mirror them into headers; otherwise there is nothing to say.
	http := cl.Binding() == client.BindingStreamable || cl.Binding() == client.BindingSSE
	if co.PrepareArgs != nil || http {
		shown := "arguments shown as given, untyped"
		if http {
			shown += " and without Mcp-Param-* headers"
		}
		why := "no cached tool list for this server"
		how := "run 'mcpctl tools list' first"
		if unknown != nil {
			why = fmt.Sprintf("the cached tool list has no tool %q", name)
			how = "'mcpctl tools list' refreshes it"
		}
		notef(ios, "%s", output.SanitizeLine("note: "+why+": "+shown+"; "+how))
	}
	return cl.Call(ctx, "tools/call", toolCallParams(name, args), &client.CallOptions{NoWait: co.NoWait})
}

// dryRunPrinter shows each request a dry run would send, on w: an HTTP
// request as its method, URL, headers and body (a blank line between
// requests), a stdio line under the command that would be started, which
// is named once.
type dryRunPrinter struct {
	w     io.Writer
	shown int
}

func (p *dryRunPrinter) print(r client.DryRunRequest) {
	if r.HTTPMethod != "" && p.shown > 0 {
		fmt.Fprintln(p.w)
	}
	if r.HTTPMethod != "" || p.shown == 0 {
		printDryRun(p.w, r)
	} else {
		fmt.Fprintf(p.w, "%s\n", r.Body)
	}
	p.shown++
}
