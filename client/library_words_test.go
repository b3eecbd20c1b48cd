package client

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestLibraryNamesNoFlagOrProgram enforces issue 14's "a library that
// speaks library": no string in the client packages (errors, messages to
// servers, pages shown in a browser) names a command-line flag or the
// program. Where a way out depends on how the library is called, its
// errors carry typed fields and the caller words the hint; the client's
// name comes from the caller (Options.ClientInfo, oauth.Config.ClientName,
// oauth.Loopback.Name). Import paths and struct tags (a file format's
// field names) are not text; nothing else is allowed.
func TestLibraryNamesNoFlagOrProgram(t *testing.T) {
	if _, err := os.Stat("client.go"); err != nil {
		t.Skip("not run from the package directory")
	}
	bad := regexp.MustCompile(`--[a-z]|(?i)\bmcpctl\b`)
	files := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		files++
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		tags := map[*ast.BasicLit]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ImportSpec:
				return false
			case *ast.Field:
				if n.Tag != nil {
					tags[n.Tag] = true
				}
			case *ast.BasicLit:
				if n.Kind != token.STRING || tags[n] {
					return true
				}
				s, err := strconv.Unquote(n.Value)
				if err == nil && bad.MatchString(s) {
					t.Errorf("%s: %s names a flag or the program", fset.Position(n.Pos()), n.Value)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("scanned only %d files", files)
	}
}
