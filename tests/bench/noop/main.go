// Command noop does nothing. The benchmark times it as the floor of starting
// any Go process on this machine (fork, exec, runtime start-up, exit), so
// that what mcpctl adds on top of the Go runtime can be told apart from what
// every Go binary pays.
package main

func main() {}
