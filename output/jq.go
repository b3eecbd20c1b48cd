package output

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/itchyny/gojq"
)

// Query is a compiled jq filter. Compile it while validating flags, before
// any connection is made, so a typo costs no server round trip.
type Query struct {
	expr string
	code *gojq.Code
}

// QueryError is a jq failure: a filter that does not compile, or an error
// raised while it runs (including halt_error, whose *gojq.HaltError is
// reachable with errors.As). mcpctl exits 2 for either, as for any other
// usage error; halt_error's own exit code is not used.
type QueryError struct {
	Expr    string
	Compile bool // true: the filter is invalid; false: it failed on this input
	Err     error
}

func (e *QueryError) Error() string {
	if e.Compile {
		return fmt.Sprintf("invalid jq filter %q: %v", e.Expr, e.Err)
	}
	return "jq: " + e.Err.Error()
}

func (e *QueryError) Unwrap() error { return e.Err }

// CompileQuery parses and compiles a jq filter.
func CompileQuery(expr string) (*Query, error) {
	parsed, err := gojq.Parse(expr)
	if err != nil {
		return nil, &QueryError{Expr: expr, Compile: true, Err: err}
	}
	code, err := gojq.Compile(parsed)
	if err != nil {
		return nil, &QueryError{Expr: expr, Compile: true, Err: err}
	}
	return &Query{expr: expr, code: code}, nil
}

// String returns the filter as the user wrote it.
func (q *Query) String() string { return q.expr }

// Run applies the filter to raw and writes each result on its own line:
// strings raw, everything else as JSON (indented when pretty). It stops at the
// first error; halt ends the run cleanly. Keys of objects come out sorted.
// To a terminal, strings go through Sanitize and JSON is escaped as the
// json format escapes it there; else they are written exactly.
func (q *Query) Run(ctx context.Context, raw json.RawMessage, w io.Writer, pretty, terminal bool) error {
	return q.run(ctx, raw, w, pretty, terminal)
}

// run is Run with terminal safety: when sanitize is set, raw strings pass
// through Sanitize and JSON gets terminal-active runes escaped.
func (q *Query) run(ctx context.Context, raw json.RawMessage, w io.Writer, pretty, sanitize bool) error {
	bw := bufio.NewWriter(w)
	err := q.each(ctx, raw, func(v any) error {
		if s, isStr := v.(string); isStr {
			if sanitize {
				s = Sanitize(s)
			}
			bw.WriteString(s)
		} else {
			b, err := gojq.Marshal(v)
			if err != nil {
				return &QueryError{Expr: q.expr, Err: err}
			}
			if pretty {
				var ib bytes.Buffer
				if json.Indent(&ib, b, "", "  ") == nil {
					b = ib.Bytes()
				}
			}
			if sanitize {
				b = escapeTerminalRunes(b)
			}
			bw.Write(b)
		}
		return bw.WriteByte('\n')
	})
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return err
}

// runYAML writes each result as a YAML document, strings included, with
// "---" between documents and none before a lone one, as yq does. A result
// goes through the same writer as -o yaml (its JSON text, re-parsed, so
// numbers keep their digits and invisible characters come out escaped).
func (q *Query) runYAML(ctx context.Context, raw json.RawMessage, w io.Writer) error {
	bw := bufio.NewWriter(w)
	var doc bytes.Buffer
	n := 0
	err := q.each(ctx, raw, func(v any) error {
		b, err := gojq.Marshal(v)
		if err != nil {
			return &QueryError{Expr: q.expr, Err: err}
		}
		pv, err := parseValue(b)
		if err != nil {
			return &QueryError{Expr: q.expr, Err: err}
		}
		doc.Reset()
		if err := writeYAML(&doc, pv); err != nil {
			return err
		}
		if n++; n > 1 {
			bw.WriteString("---\n")
		}
		_, err = bw.Write(doc.Bytes())
		return err
	})
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return err
}

// each runs the filter on raw and hands every result to emit, stopping at
// the first error (the filter's or emit's); halt ends the run cleanly.
func (q *Query) each(ctx context.Context, raw json.RawMessage, emit func(any) error) error {
	input, err := decodeForJQ(raw)
	if err != nil {
		return err
	}
	iter := q.code.RunWithContext(ctx, input)
	for {
		v, ok := iter.Next()
		if !ok {
			return nil
		}
		if err, isErr := v.(error); isErr {
			var halt *gojq.HaltError
			if errors.As(err, &halt) && halt.Value() == nil {
				return nil
			}
			return &QueryError{Expr: q.expr, Err: err}
		}
		if err := emit(v); err != nil {
			return err
		}
	}
}

// decodeForJQ decodes with UseNumber so that numbers the filter only passes
// through keep their original text (gojq handles json.Number natively).
func decodeForJQ(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("invalid JSON result: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("invalid JSON result: data after the first value")
	}
	return v, nil
}
