package client

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// libraryDeps are the only modules outside the standard library that a
// client package may import, each with the one package that needs it: the
// OAuth token exchange, PKCE and refresh (golang.org/x/oauth2) and the
// signed client assertion of the client credentials grant (golang-jwt),
// the OS keychains (go-keyring: macOS Keychain, Windows Credential
// Manager, the Secret Service) and the D-Bus session bus, to learn whether
// a Secret Service is there at all before asking it (godbus);
// and the YAML of a skill's SKILL.md frontmatter, which the Skills
// extension verifies field by field (go.yaml.in/yaml/v3).
// Everything else the library does, challenges, metadata and client
// registration included, is written here with the standard library.
var libraryDeps = map[string]string{
	"golang.org/x/oauth2":                   "oauth",
	"golang.org/x/oauth2/clientcredentials": "oauth",
	"github.com/golang-jwt/jwt/v5":          "oauth",
	"github.com/zalando/go-keyring":         "oauth",
	"github.com/godbus/dbus/v5":             "oauth",
	"go.yaml.in/yaml/v3":                    "skills",
}

// TestLibraryImports: client and its subpackages (their non-test files)
// import the standard library, each other, and libraryDeps where listed.
// A standard-library path has no dot in its first element.
func TestLibraryImports(t *testing.T) {
	if _, err := os.Stat("client.go"); err != nil {
		t.Skip("not run from the package directory")
	}
	const self = "github.com/mcpctl/mcpctl/client"
	files := 0
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		files++
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(p))
		for _, imp := range f.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			first, _, _ := strings.Cut(ip, "/")
			switch {
			case !strings.Contains(first, "."): // the standard library
			case ip == self || strings.HasPrefix(ip, self+"/"):
			case libraryDeps[ip] != "" && path.Clean(libraryDeps[ip]) == dir:
			default:
				t.Errorf("%s imports %s: the library uses only the standard library (see libraryDeps)", p, ip)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 30 {
		t.Fatalf("walked %d files, not the client packages", files)
	}
}
