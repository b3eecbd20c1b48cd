package commands

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client/schema"
	"github.com/mcpctl/mcpctl/output"
)

func noValidateFlag() cli.Flag {
	return &cli.BoolFlag{Name: "no-validate", Usage: "send the arguments as given: no typing from the schema, no validation"}
}

func allowExtraFlag(what string) cli.Flag {
	return &cli.BoolFlag{Name: "allow-extra", Usage: "send arguments the " + what + " does not declare (refused by default: a misspelt name would be ignored by the server)"}
}

// inputSchema returns a tool definition's inputSchema, or nil.
func inputSchema(tool json.RawMessage) json.RawMessage {
	var t struct {
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	_ = json.Unmarshal(tool, &t)
	return t.InputSchema
}

// prepareToolArgs types key=value strings from the tool's inputSchema and
// validates the result, so that a typo costs no round trip and the server
// gets numbers as numbers. What mcpctl cannot check (a dialect it does not
// know, a pattern Go's regexp engine cannot run) is left to the server,
// which validates anyway, with a --trace line (trace may be nil) saying so.
// A key the schema does not declare is refused, though most schemas do
// not forbid it (the server would ignore it: a misspelt name runs the tool
// on its default), unless allowExtra.
func prepareToolArgs(name string, tool, args json.RawMessage, stringPaths [][]string, allowExtra bool, trace func(string)) (json.RawMessage, error) {
	raw := inputSchema(tool)
	if len(raw) == 0 {
		return args, nil
	}
	sch, err := schema.Compile(raw, schema.DefaultLimits)
	var de *schema.DialectError
	if errors.As(err, &de) {
		// Its rules cannot be known without fetching its meta-schema, which
		// mcpctl never does: the arguments go as given, as --no-validate
		// sends them.
		traceUnchecked(trace, name, dialectWords(de)+": the arguments are sent as given, without local validation")
		return args, nil
	}
	if err != nil {
		return nil, usagef("cannot check the arguments of %s: its inputSchema is unusable: %v (--no-validate sends them unchecked)", name, err)
	}
	for _, w := range sch.Warnings() {
		traceUnchecked(trace, name, "inputSchema "+schemaWords(w)+": what it governs is sent without local validation")
	}
	typed, err := sch.Coerce(args, stringPaths)
	if err != nil {
		return nil, usagef("%v", err)
	}
	validate := sch.ValidateDeclared
	if allowExtra {
		validate = sch.Validate
	}
	if err := validate(typed); err != nil {
		var ve *schema.ValidationError
		if !errors.As(err, &ve) {
			return nil, usagef("%v", err)
		}
		return nil, &UsageError{Msg: validationMessage(name, ve)}
	}
	return typed, nil
}

// traceUnchecked writes the --trace line for what mcpctl leaves to the
// server. The text quotes the server's schema, so it is sanitised.
func traceUnchecked(trace func(string), name, what string) {
	if trace != nil {
		trace(output.SanitizeLine(fmt.Sprintf("tools/call %s: %s (the server still validates)", name, what)))
	}
}

// validationMessage puts a validation error in mcpctl's words, with the
// way out: --allow-extra when the only problems are keys the schema does
// not declare (and does not forbid), --no-validate otherwise.
func validationMessage(name string, ve *schema.ValidationError) string {
	msgs := make([]string, 0, len(ve.Problems))
	extraOnly := true
	for _, p := range ve.Problems {
		msgs = append(msgs, output.SanitizeLine(schemaWords(p.Message)))
		extraOnly = extraOnly && p.Kind == schema.KindUndeclared
	}
	way := "--no-validate sends them anyway"
	if extraOnly {
		way = "--allow-extra sends them anyway"
	}
	return fmt.Sprintf("invalid arguments: %s (see 'mcpctl tools describe %s'; %s)",
		strings.Join(msgs, "; "), name, way)
}

// printToolUsage adds, for people, how to call the tool: a usage line and
// an example --json body built from its schema. Both are meant to be
// pasted: the name is one shell word that stands for the tool's real name
// (shellWord), parameter names show their invisible characters as escapes,
// and the example's JSON spells them as JSON escapes, which mean the same
// key.
func printToolUsage(ios *output.IOStreams, name string, tool json.RawMessage) {
	raw := inputSchema(tool)
	sch, err := schema.Compile(raw, schema.DefaultLimits)
	if len(raw) == 0 || err != nil {
		return
	}
	name = shellWord(name)
	fmt.Fprintf(ios.Out, "\nUsage:\n  mcpctl tools call %s %s\n", name, output.SanitizeName(sch.Usage()))
	if ex := sch.Example(); len(ex) > 0 && string(ex) != "{}" {
		fmt.Fprintf(ios.Out, "\nExample:\n  mcpctl tools call %s --json %s\n", name, shellJoin([]string{output.SanitizeLine(string(output.EscapeJSONText(ex)))}))
	}
}
