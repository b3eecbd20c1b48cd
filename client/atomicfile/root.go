package atomicfile

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"strconv"
)

// WriteIn is Write of the file name (a name in root's folder, not a path
// below it) relative to root, an open folder: the temporary file is made
// there (exclusively, so never through a link) and renamed into place
// there. A folder moved or swapped after it was opened, or a link planted
// in it, leads the write nowhere else.
func WriteIn(root *os.Root, name string, data []byte) error {
	var tmp string
	var f *os.File
	var err error
	for range 100 {
		tmp = tempPrefix + strconv.FormatUint(uint64(rand.Uint32()), 10)
		f, err = root.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return err
	}
	if err := fill(f, data); err != nil {
		_ = root.Remove(tmp)
		return err
	}
	if err := root.Rename(tmp, name); err != nil {
		_ = root.Remove(tmp)
		return err
	}
	if d, err := root.Open("."); err == nil {
		_ = d.Sync() // as syncDir: best effort
		d.Close()
	}
	return nil
}
