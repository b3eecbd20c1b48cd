package config

import (
	"fmt"
	"strings"
)

// Warning is a problem that does not stop anything: an unknown key, a
// foreign entry that was skipped, a foreign file that could not be read.
type Warning struct {
	File         string
	Line, Column int // 0 when unknown
	Msg          string
}

func (w Warning) String() string {
	if w.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", w.File, w.Line, w.Column, w.Msg)
	}
	return w.File + ": " + w.Msg
}

// SyntaxError is a file that cannot be parsed, or a value in mcpctl's own
// file that is not what its key needs.
type SyntaxError struct {
	File         string
	Line, Column int
	Msg          string
	Near         string // the text of the offending line, if known
}

func (e *SyntaxError) Error() string {
	s := e.File
	if e.Line > 0 {
		s += fmt.Sprintf(":%d:%d", e.Line, e.Column)
	}
	s += ": " + e.Msg
	if near := strings.TrimSpace(e.Near); near != "" {
		s += fmt.Sprintf(" (near %q)", near)
	}
	return s
}

// NotFoundError is a name that no source defines.
type NotFoundError struct {
	Name  string
	File  string   // set when the name was looked up in one file (FILE:NAME)
	Known []string // every name that does exist there, in order
}

func (e *NotFoundError) Error() string {
	where := "in the config"
	if e.File != "" {
		where = "in " + e.File
	}
	return fmt.Sprintf("no server named %q %s", e.Name, where)
}
