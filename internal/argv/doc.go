// Package argv reads mcpctl's command line: the scanner that lets flags go
// anywhere (Scan, Normalize) on urfave/cli's command tree, the flags'
// values in mcpctl's words (BadFlagValue), request items (key=value,
// key:=JSON, key=@FILE: ParseItems), JSON given inline, as @FILE or on
// stdin (ReadJSONArg, ParseObject), sizes (ParseSize) and the closest
// names to a mistyped one (Closest).
//
// It knows nothing of the commands themselves: it is given the tree and
// the words. A mistake in the line is an exitcode.UsageError (exit 2).
package argv
