package commands

import (
	"fmt"
	"io"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/output"
)

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
