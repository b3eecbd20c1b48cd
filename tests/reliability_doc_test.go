package tests

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docs/reliability.md promises a test for every fault, fuzz target and
// security item: every one of them must be named there, so that a case
// added here is a line added there.
func TestReliabilityDocListsEveryTest(t *testing.T) {
	doc, err := os.ReadFile("../docs/reliability.md")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{"TestFaultEscapesAtRealTerminal": true, "TestServerStderrAtRealTerminal": true}
	for _, c := range faultCases {
		names["TestFaults/"+c.name] = true
	}
	for file, re := range map[string]string{
		"security_test.go": `(?m)^func (Test\w+)\(`,
		"fuzz.sh":          `"[\w/]+ (Fuzz\w+)"`,

		// Issue 13, completion injection: the real shells at a terminal.
		"completion_shells_test.go": `(?m)^func (Test\w+)\(`,
		// Issue 16 item 1: sessions, their bad inputs and crashes.
		"session_test.go": `(?m)^func (Test\w+)\(`,
		// Issue 24: sessions keyed by their caller, secrets off argv.
		"session_identity_test.go": `(?m)^func (Test\w+)\(`,
		// Issue 24 item 5: skill files written where others can write.
		"skills_out_linux_test.go": `(?m)^func (Test\w+)\(`,
		// Issue 24 items 5, 6 and 8: the sessions folder, memory, ends.
		"session_faults_test.go": `(?m)^func (Test\w+)\(`,
	} {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		found := regexp.MustCompile(re).FindAllSubmatch(src, -1)
		if len(found) == 0 {
			t.Fatalf("no tests found in %s", file)
		}
		for _, m := range found {
			names[string(m[1])] = true
		}
	}
	for name := range names {
		if !strings.Contains(string(doc), "`"+name+"`") {
			t.Errorf("docs/reliability.md does not list %s", name)
		}
	}
	// And CI fuzzes every fuzz target there is.
	fuzzed, _ := os.ReadFile("fuzz.sh")
	files, _ := filepath.Glob("../*/*_fuzz_test.go")
	more, _ := filepath.Glob("../*/*/*_fuzz_test.go")
	if len(files)+len(more) < 4 {
		t.Fatalf("found only %v and %v: the search is wrong", files, more)
	}
	for _, f := range append(files, more...) {
		src, _ := os.ReadFile(f)
		for _, m := range regexp.MustCompile(`(?m)^func (Fuzz\w+)\(`).FindAllSubmatch(src, -1) {
			if !strings.Contains(string(fuzzed), " "+string(m[1])+`"`) {
				t.Errorf("tests/fuzz.sh does not run %s (%s)", m[1], f)
			}
		}
	}
}
