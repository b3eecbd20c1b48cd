package schema

import (
	"encoding/json"
	"math/big"
	"strconv"
	"strings"
)

// JSON numbers are compared exactly, as decimals, never through float64:
// 9007199254740993 is not 9007199254740992, 0.1 is a multiple of 0.01, and
// a bound of 1e400 or an argument of 1e999999999 costs no more than its
// text (the exponent is kept as a number, never expanded into digits).

// decimal is a JSON number as ±digits × 10^exp, normalised: digits has no
// leading or trailing zeros, and zero is digits == "".
type decimal struct {
	neg    bool
	digits string
	exp    int64
}

// maxExp bounds exponents so that sums of two of them cannot overflow;
// any exponent past it is far beyond what the digits of a document could
// make up for, so saturating keeps every comparison exact.
const maxExp = 1 << 60

// parseDecimal reads a JSON number literal (as kept in json.Number).
func parseDecimal(s string) (decimal, bool) {
	var d decimal
	if strings.HasPrefix(s, "-") {
		d.neg = true
		s = s[1:]
	}
	mant, expText, hasExp := strings.Cut(strings.ToLower(s), "e")
	intPart, frac, point := strings.Cut(mant, ".")
	if intPart == "" || !allDigits(intPart) || !allDigits(frac) || point && frac == "" {
		return decimal{}, false
	}
	var exp int64
	if hasExp {
		e, ok := parseExp(expText)
		if !ok {
			return decimal{}, false
		}
		exp = e
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	exp = satAdd(exp, -int64(len(frac)))
	trimmed := strings.TrimRight(digits, "0")
	exp = satAdd(exp, int64(len(digits)-len(trimmed)))
	d.digits = trimmed
	if d.digits == "" {
		return decimal{}, true // zero, whatever its sign
	}
	d.exp = exp
	return d, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// parseExp reads an exponent, saturating at ±maxExp.
func parseExp(s string) (int64, bool) {
	neg := false
	switch {
	case strings.HasPrefix(s, "-"):
		neg, s = true, s[1:]
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	}
	if s == "" || !allDigits(s) {
		return 0, false
	}
	s = strings.TrimLeft(s, "0")
	e := int64(maxExp)
	if len(s) < 19 {
		v, _ := strconv.ParseInt("0"+s, 10, 64)
		e = min(v, maxExp)
	}
	if neg {
		e = -e
	}
	return e, true
}

func satAdd(a, b int64) int64 {
	return max(-maxExp, min(maxExp, a+b))
}

func (d decimal) isZero() bool { return d.digits == "" }

// isInteger reports whether the number has no fractional part (2.0 and
// 1e3 are integers, as JSON Schema counts them).
func (d decimal) isInteger() bool { return d.isZero() || d.exp >= 0 }

// cmp compares two decimals: -1, 0 or +1.
func (d decimal) cmp(o decimal) int {
	if a, b := d.sign(), o.sign(); a != b || a == 0 {
		return max(-1, min(1, a-b))
	}
	c := cmpMagnitude(d, o)
	if d.neg {
		return -c
	}
	return c
}

func (d decimal) sign() int {
	switch {
	case d.isZero():
		return 0
	case d.neg:
		return -1
	}
	return 1
}

// cmpMagnitude compares |d| and |o|, both non-zero.
func cmpMagnitude(d, o decimal) int {
	// The position of the leading digit decides first...
	dl, ol := satAdd(int64(len(d.digits)), d.exp), satAdd(int64(len(o.digits)), o.exp)
	if dl != ol {
		if dl < ol {
			return -1
		}
		return 1
	}
	// ...then the digits, read from the leading one (neither has trailing
	// zeros, so the shorter one, padded, is smaller when it is a prefix).
	return strings.Compare(d.digits, o.digits)
}

// multipleOf reports whether d is an integer multiple of m (m > 0).
func (d decimal) multipleOf(m decimal) bool {
	if d.isZero() {
		return true
	}
	if m.isZero() {
		return false
	}
	// d/m = (a/b) × 10^k with a, b the digit strings as integers.
	k := satAdd(d.exp, -m.exp)
	if k < 0 {
		// Then b × 10^-k must divide a, but a has no trailing zero.
		return false
	}
	a, _ := new(big.Int).SetString(d.digits, 10)
	b, _ := new(big.Int).SetString(m.digits, 10)
	// b divides a × 10^k exactly when the part of b prime to 10 divides a
	// and 10^k supplies the factors 2 and 5 that a lacks.
	two, five := big.NewInt(2), big.NewInt(5)
	x := factorOut(b, two)
	y := factorOut(b, five)
	if new(big.Int).Rem(a, b).Sign() != 0 {
		return false
	}
	ax := int64(countFactor(a, two, x))
	ay := int64(countFactor(a, five, y))
	return satAdd(ax, k) >= int64(x) && satAdd(ay, k) >= int64(y)
}

// factorOut divides b by p as often as it can and returns how often.
func factorOut(b *big.Int, p *big.Int) int {
	n := 0
	q, r := new(big.Int), new(big.Int)
	for {
		q.QuoRem(b, p, r)
		if r.Sign() != 0 {
			return n
		}
		b.Set(q)
		n++
	}
}

// countFactor counts how often p divides a, up to limit.
func countFactor(a *big.Int, p *big.Int, limit int) int {
	n := 0
	v := new(big.Int).Set(a)
	q, r := new(big.Int), new(big.Int)
	for n < limit {
		q.QuoRem(v, p, r)
		if r.Sign() != 0 {
			break
		}
		v.Set(q)
		n++
	}
	return n
}

// numberOf returns the decimal of a tree value, if it is a number.
func numberOf(v any) (decimal, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return decimal{}, false
	}
	return parseDecimal(string(n))
}
