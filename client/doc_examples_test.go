package client

import (
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// TestDocumentedExamplesRun: the package doc names its examples, and each
// of them exists with an // Output: comment, so that go test runs it (an
// example without one is only compiled).
func TestDocumentedExamplesRun(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "example_test.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	run := map[string]bool{}
	for _, ex := range doc.Examples(f) {
		if ex.Output != "" || ex.EmptyOutput {
			run["Example"+ex.Name] = true
		}
	}
	pkgDoc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ExampleNewConn", "ExampleNewHTTP", "ExampleClient_List", "ExampleInputHandler"} {
		if !run[want] {
			t.Errorf("%s is missing or has no // Output: comment", want)
		}
		if !strings.Contains(strings.Join(strings.Fields(string(pkgDoc)), " "), want) {
			t.Errorf("the package doc does not name %s", want)
		}
	}
}
