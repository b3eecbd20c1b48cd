package commands

// --out of the commands that print a tool's result (tools call, tasks
// wait, tasks result, resume of a tools/call): its binary content
// (image, audio, an embedded resource's blob) decoded into files rather
// than printed.
//
//   - --out FILE writes the first binary item to FILE; - writes it to
//     stdout (refused at a terminal, as resources read's is);
//   - --out DIR/ (a trailing slash, or a folder that exists) writes each
//     one to DIR as content-N.EXT: numbered by mcpctl, N from 1 in the
//     result's order, EXT from its MIME type (extensions, .bin for a type
//     not there). No name a server chose is ever used;
//   - the files are written by atomicfile.CreateTree (WriteTree with
//     --force), through the folder held open: never through a symbolic
//     link, and all of them or none;
//   - what is printed is the result without what was written: its other
//     content, and its structuredContent unless that repeats the written
//     data (server-filesystem's does); nothing when no more is left.
//
// Everything that can be checked before the tool runs is (the folder,
// a FILE that exists), so a refusal costs no call.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/atomicfile"
	"github.com/mcpctl/mcpctl/client/ojson"
	"github.com/mcpctl/mcpctl/output"
)

// binaryOut is --out and --force of a command that prints a tool's result.
type binaryOut struct {
	Path  string // FILE, DIR/, - for stdout; "" prints the result as ever
	Force bool   // replace files that exist

	// none is set when a result had no binary content: the command ends
	// in a usage error once the result is printed (done).
	none bool
}

const outUsage = "write the result's image, audio and blob content, decoded: the first to `FILE` (- for stdout), or each to DIR/ as content-1.png, content-2.wav, …"

func binaryOutFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "out", Usage: outUsage},
		&cli.BoolFlag{Name: "force", Usage: "let --out replace files that exist"},
	}
}

// outHelp is the part of a command's description about --out.
const outHelp = "Binary content (image, audio, a blob) is never printed as base64 at a terminal:\n" +
	"--out FILE writes the first item decoded (- for stdout), --out DIR/ each one as\n" +
	"DIR/content-N.EXT (N from 1, EXT from its MIME type, .bin when unknown); the folder\n" +
	"must exist, and a file that exists is refused unless --force. What is printed then\n" +
	"is the rest of the result; one with no binary content is printed, then exit 2."

// parseBinaryOut reads --out and --force; the folder and files are
// looked at by check, once the command runs.
func parseBinaryOut(c *cli.Context, ios *output.IOStreams) (binaryOut, error) {
	b := binaryOut{Path: c.String("out"), Force: c.Bool("force")}
	switch {
	case c.IsSet("out") && b.Path == "":
		return b, usagef("--out needs a FILE, a DIR/ or - (stdout)")
	case b.Force && b.Path == "":
		return b, usagef("--force lets --out replace files: give --out too")
	case b.Path == "-" && ios.IsStdoutTTY():
		return b, rawToTerminal()
	}
	return b, nil
}

// rawToTerminal refuses --out - when stdout is a terminal.
func rawToTerminal() error {
	return usagef("--out - would write raw bytes to the terminal; redirect stdout or name a file")
}

// dir reports whether --out names a folder: written with a trailing
// slash, or one that exists (through the user's own link to it).
func (b *binaryOut) dir() bool {
	if strings.HasSuffix(b.Path, "/") || strings.HasSuffix(b.Path, string(filepath.Separator)) {
		return true
	}
	fi, err := os.Stat(b.Path)
	return err == nil && fi.IsDir()
}

// check refuses, before anything is sent, an --out that cannot be
// written: a folder that does not exist, a FILE that does without
// --force, or one that is a symbolic link.
func (b *binaryOut) check() error {
	if b.Path == "" || b.Path == "-" {
		return nil
	}
	folder := filepath.Dir(filepath.Clean(b.Path))
	if b.dir() {
		folder = b.Path
	}
	if fi, err := os.Stat(folder); err != nil || !fi.IsDir() {
		return usagef("--out %s: there is no folder %s to write in; create it first", b.Path, folder)
	}
	if b.dir() {
		return nil // the names are known once the result is
	}
	fi, err := os.Lstat(b.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return usagef("--out %s: %v", b.Path, err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return usagef("--out %s is a symbolic link; mcpctl does not write through one", b.Path)
	case !b.Force:
		return usagef("--out %s exists already: pass --force to replace it", b.Path)
	}
	return nil
}

// wrap is call with the result's binary content taken to --out; what
// it returns is what is left to print, nil for nothing. An isError
// result, a task's handle or a dry run is left as it is.
func (b *binaryOut) wrap(ios *output.IOStreams, call func() (json.RawMessage, error)) func() (json.RawMessage, error) {
	if b.Path == "" {
		return call
	}
	return func() (json.RawMessage, error) {
		raw, err := call()
		if err != nil || isToolError(raw) || client.CreatedTaskID(raw) != "" {
			return raw, err
		}
		bins, err := client.BinaryContent(raw)
		if err != nil {
			return nil, err
		}
		if len(bins) == 0 {
			if b.Path == "-" {
				return nil, errNoBinary // stdout was for the bytes
			}
			b.none = true
			return raw, nil
		}
		written, err := b.write(ios, bins)
		if err != nil {
			return nil, err
		}
		if b.Path == "-" {
			return nil, nil
		}
		return restOf(raw, written)
	}
}

// errNoBinary is a result with nothing for --out to write.
var errNoBinary = usagef("the result has no image, audio or blob content for --out; nothing is written")

// done is the command's error once the result is printed: a result with
// no binary content is a usage error (exit 2), after it was shown.
func (b *binaryOut) done(op string, err error) error {
	if err == nil && b.none {
		return wrapOp(op, errNoBinary)
	}
	return err
}

// write writes bins to --out and says what it wrote; it returns the
// items written.
func (b *binaryOut) write(ios *output.IOStreams, bins []client.Binary) ([]client.Binary, error) {
	if !b.dir() {
		first := bins[0]
		if len(bins) > 1 {
			fmt.Fprintf(ios.ErrOut, "mcpctl: warning: the result has %d more binary content items, not written (--out DIR/ writes each)\n", len(bins)-1)
		}
		if b.Path == "-" {
			_, err := ios.Out.Write(first.Data)
			return bins[:1], err
		}
		folder, name := filepath.Split(filepath.Clean(b.Path))
		if err := b.writeFiles(folder, []atomicfile.TreeFile{{Path: name, Data: first.Data}}); err != nil {
			return nil, err
		}
		noteWrote(ios, len(first.Data), first.MimeType, "", b.Path)
		return bins[:1], nil
	}
	files := make([]atomicfile.TreeFile, len(bins))
	for i, bin := range bins {
		files[i] = atomicfile.TreeFile{Path: fmt.Sprintf("content-%d%s", i+1, extension(bin.MimeType)), Data: bin.Data}
	}
	if err := b.writeFiles(b.Path, files); err != nil {
		return nil, err
	}
	for i, f := range files {
		noteWrote(ios, len(f.Data), bins[i].MimeType, "", filepath.Join(b.Path, f.Path))
	}
	return bins, nil
}

// writeFiles writes files in folder, new ones only unless --force.
func (b *binaryOut) writeFiles(folder string, files []atomicfile.TreeFile) error {
	if folder == "" {
		folder = "."
	}
	write := atomicfile.CreateTree
	if b.Force {
		write = atomicfile.WriteTree
	}
	return outWriteError(folder, write(folder, "", files, 0o755))
}

// outWriteError is a refused --out write in mcpctl's words: a usage
// error (exit 2), nothing written.
func outWriteError(folder string, err error) error {
	var tree *atomicfile.TreeError
	var names *atomicfile.NameError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &tree) && tree.Exists:
		return usagef("--out: %s %s: pass --force to replace it; nothing is written", filepath.Join(folder, filepath.FromSlash(atomicfile.ShortPath(tree.Path))), tree.Problem)
	case errors.As(err, &tree):
		return usagef("--out: %s %s; nothing is written", filepath.Join(folder, filepath.FromSlash(atomicfile.ShortPath(tree.Path))), tree.Problem)
	case errors.As(err, &names):
		return usagef("--out: %v; nothing is written", names)
	}
	return usagef("--out: %v", err)
}

// noteWrote is the note of one file written (resources read's too, whose
// more says what was not).
func noteWrote(ios *output.IOStreams, n int, mimeType, more, path string) {
	what := fmt.Sprintf("wrote %d bytes", n)
	if mimeType != "" {
		what += " (" + output.SanitizeLine(mimeType) + ")"
	}
	notef(ios, "%s%s to %s", what, more, output.SanitizeLine(path))
}

// extensions are the file extensions of the MIME types a tool's binary
// content commonly has: mcpctl's own table, so that a name never depends
// on the machine's mime.types nor takes anything else from the server.
var extensions = map[string]string{
	"image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp",
	"image/svg+xml": ".svg", "image/bmp": ".bmp", "image/tiff": ".tiff", "image/avif": ".avif",
	"image/heic": ".heic", "image/x-icon": ".ico", "image/vnd.microsoft.icon": ".ico",
	"audio/wav": ".wav", "audio/x-wav": ".wav", "audio/wave": ".wav", "audio/mpeg": ".mp3",
	"audio/mp4": ".m4a", "audio/aac": ".aac", "audio/ogg": ".ogg", "audio/opus": ".opus",
	"audio/flac": ".flac", "audio/webm": ".weba",
	"video/mp4": ".mp4", "video/webm": ".webm",
	"application/pdf": ".pdf", "application/zip": ".zip", "application/gzip": ".gz",
	"application/json": ".json", "text/plain": ".txt", "text/csv": ".csv", "text/html": ".html",
	"text/markdown": ".md",
}

// extension is the file extension for a MIME type: .bin for one not in
// extensions, or none.
func extension(mimeType string) string {
	mt, _, err := mime.ParseMediaType(mimeType)
	if ext, ok := extensions[mt]; ok && err == nil {
		return ext
	}
	return ".bin"
}

// restOf is the result without the content items written: its members
// in order, content without them, and structuredContent unless it
// repeats what was written. nil when no content and no structuredContent
// are left.
func restOf(raw json.RawMessage, written []client.Binary) (json.RawMessage, error) {
	m, err := ojson.SplitObject(raw)
	if err != nil {
		return nil, &client.ProtocolError{Msg: "the tool's result is not a JSON object"}
	}
	var items []json.RawMessage
	if err := json.Unmarshal(m.Get("content"), &items); err != nil {
		return nil, &client.ProtocolError{Msg: "the tool's result has no content list"}
	}
	skip := map[int]bool{}
	for _, w := range written {
		skip[w.Index] = true
	}
	left := []json.RawMessage{}
	for i, it := range items {
		if !skip[i] {
			left = append(left, it)
		}
	}
	m.Set("content", ojson.JoinArray(left))
	if sc := m.Get("structuredContent"); sc != nil && repeats(sc, written) {
		m.Delete("structuredContent")
	}
	if len(left) == 0 && !m.Has("structuredContent") {
		return nil, nil
	}
	return m.JSON(), nil
}

// repeats reports whether a JSON value holds the base64 text of one of
// the items, as a string of its own.
func repeats(v json.RawMessage, items []client.Binary) bool {
	for _, it := range items {
		if it.Base64 != "" && bytes.Contains(v, []byte(`"`+it.Base64+`"`)) {
			return true
		}
	}
	return false
}
