package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeOSV writes n OSV entries into a new folder: the first affects the
// standard library, the rest example.com/m; one also affects
// example.com/other twice (two ranges), which the index lists once.
func writeOSV(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	for i := range n {
		id := fmt.Sprintf("GO-2026-%04d", i)
		mod := `"example.com/m"`
		if i == 0 {
			mod = `"stdlib"`
		}
		affected := `{"package":{"name":` + mod + `,"ecosystem":"Go"}}`
		if i == 1 {
			affected += `,{"package":{"name":"example.com/other"}},{"package":{"name":"example.com/other"}}`
		}
		entry := `{"id":"` + id + `","modified":"0001-01-01T00:00:00Z","aliases":["CVE-2026-` + fmt.Sprint(i) + `"],"affected":[` + affected + `]}`
		if err := os.WriteFile(filepath.Join(dir, id+".json"), []byte(entry), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// The database has govulncheck's v1 layout: every entry under ID/, the
// modules index naming each module's entries once, the database's time.
func TestBuild(t *testing.T) {
	src := writeOSV(t, minEntries)
	out := t.TempDir()
	published := time.Date(2026, 11, 5, 23, 49, 57, 0, time.UTC)
	n, err := build(out, src, published)
	if err != nil || n != minEntries {
		t.Fatalf("build: %d, %v", n, err)
	}
	ids, _ := filepath.Glob(filepath.Join(out, "ID", "*.json"))
	if len(ids) != minEntries {
		t.Errorf("%d entries under ID/", len(ids))
	}
	var db struct{ Modified time.Time }
	readJSON(t, filepath.Join(out, "index", "db.json"), &db)
	if !db.Modified.Equal(published) {
		t.Errorf("db.json modified %v", db.Modified)
	}
	var modules []moduleMeta
	readJSON(t, filepath.Join(out, "index", "modules.json"), &modules)
	got := map[string]int{}
	for _, m := range modules {
		got[m.Path] = len(m.Vulns)
	}
	if want := map[string]int{"stdlib": 1, "example.com/m": minEntries - 1, "example.com/other": 1}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("modules index %v, want %v", got, want)
	}
	var vulns []vulnMeta
	readJSON(t, filepath.Join(out, "index", "vulns.json"), &vulns)
	if len(vulns) != minEntries || vulns[0].ID != "GO-2026-0000" || vulns[0].Aliases[0] != "CVE-2026-0" {
		t.Errorf("vulns index: %d entries, first %+v", len(vulns), vulns[0])
	}
}

// What is not a Go vulnerability database is refused, not indexed.
func TestBuildRefuses(t *testing.T) {
	if _, err := build(t.TempDir(), writeOSV(t, 10), time.Time{}); err == nil || !strings.Contains(err.Error(), "expected at least") {
		t.Errorf("10 entries: %v", err)
	}
	src := writeOSV(t, minEntries)
	if err := os.Rename(filepath.Join(src, "GO-2026-0005.json"), filepath.Join(src, "GO-2026-9999.json")); err != nil {
		t.Fatal(err)
	}
	if _, err := build(t.TempDir(), src, time.Time{}); err == nil || !strings.Contains(err.Error(), `the entry's id is "GO-2026-0005"`) {
		t.Errorf("a misnamed entry: %v", err)
	}
	src = writeOSV(t, minEntries)
	if err := os.Remove(filepath.Join(src, "GO-2026-0000.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "GO-2026-0000.json"), []byte(`{"id":"GO-2026-0000","affected":[{"package":{"name":"example.com/m"}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := build(t.TempDir(), src, time.Time{}); err == nil || !strings.Contains(err.Error(), "standard library") {
		t.Errorf("no stdlib entry: %v", err)
	}
}

func readJSON(t *testing.T, file string, v any) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}
