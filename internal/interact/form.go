package interact

// Elicitation at a terminal: a plain, line-by-line form on stderr (stdout
// stays for results), one prompt per field in the server's order, with the
// default pre-filled, type checks and a re-prompt that says what was wrong.
// "!decline" or "!cancel" at any prompt ends the form with that action; end
// of input cancels.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/mcpctl/mcpctl/client/ojson"
	"github.com/mcpctl/mcpctl/output"
)

type formPrompter struct {
	lines *lineReader
	out   io.Writer
	color bool

	ask     sync.Mutex // one form at a time: a legacy server may ask twice at once
	outMu   sync.Mutex
	midLine bool // a prompt is on the screen and its answer not given
}

func newFormPrompter(in io.Reader, out io.Writer, color bool) *formPrompter {
	return &formPrompter{lines: &lineReader{in: bufio.NewReader(in)}, out: out, color: color}
}

// errFormEnded carries the action a person chose to end the form with.
type errFormEnded struct{ action string }

func (e errFormEnded) Error() string { return e.action }

// lineReader reads stdin a line at a time on a goroutine of its own, so
// that a prompt can stop waiting (Ctrl-C, SIGTERM, --timeout) although a
// read of a terminal cannot be interrupted. At most one read is under way;
// a line that arrives after its prompt gave up goes to the next prompt.
type lineReader struct {
	in      *bufio.Reader
	pending chan lineRead
}

type lineRead struct {
	line string
	err  error
}

// read returns the next line and the read's error, or stop: why ctx
// ended first.
func (r *lineReader) read(ctx context.Context) (lr lineRead, stop error) {
	if r.pending == nil {
		ch := make(chan lineRead, 1)
		r.pending = ch
		go func() {
			line, err := r.in.ReadString('\n')
			ch <- lineRead{line, err}
		}()
	}
	select {
	case lr = <-r.pending:
		r.pending = nil
		return lr, nil
	case <-ctx.Done():
		return lineRead{}, context.Cause(ctx)
	}
}

func (p *formPrompter) bold(s string) string {
	if p.color {
		return "\x1b[1m" + s + "\x1b[0m"
	}
	return s
}

// readLine reads one answer; !decline, !cancel and end of input end the
// form; so does ctx (with its cause).
func (p *formPrompter) readLine(ctx context.Context, prompt string) (string, error) {
	p.outMu.Lock()
	fmt.Fprint(p.out, prompt)
	p.midLine = true
	p.outMu.Unlock()
	lr, stop := p.lines.read(ctx)
	if stop != nil {
		p.endLine()
		return "", stop
	}
	p.outMu.Lock()
	p.midLine = false
	p.outMu.Unlock()
	line, err := lr.line, lr.err
	if err != nil && (err != io.EOF || line == "") {
		fmt.Fprintln(p.out)
		return "", errFormEnded{"cancel"}
	}
	line = strings.TrimRight(line, "\r\n")
	switch strings.TrimSpace(line) {
	case "!decline":
		return "", errFormEnded{"decline"}
	case "!cancel":
		return "", errFormEnded{"cancel"}
	}
	return strings.TrimSpace(line), nil
}

// endLine ends the line of a prompt left unanswered, so that what comes
// next (mcpctl: interrupted) starts a line of its own.
func (p *formPrompter) endLine() {
	p.outMu.Lock()
	defer p.outMu.Unlock()
	if p.midLine {
		fmt.Fprintln(p.out)
		p.midLine = false
	}
}

func endResult(err error) (json.RawMessage, error) {
	var ended errFormEnded
	if errors.As(err, &ended) {
		return json.RawMessage(`{"action":"` + ended.action + `"}`), nil
	}
	return nil, err
}

func (p *formPrompter) askForm(ctx context.Context, message string, requestedSchema json.RawMessage) (json.RawMessage, error) {
	schema, err := parseRequestedSchema(requestedSchema)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(p.out, "\n%s %s\n", p.bold("The server asks:"), output.Sanitize(message))
	fmt.Fprintln(p.out, "(Enter keeps a [default]; type !decline or !cancel at any prompt to answer that instead)")
	content := ojson.Members{}
	for _, f := range schema.fields {
		v, err := p.askField(ctx, f)
		if err != nil {
			return endResult(err)
		}
		if v != nil {
			content.Set(f.name, v)
		}
	}
	for {
		ans, err := p.readLine(ctx, "Send this to the server? [Y]es / [d]ecline / [c]ancel: ")
		if err != nil {
			return endResult(err)
		}
		switch strings.ToLower(ans) {
		case "", "y", "yes":
			return acceptResult(content.JSON()), nil
		case "d", "decline":
			return json.RawMessage(`{"action":"decline"}`), nil
		case "c", "cancel":
			return json.RawMessage(`{"action":"cancel"}`), nil
		}
	}
}

// askField asks until the answer fits; nil means an optional field left out.
func (p *formPrompter) askField(ctx context.Context, f *formField) (json.RawMessage, error) {
	label := output.SanitizeLine(f.label())
	if f.required {
		label += " (required)"
	}
	fmt.Fprintf(p.out, "\n%s\n", p.bold(label))
	if f.desc != "" {
		fmt.Fprintf(p.out, "  %s\n", output.SanitizeLine(f.desc))
	}
	for i, o := range f.options {
		fmt.Fprintf(p.out, "  %d) %s\n", i+1, output.SanitizeLine(o.label))
	}
	hint := fieldHint(f)
	def := ""
	if len(f.def) > 0 {
		def = " [" + output.SanitizeLine(defaultShown(f)) + "]"
	}
	for {
		ans, err := p.readLine(ctx, fmt.Sprintf("%s%s: ", hint, def))
		if err != nil {
			return nil, err
		}
		if ans == "" {
			switch {
			case len(f.def) > 0:
				return f.def, nil
			case f.required:
				fmt.Fprintln(p.out, "  this field is required")
				continue
			default:
				return nil, nil
			}
		}
		v, err := f.valueFromPrompt(ans)
		if err != nil {
			fmt.Fprintf(p.out, "  %s; try again\n", output.SanitizeLine(strings.TrimPrefix(err.Error(), f.name+": ")))
			continue
		}
		return v, nil
	}
}

// valueFromPrompt is valueFromString for an answer typed at the form's
// prompt, where a boolean field asks "yes or no": there, and only there,
// yes and no (y, n, on, off, 1, 0, in any case) stand for true and false.
// --answer and --answers take true or false, as tools call does.
func (f *formField) valueFromPrompt(ans string) (json.RawMessage, error) {
	if f.typ == "boolean" && len(f.options) == 0 && !f.multi {
		switch strings.ToLower(ans) {
		case "y", "yes", "true", "on", "1":
			ans = "true"
		case "n", "no", "false", "off", "0":
			ans = "false"
		default:
			return nil, fmt.Errorf("answer yes or no")
		}
	}
	return f.valueFromString(ans)
}

func fieldHint(f *formField) string {
	switch {
	case f.multi:
		return "  choose any (numbers or values, comma-separated)"
	case len(f.options) > 0:
		return "  choose one (number or value)"
	case f.typ == "boolean":
		return "  yes or no"
	case f.typ == "integer", f.typ == "number":
		h := "  a " + map[string]string{"integer": "whole number", "number": "number"}[f.typ]
		if f.min != nil && f.max != nil {
			h += fmt.Sprintf(" from %s to %s", boundText(*f.min), boundText(*f.max))
		} else if f.min != nil {
			h += " ≥ " + boundText(*f.min)
		} else if f.max != nil {
			h += " ≤ " + boundText(*f.max)
		}
		return h
	case f.format != "":
		return map[string]string{"email": "  an email address", "uri": "  a URL", "date": "  a date (YYYY-MM-DD)",
			"date-time": "  a date and time (YYYY-MM-DDThh:mm:ssZ)"}[f.format] + ""
	}
	return "  text"
}

func defaultShown(f *formField) string {
	if f.multi {
		var items []json.RawMessage
		_ = json.Unmarshal(f.def, &items)
		var s []string
		for _, it := range items {
			s = append(s, displayValue(it))
		}
		return strings.Join(s, ",")
	}
	if f.typ == "boolean" {
		if string(f.def) == "true" {
			return "yes"
		}
		return "no"
	}
	return displayValue(f.def)
}

// askURL handles a URL elicitation: it shows the URL and the host the
// browser will load (pageurl.go), opens the page only with consent (or
// --open-urls), and waits for the user to say they are done.
func (p *formPrompter) askURL(ctx context.Context, message string, page *pageURL, openURLs bool, open func(string) error) (json.RawMessage, error) {
	fmt.Fprintf(p.out, "\n%s %s\n", p.bold("The server asks you to visit a web page:"), output.Sanitize(message))
	fmt.Fprintf(p.out, "  URL:  %s\n", output.SanitizeLine(page.open))
	fmt.Fprintf(p.out, "  Host: %s\n", p.bold(output.SanitizeLine(page.hostLine())))
	if openURLs {
		p.open(open, page.open)
	} else {
		ans, err := p.readLine(ctx, "Open it in your browser? [y/N]: ")
		if err != nil {
			return endResult(err)
		}
		if a := strings.ToLower(ans); a == "y" || a == "yes" {
			p.open(open, page.open)
		}
	}
	if _, err := p.readLine(ctx, "Press Enter when you have finished in the browser (or type !decline / !cancel): "); err != nil {
		return endResult(err)
	}
	return json.RawMessage(`{"action":"accept"}`), nil
}

// refusedURL tells the user that the server's URL will not be opened,
// and why.
func (p *formPrompter) refusedURL(message, rawURL string, why error) {
	fmt.Fprintf(p.out, "\n%s %s\n", p.bold("The server asks you to visit a web page:"), output.Sanitize(message))
	fmt.Fprintf(p.out, "  URL:  %s\n", output.SanitizeLine(quoteShort(rawURL)))
	fmt.Fprintf(p.out, "  mcpctl will not open it: %s; answered cancel\n", output.SanitizeLine(why.Error()))
}

func (p *formPrompter) open(open func(string) error, u string) {
	if err := open(u); err != nil {
		fmt.Fprintf(p.out, "could not open a browser (%v); open the URL yourself\n", output.SanitizeLine(err.Error()))
		return
	}
	fmt.Fprintln(p.out, "Opened in your browser.")
}
