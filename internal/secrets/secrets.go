// Package secrets keeps the credential values a command sends (a bearer
// token, the values of secret headers, a URL's password and keys, OAuth
// tokens and client secrets, secret --env values) and replaces each of
// them with [REDACTED] in text that quotes a server: a server may echo the
// credential it was sent, in an HTTP error body, a JSON-RPC error message
// or a log line, and mcpctl prints those.
//
// A Set is given its values as the command learns them and is safe for
// concurrent use; a nil *Set has none and redacts nothing.
package secrets

import (
	"encoding/json"
	"io"
	"sort"
	"strings"
	"sync"
)

// Redacted is what a credential value is replaced with.
const Redacted = "[REDACTED]"

// MinLen is the shortest value that is looked for: a shorter one ("1",
// "yes") would be found in ordinary words and mangle every message, and is
// no credential worth the name.
const MinLen = 8

// Set is the credential values of one command.
type Set struct {
	mu   sync.RWMutex
	seen map[string]bool
	list []string // longest first, so that a value inside another is not found first
	r    *strings.Replacer
}

// Add adds values; empty and short ones (MinLen) are ignored.
func (s *Set) Add(values ...string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	added := false
	for _, v := range values {
		if len(v) < MinLen || s.seen[v] {
			continue
		}
		if s.seen == nil {
			s.seen = map[string]bool{}
		}
		s.seen[v], added = true, true
		s.list = append(s.list, v)
	}
	if !added {
		return
	}
	sort.SliceStable(s.list, func(i, j int) bool { return len(s.list[i]) > len(s.list[j]) })
	pairs := make([]string, 0, 2*len(s.list))
	for _, v := range s.list {
		pairs = append(pairs, v, Redacted)
	}
	s.r = strings.NewReplacer(pairs...)
}

// Redact returns text with every value replaced by Redacted, and the
// beginning of one cut off by "…" (an excerpt of a server's answer cut in
// the middle of a token) too.
func (s *Set) Redact(text string) string {
	if s == nil {
		return text
	}
	s.mu.RLock()
	r, list := s.r, s.list
	s.mu.RUnlock()
	if r == nil {
		return text
	}
	text = r.Replace(text)
	if !strings.Contains(text, "…") {
		return text
	}
	var b strings.Builder
	for {
		i := strings.Index(text, "…")
		if i < 0 {
			break
		}
		b.WriteString(cutPrefix(text[:i], list))
		b.WriteString("…")
		text = text[i+len("…"):]
	}
	b.WriteString(text)
	return b.String()
}

// RedactJSON redacts JSON text. It stays JSON unless a value stood
// outside a string (a number); then the redacted text is given as a JSON
// string.
func (s *Set) RedactJSON(raw []byte) []byte {
	out := []byte(s.Redact(string(raw)))
	if len(raw) == 0 || json.Valid(out) {
		return out
	}
	quoted, _ := json.Marshal(string(out))
	return quoted
}

// cutPrefix redacts the end of before when it is the beginning (MinLen
// bytes or more) of a value: where the value's first MinLen bytes stand
// in the last len(value) bytes of before and the rest of before goes on
// as the value does.
func cutPrefix(before string, list []string) string {
	for _, v := range list {
		tail := before[max(0, len(before)-len(v)+1):]
		for off := 0; ; {
			i := strings.Index(tail[off:], v[:MinLen])
			if i < 0 {
				break
			}
			if p := off + i; strings.HasPrefix(v, tail[p:]) {
				return before[:len(before)-len(tail)+p] + Redacted
			}
			off += i + 1
		}
	}
	return before
}

// Writer returns w with every write redacted. mcpctl writes its lines
// whole, so that a value is not split between two writes.
func (s *Set) Writer(w io.Writer) io.Writer {
	if s == nil {
		return w
	}
	return &writer{w: w, s: s}
}

type writer struct {
	w io.Writer
	s *Set
}

// Write writes p redacted and reports p written whole: the caller wrote
// what it meant to.
func (w *writer) Write(p []byte) (int, error) {
	w.s.mu.RLock()
	none := w.s.r == nil
	w.s.mu.RUnlock()
	if none {
		return w.w.Write(p)
	}
	if _, err := io.WriteString(w.w, w.s.Redact(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
