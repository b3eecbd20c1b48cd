package schema

import (
	"fmt"
	"math/big"
	"strings"
	"unicode"
)

// Type errors teach the syntax that would have worked: most come from a
// key=value item written as for another type (names=Ada for an array,
// n=3.5 for an integer), so the message says how to write the value the
// schema wants rather than only naming the two types.

// typeMessage explains a value at loc whose type is none of wants; n is
// the subschema that declared the types (nil if they come from several),
// for the bounds of an integer.
func (m *mapper) typeMessage(loc []string, wants []string, n *node) string {
	v := valueAt(m.tree, loc)
	name := m.name(loc)
	msg := fmt.Sprintf("%s: got %s, want %s", name, typeName(v), strings.Join(wants, " or "))
	if len(loc) == 0 || !m.words().hints {
		return msg
	}
	has := func(t string) bool {
		for _, w := range wants {
			if w == t {
				return true
			}
		}
		return false
	}
	key := ItemKey(loc)
	switch {
	case has("integer") && !has("number"):
		if d, text, ok := numberText(v); ok && !d.isInteger() {
			return fmt.Sprintf("%s: %s is not an integer: %s", name, text, wholeNumbers(d, n))
		}
	case has("array"):
		if _, isArr := v.(*array); !isArr {
			return fmt.Sprintf("%s: give each item as %s[]=%s", msg, key, itemText(v))
		}
	case has("object"):
		if _, isObj := v.(*object); !isObj {
			return fmt.Sprintf("%s: give its keys as %s[KEY]=VALUE, or the object as %s:=JSON", msg, key, key)
		}
	}
	return msg
}

// numberText reads v as a number: a JSON number, or a string holding a
// number's literal (the text of a key=value item that typing could not
// make an integer).
func numberText(v any) (decimal, string, bool) {
	switch t := v.(type) {
	case string:
		d, ok := parseDecimal(t)
		return d, t, ok && len(t) <= 64
	default:
		d, ok := numberOf(v)
		return d, jsonText(v), ok
	}
}

// itemText is v as the value of an item, when it is short and plain
// enough to be shown as typed; else a placeholder.
func itemText(v any) string {
	s, isStr := v.(string)
	if !isStr {
		if _, ok := numberOf(v); ok {
			return jsonText(v)
		}
		if b, ok := v.(bool); ok {
			return fmt.Sprint(b)
		}
		return "ITEM"
	}
	if s == "" || len(s) > 40 || strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) || unicode.IsSpace(r) }) >= 0 {
		return "ITEM"
	}
	return s
}

// wholeNumbers says which integers fit where d (not an integer) was
// given: those around it within the schema's bounds.
func wholeNumbers(d decimal, n *node) string {
	lo, hi := bounds(n)
	var fit []string
	for _, c := range neighbours(d) {
		if cd, ok := parseDecimal(c); ok && within(cd, lo, hi) {
			fit = append(fit, c)
		}
	}
	what := "give a whole number"
	switch {
	case lo != nil && hi != nil:
		what += fmt.Sprintf(" from %s to %s", lo.text, hi.text)
	case lo != nil:
		what += " of at least " + lo.text
	case hi != nil:
		what += " of at most " + hi.text
	}
	if len(fit) > 0 {
		what += ", such as " + strings.Join(fit, " or ")
	}
	return what
}

// neighbours returns the integers just below and above d.
func neighbours(d decimal) []string {
	whole := len(d.digits) + int(max(d.exp, -int64(len(d.digits))))
	ip := new(big.Int)
	if whole > 0 {
		ip.SetString(d.digits[:whole], 10)
	}
	below, above := new(big.Int).Set(ip), new(big.Int).Add(ip, big.NewInt(1))
	if d.neg {
		below, above = above.Neg(above), below.Neg(below)
	}
	return []string{below.String(), above.String()}
}

// bound is an inclusive integer bound of a schema, as written.
type bound struct {
	d    decimal
	text string
}

// bounds reads the inclusive bounds an integer must keep: minimum and
// maximum, or the next integer inside an exclusive bound.
func bounds(n *node) (lo, hi *bound) {
	read := func(kw string) (decimal, bool) {
		v, _ := n.get(kw)
		return numberOf(v)
	}
	if d, ok := read("minimum"); ok {
		lo = ceilBound(d, false)
	}
	if d, ok := read("exclusiveMinimum"); ok {
		lo = ceilBound(d, true)
	} else if b, _ := n.get("exclusiveMinimum"); b == true && lo != nil { // draft-04
		lo = ceilBound(lo.d, true)
	}
	if d, ok := read("maximum"); ok {
		hi = floorBound(d, false)
	}
	if d, ok := read("exclusiveMaximum"); ok {
		hi = floorBound(d, true)
	} else if b, _ := n.get("exclusiveMaximum"); b == true && hi != nil {
		hi = floorBound(hi.d, true)
	}
	return lo, hi
}

// ceilBound is the least integer >= d (> d when exclusive).
func ceilBound(d decimal, exclusive bool) *bound {
	if d.exp > 12 || d.exp < -64 {
		return nil // past what a hint needs to spell out
	}
	c := d.bigInt()
	if !d.isInteger() {
		c.SetString(neighbours(d)[1], 10)
	} else if exclusive {
		c.Add(c, big.NewInt(1))
	}
	return intBound(c)
}

// floorBound is the greatest integer <= d (< d when exclusive).
func floorBound(d decimal, exclusive bool) *bound {
	if d.exp > 12 || d.exp < -64 {
		return nil
	}
	c := d.bigInt()
	if !d.isInteger() {
		c.SetString(neighbours(d)[0], 10)
	} else if exclusive {
		c.Sub(c, big.NewInt(1))
	}
	return intBound(c)
}

func intBound(c *big.Int) *bound {
	t := c.String()
	d, _ := parseDecimal(t)
	return &bound{d: d, text: t}
}

// bigInt is the integer part of d (its exponent bounded by the caller).
func (d decimal) bigInt() *big.Int {
	if d.isZero() {
		return new(big.Int)
	}
	b := new(big.Int)
	if d.exp >= 0 {
		b.SetString(d.digits+strings.Repeat("0", int(d.exp)), 10)
	} else if whole := len(d.digits) + int(d.exp); whole > 0 {
		b.SetString(d.digits[:whole], 10)
	}
	if d.neg {
		b.Neg(b)
	}
	return b
}

func within(d decimal, lo, hi *bound) bool {
	return (lo == nil || d.cmp(lo.d) >= 0) && (hi == nil || d.cmp(hi.d) <= 0)
}
