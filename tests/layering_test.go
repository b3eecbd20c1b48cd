package tests

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The CLI layer's packages, and the files at the bottom of commands/ that
// every command uses: a feature (a command, the session daemon, batch)
// may use them, but they must never reach a feature and back, or every
// new feature ties itself to every other through them (issue 23: exit.go
// named batchError and sessionError, factory.go batchRun and the
// per-command connection, and 59 of 67 files were in one cycle).
var (
	cliPackages = []string{"commands", "internal/argv", "internal/interact", "internal/sessiond", "internal/secrets", "internal/exitcode"}
	bottomFiles = []string{"commands/exit.go", "commands/factory.go"}
)

// maxCommandsFiles is issue 23's bound on the top of the CLI.
const maxCommandsFiles = 40

// TestCLILayering type-checks each package of the CLI layer, draws which
// of its files uses which (a file uses another when it names anything
// the other declares: a function, type, variable, constant, method or
// struct field), and checks that no cycle of files passes through the
// bottom files. It logs, per package, the files and how many of them are
// in a cycle of files: `go test ./tests -run TestCLILayering -v`.
func TestCLILayering(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	exports := exportData(t, root)
	for _, rel := range cliPackages {
		dir := filepath.Join(root, rel)
		if _, err := os.Stat(dir); err != nil {
			continue // not (or no longer) a package of the layer
		}
		g := fileGraph(t, root, rel, exports)
		sccs := g.cycles()
		inCycle := 0
		biggest := 0
		for _, c := range sccs {
			inCycle += len(c)
			biggest = max(biggest, len(c))
		}
		t.Logf("%s: %d files, %d uses between them, %d in cycles of files (the largest cycle %d files)", rel, len(g.files), g.edges(), inCycle, biggest)
		if rel == "commands" && len(g.files) > maxCommandsFiles {
			t.Errorf("commands/ has %d non-test files; issue 23 bounds it at %d: put a component in internal/ or a command group in commands/<noun>", len(g.files), maxCommandsFiles)
		}
		for _, c := range sccs {
			for _, f := range c {
				for _, bottom := range bottomFiles {
					if f == bottom {
						t.Errorf("%s is in a cycle of files with %s: a file it uses uses it back, so it reaches features; break the cycle (make the feature's type carry what the bottom file asks of it)", bottom, strings.Join(others(c, bottom), ", "))
					}
				}
			}
		}
	}
}

func others(c []string, not string) []string {
	var out []string
	for _, f := range c {
		if f != not {
			out = append(out, f)
		}
	}
	return out
}

// exportData maps every package the module builds to the file holding
// its compiled export data, so that the CLI packages type-check against
// their dependencies quickly (go list compiles them once, into the build
// cache).
func exportData(t *testing.T, root string) map[string]string {
	t.Helper()
	args := []string{"list", "-export", "-deps", "-json=ImportPath,Export"}
	for _, p := range cliPackages {
		if _, err := os.Stat(filepath.Join(root, p)); err == nil {
			args = append(args, "./"+p)
		}
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v: %s", err, stderr.String())
	}
	exports := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct{ ImportPath, Export string }
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		exports[p.ImportPath] = p.Export
	}
	return exports
}

// graph is which file of a package uses which.
type graph struct {
	files []string
	uses  map[string]map[string]bool
}

func (g *graph) edges() int {
	n := 0
	for _, to := range g.uses {
		n += len(to)
	}
	return n
}

// fileGraph type-checks the package in rel and draws its graph of files.
func fileGraph(t *testing.T, root, rel string, exports map[string]string) *graph {
	t.Helper()
	fset := token.NewFileSet()
	names := goFiles(t, filepath.Join(root, rel))
	var files []*ast.File
	for _, n := range names {
		f, err := parser.ParseFile(fset, filepath.Join(root, rel, n), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	lookup := func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok || file == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", lookup)}
	pkg, err := conf.Check("github.com/mcpctl/mcpctl/"+rel, fset, files, info)
	if err != nil {
		t.Fatalf("type-checking %s: %v", rel, err)
	}
	g := &graph{uses: map[string]map[string]bool{}}
	fileOf := func(pos token.Pos) string {
		p := fset.Position(pos)
		if p.Filename == "" {
			return ""
		}
		r, _ := filepath.Rel(root, p.Filename)
		return filepath.ToSlash(r)
	}
	for _, f := range files {
		g.files = append(g.files, fileOf(f.Pos()))
	}
	add := func(from token.Pos, obj types.Object) {
		if obj == nil || obj.Pkg() != pkg {
			return
		}
		a, b := fileOf(from), fileOf(obj.Pos())
		if a == "" || b == "" || a == b {
			return
		}
		if g.uses[a] == nil {
			g.uses[a] = map[string]bool{}
		}
		g.uses[a][b] = true
	}
	for id, obj := range info.Uses {
		add(id.Pos(), obj)
	}
	for sel, s := range info.Selections {
		add(sel.Pos(), s.Obj())
	}
	sort.Strings(g.files)
	return g
}

// goFiles are the package's non-test Go files built on this system.
func goFiles(t *testing.T, dir string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{join .GoFiles \"\\n\"}}", ".")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list in %s: %v", dir, err)
	}
	var names []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if n := strings.TrimSpace(sc.Text()); n != "" {
			names = append(names, n)
		}
	}
	return names
}

// cycles are the graph's strongly connected components of more than one
// file (Tarjan's algorithm): the sets of files each of which reaches
// every other.
func (g *graph) cycles() [][]string {
	index := map[string]int{}
	low := map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	var out [][]string
	next := 0
	var visit func(v string)
	visit = func(v string) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		var to []string
		for w := range g.uses[v] {
			to = append(to, w)
		}
		sort.Strings(to)
		for _, w := range to {
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var c []string
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				c = append(c, w)
				if w == v {
					break
				}
			}
			if len(c) > 1 {
				sort.Strings(c)
				out = append(out, c)
			}
		}
	}
	for _, f := range g.files {
		if _, seen := index[f]; !seen {
			visit(f)
		}
	}
	return out
}

// TestPackageDependencies holds docs/architecture.md's "Dependencies go
// one way": what each package below commands may not reach, directly or
// through another.
func TestPackageDependencies(t *testing.T) {
	t.Parallel()
	const mod = "github.com/mcpctl/mcpctl/"
	for _, rule := range []struct {
		pkg   string
		never []string
	}{
		// output renders raw JSON: ordered JSON and the schema reader, not
		// the protocol library.
		{"output", []string{mod + "client", mod + "client/skills", mod + "commands"}},
		{"internal/argv", []string{mod + "commands", mod + "internal/interact", mod + "internal/sessiond"}},
		{"internal/interact", []string{mod + "commands", "github.com/urfave/cli/v2", mod + "internal/argv"}},
		{"internal/sessiond", []string{mod + "commands", "github.com/urfave/cli/v2", mod + "output", mod + "config"}},
		// The credential values of a command, and their redaction: the
		// standard library only.
		{"internal/secrets", []string{mod + "commands", mod + "client", mod + "output", mod + "config", "github.com/urfave/cli/v2"}},
		{"client", []string{mod + "commands", mod + "output", mod + "config", mod + "internal/exitcode"}},
		{"config", []string{mod + "commands", mod + "client"}},
	} {
		cmd := exec.Command("go", "list", "-deps", "./"+rule.pkg)
		cmd.Dir = ".."
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list %s: %v", rule.pkg, err)
		}
		deps := map[string]bool{}
		for _, d := range strings.Fields(string(out)) {
			deps[d] = true
		}
		for _, n := range rule.never {
			if deps[n] {
				t.Errorf("%s reaches %s", rule.pkg, n)
			}
		}
	}
}
