package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// WriteTree writes a tree of files below a folder whose names may come
// from someone else (a server's skill), into a folder others may be able
// to write in. It writes all of the files or none, and never through a
// symbolic link or a folder put in place of one it checked:
//
//   - the names are checked first, as a whole (CheckTree), then what is on
//     the disk already (no symbolic link, no file where a folder goes, no
//     folder where a file goes), before anything is created;
//   - each folder is opened relative to its parent (os.Root: openat) and
//     used only if it is the very folder that was checked, never through a
//     link; each file is written to a temporary file in its folder, synced;
//   - only when every file is in place beside its name are they renamed
//     over their names (CreateTree: linked to them, so that no file is
//     replaced). A failure before that removes the temporary files and
//     the folders WriteTree created.

// TreeFile is one file of a tree: its "/"-separated path below the tree's
// base, and its content.
type TreeFile struct {
	Path string
	Data []byte
}

// NameError is a tree whose names cannot be written as given, whatever the
// disk holds: a name used for a file and a folder, a name or path longer
// than a file system allows, a name that is not one.
type NameError struct {
	Path    string // "/"-separated, as given
	Problem string // what is wrong with it
}

func (e *NameError) Error() string { return ShortPath(e.Path) + " " + e.Problem }

// TreeError is a tree WriteTree did not write: it clashes with what the
// disk holds below its folder (a symbolic link, a file where a folder
// goes, a folder where a file goes), its paths would be too long there,
// or a file or folder could not be made. Nothing was written.
type TreeError struct {
	Path    string // "/"-separated, relative to the tree's folder
	Problem string
	Exists  bool // CreateTree's refusal: the disk holds the name already
}

func (e *TreeError) Error() string { return ShortPath(e.Path) + " " + e.Problem }

// maxName is the longest file name, in bytes, that the common file
// systems take (NAME_MAX; 255 UTF-16 units on Windows, fewer than bytes).
const maxName = 255

// maxPath is the longest path the system takes, in bytes, with its
// terminating NUL (PATH_MAX): 4096 on Linux, 1024 on macOS and the BSDs.
func maxPath() int {
	switch runtime.GOOS {
	case "linux", "android", "windows":
		return 4096
	}
	return 1024
}

// CheckTree checks the paths of a tree's files ("/"-separated, relative)
// before anything is written: each segment a file name (not empty, "." or
// "..", no NUL) of at most NAME_MAX bytes, each path shorter than
// PATH_MAX, none listed twice and none the folder of another. The first
// problem, in sorted order, is a *NameError.
func CheckTree(paths []string) error {
	sorted := slices.Clone(paths)
	slices.Sort(sorted)
	files := make(map[string]bool, len(sorted))
	for _, p := range sorted {
		if files[p] {
			return &NameError{p, "is listed twice"}
		}
		files[p] = true
	}
	for _, p := range sorted {
		if len(p) >= maxPath() {
			return &NameError{p, fmt.Sprintf("is a path of %d bytes, more than the %d a path may have", len(p), maxPath()-1)}
		}
		segs := strings.Split(p, "/")
		for i, seg := range segs {
			switch {
			case seg == "" || seg == "." || seg == ".." || strings.IndexByte(seg, 0) >= 0:
				return &NameError{p, fmt.Sprintf("has a segment %q that is not a file name", seg)}
			case len(seg) > maxName:
				return &NameError{p, fmt.Sprintf("has a name of %d bytes, more than the %d a file name may have", len(seg), maxName)}
			}
			if dir := strings.Join(segs[:i+1], "/"); i < len(segs)-1 && files[dir] {
				return &NameError{dir, "is both a file and the folder of " + ShortPath(p)}
			}
		}
	}
	return nil
}

// asTreeError is err as a *TreeError about p: the system's words for
// what went wrong, without the operation and path it names (the path
// below a folder held open, not below the tree's).
func asTreeError(p string, err error) error {
	var te *TreeError
	var ne *NameError
	if errors.As(err, &te) || errors.As(err, &ne) {
		return err
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &TreeError{Path: p, Problem: "could not be written (" + err.Error() + ")"}
}

// ShortPath is p as an error message shows it: a name longer than 32
// bytes cut to its first 16 and "…", and a path still longer than 80
// bytes shown as its first and last segments.
func ShortPath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if len(s) > 32 {
			n := 16
			for n > 0 && !utf8.RuneStart(s[n]) {
				n--
			}
			segs[i] = s[:n] + "…"
		}
	}
	if short := strings.Join(segs, "/"); len(short) <= 80 || len(segs) < 3 {
		return short
	}
	return segs[0] + "/…/" + segs[len(segs)-1]
}

// WriteTree writes files below top/base (base "/"-separated, "" for
// top itself), creating the folders on the way with mode dirPerm; each
// file is 0600. top is the caller's own folder, created as a path if need
// be; nothing below it is followed if it is a symbolic link. The error is
// a *NameError or a *TreeError when nothing was written (what was begun
// has been undone); any other comes from the final renames, which fail
// only if a folder is put where a file goes in the meantime.
func WriteTree(top, base string, files []TreeFile, dirPerm fs.FileMode) error {
	return writeTree(top, base, files, dirPerm, true)
}

// CreateTree is WriteTree for files that must be new: a name of the tree
// that the disk holds already (a file, a link, anything) is a *TreeError
// before anything is written, and each file is linked into place rather
// than renamed over its name, so that one made meanwhile is not replaced
// either: then the files linked so far are taken away again and the
// error is a *TreeError too. (WriteTree is to CreateTree as Write is to
// Create.)
func CreateTree(top, base string, files []TreeFile, dirPerm fs.FileMode) error {
	return writeTree(top, base, files, dirPerm, false)
}

func writeTree(top, base string, files []TreeFile, dirPerm fs.FileMode, replace bool) error {
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.Path
		if base != "" {
			paths[i] = base + "/" + f.Path
		}
	}
	if err := CheckTree(paths); err != nil {
		return err
	}
	abs, err := filepath.Abs(top)
	if err != nil {
		return err
	}
	for _, p := range paths {
		if n := len(abs) + 1 + len(p); n >= maxPath() {
			return &TreeError{Path: p, Problem: fmt.Sprintf("would be a path of %d bytes, more than the %d a path may have", n, maxPath()-1)}
		}
	}
	if err := checkOnDisk(top, paths, replace); err != nil {
		return asTreeError("", err)
	}
	w := &treeWriter{perm: dirPerm, dirs: map[string]*os.Root{}, replace: replace}
	defer w.close()
	if err := w.stage(top, paths, files); err != nil {
		w.undo()
		return asTreeError("", err)
	}
	return w.commit()
}

// checkOnDisk looks at what top already holds where the tree goes, and
// writes nothing: the refusals it finds come before the first write.
// Writing checks each folder again as it opens it. Unless replace, a
// file's name must be free.
func checkOnDisk(top string, paths []string, replace bool) error {
	if _, err := os.Stat(top); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	root, err := os.OpenRoot(top)
	if err != nil {
		return err
	}
	defer root.Close()
	seen := map[string]bool{}
	for _, p := range paths {
		segs := strings.Split(p, "/")
		for i := range segs {
			sub := strings.Join(segs[:i+1], "/")
			if seen[sub] {
				continue
			}
			seen[sub] = true
			fi, err := root.Lstat(sub) // its folders were checked first: none is a link
			switch {
			case errors.Is(err, fs.ErrNotExist):
			case err != nil:
				return asTreeError(sub, err) // one turned into a link since: "path escapes"
			case fi.Mode()&fs.ModeSymlink != 0:
				return &TreeError{Path: sub, Problem: "is a symbolic link; not following it"}
			case i < len(segs)-1 && !fi.IsDir():
				return &TreeError{Path: sub, Problem: "is not a folder"}
			case i == len(segs)-1 && fi.IsDir():
				return &TreeError{Path: sub, Problem: "is a folder where a file goes"}
			case i == len(segs)-1 && !replace:
				return &TreeError{Path: sub, Problem: existsProblem, Exists: true}
			}
			if err != nil {
				break // nothing further down exists
			}
		}
	}
	return nil
}

// existsProblem is what CreateTree says of a name the disk holds already.
const existsProblem = "exists already"

// treeWriter is one WriteTree under way: the folders it holds open (by
// path below top, "" for top), what it created, the files it staged.
type treeWriter struct {
	perm    fs.FileMode
	replace bool // WriteTree's: rename over a file of the same name
	dirs    map[string]*os.Root
	created []string // the folders below top it made, parents first
	top     string
	topMade string // the first folder of top's path that did not exist, if WriteTree created it
	staged  []staged
}

type staged struct {
	dir             *os.Root
	tmp, name, path string // path: below top, for errors
}

// stage creates the folders and writes every file beside its name.
func (w *treeWriter) stage(top string, paths []string, files []TreeFile) error {
	if err := w.makeTop(top); err != nil {
		return err
	}
	root, err := os.OpenRoot(top)
	if err != nil {
		return err
	}
	w.dirs[""] = root
	for i, p := range paths {
		folder, name := "", p
		if j := strings.LastIndexByte(p, '/'); j >= 0 {
			folder, name = p[:j], p[j+1:]
		}
		dir, err := w.folder(folder)
		if err != nil {
			return err
		}
		if fi, err := dir.Lstat(name); err == nil && fi.IsDir() {
			return &TreeError{Path: p, Problem: "is a folder where a file goes"}
		} else if err == nil && !w.replace {
			return &TreeError{Path: p, Problem: existsProblem, Exists: true}
		}
		tmp, err := writeTempIn(dir, files[i].Data)
		if err != nil {
			return asTreeError(p, err)
		}
		w.staged = append(w.staged, staged{dir, tmp, name, p})
	}
	return nil
}

// makeTop creates top as a path (it is the caller's), remembering the
// first folder it had to create so that undo can take it away again.
func (w *treeWriter) makeTop(top string) error {
	w.top = filepath.Clean(top)
	missing := ""
	for p := w.top; ; {
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			break
		}
		missing = p
		parent := filepath.Dir(p)
		if parent == p {
			break
		}
		p = parent
	}
	if err := os.MkdirAll(top, w.perm); err != nil {
		return err
	}
	w.topMade = missing
	return nil
}

// folder opens the folder p (below top), creating it if need be, through
// the folder that holds it: a folder is used only if it is the one looked
// at, not a symbolic link nor anything put in its place since.
func (w *treeWriter) folder(p string) (*os.Root, error) {
	if r, ok := w.dirs[p]; ok {
		return r, nil
	}
	parentPath, name := "", p
	if j := strings.LastIndexByte(p, '/'); j >= 0 {
		parentPath, name = p[:j], p[j+1:]
	}
	parent, err := w.folder(parentPath)
	if err != nil {
		return nil, err
	}
	switch err := parent.Mkdir(name, w.perm); {
	case err == nil:
		w.created = append(w.created, p)
	case !errors.Is(err, fs.ErrExist):
		return nil, asTreeError(p, err)
	}
	fi, err := parent.Lstat(name)
	switch {
	case err != nil:
		return nil, asTreeError(p, err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, &TreeError{Path: p, Problem: "is a symbolic link; not following it"}
	case !fi.IsDir():
		return nil, &TreeError{Path: p, Problem: "is not a folder"}
	}
	r, err := parent.OpenRoot(name)
	if err != nil {
		return nil, asTreeError(p, err)
	}
	if st, err := r.Stat("."); err != nil || !os.SameFile(fi, st) {
		r.Close()
		return nil, &TreeError{Path: p, Problem: "was replaced while it was being written (by a symbolic link or another folder); not following it"}
	}
	w.dirs[p] = r
	return r, nil
}

// writeTempIn writes data, synced, to a new 0600 file in dir and returns
// its name. O_EXCL: a name someone else made, a link included, is never
// opened.
func writeTempIn(dir *os.Root, data []byte) (string, error) {
	for range 100 {
		name := tempPrefix + strconv.FormatUint(rand.Uint64(), 36)
		f, err := dir.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		_, werr := f.Write(data)
		serr := error(nil)
		if werr == nil {
			serr = f.Sync()
		}
		if err := errors.Join(werr, serr, f.Close()); err != nil {
			_ = dir.Remove(name)
			return "", err
		}
		return name, nil
	}
	return "", errors.New("no free name for a temporary file")
}

// commit renames every staged file over its name and syncs the folders;
// without replace, links each to its name instead (commitNew).
func (w *treeWriter) commit() error {
	if !w.replace {
		return w.commitNew()
	}
	for i, s := range w.staged {
		if err := s.dir.Rename(s.tmp, s.name); err != nil {
			for _, rest := range w.staged[i:] {
				_ = rest.dir.Remove(rest.tmp)
			}
			return err
		}
	}
	for _, r := range w.dirs {
		syncRoot(r)
	}
	return nil
}

// commitNew links every staged file to its name, which fails if the name
// was taken meanwhile: then the names linked so far are removed (they
// are this call's own files) and the folders made, as undo does.
func (w *treeWriter) commitNew() error {
	for i, s := range w.staged {
		if err := s.dir.Link(s.tmp, s.name); err != nil {
			for _, done := range w.staged[:i] {
				_ = done.dir.Remove(done.name)
			}
			w.undo()
			if errors.Is(err, fs.ErrExist) {
				return &TreeError{Path: s.path, Problem: existsProblem, Exists: true}
			}
			return asTreeError(s.path, err)
		}
	}
	for _, s := range w.staged {
		_ = s.dir.Remove(s.tmp)
	}
	for _, r := range w.dirs {
		syncRoot(r)
	}
	return nil
}

// undo removes the staged files and the folders stage created, the
// deepest first; a folder is removed only while empty.
func (w *treeWriter) undo() {
	for _, s := range w.staged {
		_ = s.dir.Remove(s.tmp)
	}
	for i := len(w.created) - 1; i >= 0; i-- {
		p := w.created[i]
		parentPath, name := "", p
		if j := strings.LastIndexByte(p, '/'); j >= 0 {
			parentPath, name = p[:j], p[j+1:]
		}
		if parent, ok := w.dirs[parentPath]; ok {
			_ = parent.Remove(name)
		}
	}
	w.close() // a folder held open cannot be removed everywhere
	if w.topMade == "" {
		return
	}
	// top's own folders, made as a path: removed while empty, top first.
	for p := w.top; ; p = filepath.Dir(p) {
		if os.Remove(p) != nil || p == w.topMade {
			return
		}
	}
}

func (w *treeWriter) close() {
	for p, r := range w.dirs {
		r.Close()
		delete(w.dirs, p)
	}
}
