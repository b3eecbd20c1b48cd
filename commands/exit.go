package commands

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/oauth"
	"github.com/mcpctl/mcpctl/internal/exitcode"
	"github.com/mcpctl/mcpctl/output"
)

// Exit codes. The table is part of mcpctl's interface: docs/output.md and
// the man pages document it and tests pin it.
// (internal/exitcode has them, for the packages below this one.)
const (
	ExitOK          = exitcode.OK
	ExitToolError   = exitcode.ToolError
	ExitUsage       = exitcode.Usage
	ExitConnection  = exitcode.Connection
	ExitServerError = exitcode.ServerError
	ExitAuth        = exitcode.Auth
	ExitInput       = exitcode.Input
	ExitInterrupted = exitcode.Interrupted
)

// UsageError is a mistake in how mcpctl was called.
type UsageError = exitcode.UsageError

func usagef(format string, a ...any) error { return exitcode.Usagef(format, a...) }

// ToolError reports a tool result with isError: true. The result itself
// has been printed already, so the message is only a short note.
type ToolError struct{ Name string }

func (e *ToolError) Error() string { return fmt.Sprintf("tool %q reported an error", e.Name) }

// ExitCode is ExitToolError.
func (e *ToolError) ExitCode() int { return ExitToolError }

// opError names the operation that failed, keeping the cause for errors.As.
type opError struct {
	Op  string
	Err error
}

func (e *opError) Error() string { return e.Op + ": " + e.Err.Error() }
func (e *opError) Unwrap() error { return e.Err }

func wrapOp(op string, err error) error {
	if err == nil {
		return nil
	}
	return &opError{Op: op, Err: err}
}

// ExitCode maps an error to the documented exit code: the code an error
// of mcpctl's own carries (exitcode.Coder: usage errors, a tool's
// isError, a session's or a batch's failures), else the first row of
// libraryCodes that the error matches. Every error kind of client/, its
// subpackages, output/, config/ and commands/ is named in the table of
// TestExitCodeOfEveryKind, which checks the code each gets here and that
// each code is documented.
func ExitCode(err error) int {
	if err == nil || errors.Is(err, client.ErrDryRun) {
		return ExitOK
	}
	var coder exitcode.Coder
	if errors.As(err, &coder) {
		return coder.ExitCode()
	}
	for _, row := range libraryCodes {
		if row.is(err) {
			return row.code
		}
	}
	return ExitConnection
}

// libraryCodes gives the library's error kinds their exit codes, in
// order: the first row an error matches wins. What no row names (a
// connection refused, a timeout, a protocol violation, a page too many)
// is a connection failure.
var libraryCodes = []struct {
	code int
	is   func(error) bool
}{
	// --timeout ended the wait; the task keeps running.
	{ExitConnection, func(err error) bool {
		var waited *client.TaskInterruptedError
		return errors.As(err, &waited) && waited.TimedOut()
	}},
	{ExitInterrupted, isError(context.Canceled)},
	{ExitToolError, asError[*client.TaskCancelledError]},
	{ExitUsage, anyOf(asError[*client.ParamsError], asError[*client.UnknownToolError], asError[*output.QueryError], asError[*client.TaskSupportError])},
	// Neither probe nor initialize answered: before any error of the
	// server's own, which it holds.
	{ExitConnection, asError[*client.EraError]},
	{ExitAuth, anyOf(asError[*client.AuthError], asError[*oauth.Error], asError[*oauth.KeychainError],
		isError(oauth.ErrKeychainItemNotFound), isError(oauth.ErrNoBrowser), isError(oauth.ErrNotHTTPS), isError(client.ErrNonceRepeated))},
	{ExitInput, anyOf(asError[*client.InputRequiredError], asError[*client.TaskRoundsError], isError(client.ErrNoAnswer))},
	{ExitServerError, anyOf(asError[*client.RPCError], asError[*client.InvalidToolError], asError[*client.VersionError])},
}

// asError reports whether err's chain holds an error of type T.
func asError[T error](err error) bool {
	var t T
	return errors.As(err, &t)
}

// isError matches err's chain against a sentinel.
func isError(target error) func(error) bool {
	return func(err error) bool { return errors.Is(err, target) }
}

func anyOf(fs ...func(error) bool) func(error) bool {
	return func(err error) bool {
		for _, f := range fs {
			if f(err) {
				return true
			}
		}
		return false
	}
}
