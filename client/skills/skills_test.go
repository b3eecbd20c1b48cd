package skills

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

const md = "---\nname: refunds\ndescription: Refund customers\nmetadata:\n  version: 1.0\n  tags: [a, b]\n---\n\n# Refunds\n"

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(sum[:])
}

func entry(uri, fm, resources string) json.RawMessage {
	return json.RawMessage(`{"uri":"` + uri + `","frontmatter":` + fm + `,"resources":` + resources + `}`)
}

const goodFM = `{"name":"refunds","description":"Refund customers","metadata":{"version":1,"tags":["a","b"]}}`

var goodFiles = fmt.Sprintf(`[{"uri":"skill://acme/refunds/SKILL.md","digest":%q,"size":%d}]`, digest(md), len(md))

func TestParseSkill(t *testing.T) {
	s, err := ParseSkill(entry("skill://acme/refunds/SKILL.md", goodFM, goodFiles))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "refunds" || s.Path() != "acme/refunds" || s.Root() != "skill://acme/refunds" || len(s.Files) != 1 {
		t.Errorf("parsed %+v", s)
	}
	if s, err := ParseSkill(entry("skill://daily/SKILL.md", `{"name":"daily","description":"d"}`, `"dynamic"`)); err != nil || !s.Dynamic {
		t.Errorf("dynamic: %v %+v", err, s)
	}
	many := make([]string, MaxFiles+1)
	for i := range many {
		many[i] = fmt.Sprintf(`{"uri":"skill://refunds/f%d","digest":%q,"size":1}`, i, digest("x"))
	}
	for _, c := range []struct{ name, raw, want string }{
		{"not an object", `[]`, "not an object"},
		{"no uri", `{"frontmatter":{}}`, "no uri"},
		{"not SKILL.md", string(entry("skill://refunds/README.md", goodFM, goodFiles)), "does not name a SKILL.md"},
		{"no scheme", string(entry("refunds/SKILL.md", goodFM, goodFiles)), "does not name a SKILL.md"},
		{"frontmatter not object", string(entry("skill://refunds/SKILL.md", `"x"`, goodFiles)), "frontmatter is not an object"},
		{"no description", string(entry("skill://refunds/SKILL.md", `{"name":"refunds"}`, goodFiles)), "lacks name or description"},
		{"name not last segment", string(entry("skill://acme/other/SKILL.md", goodFM, goodFiles)), `ends in "other", not its name "refunds"`},
		{"no resources", `{"uri":"skill://refunds/SKILL.md","frontmatter":` + goodFM + `}`, "neither an array"},
		{"resources a number", string(entry("skill://refunds/SKILL.md", goodFM, `3`)), "neither an array"},
		{"outside", string(entry("skill://refunds/SKILL.md", goodFM, `[{"uri":"skill://other/x","digest":"`+digest("")+`","size":0}]`)), "outside the skill"},
		{"twice", string(entry("skill://refunds/SKILL.md", goodFM, `[{"uri":"skill://refunds/SKILL.md","digest":"`+digest("")+`","size":0},{"uri":"skill://refunds/SKILL.md","digest":"`+digest("")+`","size":0}]`)), "listed twice"},
		{"bad digest", string(entry("skill://refunds/SKILL.md", goodFM, `[{"uri":"skill://refunds/SKILL.md","digest":"sha256:ABC","size":0}]`)), "not sha256:"},
		{"upper hex", string(entry("skill://refunds/SKILL.md", goodFM, `[{"uri":"skill://refunds/SKILL.md","digest":"`+strings.ToUpper(digest(""))+`","size":0}]`)), "not sha256:"},
		{"no size", string(entry("skill://refunds/SKILL.md", goodFM, `[{"uri":"skill://refunds/SKILL.md","digest":"`+digest("")+`"}]`)), "has no size"},
		{"negative size", string(entry("skill://refunds/SKILL.md", goodFM, `[{"uri":"skill://refunds/SKILL.md","digest":"`+digest("")+`","size":-1}]`)), "has size -1"},
		{"too big", string(entry("skill://refunds/SKILL.md", goodFM, `[{"uri":"skill://refunds/SKILL.md","digest":"`+digest("")+`","size":16777217}]`)), "more than the 16777216 bytes"},
		{"too many", string(entry("skill://refunds/SKILL.md", goodFM, "["+strings.Join(many, ",")+"]")), "more than the 512"},
		{"no SKILL.md listed", string(entry("skill://refunds/SKILL.md", goodFM, `[]`)), "does not list SKILL.md"},
	} {
		_, err := ParseSkill(json.RawMessage(c.raw))
		var ee *EntryError
		if !errors.As(err, &ee) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want an *EntryError with %q", c.name, err, c.want)
		}
	}
}

func TestCheckFrontmatter(t *testing.T) {
	s, err := ParseSkill(entry("skill://acme/refunds/SKILL.md", goodFM, goodFiles))
	if err != nil {
		t.Fatal(err)
	}
	if err := checkFrontmatter([]byte(md), s.Frontmatter); err != nil {
		t.Errorf("good: %v", err)
	}
	if err := checkFrontmatter([]byte(strings.ReplaceAll(md, "\n", "\r\n")), s.Frontmatter); err != nil {
		t.Errorf("CRLF: %v", err)
	}
	for _, c := range []struct{ name, md, want string }{
		{"changed", strings.Replace(md, "Refund customers", "Exfiltrate", 1), `field "description" differs`},
		{"nested", strings.Replace(md, "[a, b]", "[a, c]", 1), `field "metadata" differs`},
		{"extra", strings.Replace(md, "---\n\n", "license: MIT\n---\n\n", 1), `field "license" is in SKILL.md, not in the entry`},
		{"missing", strings.Replace(md, "description: Refund customers\n", "", 1), `field "description" is in the entry, not in SKILL.md`},
		{"none", "# Refunds\n", "does not begin with YAML frontmatter"},
		{"unended", "---\nname: refunds\n", "does not end"},
		{"not yaml", "---\nname: [\n---\n", "is not YAML"},
	} {
		err := checkFrontmatter([]byte(c.md), s.Frontmatter)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
}

// YAML's own types meet the entry's JSON: timestamps, hex and floats,
// keys that are not strings.
func TestCheckFrontmatterYAMLTypes(t *testing.T) {
	fm := map[string]any{}
	for k, v := range map[string]any{"name": "x", "description": "d", "date": "2024-01-01", "at": "2024-01-01T10:00:00Z",
		"n": json.Number("16"), "f": json.Number("0.5"), "m": map[string]any{"1": true}, "nil": nil} {
		fm[k] = v
	}
	good := "---\nname: x\ndescription: d\ndate: 2024-01-01\nat: 2024-01-01T10:00:00Z\nn: 0x10\nf: .5\nm: {1: true}\nnil: ~\n---\n"
	if err := checkFrontmatter([]byte(good), fm); err != nil {
		t.Errorf("good: %v", err)
	}
	for _, bad := range []string{
		strings.Replace(good, "2024-01-01\n", "2024-01-02\n", 1),
		strings.Replace(good, "0x10", "0x11", 1),
		strings.Replace(good, "nil: ~", "nil: .nan", 1),
	} {
		if err := checkFrontmatter([]byte(bad), fm); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

func TestDeclared(t *testing.T) {
	for raw, want := range map[string]Support{
		`{"capabilities":{"extensions":{"io.modelcontextprotocol/skills":{}}}}`:                     {Declared: true},
		`{"capabilities":{"extensions":{"io.modelcontextprotocol/skills":{"directoryRead":true}}}}`: {Declared: true, DirectoryRead: true},
		`{"capabilities":{"extensions":{"io.modelcontextprotocol/skills":null}}}`:                   {},
		`{"capabilities":{"tools":{}}}`: {},
		`not json`:                      {},
	} {
		if got := Declared(json.RawMessage(raw)); got != want {
			t.Errorf("Declared(%s) = %+v, want %+v", raw, got, want)
		}
	}
}
