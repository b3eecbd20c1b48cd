//go:build unix

package config

import (
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"syscall"
)

// ownerProblem says why a file or folder found above the working
// directory cannot be taken as the user's ("" when it can), as a phrase
// after "it" or a folder's name: it belongs to someone other than the user
// or root, or its group or others may write it. This is git's rule for a repository found by walking up
// (CVE-2022-24765, safe.directory), with the mode added: a file another
// user may rewrite is theirs as much as ours.
func ownerProblem(fi fs.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	if uid := int(st.Uid); uid != os.Getuid() && uid != 0 {
		return "belongs to uid " + strconv.Itoa(uid) + ", not to you or root"
	}
	switch mode := fi.Mode(); {
	case mode.Perm()&0o002 != 0:
		return "is writable by anyone (mode " + modeText(mode) + ")"
	case mode.Perm()&0o020 != 0:
		return "is writable by its group (mode " + modeText(mode) + ")"
	}
	return ""
}

// modeText is a mode as chmod takes it: 0644, 1777 with the sticky bit.
func modeText(m fs.FileMode) string {
	n := uint32(m.Perm())
	if m&fs.ModeSticky != 0 {
		n |= 0o1000
	}
	if m&fs.ModeSetgid != 0 {
		n |= 0o2000
	}
	if m&fs.ModeSetuid != 0 {
		n |= 0o4000
	}
	return fmt.Sprintf("%04o", n)
}

// device is the file system a file is on, to stop a walk at its boundary
// (as git does without GIT_DISCOVERY_ACROSS_FILESYSTEM).
func device(fi fs.FileInfo) (uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Dev), true
}
