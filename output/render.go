package output

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
)

// Options says how Render presents a result.
type Options struct {
	// Format is the requested format; "" picks DefaultFormat for stdout.
	Format Format
	// Query, when set, filters the result first and Format says how each of
	// the filter's results is written: FormatYAML as a YAML document ("---"
	// between several), any other format as jq -r would (strings raw, other
	// values as JSON). Commands refuse FormatTable with a query.
	Query *Query
	// Width overrides the terminal width tables are fitted to (0: detect).
	Width int
	// SkillPath names a skills/list entry whose name is missing or shared
	// with another entry, by its URI (the skills command gives the
	// extension's skill path); nil: the URI itself.
	SkillPath func(uri string) string
}

// Render writes one result to ios.Out. raw is the server's result object
// exactly as received; kind tells the table and text formats its shape.
// Nothing is written if raw is not valid JSON, so a failed render never
// leaves half a document on stdout.
func Render(ctx context.Context, ios *IOStreams, opts Options, kind Kind, raw json.RawMessage) error {
	tty := ios.IsStdoutTTY()
	if opts.Query != nil {
		if opts.Format == FormatYAML {
			return opts.Query.runYAML(ctx, raw, ios.Out)
		}
		return opts.Query.run(ctx, raw, ios.Out, tty, tty)
	}
	format := opts.Format
	if format == "" {
		format = DefaultFormat(tty)
	}
	var b bytes.Buffer
	switch format {
	case FormatJSON:
		b.Grow(len(raw) + 1) // a large result is not copied again as the buffer grows
		if err := writeJSON(&b, raw, tty); err != nil {
			return err
		}
	case FormatYAML, FormatTable, FormatText:
		v, err := parseValue(raw)
		if err != nil {
			return err
		}
		switch format {
		case FormatYAML:
			if err := writeYAML(&b, v); err != nil {
				return err
			}
		case FormatTable:
			width := opts.Width
			if width <= 0 {
				width = ios.TerminalWidth()
			}
			buildTable(kind, v, opts).write(&b, ios, width)
		default:
			writeText(&textWriter{b: &b, ios: ios, tty: tty, opts: opts}, kind, v)
		}
	default:
		_, err := ParseFormat(string(format))
		if err == nil {
			err = fmt.Errorf("unsupported output format %q", format)
		}
		return err
	}
	_, err := ios.Out.Write(b.Bytes())
	return err
}
