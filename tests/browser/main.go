// Command browser is a headless stand-in for a web browser in mcpctl's
// tests, given to mcpctl as $BROWSER: it loads the URL and follows the
// redirects, so that an authorization server's redirect lands on mcpctl's
// loopback listener as it would from a real browser. With -paste it prints
// the final redirect's URL instead of following it, for --no-browser.
package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
)

func main() {
	paste := flag.Bool("paste", false, "print the URL the server redirects to instead of loading it")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: browser [-paste] URL")
		os.Exit(2)
	}
	c := &http.Client{}
	if *paste {
		c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	}
	resp, err := c.Get(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "browser:", err)
		os.Exit(1)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if *paste {
		fmt.Println(resp.Header.Get("Location"))
	}
}
