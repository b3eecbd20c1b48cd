package argv

import "testing"

func TestParseSize(t *testing.T) {
	t.Parallel()
	good := map[string]int{"1048576": 1 << 20, "64MiB": 64 << 20, "64mib": 64 << 20, "10MB": 10e6, "512k": 512 << 10,
		"2 GiB": 2 << 30, "1b": 1, " 3KiB ": 3 << 10, "1G": 1 << 30}
	for in, want := range good {
		got, err := ParseSize("--max-message-size", in)
		if err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "-1", "1.5MiB", "MiB", "3 parsecs", "3GiB", "99999999999"} {
		if got, err := ParseSize("--max-message-size", in); err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", in, got)
		}
	}
}
