package argv

import (
	"sort"
	"strings"
)

// Closest returns up to n candidates nearest to name by edit distance,
// closest first; prefix and substring matches count as close.
func Closest(name string, candidates []string, n int) []string {
	type scored struct {
		s string
		d int
	}
	var out []scored
	lname := strings.ToLower(name)
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := EditDistance(lname, lc)
		if strings.Contains(lc, lname) || strings.Contains(lname, lc) {
			d = min(d, 1)
		}
		if d <= max(2, len(name)/2) {
			out = append(out, scored{c, d})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].d < out[j].d })
	var res []string
	for i := 0; i < len(out) && i < n; i++ {
		res = append(res, out[i].s)
	}
	return res
}

// EditDistance is the Levenshtein distance between a and b, in runes.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
