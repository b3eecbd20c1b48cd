package commands

// The answering flags (--answer, --answers, --elicit, --root,
// --sampling-cmd, --open-urls) read into the interact.Config that answers
// a server's input requests (internal/interact).

import (
	"net/url"
	"path/filepath"
	"strings"

	"github.com/kballard/go-shellquote"

	"github.com/mcpctl/mcpctl/internal/argv"
	"github.com/mcpctl/mcpctl/internal/interact"
	"github.com/mcpctl/mcpctl/output"
)

// readInputConfig reads the answering flags.
func readInputConfig(g *GlobalOptions, ios *output.IOStreams) (*interact.Config, error) {
	ic := &interact.Config{
		FieldAnswers: map[string][]interact.FieldAnswer{},
		OpenURLs:     g.OpenURLs,
		Interactive:  ios.IsStdinTTY() && ios.IsStderrTTY(),
	}
	for _, a := range g.Answer {
		kf, v, ok := strings.Cut(a, "=")
		key, field, ok2 := strings.Cut(kf, ".")
		if !ok || !ok2 || key == "" || field == "" {
			return nil, usagef("invalid --answer %q: write KEY.FIELD=VALUE (KEY is the server's input request key)", a)
		}
		if _, seen := ic.FieldAnswers[key]; !seen {
			ic.FieldOrder = append(ic.FieldOrder, key)
		}
		ic.FieldAnswers[key] = append(ic.FieldAnswers[key], interact.FieldAnswer{Field: field, Value: v})
	}
	if f := g.Answers; f != "" {
		// A file name, - for stdin, or the JSON itself.
		src := f
		if f != "-" && !strings.HasPrefix(strings.TrimSpace(f), "{") && !strings.HasPrefix(f, "@") {
			src = "@" + f
		}
		data, err := argv.ReadJSONArg("--answers", src, ios.In)
		if err != nil {
			return nil, err
		}
		obj, err := argv.ParseObject("--answers", data)
		if err != nil {
			return nil, err
		}
		ic.Answers = obj
		if f == "-" {
			ic.Interactive = false // stdin is spent
		}
	}
	switch e := g.Elicit; e {
	case "", "accept-defaults", "decline", "cancel":
		ic.Elicit = e
	default:
		return nil, usagef("invalid --elicit %q: use accept-defaults, decline or cancel", e)
	}
	for _, r := range g.Root {
		rt, err := parseRoot(r)
		if err != nil {
			return nil, err
		}
		ic.Roots = append(ic.Roots, rt)
	}
	if s := g.SamplingCmd; s != "" {
		words, err := shellquote.Split(s)
		if err != nil || len(words) == 0 {
			return nil, usagef("cannot split --sampling-cmd %q", s)
		}
		ic.SamplingCmd = words
	}
	return ic, nil
}

// parseRoot turns --root PATH|URI into a root: paths become file:// URIs
// of their absolute form, named after their last element.
func parseRoot(s string) (interact.Root, error) {
	if u, err := url.Parse(s); err == nil && u.Scheme != "" && len(u.Scheme) > 1 {
		return interact.Root{URI: s}, nil
	}
	abs, err := filepath.Abs(s)
	if err != nil {
		return interact.Root{}, usagef("--root %q: %v", s, err)
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	return interact.Root{URI: u.String(), Name: filepath.Base(abs)}, nil
}
