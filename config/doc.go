// Package config reads the servers a user has named: mcpctl's own
// config.yaml, and, without importing them, the files other MCP clients
// keep (Claude Desktop, Claude Code, VS Code, Cursor). It also edits
// mcpctl's own file, keeping comments and key order.
//
// The package is a library: it never prints, never reads the process
// environment on its own and never exits. Callers pass the paths to look
// at (Options) and a lookup function for ${VAR} expansion; problems that
// should not stop a command come back as Warning values, and the rest as
// typed errors (*SyntaxError, *VarError, *NotFoundError, *EntryError,
// *HeaderError, *EnvError, *UntrustedError, *UnsafeFileError) that the CLI turns into messages and exit
// codes. Headers and variables follow one rule wherever they are written
// (ParseHeaders and ParseEnv for the command line's forms, CheckHeader
// and CheckEnv for a file's).
//
// The project's files (.mcp.json, .vscode/mcp.json, .cursor/mcp.json found
// from the working directory upwards) are read only when they are the
// user's alone, and used only once the user has trusted their content
// (project.go, trust.go); their ${VAR} read only the variables the user's
// own file names in projectEnv.
//
// Expansion happens at use time (Server.Resolve), so secrets stay in the
// environment and out of the files. Every source understands ${VAR} and
// ${VAR:-default}; VS Code and Cursor files also ${env:VAR},
// ${userHome}, ${workspaceFolder} and VS Code's ${input:ID}, which is read
// from the variable MCPCTL_INPUT_<ID> since a script cannot be prompted.
package config
