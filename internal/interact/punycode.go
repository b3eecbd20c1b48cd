package interact

// Punycode (RFC 3492), the ASCII spelling of an internationalised host
// name's labels ("xn--" and this): what a browser puts on the wire for
// "bücher.example", and what mcpctl shows and hands to the browser for a
// URL elicitation. The standard library has no IDNA; this is the small
// part of it that is needed.

import (
	"errors"
	"math"
	"strings"
	"unicode/utf8"
)

const (
	punyBase        = 36
	punyTMin        = 1
	punyTMax        = 26
	punySkew        = 38
	punyDamp        = 700
	punyInitialBias = 72
	punyInitialN    = 128
)

var errPunycode = errors.New("invalid punycode")

func punyAdapt(delta, points int, first bool) int {
	if first {
		delta /= punyDamp
	} else {
		delta /= 2
	}
	delta += delta / points
	k := 0
	for delta > ((punyBase-punyTMin)*punyTMax)/2 {
		delta /= punyBase - punyTMin
		k += punyBase
	}
	return k + (punyBase-punyTMin+1)*delta/(delta+punySkew)
}

func punyThreshold(k, bias int) int {
	return min(max(k-bias, punyTMin), punyTMax)
}

func punyDigit(d int) byte {
	if d < 26 {
		return byte('a' + d)
	}
	return byte('0' + d - 26)
}

// punyEncode spells a label in punycode, without the "xn--".
func punyEncode(label string) string {
	runes := []rune(label)
	var out []byte
	for _, r := range runes {
		if r < 0x80 {
			out = append(out, byte(r))
		}
	}
	b := len(out)
	h := b
	if b > 0 {
		out = append(out, '-')
	}
	n, delta, bias := punyInitialN, 0, punyInitialBias
	for h < len(runes) {
		m := math.MaxInt32
		for _, r := range runes {
			if int(r) >= n && int(r) < m {
				m = int(r)
			}
		}
		delta += (m - n) * (h + 1)
		n = m
		for _, r := range runes {
			if int(r) < n {
				delta++
			}
			if int(r) != n {
				continue
			}
			q := delta
			for k := punyBase; ; k += punyBase {
				t := punyThreshold(k, bias)
				if q < t {
					break
				}
				out = append(out, punyDigit(t+(q-t)%(punyBase-t)))
				q = (q - t) / (punyBase - t)
			}
			out = append(out, punyDigit(q))
			bias = punyAdapt(delta, h+1, h == b)
			delta = 0
			h++
		}
		delta++
		n++
	}
	return string(out)
}

// punyDecode reads a label's punycode (without the "xn--").
func punyDecode(s string) (string, error) {
	var out []rune
	if i := strings.LastIndexByte(s, '-'); i > 0 {
		for j := 0; j < i; j++ {
			if s[j] >= 0x80 {
				return "", errPunycode
			}
			out = append(out, rune(s[j]))
		}
		s = s[i+1:]
	}
	n, i, bias := punyInitialN, 0, punyInitialBias
	for pos := 0; pos < len(s); {
		oldi, w := i, 1
		for k := punyBase; ; k += punyBase {
			if pos >= len(s) {
				return "", errPunycode
			}
			c := s[pos]
			pos++
			var d int
			switch {
			case 'a' <= c && c <= 'z':
				d = int(c - 'a')
			case 'A' <= c && c <= 'Z':
				d = int(c - 'A')
			case '0' <= c && c <= '9':
				d = int(c-'0') + 26
			default:
				return "", errPunycode
			}
			if d > (math.MaxInt32-i)/w {
				return "", errPunycode
			}
			i += d * w
			t := punyThreshold(k, bias)
			if d < t {
				break
			}
			if w > math.MaxInt32/(punyBase-t) {
				return "", errPunycode
			}
			w *= punyBase - t
		}
		points := len(out) + 1
		bias = punyAdapt(i-oldi, points, oldi == 0)
		if i/points > math.MaxInt32-n {
			return "", errPunycode
		}
		n += i / points
		i %= points
		if n > utf8.MaxRune || (n >= 0xd800 && n <= 0xdfff) || n < 0x80 {
			return "", errPunycode
		}
		out = append(out, 0)
		copy(out[i+1:], out[i:])
		out[i] = rune(n)
		i++
	}
	return string(out), nil
}
