package config

// The project's files: .mcp.json (Claude Code's project scope),
// .vscode/mcp.json and .cursor/mcp.json, the nearest of each from the
// working directory upwards. They come with whatever folder the user is
// in (a clone, a download, a shared folder), so two rules guard them
// (docs/config.md, "Project files"):
//
//   - who wrote it: a file is read only when it, and every folder from the
//     working directory up to it, belongs to the user (or root) and no
//     one else may write it (git's rule for a repository found by walking
//     up, CVE-2022-24765); the walk stops at the home folder and at the
//     boundary of the working directory's file system;
//   - the user's consent: a file that passes is used only once the user
//     has trusted its content (config trust, trust.go), and its ${VAR}
//     read only the variables the user's own config allows (projectEnv).

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// projectNames are the project's files, each with its format.
var projectNames = []struct{ format, rel string }{
	{FormatProject, ".mcp.json"},
	{FormatVSCode, filepath.Join(".vscode", "mcp.json")},
	{FormatCursor, filepath.Join(".cursor", "mcp.json")},
}

// ProjectFile is a project file as read for Load and config trust: its
// content, read from the very file that was checked, or why it is not
// used.
type ProjectFile struct {
	Source Source
	// Servers are what it defines (parsed even when it is not trusted, so
	// that config list can show them).
	Servers  []*Server
	Warnings []Warning
	data     []byte
}

// folder is one folder the walk went through, with what it found there.
type folder struct {
	path string
	info fs.FileInfo
}

// findProject walks up from start to the nearest of each project file and
// reads what it finds; problem files come back as warnings. home ends the
// walk (its own .cursor/mcp.json is Cursor's user file, not a project's);
// so does a change of device.
func findProject(start, home string) ([]*ProjectFile, []Warning) {
	byName := make([]*ProjectFile, len(projectNames)) // in precedence order
	var warnings []Warning
	var homeInfo fs.FileInfo
	if home != "" {
		homeInfo, _ = os.Stat(home)
	}
	found := make([]bool, len(projectNames))
	var chain []folder
	var startDev uint64
	for dir := filepath.Clean(start); ; dir = filepath.Dir(dir) {
		fi, err := os.Stat(dir)
		if err != nil {
			break
		}
		if dev, ok := device(fi); ok {
			if len(chain) == 0 {
				startDev = dev
			} else if dev != startDev {
				break
			}
		}
		chain = append(chain, folder{dir, fi})
		atHome := homeInfo != nil && os.SameFile(fi, homeInfo)
		for i, n := range projectNames {
			if found[i] || (atHome && n.format == FormatCursor) {
				continue
			}
			p := filepath.Join(dir, n.rel)
			st, err := os.Stat(p)
			if err != nil || st.IsDir() {
				continue
			}
			found[i] = true
			pf, problem := readProjectFile(Source{Format: n.format, File: p}, st, chain)
			if problem != "" {
				warnings = append(warnings, Warning{File: p, Msg: "not used: " + problem})
				continue
			}
			byName[i] = pf
		}
		if atHome || filepath.Dir(dir) == dir || !slices.Contains(found, false) {
			break
		}
	}
	var out []*ProjectFile
	for _, pf := range byName {
		if pf != nil {
			out = append(out, pf)
		}
	}
	return out, warnings
}

// readProjectFile checks a file the walk found (st, as found) and the
// folders from the walk's start up to it, then reads it from the file it
// opened, checked again: what is read is what was checked. A non-empty
// problem says why the file is not used.
func readProjectFile(src Source, st fs.FileInfo, chain []folder) (*ProjectFile, string) {
	if !st.Mode().IsRegular() {
		return nil, "it is not a regular file"
	}
	if p := ownerProblem(st); p != "" {
		return nil, "it " + p
	}
	// The folder that holds it (.vscode, .cursor) and the walk's folders.
	if dir := filepath.Dir(src.File); len(chain) == 0 || dir != chain[len(chain)-1].path {
		fi, err := os.Stat(dir)
		if err != nil {
			return nil, err.Error()
		}
		chain = append(chain, folder{dir, fi})
	}
	for _, f := range chain {
		if p := ownerProblem(f.info); p != "" {
			return nil, "the folder " + f.path + " " + p
		}
	}
	fh, err := os.Open(src.File)
	if err != nil {
		return nil, "cannot be read: " + err.Error()
	}
	defer fh.Close()
	opened, err := fh.Stat()
	if err != nil {
		return nil, "cannot be read: " + err.Error()
	}
	if !os.SameFile(opened, st) {
		return nil, "it changed while it was being read"
	}
	if p := ownerProblem(opened); p != "" {
		return nil, "it " + p
	}
	data, err := io.ReadAll(fh)
	if err != nil {
		return nil, "cannot be read: " + err.Error()
	}
	return &ProjectFile{Source: src, data: data}, ""
}

// parse reads what the file defines.
func (pf *ProjectFile) parse() error {
	f, err := parseForeign(pf.Source, pf.data, "") // no local scopes: those are ~/.claude.json's
	if err != nil {
		return err
	}
	pf.Servers, pf.Warnings = f.servers, f.warnings
	return nil
}

// ProjectFiles finds the project's files from o.Cwd upwards, checks and
// reads them, and says whether the user trusts each (Source.Trust; with
// o.TrustAll an untrusted one is TrustedForRun). Files that fail the
// checks, or do not parse, come back as warnings.
func ProjectFiles(o Options) ([]*ProjectFile, []Warning) {
	if o.Cwd == "" {
		return nil, nil
	}
	files, warnings := findProject(o.Cwd, o.Home)
	if len(files) == 0 {
		return nil, warnings
	}
	record, err := readTrust(o.TrustFile)
	if err != nil {
		warnings = append(warnings, Warning{File: o.TrustFile, Msg: "not read (" + err.Error() + "); no project file counts as trusted until 'mcpctl config trust' writes it anew"})
	}
	var out []*ProjectFile
	for _, pf := range files {
		pf.Source.Trust = record.state(pf.Source.File, pf.data)
		if o.TrustAll && !pf.Source.Trust.Usable() {
			pf.Source.Trust = TrustedForRun
		}
		if err := pf.parse(); err != nil {
			warnings = append(warnings, Warning{File: pf.Source.File, Msg: "not read: " + err.Error()})
			continue
		}
		out = append(out, pf)
	}
	return out, warnings
}

// ReadProjectFile reads a file the user names to trust, checked as the
// walk checks one (the file and the folder that holds it), with what it
// defines.
func ReadProjectFile(path string, o Options) (*ProjectFile, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(abs)
	dirInfo, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	pf, problem := readProjectFile(Source{File: abs}, st, []folder{{dir, dirInfo}})
	if problem != "" {
		return nil, &UnsafeFileError{File: abs, Problem: problem}
	}
	pf.Source.Format = detectFormat(abs, pf.data)
	if pf.Source.Format == FormatMcpctl {
		return nil, &UnsafeFileError{File: abs, Problem: "it is in mcpctl's own format, whose servers need no trust: only other clients' JSON files are trusted"}
	}
	pf.Source.Trust = Trusted
	if err := pf.parse(); err != nil {
		return nil, err
	}
	return pf, nil
}

// UnsafeFileError is a file named to be trusted that cannot be: it
// fails the checks of who may write it, or is no project file.
type UnsafeFileError struct{ File, Problem string }

func (e *UnsafeFileError) Error() string { return e.File + ": cannot be trusted: " + e.Problem }
