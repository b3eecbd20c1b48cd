package commands

// Shell completion. The scripts `mcpctl completion SHELL` prints are thin:
// they hand the command line to the hidden `mcpctl __complete` and show
// what it prints. So bash, zsh, fish and PowerShell complete the same
// things, decided here, where they can be tested:
//
//	commands and flags      from the app definition
//	server names            from the config files (package config)
//	tool and prompt names,  from the result cache only: what earlier
//	resource URIs, argument tools/list, prompts/list and resources/list
//	keys (units=) and       calls stored for the server the line names.
//	their enum values       Never the network: a TAB must answer at once.
//
// Protocol between script and command:
//
//	mcpctl __complete bash|powershell -- LINE     LINE: the text up to the cursor
//	mcpctl __complete zsh|fish -- WORD… CURRENT   the words after "mcpctl", as the shell split them
//
// Output: a first line ":DIRECTIVES" (comma-separated: files = let the
// shell complete file names; nospace = no space after the candidate), then
// one candidate per line: zsh and fish "VALUE\tDESCRIPTION"; bash only
// the text readline is to insert, quoted; PowerShell
// "QUOTED\tVALUE\tDESCRIPTION" (see writeCandidates). Nothing is printed
// on stderr, and no config warning either.

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/schema"
	"github.com/mcpctl/mcpctl/config"
	"github.com/mcpctl/mcpctl/internal/argv"
	"github.com/mcpctl/mcpctl/internal/interact"
	"github.com/mcpctl/mcpctl/output"
)

var completionShells = []string{"bash", "zsh", "fish", "powershell"}

// shellCompleteOptions are a line to complete as a shell gave it.
type shellCompleteOptions struct {
	invocation
	Shell string
	Words []string // the words after "mcpctl", the last one being typed
	Typed lineScan // bash and PowerShell: the line as typed, quotes and all
}

func newCmdShellComplete(f *Factory, runF func(*shellCompleteOptions) error) *cli.Command {
	return &cli.Command{
		Name:            "__complete",
		Usage:           "print completion candidates for a command line (the completion scripts call it)",
		Hidden:          true,
		SkipFlagParsing: true,
		Action:          actionOf(parseShellComplete(f), runF, runShellComplete),
	}
}

func parseShellComplete(f *Factory) func(*cli.Context) (*shellCompleteOptions, error) {
	return func(c *cli.Context) (*shellCompleteOptions, error) {
		args := c.Args().Slice()
		if len(args) > 0 && args[0] == "--" {
			args = args[1:]
		}
		if len(args) == 0 || !contains(completionShells, args[0]) {
			return nil, usagef("usage: mcpctl __complete %s -- LINE|WORDS…", strings.Join(completionShells, "|"))
		}
		o := &shellCompleteOptions{invocation: invoked(f, c), Shell: args[0]}
		rest := args[1:]
		if len(rest) > 0 && rest[0] == "--" {
			rest = rest[1:]
		}
		switch o.Shell {
		case "bash", "powershell":
			if len(rest) > 0 {
				o.Typed = scanLine(strings.Join(rest, " "))
				o.Words = o.Typed.words[1:] // the program's own name
			}
		default:
			for _, w := range rest {
				o.Words = append(o.Words, unquoteWord(w))
			}
		}
		if len(o.Words) == 0 {
			o.Words = []string{""}
		}
		return o, nil
	}
}

func runShellComplete(o *shellCompleteOptions) error {
	f := o.f
	comp := &completer{app: o.tree(), f: f, configs: newConfigLoader(f.configOptions, f.configEnv(), f.expandHome, f.configFile(), nil), getenv: f.Getenv}
	res := comp.complete(o.Words)
	writeCandidates(f.IOStreams.Out, o.Shell, o.Words[len(o.Words)-1], o.Typed, res, f.Getenv("MCPCTL_COMP_WORDBREAKS"))
	return nil
}

type candidate struct{ value, desc string }

type completion struct {
	cands   []candidate
	files   bool // let the shell complete file names
	nospace bool
}

type completer struct {
	app     *cli.App
	f       *Factory
	configs *configLoader
	getenv  func(string) string
}

func (c *completer) scope(st *argv.Line) []cli.Flag {
	flags := append([]cli.Flag(nil), c.app.Flags...)
	if len(st.Path) > 0 {
		flags = append(flags, st.Path[len(st.Path)-1].Flags...)
	}
	return flags
}

// parse reads the words before the current one, as argv.Normalize reads
// a line, with room for the command still to come.
func (c *completer) parse(done []string) *argv.Line { return argv.Scan(c.app, done, true) }

func (c *completer) complete(words []string) completion {
	cur := words[len(words)-1]
	st := c.parse(words[:len(words)-1])
	switch {
	case st.Pending != nil:
		return c.flagValue(st, st.Pending.Names()[0])
	case !st.DashDash && strings.HasPrefix(cur, "-"):
		if name, _, ok := strings.Cut(cur, "="); ok {
			if f := argv.FindFlag(c.scope(st), strings.TrimLeft(name, "-")); f != nil {
				res := c.flagValue(st, f.Names()[0])
				for i := range res.cands {
					res.cands[i].value = name + "=" + res.cands[i].value
				}
				return res
			}
			return completion{}
		}
		return completion{cands: c.flagNames(st)}
	}
	return c.positional(st, cur)
}

func (c *completer) flagNames(st *argv.Line) []candidate {
	var out []candidate
	seen := map[string]bool{}
	for _, f := range append(c.scope(st), cli.HelpFlag) {
		if vf, ok := f.(cli.VisibleFlag); (ok && !vf.IsVisible()) || seen[f.Names()[0]] {
			continue
		}
		seen[f.Names()[0]] = true
		usage := ""
		if df, ok := f.(cli.DocGenerationFlag); ok {
			usage = strings.ReplaceAll(df.GetUsage(), "`", "")
		}
		for _, n := range f.Names() {
			dash := "--"
			if len(n) == 1 {
				dash = "-"
			}
			out = append(out, candidate{dash + n, usage})
		}
	}
	return out
}

var fixedValues = map[string][]string{
	"output":      {"json", "yaml", "table", "text"},
	"progress":    {"auto", "bar", "json", "none"},
	"elicit":      {"accept-defaults", "decline", "cancel"},
	"token-store": tokenStores,
}

func (c *completer) flagValue(st *argv.Line, flag string) completion {
	switch flag {
	case "server":
		return completion{cands: c.serverCandidates(false)}
	case "protocol-version":
		return words(client.SupportedVersions()...)
	case "log-level":
		return words(logLevels...)
	case "server-stderr":
		return completion{cands: words("inherit", "discard").cands, files: true}
	case "cwd", "answers", "json", "out", "root", "sampling-cmd", "stdio":
		return completion{files: true}
	case "prompt":
		return completion{cands: c.cachedNames(st, "prompts/list", "prompts", "name")}
	case "template":
		return completion{cands: c.cachedNames(st, "resources/templates/list", "resourceTemplates", "uriTemplate")}
	case "resource":
		return completion{cands: c.cachedNames(st, "resources/list", "resources", "uri")}
	}
	if vs, ok := fixedValues[flag]; ok {
		return words(vs...)
	}
	return completion{}
}

func words(vs ...string) completion {
	var out completion
	for _, v := range vs {
		out.cands = append(out.cands, candidate{value: v})
	}
	return out
}

// serverChosen reports whether the line (or the environment) names a
// server already, so that a bare name is not offered again.
func (c *completer) serverChosen(st *argv.Line) bool {
	return st.Bare != "" || st.Last("url") != "" || st.Last("stdio") != "" || st.Last("server") != ""
}

func (c *completer) positional(st *argv.Line, cur string) completion {
	if len(st.Path) == 0 {
		res := completion{cands: commandCandidates(c.app.Commands)}
		if !c.serverChosen(st) {
			res.cands = append(res.cands, c.serverCandidates(false)...)
		}
		return res
	}
	leaf := st.Path[len(st.Path)-1]
	if len(leaf.Subcommands) > 0 {
		return completion{cands: commandCandidates(leaf.Subcommands)}
	}
	n := len(st.Positional)
	switch st.Command() {
	case "tools call", "tools describe":
		if n == 0 {
			return completion{cands: c.cachedNames(st, "tools/list", "tools", "name")}
		}
		if st.Command() == "tools call" {
			return c.toolItems(st, cur)
		}
	case "prompts get":
		if n == 0 {
			return completion{cands: c.cachedNames(st, "prompts/list", "prompts", "name")}
		}
		return c.promptItems(st, st.Positional[0])
	case "resources read":
		if n == 0 {
			return completion{cands: c.cachedNames(st, "resources/list", "resources", "uri")}
		}
	case "complete":
		if n == 0 && st.Last("prompt") != "" {
			return c.promptItems(st, st.Last("prompt"))
		}
		if n == 0 && st.Last("template") != "" {
			return templateItems(st.Last("template"))
		}
	case "config show":
		return completion{cands: c.serverCandidates(false)}
	case "config remove":
		return completion{cands: c.serverCandidates(true)}
	case "config import":
		if n == 0 {
			return completion{files: true}
		}
		if set, err := config.ReadFile(c.f.expandHome(st.Positional[0]), c.f.configOptions(true)); err == nil {
			return words(set.Names()...)
		}
	case "completion":
		if n == 0 {
			return words(completionShells...)
		}
	case "help":
		res := completion{cands: commandCandidates(c.app.Commands)}
		for _, t := range helpTopics {
			res.cands = append(res.cands, candidate{t.name, t.title})
		}
		return res
	case "resume", "config trust":
		return completion{files: true}
	}
	return completion{}
}

func commandCandidates(cmds []*cli.Command) []candidate {
	var out []candidate
	for _, c := range cmds {
		if !c.Hidden {
			out = append(out, candidate{c.Name, c.Usage})
		}
	}
	return out
}

// serverCandidates are the configured names (ownOnly: mcpctl's file only),
// described by what they run and where they come from.
func (c *completer) serverCandidates(ownOnly bool) []candidate {
	set, err := c.configs.load(!ownOnly)
	if err != nil {
		return nil
	}
	var out []candidate
	seen := map[string]bool{}
	for _, s := range set.Servers {
		if seen[s.Name] {
			continue
		}
		seen[s.Name] = true
		out = append(out, candidate{s.Name, serverTarget(s) + " (" + sourceName(s.Source, c.f.homeDir()) + ")"})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].value < out[j].value })
	return out
}

// cachedItems reads a list from the result cache for the server the line
// names; nothing when it names none, or nothing is cached.
func (c *completer) cachedItems(st *argv.Line, method, key string) []json.RawMessage {
	ch := serverChoice{
		url: st.Last("url"), stdio: st.Last("stdio"), name: st.Last("server"),
		env: st.Values["env"], cwd: st.Last("cwd"), headers: st.Values["header"],
	}
	if ch.name == "" && ch.url == "" && ch.stdio == "" {
		ch.name = st.Bare
	}
	ch, err := pickServer(ch, c.getenv)
	if err != nil {
		return nil
	}
	ep, err := resolveEndpoint(ch, c.configs, nil)
	if err != nil {
		return nil
	}
	cache, err := c.f.openCache()
	if err != nil {
		return nil
	}
	return cache.CachedItems(ep.serverID(), credentialID(ep.header), interact.CapabilityDigests(), method, key)
}

func (c *completer) cachedNames(st *argv.Line, method, key, field string) []candidate {
	var out []candidate
	for _, it := range c.cachedItems(st, method, key) {
		var item map[string]json.RawMessage
		if json.Unmarshal(it, &item) != nil {
			continue
		}
		var name, desc, title string
		_ = json.Unmarshal(item[field], &name)
		_ = json.Unmarshal(item["description"], &desc)
		_ = json.Unmarshal(item["title"], &title)
		if desc == "" {
			desc = title
		}
		if name != "" {
			out = append(out, candidate{name, desc})
		}
	}
	return out
}

// toolItems offers the tool's argument keys (location=) not given yet,
// and after KEY= the values its schema allows.
func (c *completer) toolItems(st *argv.Line, cur string) completion {
	var params []schema.Param
	for _, it := range c.cachedItems(st, "tools/list", "tools") {
		var tool struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		}
		if json.Unmarshal(it, &tool) != nil || tool.Name != st.Positional[0] {
			continue
		}
		if s, err := schema.Compile(tool.InputSchema, schema.Limits{}); err == nil {
			params = s.Params()
		}
	}
	if key, _, ok := cutItemKey(cur); ok {
		var res completion
		for _, p := range params {
			if p.Name == key {
				for _, v := range p.Values {
					res.cands = append(res.cands, candidate{key + "=" + v, ""})
				}
			}
		}
		return res
	}
	given := givenKeys(st.Positional[1:])
	res := completion{nospace: true}
	for _, p := range params {
		if given[p.Name] {
			continue
		}
		desc := strings.TrimPrefix(p.Spec, "=")
		if p.Required {
			desc += ", required"
		}
		if p.Description != "" {
			desc += ": " + p.Description
		}
		res.cands = append(res.cands, candidate{p.Name + "=", desc})
	}
	return res
}

// promptItems offers a prompt's argument keys not given yet.
func (c *completer) promptItems(st *argv.Line, prompt string) completion {
	given := givenKeys(st.Positional)
	res := completion{nospace: true}
	for _, it := range c.cachedItems(st, "prompts/list", "prompts") {
		var p struct {
			Name      string `json:"name"`
			Arguments []struct {
				Name        string `json:"name"`
				Description string `json:"description"`
				Required    bool   `json:"required"`
			} `json:"arguments"`
		}
		if json.Unmarshal(it, &p) != nil || p.Name != prompt {
			continue
		}
		for _, a := range p.Arguments {
			if given[a.Name] {
				continue
			}
			desc := a.Description
			if a.Required {
				desc = "required: " + desc
			}
			res.cands = append(res.cands, candidate{a.Name + "=", desc})
		}
	}
	return res
}

var templateVar = sync.OnceValue(func() *regexp.Regexp { // compiled on first use, not in every process's init
	return regexp.MustCompile(`\{[+#./;?&]?([^}]*)\}`)
})

// templateItems offers the variables of a URI template (RFC 6570).
func templateItems(tmpl string) completion {
	res := completion{nospace: true}
	for _, m := range templateVar().FindAllStringSubmatch(tmpl, -1) {
		for _, v := range strings.Split(m[1], ",") {
			v = strings.TrimSuffix(v, "*")
			if i := strings.IndexByte(v, ':'); i >= 0 {
				v = v[:i]
			}
			if v != "" {
				res.cands = append(res.cands, candidate{v + "=", "a variable of " + tmpl})
			}
		}
	}
	return res
}

// cutItemKey splits "key=partial" (not key:=, key=@): the key whose
// values to offer.
func cutItemKey(item string) (string, string, bool) {
	key, val, ok := strings.Cut(item, "=")
	if !ok || key == "" || strings.ContainsAny(key, ":[\\") || strings.HasPrefix(val, "@") {
		return "", "", false
	}
	return key, val, true
}

func givenKeys(items []string) map[string]bool {
	given := map[string]bool{}
	for _, it := range items {
		if i := strings.IndexAny(it, ":=["); i > 0 {
			given[it[:i]] = true
		}
	}
	return given
}

// writeCandidates prints the directive line and the candidates that
// start with the current word, cur. Candidates are server-provided words
// (tool names, argument keys, enum values), so each must reach the
// command line as one literal word: bash and PowerShell insert what they
// are given as it is, so it goes out quoted for them (bashInsert,
// powershellQuote; typed is the line as typed, which they hand over);
// zsh's compadd and fish quote it themselves, so it goes out plain. A
// word that no quoting makes safe to show and insert (line breaks, tabs,
// control characters, bidi controls) is never offered.
func writeCandidates(w io.Writer, shell, cur string, typed lineScan, res completion, wordbreaks string) {
	var directives []string
	if res.files {
		directives = append(directives, "files")
	}
	if res.nospace {
		directives = append(directives, "nospace")
	}
	fmt.Fprintln(w, ":"+strings.Join(directives, ","))
	seen := map[string]bool{}
	for _, cand := range res.cands {
		v := cand.value
		if !strings.HasPrefix(v, cur) || seen[v] || output.SanitizeLine(v) != v {
			continue
		}
		seen[v] = true
		var line string
		switch shell {
		case "bash":
			insert, ok := bashInsert(typed, v, wordbreaks)
			if !ok {
				continue
			}
			fmt.Fprintln(w, insert)
			continue
		case "powershell":
			// What to insert (the whole word: PowerShell replaces the
			// token), then what the menu shows.
			line = powershellQuote(v) + "\t" + v
		default:
			line = v
		}
		if desc := describe(cand.desc); desc != "" {
			line += "\t" + desc
		}
		fmt.Fprintln(w, line)
	}
}

// bashInsert returns what bash must put in COMPREPLY for candidate v.
// readline replaces only part of the word: the text after the quote the
// word is open in, or else after its last word-break character
// (COMP_WORDBREAKS, "=" and ":" among them) that is neither quoted nor
// escaped, and it inserts the reply as it is, closing an open quote only
// if the reply does not end in it. So the reply is the rest of v quoted
// for where it goes: outside quotes, as one single-quoted word; inside an
// open quote, escaped for that quote and closed. Every prefix of such a
// reply is safe too, which matters: with several candidates readline
// inserts their longest common prefix.
func bashInsert(typed lineScan, v, wordbreaks string) (string, bool) {
	if wordbreaks == "" {
		wordbreaks = "\"'><=;|&(:"
	}
	start := 0
	if typed.open != 0 {
		start = typed.openAt
	} else {
		for _, i := range typed.bare {
			if strings.IndexByte(wordbreaks, typed.last[i]) >= 0 && strings.IndexByte(" \t\n\"'", typed.last[i]) < 0 {
				start = i + 1
			}
		}
	}
	kept := unquoteWord(typed.last[:start]) // what readline leaves of the word
	rest, ok := strings.CutPrefix(v, kept)
	if !ok {
		return "", false
	}
	switch typed.open {
	case '\'':
		return strings.ReplaceAll(rest, "'", `'\''`) + "'", true
	case '"':
		var b strings.Builder
		for _, r := range rest {
			switch r {
			case '$', '`', '"', '\\':
				b.WriteByte('\\')
				b.WriteRune(r)
			case '!': // history expansion: no backslash stops it inside "…"
				b.WriteString(`"'!'"`)
			default:
				b.WriteRune(r)
			}
		}
		return b.String() + `"`, true
	}
	return shellQuote(rest), true
}

// shellQuote makes s one literal word for a POSIX shell: as it is when
// it has only characters no shell treats specially, else single-quoted.
func shellQuote(s string) string {
	if strings.Trim(s, plainChars) == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// plainChars need no quoting in a POSIX shell or PowerShell, anywhere in a
// word.
const plainChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=+"

// powershellQuote makes s one literal word for PowerShell: as it is when
// plain, else single-quoted, where PowerShell takes the typographic single
// quotes for ' too, and each is doubled.
func powershellQuote(s string) string {
	if s != "" && strings.Trim(s, plainChars) == "" {
		return s
	}
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range s {
		if strings.ContainsRune("'\u2018\u2019\u201a\u201b", r) {
			b.WriteRune(r)
		}
		b.WriteRune(r)
	}
	b.WriteByte('\'')
	return b.String()
}

// describe makes server-provided text fit one short line of a menu.
func describe(s string) string {
	s = output.SanitizeLine(s)
	if r := []rune(s); len(r) > 70 {
		s = string(r[:69]) + "…"
	}
	return s
}

// splitLine splits a command line as a POSIX shell would, leniently: an
// unfinished quote belongs to the last word, which is "" when the line
// ends in a blank (a new word is being started).
func splitLine(line string) []string { return scanLine(line).words }

// lineScan is a command line split into words, and what bash completion
// needs to know of the last word as typed.
type lineScan struct {
	words  []string // quotes and escapes removed
	last   string   // the last word as typed
	open   byte     // the quote last ends inside, unclosed (0: none)
	openAt int      // the index in last just past that quote
	bare   []int    // the indices in last of characters neither quoted nor escaped
}

func scanLine(line string) lineScan {
	var ls lineScan
	var cur strings.Builder
	var quote byte
	inWord, start := false, 0
	for i := 0; i < len(line); i++ {
		ch := line[i]
		switch {
		case quote == '\'':
			if ch == '\'' {
				quote = 0
			} else {
				cur.WriteByte(ch)
			}
		case quote == '"':
			switch {
			case ch == '"':
				quote = 0
			case ch == '\\' && i+1 < len(line) && strings.IndexByte("\"\\$`", line[i+1]) >= 0:
				i++
				cur.WriteByte(line[i])
			default:
				cur.WriteByte(ch)
			}
		case ch == '\'' || ch == '"':
			if !inWord {
				start, ls.bare = i, nil
			}
			quote, inWord = ch, true
			ls.openAt = i + 1 - start
		case ch == '\\':
			if !inWord {
				start, ls.bare = i, nil
			}
			if i+1 < len(line) {
				i++
				cur.WriteByte(line[i])
			}
			inWord = true
		case ch == ' ' || ch == '\t' || ch == '\n':
			if inWord {
				ls.words = append(ls.words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			if !inWord {
				start, ls.bare = i, nil
			}
			ls.bare = append(ls.bare, i-start)
			cur.WriteByte(ch)
			inWord = true
		}
	}
	ls.words = append(ls.words, cur.String())
	if inWord {
		ls.last, ls.open = line[start:], quote
	} else {
		ls.bare = nil
	}
	return ls
}

// unquoteWord removes the shell quoting of one word as zsh hands it over.
func unquoteWord(w string) string {
	return strings.Join(splitLine(w), " ")
}
