// Package skills is the Skills extension (io.modelcontextprotocol/skills,
// SEP-2640): a server publishes skills, directories of files read with
// resources/read, and describes each with an entry (skills/list,
// skills/get) that carries the SKILL.md frontmatter and the digest and size
// of every file. A file is used only once its bytes match the entry.
package skills

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/ojson"
)

// Extension is the extension's capability key.
const Extension = "io.modelcontextprotocol/skills"

// Limits every conforming host accepts for one skill (SEP-2640, Limits).
const (
	MaxFiles = 512
	MaxBytes = 16 << 20
)

// Support is what a server declares of the extension.
type Support struct {
	Declared      bool // skills/list and skills/get
	DirectoryRead bool // resources/directory/read
}

// Declared reads the extension's declaration from a server/discover
// (or initialize) result.
func Declared(discover json.RawMessage) Support {
	var d struct {
		Capabilities struct {
			Extensions map[string]json.RawMessage `json:"extensions"`
		} `json:"capabilities"`
	}
	if json.Unmarshal(discover, &d) != nil {
		return Support{}
	}
	raw, ok := d.Capabilities.Extensions[Extension]
	if !ok || string(raw) == "null" {
		return Support{}
	}
	var set struct {
		DirectoryRead bool `json:"directoryRead"`
	}
	_ = json.Unmarshal(raw, &set)
	return Support{Declared: true, DirectoryRead: set.DirectoryRead}
}

// SkillFile is one file of a skill's manifest.
type SkillFile struct {
	URI    string
	Digest string // sha256:{64 lowercase hex}
	Size   int64
}

// Skill is a checked skill entry. Raw is the entry as the server sent it.
type Skill struct {
	URI         string
	Name        string
	Frontmatter map[string]any // decoded with json.Number
	Files       []SkillFile    // nil when Dynamic
	Dynamic     bool           // resources is "dynamic": no digests
	Raw         json.RawMessage
}

// Root is the skill's directory: its URI without "/SKILL.md".
func (s *Skill) Root() string { return strings.TrimSuffix(s.URI, "/SKILL.md") }

// Path is the skill path: the root without its scheme
// ("acme/billing/refunds" for skill://acme/billing/refunds/SKILL.md).
func (s *Skill) Path() string {
	r := s.Root()
	if _, rest, ok := strings.Cut(r, "://"); ok {
		return rest
	}
	return r
}

// Rel is uri relative to the skill's root ("SKILL.md", "references/x.md").
func (s *Skill) Rel(uri string) string { return strings.TrimPrefix(uri, s.Root()+"/") }

// File finds the manifest entry of uri.
func (s *Skill) File(uri string) (SkillFile, bool) {
	for _, f := range s.Files {
		if f.URI == uri {
			return f, true
		}
	}
	return SkillFile{}, false
}

// EntryError is a skill entry that breaks the extension's rules; a
// host must not load it.
type EntryError struct {
	URI     string // "" when the entry has none
	Problem string
}

func (e *EntryError) Error() string {
	if e.URI == "" {
		return "invalid skill entry: " + e.Problem
	}
	return "invalid skill entry " + e.URI + ": " + e.Problem
}

// VerifyError is content that does not match its skill entry: it
// must not be used.
type VerifyError struct {
	URI     string
	Problem string // what did not match
}

func (e *VerifyError) Error() string {
	return e.URI + " does not match its skill entry: " + e.Problem
}

// ParseSkill checks one skill entry (an item of skills/list, or the skill
// of skills/get) against the extension's rules and the per-skill limits.
func ParseSkill(raw json.RawMessage) (*Skill, error) {
	var e struct {
		URI         *string         `json:"uri"`
		Frontmatter json.RawMessage `json:"frontmatter"`
		Resources   json.RawMessage `json:"resources"`
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		return nil, &EntryError{Problem: "not an object with uri, frontmatter and resources"}
	}
	if e.URI == nil || *e.URI == "" {
		return nil, &EntryError{Problem: "no uri"}
	}
	s := &Skill{URI: *e.URI, Raw: raw}
	bad := func(format string, a ...any) error {
		return &EntryError{URI: s.URI, Problem: fmt.Sprintf(format, a...)}
	}
	if !strings.HasSuffix(s.URI, "/SKILL.md") || !strings.Contains(s.URI, "://") || s.Path() == "" {
		return nil, bad("the uri does not name a SKILL.md")
	}
	fm, ok := decodeJSONObject(e.Frontmatter)
	if !ok {
		return nil, bad("frontmatter is not an object")
	}
	s.Frontmatter = fm
	name, _ := fm["name"].(string)
	if _, ok := fm["description"].(string); !ok || name == "" {
		return nil, bad("frontmatter lacks name or description")
	}
	s.Name = name
	if seg := s.Path()[strings.LastIndex(s.Path(), "/")+1:]; seg != name {
		return nil, bad("the skill path ends in %q, not its name %q", seg, name)
	}
	if string(bytes.TrimSpace(e.Resources)) == `"dynamic"` {
		s.Dynamic = true
		return s, nil
	}
	var files []struct {
		URI    string       `json:"uri"`
		Digest string       `json:"digest"`
		Size   *json.Number `json:"size"`
	}
	if e.Resources == nil || json.Unmarshal(e.Resources, &files) != nil {
		return nil, bad(`resources is neither an array of files nor "dynamic"`)
	}
	if len(files) > MaxFiles {
		return nil, bad("%d files, more than the %d a skill may have", len(files), MaxFiles)
	}
	var total int64
	seen := map[string]bool{}
	for _, f := range files {
		switch {
		case f.URI != s.URI && !strings.HasPrefix(f.URI, s.Root()+"/"):
			return nil, bad("file %s is outside the skill", f.URI)
		case seen[f.URI]:
			return nil, bad("file %s is listed twice", f.URI)
		case !validDigest(f.Digest):
			return nil, bad("file %s has digest %q, not sha256: and 64 lowercase hex digits", f.URI, f.Digest)
		}
		seen[f.URI] = true
		var size int64
		if f.Size != nil {
			n, err := f.Size.Int64()
			if err != nil || n < 0 {
				return nil, bad("file %s has size %s", f.URI, f.Size)
			}
			size = n
		} else {
			return nil, bad("file %s has no size", f.URI)
		}
		total += size
		if total > MaxBytes {
			return nil, bad("its files come to more than the %d bytes a skill may have", MaxBytes)
		}
		s.Files = append(s.Files, SkillFile{URI: f.URI, Digest: f.Digest, Size: size})
	}
	if !seen[s.URI] {
		return nil, bad("resources does not list SKILL.md")
	}
	return s, nil
}

func validDigest(d string) bool {
	h, ok := strings.CutPrefix(d, "sha256:")
	if !ok || len(h) != 64 {
		return false
	}
	for _, c := range h {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func decodeJSONObject(raw json.RawMessage) (map[string]any, bool) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var m map[string]any
	if d.Decode(&m) != nil || m == nil {
		return nil, false
	}
	return m, true
}

// Entries checks every entry of a skills/list result. It returns the
// valid ones and, for each other, the *EntryError that rules it out: a
// host must not load an invalid entry, and one bad entry does not hide the
// rest.
func Entries(list json.RawMessage) ([]*Skill, []error, error) {
	var r struct {
		Skills []json.RawMessage `json:"skills"`
	}
	if err := json.Unmarshal(list, &r); err != nil {
		return nil, nil, &client.ProtocolError{Msg: "skills/list: the result has no array of skills"}
	}
	out := make([]*Skill, 0, len(r.Skills))
	var bad []error
	for _, raw := range r.Skills {
		s, err := ParseSkill(raw)
		if err != nil {
			bad = append(bad, err)
			continue
		}
		out = append(out, s)
	}
	return out, bad, nil
}

// Get asks the server for the entry of the skill whose SKILL.md is at uri
// (skills/get) and checks it.
func Get(ctx context.Context, c *client.Client, uri string) (*Skill, error) {
	params := ojson.Members{}
	params.Set("uri", ojson.String(uri))
	raw, err := c.Call(ctx, "skills/get", params.JSON(), nil)
	if err != nil {
		return nil, err
	}
	var r struct {
		Skill json.RawMessage `json:"skill"`
	}
	if json.Unmarshal(raw, &r) != nil || r.Skill == nil {
		return nil, &client.ProtocolError{Msg: "skills/get: the result has no skill"}
	}
	s, err := ParseSkill(r.Skill)
	if err != nil {
		return nil, err
	}
	if s.URI != uri {
		return nil, &EntryError{URI: s.URI, Problem: "skills/get for " + uri + " answered another skill"}
	}
	return s, nil
}

// ReadFile reads one file of a skill (resources/read) and verifies
// it against the entry: a file the manifest does not list, a size or a
// digest that differ, and for SKILL.md frontmatter that differs from the
// entry's, are *VerifyError. It returns the resources/read result,
// raw, and the file's bytes. Of a dynamic skill only SKILL.md can be
// checked (its frontmatter); its other files are refused.
func ReadFile(ctx context.Context, c *client.Client, s *Skill, uri string) (json.RawMessage, []byte, error) {
	var want SkillFile
	if s.Dynamic {
		if uri != s.URI {
			return nil, nil, &VerifyError{URI: uri, Problem: "the skill is dynamic: its entry lists no files to verify against"}
		}
	} else {
		f, ok := s.File(uri)
		if !ok {
			return nil, nil, &VerifyError{URI: uri, Problem: "the entry does not list this file"}
		}
		want = f
	}
	params := ojson.Members{}
	params.Set("uri", ojson.String(uri))
	raw, err := c.Call(ctx, "resources/read", params.JSON(), nil)
	if err != nil {
		return nil, nil, err
	}
	data, err := client.ResourceBytes(raw, uri)
	if err != nil {
		return nil, nil, err
	}
	if !s.Dynamic {
		if int64(len(data)) != want.Size {
			return nil, nil, &VerifyError{URI: uri, Problem: fmt.Sprintf("size %d bytes, the entry says %d", len(data), want.Size)}
		}
		sum := sha256.Sum256(data)
		if got := "sha256:" + hex.EncodeToString(sum[:]); got != want.Digest {
			return nil, nil, &VerifyError{URI: uri, Problem: "digest " + got + ", the entry says " + want.Digest}
		}
	}
	if uri == s.URI {
		if err := checkFrontmatter(data, s.Frontmatter); err != nil {
			return nil, nil, &VerifyError{URI: uri, Problem: err.Error()}
		}
	}
	return raw, data, nil
}

// checkFrontmatter parses the YAML frontmatter of a SKILL.md and compares
// it, field by field, with the entry's.
func checkFrontmatter(data []byte, want map[string]any) error {
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	body, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return fmt.Errorf("SKILL.md does not begin with YAML frontmatter")
	}
	end := strings.Index(body, "\n---\n")
	if end < 0 {
		if !strings.HasSuffix(body, "\n---") {
			return fmt.Errorf("SKILL.md's frontmatter does not end")
		}
		end = len(body) - len("\n---")
	}
	var fm map[string]any
	if err := yaml.Unmarshal([]byte(body[:end+1]), &fm); err != nil {
		return fmt.Errorf("SKILL.md's frontmatter is not YAML: %v", err)
	}
	// In the entry's terms: JSON values, numbers as json.Number.
	v, err := fromYAML(map[string]any(fm))
	if err != nil {
		return err
	}
	got, _ := v.(map[string]any)
	keys := map[string]bool{}
	for k := range got {
		keys[k] = true
	}
	for k := range want {
		keys[k] = true
	}
	names := make([]string, 0, len(keys))
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		g, inGot := got[k]
		w, inWant := want[k]
		switch {
		case !inGot:
			return fmt.Errorf("frontmatter field %q is in the entry, not in SKILL.md", k)
		case !inWant:
			return fmt.Errorf("frontmatter field %q is in SKILL.md, not in the entry", k)
		case !sameJSON(g, w):
			return fmt.Errorf("frontmatter field %q differs from the entry's", k)
		}
	}
	return nil
}

// fromYAML turns a decoded YAML value into the JSON values the entry
// holds. A timestamp stays a time.Time, for sameJSON to compare with the
// entry's string.
func fromYAML(v any) (any, error) {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			x, err := fromYAML(e)
			if err != nil {
				return nil, err
			}
			out[k] = x
		}
		return out, nil
	case map[any]any: // a map with keys that are not all strings
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[fmt.Sprint(k)] = e
		}
		return fromYAML(m)
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			x, err := fromYAML(e)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	case int:
		return json.Number(strconv.Itoa(v)), nil
	case int64:
		return json.Number(strconv.FormatInt(v, 10)), nil
	case uint64:
		return json.Number(strconv.FormatUint(v, 10)), nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("SKILL.md's frontmatter holds a number JSON cannot")
		}
		return json.Number(strconv.FormatFloat(v, 'g', -1, 64)), nil
	}
	return v, nil // string, bool, nil, time.Time
}

// sameJSON compares two values decoded with json.Number; numbers are
// equal when their values are (1 and 1.0). A YAML timestamp equals a
// string that is the same instant (2024-01-01, 2024-01-01T00:00:00Z).
func sameJSON(a, b any) bool {
	switch a := a.(type) {
	case time.Time:
		b, ok := b.(string)
		if !ok {
			return false
		}
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02"} {
			if t, err := time.Parse(layout, b); err == nil && t.Equal(a) {
				return true
			}
		}
		return false
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, v := range a {
			w, ok := b[k]
			if !ok || !sameJSON(v, w) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !sameJSON(a[i], b[i]) {
				return false
			}
		}
		return true
	case json.Number:
		b, ok := b.(json.Number)
		if !ok {
			return false
		}
		x, okx := new(big.Float).SetString(string(a))
		y, oky := new(big.Float).SetString(string(b))
		return okx && oky && x.Cmp(y) == 0
	}
	return a == b
}

// NotDeclaredError means the server does not declare what a request
// needs, so it is not sent.
type NotDeclaredError struct {
	What   string // "the Skills extension (io.modelcontextprotocol/skills)"
	Method string // the request not sent
}

func (e *NotDeclaredError) Error() string {
	return "the server does not declare " + e.What + ", so " + e.Method + " is not sent"
}
