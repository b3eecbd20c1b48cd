package commands

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/internal/argv"
	"github.com/mcpctl/mcpctl/output"
)

type resumeOptions struct {
	invocation
	File       string    // CONTINUATION-FILE, or - for stdin
	Out        binaryOut // --out, for a tools/call's
	Strict     bool      // --strict: a tool result that breaks its outputSchema is an error
	NoValidate bool      // --no-validate: a tool result is not checked
}

func newCmdResume(f *Factory, runF func(*resumeOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "resume",
		Usage:     "finish a call that stopped for input (exit 6), from its continuation document",
		ArgsUsage: "CONTINUATION-FILE|-",
		Description: "When input cannot be given (no terminal, no --answer), mcpctl exits 6 and prints a\n" +
			"continuation document on stdout; answer it later with resume (see the examples).\n" +
			"The server is reached as the document says unless --url/--stdio/-s name one, which must\n" +
			"be the same server. Documents are sealed: an edited one is refused.\n\n" +
			"For a tools/call: " + outHelp + "\n\n" +
			"A tools/call's result is checked against the tool's outputSchema when tools/list is in the\n" +
			"cache, as 'tools call' checks it (--strict, --no-validate).",
		Flags: append([]cli.Flag{strictFlag(), &cli.BoolFlag{Name: "no-validate", Usage: "print a tool's result unchecked against its outputSchema"}}, binaryOutFlags()...),
		Action: actionOf(func(c *cli.Context) (*resumeOptions, error) {
			if err := needArgs(c, 1, 1, "CONTINUATION-FILE|- [--answers FILE | --answer KEY.FIELD=VALUE…]"); err != nil {
				return nil, err
			}
			if c.Args().First() == "-" && globalsOf(c).Answers == "-" {
				return nil, usagef("the continuation and --answers cannot both come from stdin")
			}
			if err := strictOrNoValidate(c); err != nil {
				return nil, err
			}
			out, err := parseBinaryOut(c, f.IOStreams)
			if err != nil {
				return nil, err
			}
			return &resumeOptions{invocation: invoked(f, c), File: c.Args().First(), Out: out, Strict: c.Bool("strict"), NoValidate: c.Bool("no-validate")}, nil
		}, runF, runResume),
	}
}

func runResume(o *resumeOptions) error {
	ios := o.IO
	data, err := argv.ReadJSONArg("continuation", "@"+o.File, ios.In)
	if o.File == "-" {
		data, err = argv.ReadJSONArg("continuation", "-", ios.In)
	}
	if err != nil {
		return err
	}
	k, err := readContinuation(o.f, data)
	if err != nil {
		return err
	}
	if o.Out.Path != "" && k.Method != "tools/call" {
		return usagef("--out writes a tool's result; this continuation is of %s", output.SanitizeLine(k.Method))
	}
	if err := o.Out.check(); err != nil {
		return err
	}
	var how ConnectOptions
	if ch, err := choiceOf(o.Globals, o.f.Getenv); err == nil && ch.empty() {
		// The command line names no server: the document's.
		if how.Fallback, err = k.fallback(); err != nil {
			return err
		}
	}
	// The server is checked before anything starts.
	st, err := resolve(o.f, o.Globals, how)
	if err != nil {
		return err
	}
	if st.serverID != k.Server {
		msg := fmt.Sprintf("this continuation belongs to another server (%s); resume it against that one", output.SanitizeLine(k.Server))
		if len(k.Withheld) > 0 {
			msg += fmt.Sprintf(", with what the call had (%s): %s", strings.Join(k.Withheld, ", "), k.again())
		}
		return usagef("%s", msg)
	}
	cc, err := k.clientContinuation()
	if err != nil {
		return usagef("the continuation is unusable: %v", err)
	}
	conn, err := o.f.connect(o.ctx(), o.Globals, how)
	if err != nil {
		return err
	}
	defer conn.Close()
	conn.Client().SetVersion(k.ProtocolVersion)
	kind := map[string]output.Kind{"prompts/get": output.KindPromptGet, "resources/read": output.KindResourceRead}[k.Method]
	if kind == "" {
		kind = output.KindToolCall
	}
	return conn.Explain(o.Out.done(k.Method, conn.FinishCall(o.ctx(), k.Method, kind, o.Out.wrap(o.IO, func() (json.RawMessage, error) {
		res, err := conn.Client().Resume(o.ctx(), cc, nil)
		if err != nil || k.Method != "tools/call" || o.NoValidate {
			return res, err
		}
		if err := checkResumedTool(o.ctx(), conn, k.Params, res, o.Strict); err != nil {
			return nil, err
		}
		return res, nil
	}))))
}
