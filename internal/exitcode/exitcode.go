// Package exitcode holds mcpctl's exit codes and the one error kind every
// part of the command line shares: a mistake in how mcpctl was called.
//
// An error that knows its exit code says so with an ExitCode method
// (Coder); commands.ExitCode asks for it before it looks the error up in
// its table of the library's error kinds. The table of codes is part of
// mcpctl's interface: docs/output.md and the man pages document it and
// tests pin it.
package exitcode

import "fmt"

const (
	OK          = 0
	ToolError   = 1 // the tool answered isError: true, or its task was cancelled
	Usage       = 2 // flags, arguments, validation, jq filters
	Connection  = 3 // spawn, refused, server died, timeout, protocol violation
	ServerError = 4 // the server answered a JSON-RPC error
	Auth        = 5 // authentication or authorization refused
	Input       = 6 // the server needs input that could not be given
	Interrupted = 130
)

// Coder is an error that carries its exit code.
type Coder interface {
	error
	ExitCode() int
}

// UsageError is a mistake in how mcpctl was called: exit 2.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// ExitCode is Usage.
func (e *UsageError) ExitCode() int { return Usage }

// Usagef is a UsageError with a formatted message.
func Usagef(format string, a ...any) error { return &UsageError{Msg: fmt.Sprintf(format, a...)} }
