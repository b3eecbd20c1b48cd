package tests

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docs/architecture.md walks a tools call function by function; the names
// it sets in bold (**`Name`**) must exist in the code, so that a rename
// that leaves the map behind fails here instead of misleading a newcomer.
func TestArchitectureDocNamesExist(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]bool{}
	err = filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != ".." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				declared[d.Name.Name] = true
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					if ts, ok := spec.(*ast.TypeSpec); ok {
						declared[ts.Name.Name] = true
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// **`Client.CallTool`**, **`ProcessFactory(output.System())`**,
	// **`actionOf(parse,\n runF, runToolsCall)`**: the name is the last
	// identifier before the first parenthesis.
	bold := regexp.MustCompile("\\*\\*`([^`]+)`\\*\\*")
	ident := regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_]*)$`)
	found := 0
	for _, m := range bold.FindAllStringSubmatch(string(doc), -1) {
		name, _, _ := strings.Cut(m[1], "(")
		id := ident.FindString(name)
		if id == "" {
			t.Errorf("architecture.md: cannot read a name in %q", m[1])
			continue
		}
		found++
		if !declared[id] {
			t.Errorf("architecture.md names %q, but no function or type %s is declared in the tree", m[1], id)
		}
	}
	if found < 20 {
		t.Fatalf("only %d names in bold found in docs/architecture.md: has the flow section lost its function names?", found)
	}
}
