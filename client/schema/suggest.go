package schema

import "strings"

// closest returns the declared names a mistyped name most likely meant:
// those at the smallest edit distance, if that distance is small relative
// to the name (about one edit per three characters), plus any name that
// matches ignoring case or of which the input is a prefix of 3+ characters.
func closest(name string, declared []string) []string {
	if len(declared) == 0 {
		return nil
	}
	threshold := max(1, len([]rune(name))/3)
	best := threshold + 1
	var out []string
	for _, d := range declared {
		dist := levenshtein(name, d)
		if strings.EqualFold(name, d) || (len(name) >= 3 && strings.HasPrefix(d, name)) {
			dist = 0
		}
		switch {
		case dist < best:
			best = dist
			out = []string{d}
		case dist == best:
			out = append(out, d)
		}
	}
	if best > threshold {
		return nil
	}
	return out
}

// levenshtein is the edit distance between a and b, by runes, counting a
// swap of two adjacent characters as one edit (optimal string alignment):
// "nmae" is one typo away from "name", not two.
func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
