package commands

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// notNotes are the beginnings of the lines of mcpctl's own ("mcpctl: …")
// that --quiet keeps: warnings, errors, and what a command waits on the
// user for (docs/output.md, "Notes and --quiet"). "" is a line whose
// words come from elsewhere: the error line (root.go), a tool's isError
// line, and notef itself.
var notNotes = []string{"", "warning: ", "interrupted", "to authorize mcpctl", "--no-browser: ", "the subscription broke", "--jq: ", "--refetch "}

// Every other line of mcpctl's own is a note, written by notef, which
// --quiet silences: a line written straight to stderr would not be.
func TestNotesGoThroughNotef(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || !strings.HasPrefix(sel.Sel.Name, "Fprint") || len(call.Args) < 2 {
				return true
			}
			text, ok := leftmostString(call.Args[1])
			if !ok || !strings.HasPrefix(text, "mcpctl: ") {
				return true
			}
			checked++
			rest := strings.TrimPrefix(text, "mcpctl: ")
			for _, p := range notNotes {
				if (p == "" && rest == "") || (p != "" && strings.HasPrefix(rest, p)) {
					return true
				}
			}
			t.Errorf("%s: %q is written straight to stderr: a note goes through notef (--quiet), or it belongs in notNotes", fset.Position(call.Pos()), text)
			return true
		})
	}
	if checked < 5 {
		t.Fatalf("found only %d lines of mcpctl's own: the search is wrong", checked)
	}
}

// leftmostString is the string literal an expression such as "a"+b
// starts with.
func leftmostString(e ast.Expr) (string, bool) {
	for {
		switch x := e.(type) {
		case *ast.BinaryExpr:
			e = x.X
		case *ast.BasicLit:
			if x.Kind != token.STRING {
				return "", false
			}
			s, err := strconv.Unquote(x.Value)
			return s, err == nil
		default:
			return "", false
		}
	}
}
