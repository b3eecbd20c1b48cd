package schema

import (
	"regexp"
	"strings"
)

// JSON Schema patterns are ECMA-262 regular expressions; Go's RE2 engine
// covers most of what tool schemas use. Two gaps are bridged:
//   - \uXXXX and \u{X...} escapes are rewritten to RE2's \x{...};
//   - lookaround and backreferences (valid ECMA-262, impossible in RE2) are
//     accepted but not enforced, with a warning, rather than making a
//     whole tool unusable because one pattern uses (?!...). The server
//     still validates what mcpctl cannot.
//
// A pattern that is invalid in both engines makes the schema invalid.

// compilePattern compiles a schema pattern. It returns a nil regexp and no
// error for a pattern only ECMA-262 can run.
func compilePattern(pat string) (*regexp.Regexp, bool, error) {
	re, err := regexp.Compile(translateRegexp(pat))
	if err == nil {
		return re, true, nil
	}
	if ecmaOnly(pat) {
		return nil, false, nil
	}
	return nil, false, err
}

// compilePatterns compiles every pattern and patternProperties key of the
// document once, at Compile, and notes those mcpctl cannot enforce where
// they can matter (not in a definition nothing refers to).
func (s *Schema) compilePatterns(used map[*node]bool) {
	for _, n := range s.order {
		if n.obj == nil {
			continue
		}
		if pat, ok := n.str("pattern"); ok {
			re, ok, _ := compilePattern(pat)
			n.pattern = re
			if !ok && used[n] {
				s.notEnforced(pat)
			}
		}
		if po, ok := n.obj.Get("patternProperties").(*object); ok {
			for _, k := range po.Keys() {
				re, ok, _ := compilePattern(k)
				if !ok && used[n] {
					s.notEnforced(k)
				}
				n.patProps = append(n.patProps, patternRE{ptr: ptrJoin(n.ptr, "patternProperties", k), re: re})
			}
		}
	}
}

// applied lists the subschemas that can apply to some argument: the root
// and what its keywords and refs lead to, but not $defs/definitions on
// their own.
func (s *Schema) applied() map[*node]bool {
	used := map[*node]bool{}
	var visit func(n *node)
	visit = func(n *node) {
		if n == nil || used[n] {
			return
		}
		used[n] = true
		for _, t := range n.refs {
			visit(s.nodes[t])
		}
		if n.obj == nil {
			return
		}
		_ = forEachSubschema(n.obj, n.draft, func(toks []string, _ any) error {
			if toks[0] != "$defs" && toks[0] != "definitions" {
				visit(s.nodes[ptrJoin(n.ptr, toks...)])
			}
			return nil
		})
	}
	visit(s.nodes[""])
	return used
}

func (s *Schema) notEnforced(pat string) {
	w := "pattern " + jsonText(pat) + " uses regular-expression features this validator cannot evaluate; it is not enforced"
	for _, x := range s.warnings {
		if x == w {
			return
		}
	}
	s.warnings = append(s.warnings, w)
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
	for _, p := range n.patProps {
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
			if a, ok := pi.(*array); ok && i < len(a.Items()) {
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
		if i < len(a.Items()) {
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
