package tests

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// shippedBuildFlags are the go build flags of the mcpctl that make build
// and the README's install lines make (issue 14 item 6): urfave/cli's
// Markdown and man generators (github.com/russross/blackfriday/v2 and
// github.com/cpuguy83/go-md2man/v2, with blackfriday's regexps compiled in
// init) are left out; mcpctl writes its man pages itself (commands/man.go).
var shippedBuildFlags = []string{"-tags", "urfave_cli_no_docs"}

// The binary the fault suite runs, and the one make build makes, carry
// the tag and none of the Markdown engine.
func TestShippedBinaryHasNoDocsEngine(t *testing.T) {
	bin := filepath.Join(faultBinaries(t), "mcpctl")
	out, err := exec.Command("go", "version", "-m", bin).CombinedOutput()
	if err != nil {
		t.Fatalf("go version -m: %v\n%s", err, out)
	}
	info := string(out)
	if !strings.Contains(info, "-tags=urfave_cli_no_docs") {
		t.Errorf("mcpctl was built without -tags urfave_cli_no_docs:\n%s", info)
	}
	for _, dep := range []string{"github.com/russross/blackfriday", "github.com/cpuguy83/go-md2man"} {
		if strings.Contains(info, dep) {
			t.Errorf("mcpctl links %s:\n%s", dep, info)
		}
	}
	make, err := exec.Command(needTool(t, "make"), "-C", "..", "-n", "build").CombinedOutput()
	if err != nil {
		t.Fatalf("make -n build: %v\n%s", err, make)
	}
	if !strings.Contains(string(make), "-tags urfave_cli_no_docs") {
		t.Errorf("make build does not pass -tags urfave_cli_no_docs:\n%s", make)
	}
}

// go.mod's toolchain line only counts where GOTOOLCHAIN says so (a
// machine starts on its own Go, here with GOTOOLCHAIN=local): every script
// that runs go, the Makefile and the README's commands export the same
// release the line names (issue 14 item 6; docs/install.md, "Go version").
func TestToolchainEverywhere(t *testing.T) {
	gomod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^toolchain (go\S+)$`).FindSubmatch(gomod)
	if m == nil {
		t.Fatal("go.mod has no toolchain line")
	}
	want := "GOTOOLCHAIN=" + string(m[1])
	scripts, err := filepath.Glob("../tests/*/*.sh")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("../tests/*.sh")
	runsGo := regexp.MustCompile(`(?m)^[^#]*\bgo (build|run|test|install|vet|generate|list|mod)\b`)
	checked := 0
	for _, f := range append(append(scripts, more...), "../.ci/run") {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !runsGo.Match(data) && !strings.Contains(string(data), "bash tests/run.sh") {
			continue
		}
		checked++
		if !regexp.MustCompile(`(?m)^export ` + regexp.QuoteMeta(want) + `$`).Match(data) {
			t.Errorf("%s runs go but does not export %s", f, want)
		}
	}
	if checked < 8 {
		t.Errorf("only %d scripts checked", checked)
	}
	makefile, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(makefile), "GOTOOLCHAIN ?= "+string(m[1])+"\nexport GOTOOLCHAIN\n") {
		t.Errorf("the Makefile does not export GOTOOLCHAIN ?= %s", m[1])
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{
		"export " + want + "; go run . --stdio 'go run ./tests/servers/demo' tools call",
		"export " + want + "; bash tests/run.sh\n",
		"export " + want + "\nCGO_ENABLED=0 go install -tags urfave_cli_no_docs github.com/mcpctl/mcpctl@latest\n",
	} {
		if !strings.Contains(string(readme), cmd) {
			t.Errorf("README.md lacks %q", cmd)
		}
	}
}
