//go:build !unix

package fakemcp

import "io"

// serveGrandchild: the setsid modes need a Unix system.
func serveGrandchild(string, io.Reader, io.Writer, io.Writer) (int, bool) { return 0, false }
