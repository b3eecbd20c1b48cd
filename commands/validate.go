package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/schema"
	"github.com/mcpctl/mcpctl/output"
)

func noValidateFlag() cli.Flag {
	return &cli.BoolFlag{Name: "no-validate", Usage: "send the arguments as given (no typing from the schema, no validation) and print the result unchecked against the outputSchema"}
}

func strictFlag() cli.Flag {
	return &cli.BoolFlag{Name: "strict", Usage: "a structuredContent that does not match the tool's outputSchema is an error (exit 3, nothing printed), not a warning"}
}

func allowExtraFlag(what string) cli.Flag {
	return &cli.BoolFlag{Name: "allow-extra", Usage: "send arguments the " + what + " does not declare (refused by default: a misspelt name would be ignored by the server)"}
}

// strictOrNoValidate refuses --strict with --no-validate, which skips the
// check --strict makes an error of.
func strictOrNoValidate(c *cli.Context) error {
	if c.Bool("strict") && c.Bool("no-validate") {
		return usagef("--strict fails a result that does not match the outputSchema, --no-validate does not check it: give one of them")
	}
	return nil
}

// toolSchemas are the schemas of a tool definition.
type toolSchemas struct {
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
}

// inputSchema returns a tool definition's inputSchema, or nil.
func inputSchema(tool json.RawMessage) json.RawMessage {
	var t toolSchemas
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

// A tool's structured result is checked against its outputSchema (server/
// tools, "Output Schema": servers MUST send structured results that
// conform, clients SHOULD validate them), by the validator the arguments
// go through, against the definition the call was made with. The result
// is printed as it came either way: checking reads it, it never
// re-encodes it.

// resultSchemaError is a structured result that does not match the tool's
// outputSchema, under --strict: the server broke the protocol (exit 3, as
// for its other violations), which is neither the tool's own failure
// (isError, exit 1) nor a JSON-RPC error (exit 4).
type resultSchemaError struct{ Problem string }

func (e *resultSchemaError) Error() string {
	return "the result does not match the tool's outputSchema: " + e.Problem + " (without --strict it is printed, with a warning)"
}

// ExitCode is ExitConnection: a protocol violation.
func (e *resultSchemaError) ExitCode() int { return ExitConnection }

// checkToolResult checks res, the answer of tool name called with the
// definition tool, against the definition's outputSchema: a mismatch is a
// warning, or with strict a *resultSchemaError; what cannot be checked (a
// schema mcpctl cannot use) is said in a warning, and the call goes on.
// A task handle, a result with isError: true and a tool without an
// outputSchema are not checked.
//
// A definition may come from the cache and be older than the result: a
// mismatch is only reported once tools/list, fetched again, still says
// the same (an extra request on a mismatch only).
func checkToolResult(ctx context.Context, conn Connection, name string, tool, res json.RawMessage, strict bool) error {
	op := "tools/call " + name
	bad, unchecked := resultProblem(tool, res, conn.Trace, op)
	if bad != "" {
		conn.Trace(op + ": the result does not match the outputSchema of the tool's definition; fetching tools/list again to be sure")
		if fresh := freshTool(ctx, conn.Client(), name); fresh != nil && !bytes.Equal(fresh, tool) {
			bad, unchecked = resultProblem(fresh, res, conn.Trace, op)
		}
	}
	switch {
	case unchecked != "":
		conn.Warn(op + ": the result is not checked: " + unchecked)
	case bad != "" && strict:
		return &resultSchemaError{Problem: bad}
	case bad != "":
		conn.Warn(op + ": the result does not match the tool's outputSchema: " + bad + " (--strict makes this an error)")
	}
	return nil
}

// resultProblem is what is wrong with res by the outputSchema of tool:
// bad names the first failing place and what was expected there,
// unchecked why the result could not be checked; both are empty when it
// matches or has nothing to check. The schema is compiled once. Parts of
// it mcpctl cannot enforce get a --trace line (trace sanitises it).
func resultProblem(tool, res json.RawMessage, trace func(string), op string) (bad, unchecked string) {
	var def toolSchemas
	_ = json.Unmarshal(tool, &def)
	if len(def.OutputSchema) == 0 || client.CreatedTaskID(res) != "" {
		return "", ""
	}
	var r struct {
		IsError           bool            `json:"isError"`
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	_ = json.Unmarshal(res, &r)
	if r.IsError {
		return "", ""
	}
	sch, err := schema.Compile(def.OutputSchema, schema.DefaultLimits)
	if err != nil {
		return "", outputSchemaWords(err)
	}
	for _, w := range sch.Warnings() {
		trace(op + ": outputSchema " + schemaWords(w))
	}
	if len(r.StructuredContent) == 0 {
		return "there is no structuredContent (a tool with an outputSchema must send one)", ""
	}
	err = sch.ValidateResult(r.StructuredContent)
	var ve *schema.ValidationError
	if !errors.As(err, &ve) {
		return "", ""
	}
	var failed []schema.Problem
	for _, p := range ve.Problems {
		if p.Kind != schema.KindTooComplex && p.Kind != schema.KindUnresolvedRef {
			failed = append(failed, p)
		}
	}
	if len(failed) == 0 {
		return "", schemaWords(ve.Problems[0].Message)
	}
	bad = failed[0].Message
	if more := len(failed) - 1; more == 1 {
		bad += " (and 1 more problem)"
	} else if more > 1 {
		bad += " (and " + strconv.Itoa(more) + " more problems)"
	}
	return bad, ""
}

// outputSchemaWords says why an outputSchema cannot be used.
func outputSchemaWords(err error) string {
	var de *schema.DialectError
	var se *schema.SchemaError
	var le *schema.LimitError
	switch {
	case errors.As(err, &de):
		return "its outputSchema has an " + dialectWords(de)
	case errors.As(err, &se) && se.Dialect != "":
		return fmt.Sprintf("its outputSchema is not a valid JSON Schema %s: %s", se.Dialect, se.Reason)
	case errors.As(err, &se):
		return "its outputSchema is not a valid JSON Schema: " + se.Reason
	case errors.As(err, &le):
		return fmt.Sprintf("its outputSchema is too large or complex: %s (limit %s=%d)", le.What, le.Limit, le.Max)
	}
	return "its outputSchema cannot be used: " + err.Error()
}

// freshTool is name's definition in tools/list fetched from the server
// (the cache updated); nil when it cannot be had.
func freshTool(ctx context.Context, cl *client.Client, name string) json.RawMessage {
	list, err := cl.ListWith(ctx, "tools/list", "tools", "", true, &client.CallOptions{Refresh: true})
	if err != nil {
		return nil
	}
	tool, err := client.FindTool(list, name)
	if err != nil {
		return nil
	}
	return tool
}

// checkResumedTool checks a resumed tools/call's result (params are the
// call's) as checkToolResult does, against the definition in the cached
// tools/list: resume sends no request to fetch it, and with none cached
// the result is printed unchecked (a --trace line says so).
func checkResumedTool(ctx context.Context, conn Connection, params, res json.RawMessage, strict bool) error {
	var p struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(params, &p)
	list, err := conn.Client().ListWith(ctx, "tools/list", "tools", "", true, &client.CallOptions{CacheOnly: true, Hint: true})
	var tool json.RawMessage
	if err == nil {
		tool, _ = client.FindTool(list, p.Name)
	}
	if tool == nil {
		conn.Trace("tools/call " + p.Name + ": the result is not checked against an outputSchema: the tool's definition is not in the cache")
		return nil
	}
	return checkToolResult(ctx, conn, p.Name, tool, res, strict)
}
