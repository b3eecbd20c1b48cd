package schema

import (
	"regexp"
	"strings"

	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/mcpctl/mcpctl/client/schema/internal/jsonschema"
)

// printer renders the library's error kinds (English only).
var printer = message.NewPrinter(language.English)

// JSON Schema patterns are ECMA-262 regular expressions; Go's RE2 engine
// covers most of what tool schemas use. Two gaps are bridged:
//   - \uXXXX and \u{X...} escapes are rewritten to RE2's \x{...};
//   - lookaround and backreferences (valid ECMA-262, impossible in RE2) are
//     accepted but not enforced, with a warning, rather than making a
//     whole tool unusable because one pattern uses (?!...).
//
// A pattern that is invalid in both engines still fails compilation.

type goRegexp struct {
	*regexp.Regexp
	src string
}

func (g goRegexp) String() string { return g.src }

// permissiveRegexp stands in for a pattern RE2 cannot run.
type permissiveRegexp string

func (p permissiveRegexp) String() string          { return string(p) }
func (p permissiveRegexp) MatchString(string) bool { return true }

func (s *Schema) regexpEngine(pat string) (jsonschema.Regexp, error) {
	re, err := regexp.Compile(translateRegexp(pat))
	if err == nil {
		return goRegexp{re, pat}, nil
	}
	if ecmaOnly(pat) {
		w := "pattern " + jsonText(pat) + " uses regular-expression features mcpctl cannot evaluate; it is not enforced"
		s.warnMu.Lock()
		found := false
		for _, x := range s.warnings {
			found = found || x == w
		}
		if !found {
			s.warnings = append(s.warnings, w)
		}
		s.warnMu.Unlock()
		return permissiveRegexp(pat), nil
	}
	return nil, err
}

// translateRegexp rewrites ECMA-262 unicode escapes into RE2 syntax.
func translateRegexp(p string) string {
	if !strings.Contains(p, `\u`) {
		return p
	}
	var sb strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c != '\\' || i+1 >= len(p) {
			sb.WriteByte(c)
			continue
		}
		if p[i+1] == 'u' {
			if i+2 < len(p) && p[i+2] == '{' {
				if end := strings.IndexByte(p[i+3:], '}'); end > 0 && isHex(p[i+3:i+3+end]) {
					sb.WriteString(`\x{` + p[i+3:i+3+end] + `}`)
					i += 3 + end
					continue
				}
			} else if i+6 <= len(p) && isHex(p[i+2:i+6]) {
				sb.WriteString(`\x{` + p[i+2:i+6] + `}`)
				i += 5
				continue
			}
		}
		sb.WriteByte(c)
		sb.WriteByte(p[i+1])
		i++
	}
	return sb.String()
}

func isHex(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return false
		}
	}
	return true
}

// ecmaOnly reports constructs valid in ECMA-262 that RE2 rejects by design.
func ecmaOnly(p string) bool {
	for _, s := range []string{"(?=", "(?!", "(?<=", "(?<!", `\k<`} {
		if strings.Contains(p, s) {
			return true
		}
	}
	for i := 0; i+1 < len(p); i++ {
		if p[i] == '\\' {
			if p[i+1] >= '1' && p[i+1] <= '9' {
				return true
			}
			i++ // skip the escaped character
		}
	}
	return false
}

// patternRE is one patternProperties entry; re is nil when RE2 cannot run
// it, in which case callers assume it matches (an upper bound).
type patternRE struct {
	ptr string // pointer of the subschema
	re  *regexp.Regexp
}

// patternProps returns the patternProperties of n, compiled once.
func (s *Schema) patternProps(n *node) []patternRE {
	pp, ok := n.get("patternProperties")
	po, isObj := pp.(*object)
	if !ok || !isObj || len(po.keys) == 0 {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.regexps[n.ptr]; ok {
		return r
	}
	var out []patternRE
	for _, k := range po.keys {
		re, _ := regexp.Compile(translateRegexp(k))
		out = append(out, patternRE{ptr: ptrJoin(n.ptr, "patternProperties", k), re: re})
	}
	s.regexps[n.ptr] = out
	return out
}

// objectChildren lists the subschemas that apply to property key of an
// object validated by n: properties, matching patternProperties, else
// additionalProperties.
func (s *Schema) objectChildren(n *node, key string) []*node {
	if n == nil || n.obj == nil || pureRef(n.obj, n.draft) {
		return nil
	}
	var out []*node
	if c := s.child(n, "properties", key); c != nil {
		out = append(out, c)
	}
	for _, p := range s.patternProps(n) {
		if p.re == nil || p.re.MatchString(key) {
			if c := s.nodes[p.ptr]; c != nil {
				out = append(out, c)
			}
		}
	}
	if len(out) == 0 {
		if c := s.child(n, "additionalProperties"); c != nil {
			out = append(out, c)
		}
	}
	return out
}

// itemChildren lists the subschemas that apply to array index i.
func (s *Schema) itemChildren(n *node, i int) []*node {
	if n == nil || n.obj == nil || pureRef(n.obj, n.draft) {
		return nil
	}
	idx := itoa(i)
	if n.draft >= draft2020 {
		if c := s.child(n, "prefixItems", idx); c != nil {
			return []*node{c}
		}
		if pi, ok := n.get("prefixItems"); ok {
			if a, ok := pi.(*array); ok && i < len(a.items) {
				return nil
			}
		}
		if c := s.child(n, "items"); c != nil {
			return []*node{c}
		}
		return nil
	}
	items, _ := n.get("items")
	if a, ok := items.(*array); ok {
		if i < len(a.items) {
			if c := s.child(n, "items", idx); c != nil {
				return []*node{c}
			}
			return nil
		}
		if c := s.child(n, "additionalItems"); c != nil {
			return []*node{c}
		}
		return nil
	}
	if c := s.child(n, "items"); c != nil {
		return []*node{c}
	}
	return nil
}
