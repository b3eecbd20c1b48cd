package client

import (
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// typeCheckPackage parses and type-checks this package's non-test files.
func typeCheckPackage(t *testing.T) (*token.FileSet, []*ast.File, *types.Info, *types.Package) {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, n := range names {
		if ok, _ := build.Default.MatchFile(".", n); !ok || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	// One importer for all, from source: two would
	// give two encoding/json packages whose types do not match.
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check("github.com/mcpctl/mcpctl/client", fset, files, info)
	if err != nil {
		t.Fatalf("type-checking the package: %v", err)
	}
	return fset, files, info, pkg
}

// TestClientNamesNoConcreteTransport enforces issue 14's "one honest
// transport interface": the Client learns what its transport can do from
// Capabilities only. No method of Client may assert a type on a
// transport, assert an anonymous (capability) interface, or name a type
// that implements Transport: a transport written elsewhere must be used
// for what it says it is.
func TestClientNamesNoConcreteTransport(t *testing.T) {
	if _, err := os.Stat("client.go"); err != nil {
		t.Skip("not run from the package directory")
	}
	fset, files, info, pkg := typeCheckPackage(t)
	transport := pkg.Scope().Lookup("Transport").Type().Underlying().(*types.Interface)
	isTransport := func(T types.Type) bool {
		if T == nil {
			return false
		}
		if _, iface := T.Underlying().(*types.Interface); iface {
			return false
		}
		return types.Implements(T, transport) || types.Implements(types.NewPointer(T), transport)
	}
	var problems []string
	report := func(n ast.Node, format string) {
		problems = append(problems, fset.Position(n.Pos()).String()+": "+format)
	}
	checkAsserted := func(n ast.Node, x ast.Expr, typ ast.Expr) {
		if typ == nil {
			return
		}
		if _, anon := typ.(*ast.InterfaceType); anon {
			report(n, "asserts an anonymous interface (a capability found by type assertion)")
			return
		}
		T := info.Types[typ].Type
		if isTransport(T) {
			report(n, "asserts the concrete transport type "+T.String())
		}
		if X := info.Types[x].Type; X != nil && types.Identical(X, pkg.Scope().Lookup("Transport").Type()) {
			report(n, "asserts a type on a Transport value")
		}
	}
	for _, f := range files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || fn.Body == nil {
				continue
			}
			recv := fn.Recv.List[0].Type
			if star, ok := recv.(*ast.StarExpr); ok {
				recv = star.X
			}
			if id, ok := recv.(*ast.Ident); !ok || id.Name != "Client" {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.TypeAssertExpr:
					checkAsserted(n, n.X, n.Type)
				case *ast.TypeSwitchStmt:
					var x ast.Expr
					switch a := n.Assign.(type) {
					case *ast.AssignStmt:
						x = a.Rhs[0].(*ast.TypeAssertExpr).X
					case *ast.ExprStmt:
						x = a.X.(*ast.TypeAssertExpr).X
					}
					for _, cc := range n.Body.List {
						for _, e := range cc.(*ast.CaseClause).List {
							checkAsserted(cc, x, e)
						}
					}
				case *ast.Ident:
					if obj, ok := info.Uses[n].(*types.TypeName); ok && isTransport(obj.Type()) {
						report(n, "names the concrete transport type "+obj.Name())
					}
				}
				return true
			})
		}
	}
	for _, p := range problems {
		t.Error(p)
	}
}
