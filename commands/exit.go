package commands

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/oauth"
	"github.com/mcpctl/mcpctl/client/skills"
	"github.com/mcpctl/mcpctl/internal/exitcode"
	"github.com/mcpctl/mcpctl/internal/sessiond"
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

// ExitCode maps an error to the documented exit code. Every error kind of
// client/, its subpackages, output/, config/ and commands/ is named in
// the table of TestExitCodeOfEveryKind, which checks the code each gets
// here and that each code is documented.
func ExitCode(err error) int {
	var (
		usage   *UsageError
		params  *client.ParamsError
		unknown *client.UnknownToolError
		tool    *ToolError
		conn    *client.ConnError
		timeout *client.TimeoutError
		proto   *client.ProtocolError
		httpErr *client.HTTPError
		auth    *client.AuthError
		rpc     *client.RPCError
		invalid *client.InvalidToolError
		version *client.VersionError
		input   *client.InputRequiredError
		query   *output.QueryError
		era     *client.EraError
		oauthE  *oauth.Error
		kc      *oauth.KeychainError

		cancelled *client.TaskCancelledError
		rounds    *client.TaskRoundsError
		listBig   *client.ListTooLargeError
		listSlow  *client.ListTimeoutError
		waited    *client.TaskInterruptedError
		capErr    *client.CapabilityError
		noTask    *client.TaskSupportError
		expired   *client.SessionExpiredError
		ackSlow   *client.AckTimeoutError
		batch     *batchError
		skillBad  *skills.EntryError
		skillVer  *skills.VerifyError
		undecl    *skills.NotDeclaredError
		ks        *sessiond.Error
	)
	switch {
	case err == nil, errors.Is(err, client.ErrDryRun):
		return ExitOK
	case errors.As(err, &ks):
		return ks.Code // what the session process found, with its code
	case errors.As(err, &batch):
		return batch.Code // the first failing line's
	case errors.As(err, &waited) && waited.TimedOut():
		return ExitConnection // --timeout ended the wait; the task keeps running
	case errors.Is(err, context.Canceled):
		return ExitInterrupted
	case errors.As(err, &tool), errors.As(err, &cancelled):
		return ExitToolError
	case errors.As(err, &usage), errors.As(err, &params), errors.As(err, &unknown), errors.As(err, &query), errors.As(err, &noTask):
		return ExitUsage
	case errors.As(err, &era):
		return ExitConnection // neither probe nor initialize answered
	case errors.As(err, &auth), errors.As(err, &oauthE), errors.As(err, &kc), errors.Is(err, oauth.ErrKeychainItemNotFound), errors.Is(err, oauth.ErrNoBrowser), errors.Is(err, oauth.ErrNotHTTPS), errors.Is(err, client.ErrNonceRepeated):
		return ExitAuth
	case errors.As(err, &input), errors.As(err, &rounds), errors.Is(err, client.ErrNoAnswer):
		return ExitInput
	case errors.As(err, &rpc), errors.As(err, &invalid), errors.As(err, &version):
		return ExitServerError
	case errors.As(err, &conn), errors.As(err, &timeout), errors.As(err, &proto), errors.As(err, &httpErr),
		errors.As(err, &listBig), errors.As(err, &listSlow), errors.As(err, &capErr), errors.As(err, &expired), errors.As(err, &ackSlow),
		errors.As(err, &skillBad), errors.As(err, &skillVer), errors.As(err, &undecl):
		return ExitConnection
	}
	return ExitConnection
}
