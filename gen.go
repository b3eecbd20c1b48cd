package main

// The man pages and completion scripts are generated from the app and
// checked in; tests/docs_test.go fails when they are out of date.
//go:generate go run . man --dir man
//go:generate go run . completion --dir completions
