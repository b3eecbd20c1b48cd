package commands

// Elicitation at a terminal: a plain, line-by-line form on stderr (stdout
// stays for results), one prompt per field in the server's order, with the
// default pre-filled, type checks and a re-prompt that says what was wrong.
// "!decline" or "!cancel" at any prompt ends the form with that action; end
// of input cancels.

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/mcpctl/mcpctl/output"
)

type formPrompter struct {
	in    *bufio.Reader
	out   io.Writer
	color bool
}

// errFormEnded carries the action a person chose to end the form with.
type errFormEnded struct{ action string }

func (e errFormEnded) Error() string { return e.action }

func (p *formPrompter) bold(s string) string {
	if p.color {
		return "\x1b[1m" + s + "\x1b[0m"
	}
	return s
}

// readLine reads one answer; !decline, !cancel and end of input end the form.
func (p *formPrompter) readLine(prompt string) (string, error) {
	fmt.Fprint(p.out, prompt)
	line, err := p.in.ReadString('\n')
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

func endResult(err error) (json.RawMessage, error) {
	var ended errFormEnded
	if errors.As(err, &ended) {
		return json.RawMessage(`{"action":"` + ended.action + `"}`), nil
	}
	return nil, err
}

func (p *formPrompter) askForm(message string, requestedSchema json.RawMessage) (json.RawMessage, error) {
	schema, err := parseRequestedSchema(requestedSchema)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(p.out, "\n%s %s\n", p.bold("The server asks:"), output.Sanitize(message))
	fmt.Fprintln(p.out, "(Enter keeps a [default]; type !decline or !cancel at any prompt to answer that instead)")
	content := newObject()
	for _, f := range schema.fields {
		v, err := p.askField(f)
		if err != nil {
			return endResult(err)
		}
		if v != nil {
			content.set(f.name, v)
		}
	}
	for {
		ans, err := p.readLine("Send this to the server? [Y]es / [d]ecline / [c]ancel: ")
		if err != nil {
			return endResult(err)
		}
		switch strings.ToLower(ans) {
		case "", "y", "yes":
			return acceptResult(content.raw()), nil
		case "d", "decline":
			return json.RawMessage(`{"action":"decline"}`), nil
		case "c", "cancel":
			return json.RawMessage(`{"action":"cancel"}`), nil
		}
	}
}

// askField asks until the answer fits; nil means an optional field left out.
func (p *formPrompter) askField(f *formField) (json.RawMessage, error) {
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
		ans, err := p.readLine(fmt.Sprintf("%s%s: ", hint, def))
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
		v, err := f.valueFromString(ans)
		if err != nil {
			fmt.Fprintf(p.out, "  %s; try again\n", output.SanitizeLine(strings.TrimPrefix(err.Error(), f.name+": ")))
			continue
		}
		return v, nil
	}
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
			h += fmt.Sprintf(" from %s to %s", num(*f.min), num(*f.max))
		} else if f.min != nil {
			h += " ≥ " + num(*f.min)
		} else if f.max != nil {
			h += " ≤ " + num(*f.max)
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

// askURL handles a URL elicitation: it shows where the server wants to
// send the user, opens the page only with consent (or --open-urls), and
// waits for the user to say they are done.
func (p *formPrompter) askURL(message, rawURL string, openURLs bool, open func(string) error) (json.RawMessage, error) {
	u, err := url.Parse(rawURL)
	host := ""
	if err == nil {
		host = u.Host
	}
	fmt.Fprintf(p.out, "\n%s %s\n", p.bold("The server asks you to visit a web page:"), output.Sanitize(message))
	fmt.Fprintf(p.out, "  URL:  %s\n", output.SanitizeLine(rawURL))
	fmt.Fprintf(p.out, "  Host: %s\n", p.bold(output.SanitizeLine(host)))
	switch {
	case err != nil || (u.Scheme != "http" && u.Scheme != "https"):
		fmt.Fprintln(p.out, "mcpctl opens only http and https pages; open this one yourself if you trust it.")
	case openURLs:
		p.open(open, rawURL)
	default:
		ans, err := p.readLine("Open it in your browser? [y/N]: ")
		if err != nil {
			return endResult(err)
		}
		if a := strings.ToLower(ans); a == "y" || a == "yes" {
			p.open(open, rawURL)
		}
	}
	if _, err := p.readLine("Press Enter when you have finished in the browser (or type !decline / !cancel): "); err != nil {
		return endResult(err)
	}
	return json.RawMessage(`{"action":"accept"}`), nil
}

func (p *formPrompter) open(open func(string) error, u string) {
	if err := open(u); err != nil {
		fmt.Fprintf(p.out, "could not open a browser (%v); open the URL yourself\n", err)
		return
	}
	fmt.Fprintln(p.out, "Opened in your browser.")
}
