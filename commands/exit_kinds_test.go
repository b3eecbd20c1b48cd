package commands

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/oauth"
	"github.com/mcpctl/mcpctl/client/skills"
	"github.com/mcpctl/mcpctl/config"
	"github.com/mcpctl/mcpctl/internal/argv"
	"github.com/mcpctl/mcpctl/internal/exitcode"
	"github.com/mcpctl/mcpctl/internal/interact"
	"github.com/mcpctl/mcpctl/internal/sessiond"
	"github.com/mcpctl/mcpctl/output"
)

// errorKind is one kind of error mcpctl can meet, as it reaches ExitCode:
// bare, or through the function of commands that puts it into mcpctl's
// words (configError, argv.ParseObject, prepareToolArgs).
type errorKind struct {
	kind string // package.Name, as declared
	err  error
	code int
	via  string // how it reaches ExitCode, when not bare
	says string // what the error says, to show it is of its kind
}

// mustErr runs a conversion that is meant to fail.
func mustErr(_ any, err error) error { return err }

func errorKinds() []errorKind {
	tool := func(schema string) json.RawMessage {
		return json.RawMessage(`{"name":"t","inputSchema":` + schema + `}`)
	}
	deep := strings.Repeat(`{"items":`, 70) + `{}` + strings.Repeat(`}`, 70)
	return []errorKind{
		// commands
		{kind: "commands.UsageError", err: &UsageError{Msg: "bad flag"}, code: ExitUsage},
		{kind: "exitcode.UsageError", err: exitcode.Usagef("bad %s", "flag"), code: ExitUsage, via: "exitcode.Usagef, which the parts of the command line under internal/ use"},
		{kind: "commands.ToolError", err: &ToolError{Name: "x"}, code: ExitToolError},
		{kind: "commands.resultSchemaError", err: &resultSchemaError{Problem: "structuredContent: got array, want object"}, code: ExitConnection, via: "tools call --strict", says: "does not match the tool's outputSchema"},
		{kind: "commands.opError", err: wrapOp("tools/list", &client.RPCError{Code: -32601}), code: ExitServerError, via: "names the operation, keeps the cause's code"},
		{kind: "commands.hintError", err: &hintError{err: &client.ConnError{Msg: "refused"}, hint: "is it running?"}, code: ExitConnection, via: "adds a way out, keeps the cause's code"},
		{kind: "commands.notFoundError", err: notFoundError{RPCError: &client.RPCError{Code: client.CodeInvalidParams}}, code: ExitServerError},
		{kind: "interact.PromptTimeoutError", err: &interact.PromptTimeoutError{After: time.Second}, code: ExitConnection},
		{kind: "sessiond.Error", err: &sessiond.Error{Msg: "login needed", Code: ExitAuth}, code: ExitAuth, via: "a session process's error, with the code it found"},
		{kind: "sessiond.ErrLocked", err: sessionFileError(sessiond.ErrLocked, &connSettings{target: "demo"}), code: ExitUsage, via: "sessionFileError", says: "already has a session starting or running"},
		{kind: "sessiond.SocketPathError", err: sessionFileError(&sessiond.SocketPathError{Path: "/x.sock", Len: 200, Max: 103}, &connSettings{}), code: ExitUsage, via: "sessionFileError", says: "to a shorter folder"},
		{kind: "sessiond.ErrUnsupported", err: sessionFileError(sessiond.ErrUnsupported, &connSettings{}), code: ExitUsage, via: "sessionFileError", says: "sessions are not supported"},
		{kind: "commands.batchError", err: &batchError{Code: ExitServerError, First: 3, Failed: 2, Total: 9}, code: ExitServerError, via: "the first failing line's code", says: "the first is line 3"},
		// client
		{kind: "client.RPCError", err: &client.RPCError{Code: -32603, Message: "boom"}, code: ExitServerError},
		{kind: "client.ConnError", err: &client.ConnError{Msg: "cannot reach"}, code: ExitConnection},
		{kind: "client.TimeoutError", err: &client.TimeoutError{Method: "tools/list", After: "1s"}, code: ExitConnection},
		{kind: "client.ProtocolError", err: &client.ProtocolError{Msg: "bad"}, code: ExitConnection},
		{kind: "client.HTTPError", err: &client.HTTPError{Status: 502}, code: ExitConnection},
		{kind: "client.AuthError", err: &client.AuthError{Status: 403}, code: ExitAuth},
		{kind: "client.VersionError", err: &client.VersionError{Ours: []string{"a"}, Theirs: []string{"b"}}, code: ExitServerError},
		{kind: "client.ResponseIDError", err: &client.ResponseIDError{}, code: ExitConnection},
		{kind: "client.MessageTooLargeError", err: &client.MessageTooLargeError{Limit: 1 << 20}, code: ExitConnection},
		{kind: "client.ErrDryRun", err: client.ErrDryRun, code: ExitOK},
		{kind: "client.EraError", err: &client.EraError{Probe: errors.New("x"), Initialize: errors.New("y")}, code: ExitConnection},
		{kind: "client.NotServerError", err: &client.NotServerError{Asked: []string{"server/discover"}, After: "15s"}, code: ExitConnection},
		{kind: "client.SessionExpiredError", err: &client.SessionExpiredError{}, code: ExitConnection},
		{kind: "client.ParamsError", err: &client.ParamsError{Msg: "params must be a JSON object"}, code: ExitUsage},
		{kind: "client.AckTimeoutError", err: &client.AckTimeoutError{After: time.Second}, code: ExitConnection},
		{kind: "client.ErrNoAnswer", err: client.ErrNoAnswer, code: ExitInput},
		{kind: "client.InputRequiredError", err: &client.InputRequiredError{Reason: "no terminal", Err: client.ErrNoAnswer}, code: ExitInput},
		{kind: "client.CapabilityError", err: &client.CapabilityError{Binding: "socket", Capability: "dry run"}, code: ExitConnection},
		{kind: "client.TaskSupportError", err: &client.TaskSupportError{Tool: "t", Reason: "no"}, code: ExitUsage},
		{kind: "client.ListTooLargeError", err: &client.ListTooLargeError{Method: "tools/list", Limit: 1 << 20, Pages: 3}, code: ExitConnection},
		{kind: "client.ListTimeoutError", err: &client.ListTimeoutError{Method: "tools/list", After: "1s", Pages: 3}, code: ExitConnection},
		{kind: "client.TaskCancelledError", err: &client.TaskCancelledError{TaskID: "t"}, code: ExitToolError},
		{kind: "client.TaskInterruptedError", err: &client.TaskInterruptedError{TaskID: "t", Err: context.Canceled}, code: ExitInterrupted, via: "Ctrl-C"},
		{kind: "client.TaskInterruptedError", err: &client.TaskInterruptedError{TaskID: "t", Limit: time.Second, Err: context.DeadlineExceeded}, code: ExitConnection, via: "--timeout"},
		{kind: "client.TaskRoundsError", err: &client.TaskRoundsError{TaskID: "t", Rounds: 10}, code: ExitInput},
		{kind: "client.UnknownToolError", err: &client.UnknownToolError{Name: "x"}, code: ExitUsage},
		{kind: "client.InvalidToolError", err: &client.InvalidToolError{Name: "x", Reason: "y"}, code: ExitServerError},
		// client/oauth
		{kind: "skills.EntryError", err: &skills.EntryError{URI: "skill://a/SKILL.md", Problem: "no size"}, code: ExitConnection},
		{kind: "skills.VerifyError", err: &skills.VerifyError{URI: "skill://a/SKILL.md", Problem: "digest differs"}, code: ExitConnection},
		{kind: "skills.NotDeclaredError", err: &skills.NotDeclaredError{What: "the Skills extension", Method: "skills/list"}, code: ExitConnection},
		{kind: "oauth.Error", err: &oauth.Error{Msg: "no login"}, code: ExitAuth},
		{kind: "oauth.KeychainError", err: &oauth.KeychainError{Op: "open", Err: errors.New("locked")}, code: ExitAuth},
		{kind: "oauth.ErrKeychainItemNotFound", err: oauth.ErrKeychainItemNotFound, code: ExitAuth},
		{kind: "oauth.ErrNoBrowser", err: oauth.ErrNoBrowser, code: ExitAuth},
		{kind: "oauth.ErrNotHTTPS", err: oauth.ErrNotHTTPS, code: ExitAuth},
		{kind: "client.ErrNonceRepeated", err: client.ErrNonceRepeated, code: ExitAuth},
		// client/schema: tools call checks the arguments before sending
		{kind: "schema.ValidationError", err: mustErr(prepareToolArgs("t", tool(`{"type":"object","properties":{"n":{"type":"integer"}}}`), json.RawMessage(`{"n":"x"}`), nil, false, nil)), code: ExitUsage, via: "prepareToolArgs", says: "got string, want integer"},
		{kind: "schema.SchemaError", err: mustErr(prepareToolArgs("t", tool(`{"type":5}`), json.RawMessage(`{}`), nil, false, nil)), code: ExitUsage, via: "prepareToolArgs", says: "not valid under its meta-schema"},
		{kind: "schema.LimitError", err: mustErr(prepareToolArgs("t", tool(deep), json.RawMessage(`{}`), nil, false, nil)), code: ExitUsage, via: "prepareToolArgs", says: "limit MaxDepth=64"},
		{kind: "schema.DialectError", err: mustErr(prepareToolArgs("t", tool(`{"$schema":"https://example.com/unknown"}`), json.RawMessage(`{}`), nil, false, nil)), code: ExitOK, via: "prepareToolArgs sends the arguments unchecked"},
		// client/ojson: JSON typed on the command line
		{kind: "ojson.SyntaxError", err: mustErr(argv.ParseObject("--json", []byte(`{"a":x}`))), code: ExitUsage, via: "argv.ParseObject", says: "is not valid JSON: invalid character"},
		{kind: "ojson.ErrNotObject", err: mustErr(argv.ParseObject("--json", []byte(`[1]`))), code: ExitUsage, via: "argv.ParseObject", says: "must be a JSON object"},
		{kind: "ojson.ErrTrailingData", err: mustErr(argv.ParseObject("--json", []byte(`{} {}`))), code: ExitUsage, via: "argv.ParseObject", says: "extra data"},
		{kind: "ojson.ErrUnterminated", err: mustErr(argv.ParseObject("--json", []byte(`{"a":1`))), code: ExitUsage, via: "argv.ParseObject", says: "unterminated JSON object"},
		{kind: "ojson.ErrDepth", err: mustErr(prepareToolArgs("t", tool(deep), json.RawMessage(`{}`), nil, false, nil)), code: ExitUsage, via: "prepareToolArgs (schema.Compile parses the inputSchema with a depth bound)", says: "nests deeper than 64"},
		// output
		{kind: "output.QueryError", err: &output.QueryError{Expr: ".[", Compile: true, Err: errors.New("unexpected EOF")}, code: ExitUsage},
		// config: named servers
		{kind: "config.SyntaxError", err: configError(&config.SyntaxError{File: "c.yaml", Line: 1, Msg: "bad"}), code: ExitUsage, via: "configError", says: "c.yaml:1"},
		{kind: "config.NotFoundError", err: configError(&config.NotFoundError{Name: "x"}), code: ExitUsage, via: "configError"},
		{kind: "config.VarError", err: configError(&config.VarError{Server: "x", Var: "TOKEN"}), code: ExitUsage, via: "configError"},
		{kind: "config.EntryError", err: configError(&config.EntryError{Server: "x", Msg: "bad"}), code: ExitUsage, via: "configError"},
		{kind: "config.UntrustedError", err: configError(&config.UntrustedError{Name: "x", File: "/p/.mcp.json"}), code: ExitUsage, via: "configError", says: "'mcpctl config trust /p/.mcp.json'"},
		{kind: "config.UnsafeFileError", err: configError(&config.UnsafeFileError{File: "/p/.mcp.json", Problem: "it is writable by anyone (mode 0666)"}), code: ExitUsage, via: "configError", says: "cannot be trusted"},
		{kind: "config.HeaderError", err: mustErr(parseHeaders([]string{"Bad Name: v"})), code: ExitUsage, via: "parseHeaders (config add and entries too: configError)", says: `invalid header "Bad …"`},
		{kind: "config.EnvError", err: mustErr(childEnv(func() []string { return nil }, []string{"A"})), code: ExitUsage, via: "childEnv (config add and entries too: configError)", says: `invalid --env "A"`},
		// the context of the command
		{kind: "context.Canceled", err: context.Canceled, code: ExitInterrupted},
		{kind: "context.DeadlineExceeded", err: context.DeadlineExceeded, code: ExitConnection},
	}
}

// notMet are error kinds declared in those packages that never reach
// mcpctl's exit: why each is left out of the table.
var notMet = map[string]string{
	"mcptest.Error":         "the scripted test server's answer, sent as a JSON-RPC error (client.RPCError)",
	"client.ErrNotCached":   "asked for by a dry run only (CallOptions.CacheOnly), which then shows the call as given",
	"atomicfile.ErrLocked":  "Lock waits it out; a session's lock becomes sessiond.ErrLocked, which session commands put in their words",
	"atomicfile.ErrNoLocks": "Windows: the token store goes on without a lock; sessions are unsupported there before any lock",
	"atomicfile.NameError":  "skills get --out (saveSkill) puts it in its words: an invalid skill entry (skills.EntryError), or a usage error",
	"atomicfile.TreeError":  "skills get --out (saveSkill) puts it in its words: a usage error naming the path below --out",
	"sessiond.UnsafeError":  "an invocation warns and reaches the server itself; session commands refuse it as a UsageError (sessionPaths)",
	"sessiond.UnresponsiveError": "an invocation warns and reaches the server itself; session list shows the session, session stop ends it by its pid, " +
		"session start refuses it as a UsageError",
}

// Every error kind maps to its documented exit code, bare and wrapped;
// the table names every error type and Err variable that client/, its
// subpackages, output/, config/, commands/ and internal/ declare (a new one fails
// here until it is given its code), and every code it uses is in the
// exit-code table of --help, the man pages and docs/output.md.
func TestExitCodeOfEveryKind(t *testing.T) {
	t.Parallel()
	kinds := errorKinds()
	listed := map[string]bool{}
	used := map[int]bool{}
	for _, k := range kinds {
		listed[k.kind] = true
		used[k.code] = true
		if k.says != "" && (k.err == nil || !strings.Contains(k.err.Error(), k.says)) {
			t.Errorf("%s via %s: %v, want it to say %q", k.kind, k.via, k.err, k.says)
		}
		if k.err == nil && k.code != ExitOK {
			t.Errorf("%s (%s): no error", k.kind, k.via)
			continue
		}
		for _, wrap := range []func(error) error{
			func(e error) error { return e },
			func(e error) error { return fmt.Errorf("context: %w", e) },
			func(e error) error { return wrapOp("tools/call x", e) },
		} {
			if k.err == nil {
				break
			}
			if got := ExitCode(wrap(k.err)); got != k.code {
				t.Errorf("%s %s: ExitCode(%v) = %d, want %d", k.kind, k.via, wrap(k.err), got, k.code)
			}
		}
	}
	declared := declaredErrors(t)
	if len(declared) < len(kinds)-8 {
		t.Fatalf("found only %d declared error kinds: %q", len(declared), declared)
	}
	for _, name := range declared {
		if !listed[name] && notMet[name] == "" {
			t.Errorf("%s is declared but has no exit code in errorKinds (or a reason in notMet)", name)
		}
	}
	documented := map[int]bool{}
	for _, e := range exitCodes {
		documented[e.code] = true
	}
	doc, err := os.ReadFile(filepath.Join("..", "docs", "output.md"))
	if err != nil {
		t.Fatal(err)
	}
	section := string(doc)
	if i := strings.Index(section, "## Errors and exit codes"); i >= 0 {
		section = section[i:]
	} else {
		t.Fatal("docs/output.md has no section 'Errors and exit codes'")
	}
	if i := strings.Index(section[3:], "\n## "); i >= 0 {
		section = section[:i+3]
	}
	for code := range used {
		if !documented[code] {
			t.Errorf("exit code %d is used but not in exitCodes (--help, mcpctl help exit-codes, man pages)", code)
		}
		if !regexp.MustCompile(`(?m)^\| ` + strconv.Itoa(code) + ` \| \S`).MatchString(section) {
			t.Errorf("exit code %d is used but not in docs/output.md's table under 'Errors and exit codes'", code)
		}
	}
	for code := range documented {
		if !used[code] {
			t.Errorf("exit code %d is documented but no error kind gives it", code)
		}
	}
	ios, _, _, _ := output.Test()
	for _, page := range []string{exitCodeHelp(), ManPages(NewApp(isolate(t).factory(ios)))["mcpctl.1"]} {
		for _, e := range exitCodes {
			if !strings.Contains(page, strconv.Itoa(e.code)) {
				t.Errorf("exit code %d missing from a help text", e.code)
			}
		}
	}
}

// declaredErrors lists the error types (named *Error, or Error) and Err
// variables declared in the non-test files of client/ (with its
// subpackages), output/, config/, commands/ and the command line's
// packages under internal/, as package.Name; unexported ones only for
// commands and internal/.
func declaredErrors(t *testing.T) []string {
	t.Helper()
	var out []string
	dirs := []string{".", "../output", "../config"}
	sub, _ := filepath.Glob("../client/*")
	dirs = append(dirs, "../client")
	cli, _ := filepath.Glob("../internal/*")
	sub = append(sub, cli...)
	for _, d := range sub {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() && !strings.HasSuffix(d, "testdata") {
			dirs = append(dirs, d)
		}
	}
	fset := token.NewFileSet()
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			file, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			name := file.Name.Name
			for _, decl := range file.Decls {
				gd, ok := decl.(*ast.GenDecl)
				if !ok {
					continue
				}
				for _, spec := range gd.Specs {
					var names []string
					switch s := spec.(type) {
					case *ast.TypeSpec:
						if strings.HasSuffix(s.Name.Name, "Error") {
							names = append(names, s.Name.Name)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if strings.HasPrefix(n.Name, "Err") && gd.Tok == token.VAR {
								names = append(names, n.Name)
							}
						}
					}
					for _, n := range names {
						if ast.IsExported(n) || name == "commands" || strings.HasPrefix(filepath.ToSlash(dir), "../internal/") {
							out = append(out, name+"."+n)
						}
					}
				}
			}
		}
	}
	return out
}
