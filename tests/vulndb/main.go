// Command vulndb builds a Go vulnerability database that govulncheck reads
// with -db file:///DIR, offline, from the golang.org/x/vulndb module.
//
// govulncheck's default database host cannot be reached from CI, but the
// Go module proxy can, and the golang.org/x/vulndb module carries every
// report as an OSV file (data/osv/GO-YYYY-NNNN.json). This program takes
// that module from the proxy (go mod download) and lays its entries out as
// the database's v1 schema (https://go.dev/security/vuln/database):
//
//	DIR/index/db.json       {"modified": …}
//	DIR/index/modules.json  [{"path": MODULE, "vulns": [{"id", "modified"}]}]
//	DIR/index/vulns.json    [{"id", "modified", "aliases"}]
//	DIR/ID/GO-YYYY-NNNN.json, the OSV entry as the module has it
//
// The optional "fixed" of modules.json is left out: govulncheck then reads
// each entry of a module it finds and matches versions against the
// entry's own ranges, which is exact, only slower.
//
//	vulndb -out DIR golang.org/x/vulndb@VERSION
//
// DIR is written whole or not at all (built beside it, then renamed), so
// a run that stops half-way leaves no half database to be trusted later.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// minEntries is far below what the module holds (thousands); fewer means
// the module's layout changed and the database would miss reports.
const minEntries = 1000

// entry is the part of an OSV entry the indexes need.
type entry struct {
	ID       string    `json:"id"`
	Modified time.Time `json:"modified"`
	Aliases  []string  `json:"aliases,omitempty"`
	Affected []struct {
		Package struct {
			Name string `json:"name"`
		} `json:"package"`
	} `json:"affected"`
}

type moduleVuln struct {
	ID       string    `json:"id"`
	Modified time.Time `json:"modified"`
}

type moduleMeta struct {
	Path  string       `json:"path"`
	Vulns []moduleVuln `json:"vulns"`
}

type vulnMeta struct {
	ID       string    `json:"id"`
	Modified time.Time `json:"modified"`
	Aliases  []string  `json:"aliases,omitempty"`
}

func main() {
	out := flag.String("out", "", "the database folder to write")
	flag.Parse()
	if *out == "" || flag.NArg() != 1 || !strings.HasPrefix(flag.Arg(0), "golang.org/x/vulndb@") {
		fmt.Fprintln(os.Stderr, "usage: vulndb -out DIR golang.org/x/vulndb@VERSION")
		os.Exit(2)
	}
	if err := run(*out, flag.Arg(0)); err != nil {
		fmt.Fprintln(os.Stderr, "vulndb:", err)
		os.Exit(1)
	}
}

func run(out, module string) error {
	dir, published, err := download(module)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(out), filepath.Base(out)+".tmp")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	n, err := build(tmp, filepath.Join(dir, "data", "osv"), published)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	if err := os.Rename(tmp, out); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "vulndb: %d entries from %s into %s\n", n, module, out)
	return nil
}

// download fetches the module through the go command (GOPROXY, the module
// cache, go.sum checks) and returns its folder and its version's time.
func download(module string) (dir string, published time.Time, err error) {
	cmd := exec.Command("go", "mod", "download", "-json", module)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var info struct {
		Dir   string
		Info  string
		Error string
	}
	if err := json.Unmarshal(stdout.Bytes(), &info); err != nil {
		return "", time.Time{}, fmt.Errorf("go mod download %s: %v %s", module, runErr, stderr.Bytes())
	}
	if info.Error != "" || runErr != nil {
		return "", time.Time{}, fmt.Errorf("go mod download %s: %s %v", module, info.Error, runErr)
	}
	var version struct{ Time time.Time }
	data, err := os.ReadFile(info.Info)
	if err == nil {
		err = json.Unmarshal(data, &version)
	}
	if err != nil {
		return "", time.Time{}, fmt.Errorf("%s: %v", info.Info, err)
	}
	return info.Dir, version.Time, nil
}

// build writes the database into out from the OSV files in src. The
// database's time is the module version's: the module's entries carry no
// times of their own (the zero time), which govulncheck accepts.
func build(out, src string, published time.Time) (int, error) {
	files, err := filepath.Glob(filepath.Join(src, "*.json"))
	if err != nil {
		return 0, err
	}
	if len(files) < minEntries {
		return 0, fmt.Errorf("%s has %d OSV files, expected at least %d", src, len(files), minEntries)
	}
	for _, d := range []string{"ID", "index"} {
		if err := os.MkdirAll(filepath.Join(out, d), 0o755); err != nil {
			return 0, err
		}
	}
	modules := map[string]*moduleMeta{}
	var vulns []vulnMeta
	modified := published
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return 0, err
		}
		var e entry
		if err := json.Unmarshal(data, &e); err != nil {
			return 0, fmt.Errorf("%s: %v", f, err)
		}
		if e.ID+".json" != filepath.Base(f) {
			return 0, fmt.Errorf("%s: the entry's id is %q", f, e.ID)
		}
		if e.Modified.After(modified) {
			modified = e.Modified
		}
		seen := map[string]bool{}
		for _, a := range e.Affected {
			path := a.Package.Name
			if path == "" {
				return 0, fmt.Errorf("%s: an affected package has no name", f)
			}
			if seen[path] {
				continue
			}
			seen[path] = true
			m := modules[path]
			if m == nil {
				m = &moduleMeta{Path: path}
				modules[path] = m
			}
			m.Vulns = append(m.Vulns, moduleVuln{ID: e.ID, Modified: e.Modified})
		}
		vulns = append(vulns, vulnMeta{ID: e.ID, Modified: e.Modified, Aliases: e.Aliases})
		if err := os.WriteFile(filepath.Join(out, "ID", e.ID+".json"), data, 0o644); err != nil {
			return 0, err
		}
	}
	if modules["stdlib"] == nil {
		return 0, errors.New("no entry affects the standard library (module \"stdlib\"): not a Go vulnerability database")
	}
	index := make([]*moduleMeta, 0, len(modules))
	for _, m := range modules {
		sort.Slice(m.Vulns, func(i, j int) bool { return m.Vulns[i].ID < m.Vulns[j].ID })
		index = append(index, m)
	}
	sort.Slice(index, func(i, j int) bool { return index[i].Path < index[j].Path })
	sort.Slice(vulns, func(i, j int) bool { return vulns[i].ID < vulns[j].ID })
	for name, v := range map[string]any{
		"db.json": struct {
			Modified time.Time `json:"modified"`
		}{modified},
		"modules.json": index,
		"vulns.json":   vulns,
	} {
		data, err := json.Marshal(v)
		if err != nil {
			return 0, err
		}
		if err := os.WriteFile(filepath.Join(out, "index", name), data, 0o644); err != nil {
			return 0, err
		}
	}
	return len(files), nil
}
