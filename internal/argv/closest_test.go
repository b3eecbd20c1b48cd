package argv

import (
	"reflect"
	"testing"
)

func TestClosest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		candidates []string
		n          int
		want       []string
	}{
		{"lst", []string{"list", "last", "prompts"}, 3, []string{"list", "last"}},
		{"lst", []string{"get", "list"}, 3, []string{"list", "get"}}, // distance 1 before distance 2
		{"tols", []string{"prompts", "tools", "resources"}, 2, []string{"tools"}},
		{"TOOLS", []string{"tools"}, 3, []string{"tools"}},
		{"res", []string{"tools", "resources"}, 3, []string{"resources"}}, // prefix counts as close
		{"weather_currentt", []string{"weather_current"}, 3, []string{"weather_current"}},
		{"abcdef", []string{"abcdxy", "abcdez", "abcdef_long"}, 2, []string{"abcdez", "abcdef_long"}},
		{"a", []string{"b", "c", "d", "e"}, 2, []string{"b", "c"}}, // closest first, input order on ties, at most n
		{"zzzzzzzz", []string{"tools", "prompts"}, 3, nil},
		{"x", nil, 3, nil},
	}
	for _, tc := range tests {
		got := Closest(tc.name, tc.candidates, tc.n)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Closest(%q, %q, %d) = %q, want %q", tc.name, tc.candidates, tc.n, got, tc.want)
		}
	}
}
