package schema

import (
	"regexp"
	"testing"
)

// The hand-written scanners accept exactly the JSON number grammar: every
// string of up to 6 characters from the alphabet that matters is checked
// against the regular expressions they replace.
func TestNumberScannersMatchRegexps(t *testing.T) {
	ire := regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)
	nre := regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)
	alpha := []string{"", "0", "1", "9", "-", ".", "e", "E", "+", "a", "00"}
	var gen func(prefix string, n int)
	count := 0
	gen = func(prefix string, n int) {
		count++
		if ire.MatchString(prefix) != isJSONInteger(prefix) || nre.MatchString(prefix) != isJSONNumber(prefix) {
			t.Fatalf("%q: int %v/%v num %v/%v", prefix, ire.MatchString(prefix), isJSONInteger(prefix), nre.MatchString(prefix), isJSONNumber(prefix))
		}
		if n == 0 {
			return
		}
		for _, a := range alpha {
			if a != "" {
				gen(prefix+a, n-1)
			}
		}
	}
	gen("", 6)
	t.Log(count)
}
