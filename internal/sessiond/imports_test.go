//go:build linux || darwin

package sessiond

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The daemon's whole seam to the command line is Config: its files
// import the standard library (and x/sys), the client library and
// internal/exitcode, never urfave/cli nor a package of the CLI (commands,
// output, config).
func TestImportsNoCLI(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range files {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		n++
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			first, _, _ := strings.Cut(ip, "/")
			switch {
			case !strings.Contains(first, "."): // the standard library
			case ip == "github.com/mcpctl/mcpctl/client", strings.HasPrefix(ip, "github.com/mcpctl/mcpctl/client/"):
			case ip == "github.com/mcpctl/mcpctl/internal/exitcode", ip == "golang.org/x/sys/unix": // (the peer's user on macOS)
			default:
				t.Errorf("%s imports %s: sessiond takes what it needs of the CLI through Config", p, ip)
			}
		}
	}
	if n < 10 {
		t.Fatalf("read %d files, not the package", n)
	}
}
