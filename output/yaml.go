package output

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// writeYAML converts the order-preserving JSON tree to YAML nodes rather than
// going through map[string]any, which would sort keys and turn numbers into
// float64.
func writeYAML(w *bytes.Buffer, v *value) error {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	sw := newAstralSwap(v)
	if err := enc.Encode(sw.node(v)); err != nil {
		return fmt.Errorf("encoding YAML: %w", err)
	}
	if err := enc.Close(); err != nil {
		return fmt.Errorf("encoding YAML: %w", err)
	}
	w.Write(sw.restore(b.Bytes()))
	return nil
}

func (sw *astralSwap) node(v *value) *yaml.Node {
	switch v.kind() {
	case kindNull:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	case kindBool:
		s := "false"
		if v.boolean() {
			s = "true"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: s}
	case kindNumber:
		// The JSON text is also valid YAML 1.2 for the same number. yaml.v3
		// drops the tag when the plain text resolves to it, and keeps it
		// (e.g. "!!int 100000000000000000000") when yaml.v3 itself would read
		// the text as another type, so the value stays exact either way.
		tag := "!!int"
		if strings.ContainsAny(v.text(), ".eE") {
			tag = "!!float"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: v.text()}
	case kindString:
		return yamlString(sw.hide(v.text()))
	case kindArray:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, item := range v.items() {
			n.Content = append(n.Content, sw.node(item))
		}
		return n
	default:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for _, k := range v.keys() {
			n.Content = append(n.Content, yamlString(sw.hide(k)), sw.node(v.get(k)))
		}
		return n
	}
}

// yamlString tags the scalar as a string so that yaml.v3 quotes text that
// would otherwise read back as a number, bool or null ("012", "true", "").
// yaml.v3 resolves by YAML 1.2 rules only, so YAML 1.1 booleans and base-60
// numbers, which older parsers still honour, are quoted here. Strings with
// characters a terminal could act on or would not show are double-quoted
// so that restore can write those characters as escapes.
func yamlString(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if yaml11Special(s) || strings.IndexFunc(s, needsJSONEscape) >= 0 {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// base60 is compiled on first use: package init is paid by every run
// (BENCHMARKS.md, start-up), YAML output only by some.
var base60 = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`)
})

// yaml11Special mirrors the checks yaml.v3 applies when it marshals a Go
// string, so YAML from mcpctl quotes exactly what yaml.Marshal would.
func yaml11Special(s string) bool {
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "on", "On", "ON",
		"n", "N", "no", "No", "NO", "off", "Off", "OFF":
		return true
	}
	return base60().MatchString(s)
}

// astralSwap works around yaml.v3 treating every character outside the
// Basic Multilingual Plane as unprintable: it would write the emoji in a
// title as "\U0001F4C1". Such characters are swapped for private-use
// placeholders that do not occur in the document, encoded, and swapped
// back, so YAML keeps them readable. Invisible characters (Unicode tag
// characters, used to smuggle hidden text, and variation selectors) are
// left for yaml.v3 to escape.
type astralSwap struct {
	hidden map[rune]rune // original → placeholder
	shown  map[rune]rune // placeholder → original
}

func newAstralSwap(v *value) *astralSwap {
	sw := &astralSwap{hidden: map[rune]rune{}, shown: map[rune]rune{}}
	used := map[rune]bool{} // private-use characters the document itself contains
	var astral []rune       // distinct characters to swap, in order of appearance
	seen := map[rune]bool{}
	var walk func(*value)
	scan := func(s string) {
		for _, r := range s {
			if r >= 0xe000 && r <= 0xf8ff {
				used[r] = true
			}
			if r > 0xffff && unicode.IsGraphic(r) && !isInvisible(r) && !seen[r] {
				seen[r] = true
				astral = append(astral, r)
			}
		}
	}
	walk = func(v *value) {
		switch v.kind() {
		case kindString:
			scan(v.text())
		case kindArray:
			for _, it := range v.items() {
				walk(it)
			}
		case kindObject:
			for _, k := range v.keys() {
				scan(k)
				walk(v.get(k))
			}
		}
	}
	walk(v)
	next := rune(0xe000)
	for _, r := range astral {
		for next <= 0xf8ff && used[next] {
			next++
		}
		if next > 0xf8ff {
			break // more distinct symbols than placeholders: the rest stay escaped
		}
		sw.hidden[r], sw.shown[next] = next, r
		next++
	}
	return sw
}

func (sw *astralSwap) hide(s string) string {
	if len(sw.hidden) == 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if p, ok := sw.hidden[r]; ok {
			return p
		}
		return r
	}, s)
}

// restore puts the swapped characters back and writes the invisible and
// direction-changing characters yaml.v3 considers printable and emits raw
// (bidi controls, zero-width characters, the soft hyphen, no-break
// spaces…) as \u escapes. yamlString forced every string containing one
// into double quotes, where the escape denotes the same character, and
// YAML output has no other text those characters could appear in. C1
// controls, DEL, U+2028/U+2029, the BOM and everything beyond U+FFFF that
// is not swapped are already escaped by yaml.v3 itself.
func (sw *astralSwap) restore(b []byte) []byte {
	if len(sw.shown) == 0 && !bytes.ContainsFunc(b, isInvisible) {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if orig, ok := sw.shown[r]; ok {
			out = utf8.AppendRune(out, orig)
		} else if isInvisible(r) && r <= 0xffff {
			out = fmt.Appendf(out, `\u%04X`, r)
		} else if isInvisible(r) {
			out = fmt.Appendf(out, `\U%08X`, r)
		} else {
			out = append(out, b[i:i+n]...)
		}
		i += n
	}
	return out
}
