// Command mcpctl is a scriptable command-line client for the Model Context
// Protocol. Everything lives in package commands; main only exits with the
// code it returns, so deferred cleanup (stopping stdio servers) always runs.
package main

import (
	"os"

	"github.com/mcpctl/mcpctl/commands"
)

func main() { os.Exit(commands.Main()) }
