package main

// The man pages and completion scripts are generated from the app and
// checked in; tests/docs_test.go fails when they are out of date. They
// come from the binary make build ships (-tags urfave_cli_no_docs: mcpctl
// writes its man pages itself, commands/man.go, not with urfave/cli's).
//go:generate go run -tags urfave_cli_no_docs . man --dir man
//go:generate go run -tags urfave_cli_no_docs . completion --dir completions
