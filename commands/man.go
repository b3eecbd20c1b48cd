package commands

// Man pages, generated from the app: mcpctl.1 and one page per command
// (mcpctl-tools-call.1, …), each with its options, examples, the exit
// codes, the environment and the files. `mcpctl man --dir man` (also run
// by `go generate`) writes them; the checked-in copies in man/ are kept
// current by a test, which also renders each with groff -ww.
//
// urfave/cli's own ToMan makes a single page through markdown; man pages
// per command, with sections of our own, are simpler written directly.

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/output"
)

type manOptions struct {
	invocation
	Dir string
}

func newCmdMan(f *Factory, runF func(*manOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "man",
		Usage:     "write the man pages (mcpctl.1 and one per command) into a folder",
		ArgsUsage: " ",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "dir", Usage: "write the pages into `DIR` (created if missing)", Value: "."},
		},
		Action: actionOf(func(c *cli.Context) (*manOptions, error) {
			if err := needArgs(c, 0, 0, "[--dir DIR]"); err != nil {
				return nil, err
			}
			return &manOptions{invocation: invoked(f, c), Dir: c.String("dir")}, nil
		}, runF, runMan),
	}
}

func runMan(o *manOptions) error {
	return writeFiles(o.f.IOStreams, o.Dir, ManPages(NewApp(o.f)), "man pages")
}

// writeFiles writes generated files into dir and says so on stderr.
func writeFiles(ios *output.IOStreams, dir string, files map[string]string, what string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return usagef("--dir: %v", err)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return usagef("--dir: %v", err)
		}
	}
	notef(ios, "wrote %d %s to %s", len(files), what, dir)
	return nil
}

// ManPages renders every page of app, keyed by file name.
func ManPages(app *cli.App) map[string]string {
	pages := map[string]string{"mcpctl.1": appPage(app)}
	var walk func(path []*cli.Command)
	walk = func(path []*cli.Command) {
		cmd := path[len(path)-1]
		if cmd.Hidden {
			return
		}
		pages[pageName(path)+".1"] = commandPage(app, path)
		for _, sub := range cmd.Subcommands {
			walk(append(append([]*cli.Command(nil), path...), sub))
		}
	}
	for _, c := range app.Commands {
		walk([]*cli.Command{c})
	}
	return pages
}

func pageName(path []*cli.Command) string {
	name := "mcpctl"
	for _, c := range path {
		name += "-" + c.Name
	}
	return name
}

func commandPath(path []*cli.Command) string {
	var names []string
	for _, c := range path {
		names = append(names, c.Name)
	}
	return strings.Join(names, " ")
}

// roff builds a page. Text goes through esc, so nothing the app says can
// turn into a roff request.
type roff struct{ strings.Builder }

func (r *roff) req(format string, a ...any) { fmt.Fprintf(r, format+"\n", a...) }

func (r *roff) section(name string) { r.req(".SH %s", name) }

// prose writes text whose lines indented by three spaces are kept as they
// are (tables, examples) and whose other lines are filled as paragraphs.
func (r *roff) prose(text string) {
	verbatim := false
	para := false
	for _, line := range strings.Split(text, "\n") {
		indented := strings.HasPrefix(line, "   ")
		switch {
		case strings.TrimSpace(line) == "":
			if verbatim {
				r.req(".fi\n.RE")
				verbatim = false
			}
			para = false
			continue
		case indented && !verbatim:
			r.req(".PP\n.RS 4\n.nf")
			verbatim, para = true, false
		case !indented && verbatim:
			r.req(".fi\n.RE")
			verbatim = false
		}
		if verbatim {
			r.req("%s", esc(strings.TrimPrefix(line, "   ")))
			continue
		}
		if !para {
			r.req(".PP")
			para = true
		}
		r.req("%s", esc(line))
	}
	if verbatim {
		r.req(".fi\n.RE")
	}
}

func (r *roff) examples(key string) {
	ex := examples[key]
	if len(ex) == 0 {
		return
	}
	r.section("EXAMPLES")
	r.req(".PP\n.RS 4\n.nf")
	for _, e := range ex {
		r.req("%s", esc(e))
	}
	r.req(".fi\n.RE")
}

func (r *roff) flags(flags []cli.Flag) {
	for _, f := range flags {
		df, ok := f.(cli.DocGenerationFlag)
		if vf, visible := f.(cli.VisibleFlag); !ok || (visible && !vf.IsVisible()) {
			continue
		}
		placeholder, usage := unquoteUsage(df.GetUsage())
		var names []string
		for _, n := range f.Names() {
			dash := "\\-\\-"
			if len(n) == 1 {
				dash = "\\-"
			}
			names = append(names, "\\fB"+dash+esc(n)+"\\fR")
		}
		head := strings.Join(names, ", ")
		if df.TakesValue() {
			if placeholder == "" {
				placeholder = "value"
			}
			head += " \\fI" + esc(placeholder) + "\\fR"
		}
		r.req(".TP\n%s", head)
		if d := df.GetDefaultText(); d != "" && d != "false" && !ownDefault(f) {
			usage += " (default: " + d + ")"
		}
		if evs := envVarsOf(f); len(evs) > 0 {
			usage += " [environment: " + strings.Join(evs, ", ") + "]"
		}
		r.req("%s", esc(usage))
	}
}

// common writes the sections every page has.
func (r *roff) common(see []string) {
	r.section("EXIT STATUS")
	for _, e := range exitCodes {
		r.req(".TP\n.B %d\n%s", e.code, esc(e.meaning))
	}
	r.section("ENVIRONMENT")
	for _, e := range environment() {
		r.req(".TP\n.B %s\n%s", esc(e.name), esc(e.meaning))
	}
	r.section("FILES")
	for _, f := range files {
		r.req(".TP\n.I %s\n%s", esc(f.name), esc(f.meaning))
	}
	r.section("SEE ALSO")
	for i, s := range see {
		sep := ","
		if i == len(see)-1 {
			sep = ""
		}
		r.req(".BR %s (1)%s", esc(s), sep)
	}
}

func header(r *roff, name, summary string) {
	r.req(`.\" Generated by 'mcpctl man'; do not edit.`)
	r.req(`.TH %s 1 "" "mcpctl" "mcpctl manual"`, esc(strings.ToUpper(name)))
	// No hyphenation, no justification: flags and values must stay whole
	// to be typed back.
	r.req(".nh\n.ad l")
	r.section("NAME")
	r.req("%s \\- %s", esc(name), esc(summary))
}

func appPage(app *cli.App) string {
	r := &roff{}
	header(r, "mcpctl", app.Usage)
	r.section("SYNOPSIS")
	r.req(".B mcpctl\n[\\fIGLOBAL OPTIONS\\fR] \\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGUMENTS\\fR]")
	r.section("DESCRIPTION")
	r.prose(app.Description)
	r.prose("Every flag may be written before or after the command, and after its arguments; after -- everything is an argument.")
	r.section("COMMANDS")
	for _, c := range app.Commands {
		if !c.Hidden {
			r.req(".TP\n.BR %s (1)\n%s", esc(pageName([]*cli.Command{c})), esc(c.Usage))
		}
	}
	r.section("GLOBAL OPTIONS")
	byCategory := map[string][]cli.Flag{}
	var cats []string
	for _, f := range app.Flags {
		cat := flagCategory(f)
		if _, seen := byCategory[cat]; !seen {
			cats = append(cats, cat)
		}
		byCategory[cat] = append(byCategory[cat], f)
	}
	for _, cat := range cats {
		if cat != "" {
			r.req(".SS %s", esc(cat))
		}
		r.flags(byCategory[cat])
	}
	for _, t := range []struct{ section, topic string }{
		{"REQUEST ITEMS", "items"}, {"OUTPUT", "output"}, {"CONFIGURATION", "config"},
	} {
		r.section(t.section)
		r.prose(findTopic(t.topic).body())
	}
	r.examples("")
	var see []string
	for _, c := range app.Commands {
		if !c.Hidden {
			see = append(see, pageName([]*cli.Command{c}))
		}
	}
	r.common(see)
	return r.String()
}

func commandPage(app *cli.App, path []*cli.Command) string {
	cmd := path[len(path)-1]
	r := &roff{}
	header(r, pageName(path), cmd.Usage)
	r.section("SYNOPSIS")
	synopsis := ".B mcpctl\n[\\fIGLOBAL OPTIONS\\fR]\n.B " + esc(commandPath(path))
	if len(cmd.Subcommands) > 0 {
		synopsis += "\n\\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGUMENTS\\fR]"
	} else {
		if len(cmd.Flags) > 0 {
			synopsis += "\n[\\fIOPTIONS\\fR]"
		}
		if args := strings.TrimSpace(cmd.ArgsUsage); args != "" {
			synopsis += "\n\\fI" + esc(args) + "\\fR"
		}
	}
	r.req("%s", synopsis)
	r.section("DESCRIPTION")
	r.prose(strings.ToUpper(cmd.Usage[:1]) + cmd.Usage[1:] + ".")
	if cmd.Description != "" {
		r.prose(cmd.Description)
	}
	r.prose("The global options of mcpctl(1) apply: -s NAME, --url or --stdio choose the server; -o, --jq, --timeout, --trace and the others work as described there.")
	var see []string
	if len(cmd.Subcommands) > 0 {
		r.section("COMMANDS")
		for _, sub := range cmd.Subcommands {
			name := pageName(append(append([]*cli.Command(nil), path...), sub))
			r.req(".TP\n.BR %s (1)\n%s", esc(name), esc(sub.Usage))
			see = append(see, name)
		}
	}
	if len(cmd.Flags) > 0 {
		r.section("OPTIONS")
		r.flags(cmd.Flags)
	}
	r.examples(commandPath(path))
	see = append([]string{"mcpctl"}, see...)
	if len(path) > 1 {
		see = append(see, pageName(path[:len(path)-1]))
	}
	sort.Strings(see[1:])
	r.common(see)
	return r.String()
}

// unquoteUsage splits a flag's usage into its placeholder (the word in
// backquotes, as urfave/cli marks it) and the text without the quotes.
func unquoteUsage(usage string) (string, string) {
	before, rest, ok := strings.Cut(usage, "`")
	if !ok {
		return "", usage
	}
	name, after, ok := strings.Cut(rest, "`")
	if !ok {
		return "", usage
	}
	return name, before + name + after
}

// esc makes text safe and exact in roff: backslashes and the characters
// groff would typeset differently (- ' ` ^ ~) are escaped, non-ASCII runes
// become \[uXXXX] (pages are read without preconv), and a line cannot
// start a request.
func esc(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\e`)
		case r == '-':
			b.WriteString(`\-`)
		case r == '\'':
			b.WriteString(`\(aq`)
		case r == '`':
			b.WriteString(`\(ga`)
		case r == '^':
			b.WriteString(`\(ha`)
		case r == '~':
			b.WriteString(`\(ti`)
		case r > 126:
			fmt.Fprintf(&b, `\[u%04X]`, r)
		default:
			b.WriteRune(r)
		}
	}
	out := b.String()
	if strings.HasPrefix(out, ".") {
		out = `\&` + out
	}
	return out
}
