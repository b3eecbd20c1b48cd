package schema

import (
	"math/big"
	"testing"
)

func TestDecimalCompare(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"9007199254740993", "9007199254740992", 1},
		{"9007199254740993", "9007199254740993.0", 0},
		{"1", "1.0", 0},
		{"1e2", "100", 0},
		{"-0", "0", 0},
		{"0.1", "0.10", 0},
		{"0.12", "0.123", -1},
		{"0.13", "0.123", 1},
		{"-1", "1", -1},
		{"-2", "-1", -1},
		{"123456789012345678901234567890", "123456789012345678901234567891", -1},
		{"1e400", "9.99e399", 1},
		{"1e999999999", "1e999999998", 1},
		{"1e-999999999", "0", 1},
		{"-1e999999999999999999999", "-1e999999999999999999998", 0}, // both saturate: beyond any document
		{"2.5E+3", "2500", 0},
	}
	for _, tc := range cases {
		a, ok1 := parseDecimal(tc.a)
		b, ok2 := parseDecimal(tc.b)
		if !ok1 || !ok2 {
			t.Fatalf("parse %q %q: %v %v", tc.a, tc.b, ok1, ok2)
		}
		if got := a.cmp(b); got != tc.want {
			t.Errorf("cmp(%s, %s) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
	for _, bad := range []string{"", "-", ".5", "1.", "1e", "e5", "0x10", "NaN", "1e+"} {
		if _, ok := parseDecimal(bad); ok {
			t.Errorf("parseDecimal(%q) accepted", bad)
		}
	}
}

func TestDecimalIsInteger(t *testing.T) {
	for s, want := range map[string]bool{"2": true, "2.0": true, "1e3": true, "1.5e1": true, "1.55e1": false, "0.5": false, "-0": true, "1e999999999": true, "1e-999999999": false} {
		d, _ := parseDecimal(s)
		if d.isInteger() != want {
			t.Errorf("isInteger(%s) = %v", s, !want)
		}
	}
}

// multipleOf is exact; it agrees with big.Rat wherever big.Rat can be
// used, and needs no expansion of huge exponents.
func TestDecimalMultipleOf(t *testing.T) {
	cases := []struct {
		v, m string
		want bool
	}{
		{"9007199254740993", "3", true},
		{"9007199254740992", "3", false},
		{"0.015", "0.01", false},
		{"0.03", "0.01", true},
		{"0.05", "0.025", true},
		{"4.5", "1.5", true},
		{"7", "0.5", true},
		{"7.25", "0.5", false},
		{"1e400", "7", false},
		{"7e999999999", "7", true},
		{"1e999999999", "0.001", true},
		{"1e-999999999", "1", false},
		{"0", "0.3", true},
		{"-9", "3", true},
		{"12", "8", false},
		{"16", "8", true},
		{"40", "0.8", true},
	}
	for _, tc := range cases {
		v, _ := parseDecimal(tc.v)
		m, _ := parseDecimal(tc.m)
		if got := v.multipleOf(m); got != tc.want {
			t.Errorf("%s multipleOf %s = %v, want %v", tc.v, tc.m, got, tc.want)
		}
	}
	// Against big.Rat on small numbers.
	nums := []string{"0", "1", "2", "3", "0.5", "0.25", "1.5", "6", "12", "0.01", "0.015", "100", "2.5e1", "7e-2", "0.07", "35"}
	for _, a := range nums {
		for _, b := range nums {
			rb, _ := new(big.Rat).SetString(b)
			if rb.Sign() == 0 {
				continue
			}
			ra, _ := new(big.Rat).SetString(a)
			want := new(big.Rat).Quo(ra, rb).IsInt()
			da, _ := parseDecimal(a)
			db, _ := parseDecimal(b)
			if got := da.multipleOf(db); got != want {
				t.Errorf("%s multipleOf %s = %v, big.Rat says %v", a, b, got, want)
			}
		}
	}
}
