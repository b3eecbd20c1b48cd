package tests

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Issue 14 item 4 (one of each): mcpctl has one atomic file write
// (client/atomicfile), one ordered-JSON package (client/ojson), one place
// that knows where its files go (config/dirs.go) and one typer for
// command-line text (client/schema). TestOneOfEach fails when the
// tell-tale call of a second copy turns up anywhere else in the
// program's code: a temporary file renamed or linked into place, a JSON
// decoder walked token by token, a look at the environment or the system
// for a base folder, text parsed into a number or a boolean by hand.
func TestOneOfEach(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	rules := []struct {
		what  string
		re    *regexp.Regexp
		owner string // the one file or folder allowed to do it
	}{
		{"an atomic write (temporary file, then rename or link)", regexp.MustCompile(`\bos\.(Rename|Link|CreateTemp)\(`), "client/atomicfile/"},
		{"an ordered-JSON decoder (json.Decoder walked token by token)", regexp.MustCompile(`\bjson\.Delim\b`), "client/ojson/"},
		{"a directory lookup", regexp.MustCompile(`\bos\.User(Cache|Config|Home)Dir\(|Getenv\("(XDG_[A-Z_]+|HOME|USERPROFILE|LocalAppData|AppData|MCPCTL_(CONFIG|CACHE_DIR|STATE_DIR))"\)`), "config/dirs.go"},
		{"a typer of command-line text", regexp.MustCompile(`\bstrconv\.Parse(Float|Bool)\(`), "client/schema/"},
	}
	var files []string
	for _, dir := range []string{"main.go", "client", "commands", "internal", "config", "output"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 50 {
		t.Fatalf("found %d Go files, not the program", len(files))
	}
	found := map[string]bool{}
	for _, p := range files {
		rel := filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
		for n := 1; sc.Scan(); n++ {
			line := strings.TrimSpace(sc.Text())
			if strings.HasPrefix(line, "//") {
				continue
			}
			for _, r := range rules {
				if !r.re.MatchString(line) {
					continue
				}
				if strings.HasPrefix(rel, r.owner) {
					found[r.owner] = true
					continue
				}
				t.Errorf("%s:%d: %s outside %s: %s", rel, n, r.what, r.owner, line)
			}
		}
		f.Close()
	}
	// The patterns still find the one copy: they have not gone stale.
	for _, r := range rules {
		if r.owner != "client/schema/" && !found[r.owner] {
			t.Errorf("%s: the rule for %s matches nothing there; update it", r.owner, r.what)
		}
	}
}

// Issue 14 item 4 (one schema walker): client/schema is the one place that
// knows where a JSON Schema keeps its subschemas (schema.Read, Doc, Node).
// TestOneSchemaWalker fails when code anywhere else in the program reads a
// schema's structure itself: a structural keyword ("properties", "items",
// "$ref", "anyOf", ...) used as a key, a field tag, a case, a comparison
// or an argument (m["items"], Get("properties"), `json:"anyOf"`,
// k == "$defs"). Such a keyword in prose or inside a JSON text is not
// reading one, and is not matched.
func TestOneSchemaWalker(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	structural := map[string]bool{}
	for _, k := range strings.Fields(`properties patternProperties additionalProperties propertyNames
		dependentSchemas dependencies unevaluatedProperties items prefixItems additionalItems contains
		unevaluatedItems allOf anyOf oneOf not if then else $ref $dynamicRef $recursiveRef $defs definitions contentSchema`) {
		structural[k] = true
	}
	const owner = "client/schema/"
	var files []string
	for _, dir := range []string{"main.go", "client", "commands", "internal", "config", "output"} {
		_ = filepath.WalkDir(filepath.Join(root, dir), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
				files = append(files, p)
			}
			return err
		})
	}
	if len(files) < 50 {
		t.Fatalf("found %d Go files, not the program", len(files))
	}
	fset := token.NewFileSet()
	ownerReads := 0
	for _, p := range files {
		rel := filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		keyword := func(e ast.Expr) (string, bool) {
			lit, ok := e.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return "", false
			}
			s, err := strconv.Unquote(lit.Value)
			return s, err == nil && structural[s]
		}
		report := func(at token.Pos, kw, how string) {
			if strings.HasPrefix(rel, owner) {
				ownerReads++
				return
			}
			t.Errorf("%s: reads the schema keyword %q (%s) outside %s: use schema.Read", fset.Position(at), kw, how, owner)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				for _, a := range n.Args {
					if kw, ok := keyword(a); ok {
						report(a.Pos(), kw, "as an argument")
					}
				}
			case *ast.IndexExpr:
				if kw, ok := keyword(n.Index); ok {
					report(n.Pos(), kw, "as an index")
				}
			case *ast.CaseClause:
				for _, e := range n.List {
					if kw, ok := keyword(e); ok {
						report(e.Pos(), kw, "as a case")
					}
				}
			case *ast.BinaryExpr:
				if n.Op == token.EQL || n.Op == token.NEQ {
					for _, e := range []ast.Expr{n.X, n.Y} {
						if kw, ok := keyword(e); ok {
							report(e.Pos(), kw, "in a comparison")
						}
					}
				}
			case *ast.KeyValueExpr:
				if kw, ok := keyword(n.Key); ok {
					report(n.Pos(), kw, "as a key")
				}
			case *ast.CompositeLit:
				if at, ok := n.Type.(*ast.ArrayType); ok {
					if id, ok := at.Elt.(*ast.Ident); ok && id.Name == "string" {
						for _, e := range n.Elts {
							if kw, ok := keyword(e); ok {
								report(e.Pos(), kw, "in a list of keywords")
							}
						}
					}
				}
			case *ast.Field:
				if n.Tag != nil {
					tag, _ := strconv.Unquote(n.Tag.Value)
					name, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
					if structural[name] {
						report(n.Pos(), name, "as a field tag")
					}
				}
			}
			return true
		})
	}
	// The rule still finds the one walker: it has not gone stale.
	if ownerReads == 0 {
		t.Errorf("%s: the rule matches nothing there; update it", owner)
	}
}
