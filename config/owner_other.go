//go:build !unix

package config

import "io/fs"

// ownerProblem: files carry no Unix owner and mode here; the user's
// consent (config trust) still guards the project's files.
func ownerProblem(fs.FileInfo) string { return "" }

// device: no device numbers here; a walk ends at the home folder or the
// root.
func device(fs.FileInfo) (uint64, bool) { return 0, false }
