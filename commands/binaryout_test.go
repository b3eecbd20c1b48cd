package commands

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/mcptest"
)

func TestExtension(t *testing.T) {
	t.Parallel()
	for mimeType, want := range map[string]string{
		"image/png":                    ".png",
		"IMAGE/JPEG":                   ".jpg",
		"audio/wav; codecs=1":          ".wav",
		"application/pdf":              ".pdf",
		"application/x-mcpctl-unknown": ".bin",
		"":                             ".bin",
		"image/png/../../x":            ".bin",
		"image/../../../tmp/x":         ".bin",
		"text/plain\x1b]0;t\x07":       ".bin",
	} {
		if got := extension(mimeType); got != want {
			t.Errorf("extension(%q) = %q, want %q", mimeType, got, want)
		}
	}
}

func TestRestOf(t *testing.T) {
	t.Parallel()
	image := `{"type":"image","data":"iVBORw==","mimeType":"image/png"}`
	second := []client.Binary{{Index: 1, Type: "image", Base64: "iVBORw=="}}
	for _, c := range []struct {
		name, raw string
		written   []client.Binary
		want      string
	}{
		{"the other content and structuredContent stay, in order",
			`{"z":1,"content":[{"type":"text","text":"hi"},` + image + `],"structuredContent":{"n":1}}`, second,
			`{"z":1,"content":[{"type":"text","text":"hi"}],"structuredContent":{"n":1}}`},
		{"structuredContent repeating the written data goes (server-filesystem's)",
			`{"content":[{"type":"text","text":"hi"},` + image + `],"structuredContent":{"content":[` + image + `]}}`, second,
			`{"content":[{"type":"text","text":"hi"}]}`},
		{"nothing left: nothing to print",
			`{"content":[` + image + `,` + image + `]}`, []client.Binary{{Index: 0, Base64: "iVBORw=="}, {Index: 1, Base64: "iVBORw=="}}, ``},
	} {
		got, err := restOf(json.RawMessage(c.raw), c.written)
		if err != nil || string(got) != c.want {
			t.Errorf("%s: got %s (%v), want %s", c.name, got, err, c.want)
		}
	}
}

var outPNG = []byte("\x89PNG\r\n\x1a\nrun test")

// binaryServer answers shot with text and two images, plain with text,
// broken with isError and an image.
func binaryServer(_ context.Context, r *mcptest.Request) (any, error) {
	switch r.Method {
	case "tools/list":
		return json.RawMessage(`{"tools":[{"name":"shot","inputSchema":{"type":"object"}},{"name":"plain","inputSchema":{"type":"object"}},{"name":"broken","inputSchema":{"type":"object"}}]}`), nil
	case "tools/call":
		var p struct{ Name string }
		_ = json.Unmarshal(r.Params, &p)
		if p.Name == "plain" {
			return json.RawMessage(`{"content":[{"type":"text","text":"no image"}]}`), nil
		}
		if p.Name == "broken" {
			return json.RawMessage(`{"content":[{"type":"text","text":"it broke"},{"type":"image","mimeType":"image/png","data":"AAEC"}],"isError":true}`), nil
		}
		data := base64.StdEncoding.EncodeToString(outPNG)
		return json.RawMessage(`{"content":[{"type":"text","text":"two shots"},` +
			`{"type":"image","mimeType":"image/png","data":"` + data + `"},{"type":"image","mimeType":"image/x-new","data":"AAEC"}]}`), nil
	}
	return nil, &mcptest.Error{Code: client.CodeMethodNotFound, Message: "Method not found"}
}

func TestRunToolsCallOut(t *testing.T) {
	t.Parallel()
	e := newRunEnv(t, binaryServer)
	call := func(name string, out binaryOut) error {
		return runToolsCall(&toolsCallOptions{invocation: e.invocation(context.Background()), Name: name, Items: []string{}, Out: out})
	}
	dir := t.TempDir()
	if err := call("shot", binaryOut{Path: dir + "/"}); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"content-1.png": string(outPNG), "content-2.bin": "\x00\x01\x02"} {
		if got, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(got) != want {
			t.Errorf("%s holds %q (%v), want %q", name, got, err, want)
		}
	}
	if want := "mcpctl: wrote 16 bytes (image/png) to " + filepath.Join(dir, "content-1.png") + "\n" +
		"mcpctl: wrote 3 bytes (image/x-new) to " + filepath.Join(dir, "content-2.bin") + "\n"; e.stderr() != want {
		t.Errorf("stderr %q, want %q", e.stderr(), want)
	}
	if got := e.stdout(); got != `{"content":[{"type":"text","text":"two shots"}]}`+"\n" {
		t.Errorf("stdout %q, want the text left", got)
	}

	// Again into the same folder: refused, nothing replaced.
	err := call("shot", binaryOut{Path: dir})
	if ExitCode(err) != ExitUsage || !strings.Contains(err.Error(), "content-1.png exists already: pass --force to replace it; nothing is written") {
		t.Errorf("second run: %v (exit %d)", err, ExitCode(err))
	}

	// A FILE that exists is refused before the tool runs.
	file := filepath.Join(dir, "content-1.png")
	before := len(e.sent("tools/call"))
	err = call("shot", binaryOut{Path: file})
	if ExitCode(err) != ExitUsage || !strings.Contains(err.Error(), "exists already: pass --force") || len(e.sent("tools/call")) != before {
		t.Errorf("FILE that exists: %v (exit %d), %d calls more", err, ExitCode(err), len(e.sent("tools/call"))-before)
	}
	// --force replaces it, and --quiet leaves out the note; the second
	// image is not written, and a warning says so.
	if err := os.WriteFile(file, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	e.ios.SetQuiet(true)
	before = len(e.stderr())
	if err := call("shot", binaryOut{Path: file, Force: true}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(file); string(got) != string(outPNG) {
		t.Errorf("--force: the file holds %q", got)
	}
	if got := e.stderr()[before:]; got != "mcpctl: warning: the result has 1 more binary content items, not written (--out DIR/ writes each)\n" {
		t.Errorf("--quiet: stderr %q, want the warning alone", got)
	}
	e.ios.SetQuiet(false)

	// No binary content: the result is printed, and exit 2 says so.
	before = len(e.stdout())
	err = call("plain", binaryOut{Path: filepath.Join(dir, "x.png")})
	if ExitCode(err) != ExitUsage || err.Error() != "tools/call plain: the result has no image, audio or blob content for --out; nothing is written" {
		t.Errorf("no binary content: %v (exit %d)", err, ExitCode(err))
	}
	if got := e.stdout()[before:]; got != `{"content":[{"type":"text","text":"no image"}]}`+"\n" {
		t.Errorf("no binary content: stdout %q, want the result", got)
	}
	if _, err := os.Lstat(filepath.Join(dir, "x.png")); err == nil {
		t.Error("a file was written for a result with no binary content")
	}

	// isError: the result is printed as it is, nothing written, exit 1.
	before = len(e.stdout())
	err = call("broken", binaryOut{Path: filepath.Join(dir, "broken.png")})
	if ExitCode(err) != ExitToolError || !strings.Contains(e.stdout()[before:], `"isError":true`) {
		t.Errorf("isError: %v (exit %d), stdout %q", err, ExitCode(err), e.stdout()[before:])
	}
	if _, err := os.Lstat(filepath.Join(dir, "broken.png")); err == nil {
		t.Error("a file was written for an isError result")
	}

	// A folder that does not exist: refused before the tool runs.
	before = len(e.sent("tools/call"))
	err = call("shot", binaryOut{Path: filepath.Join(dir, "none") + "/"})
	if ExitCode(err) != ExitUsage || !strings.Contains(err.Error(), "there is no folder") || len(e.sent("tools/call")) != before {
		t.Errorf("no such folder: %v (exit %d)", err, ExitCode(err))
	}

	// - writes the first image's bytes to stdout, and nothing else.
	before = len(e.stdout())
	if err := call("shot", binaryOut{Path: "-"}); err != nil {
		t.Fatal(err)
	}
	if got := e.stdout()[before:]; got != string(outPNG) {
		t.Errorf("--out -: stdout %q", got)
	}
	e.done()
}
