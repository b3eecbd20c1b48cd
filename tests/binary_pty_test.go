package tests

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpctl/mcpctl/tests/fakemcp"
)

// Issue 25, item 4: a tool's binary result at a real terminal, as text
// (the default there, and -o text): each binary item is described with
// its size and the --out hint, and no base64 reaches the screen, not even
// where structuredContent repeats the item (server-filesystem's
// read_media_file does). Before, the placeholder came, then the base64.
func TestBinaryResultAtTerminal(t *testing.T) {
	bin := faultBinaries(t)
	t.Run("fakemcp", func(t *testing.T) {
		marker := "mcpctl-binary-pty-" + filepath.Base(t.TempDir())
		for _, extra := range [][]string{nil, {"-o", "text"}} {
			out := string(runAtTerminal(t, bin, marker, append([]string{"--stdio", "fakemcp binaries " + marker,
				"--server-stderr", "discard", "--protocol-version", "2026-07-28", "tools", "call", "one"}, extra...)...))
			if strings.Count(out, "[image: image/png, 66 B; use --out FILE to save it]") != 2 {
				t.Errorf("%v: the image is not described, in content and structuredContent:\n%s", extra, out)
			}
			if b64 := fakemcp.B64(fakemcp.BinaryPNG); strings.Contains(out, b64[:24]) {
				t.Errorf("%v: base64 at the terminal:\n%s", extra, out)
			}
			noneLeft(t, marker)
		}
	})
	t.Run("server-filesystem", func(t *testing.T) {
		nm := refServers(t)
		dir := t.TempDir()
		png := []byte("\x89PNG\r\n\x1a\n" + strings.Repeat("a real terminal, no base64 ", 40))
		if err := os.WriteFile(filepath.Join(dir, "logo.png"), png, 0o600); err != nil {
			t.Fatal(err)
		}
		server := "node " + filepath.Join(nm, "@modelcontextprotocol", "server-filesystem", "dist", "index.js") + " " + dir
		marker := "mcpctl-binary-pty-fs-" + filepath.Base(t.TempDir())
		out := string(runAtTerminal(t, bin, marker, "--stdio", server, "--server-stderr", "discard",
			"tools", "call", "read_media_file", "path="+filepath.Join(dir, "logo.png")))
		if !strings.Contains(out, "[image: image/png, 1.1 KiB; use --out FILE to save it]") {
			t.Errorf("the image is not described:\n%s", out)
		}
		if strings.Contains(out, "iVBORw0KGgo") || len(out) > 1000 {
			t.Errorf("base64 at the terminal (%d bytes shown):\n%.600s", len(out), out)
		}
		noneLeft(t, marker)
	})
}
