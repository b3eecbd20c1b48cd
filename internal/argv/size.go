package argv

import (
	"strconv"
	"strings"

	"github.com/mcpctl/mcpctl/internal/exitcode"
)

// sizeUnits are the suffixes --max-message-size accepts, case ignored:
// binary (KiB, MiB, GiB) and decimal (KB, MB, GB) multiples of a byte.
var sizeUnits = []struct {
	suffix string
	size   int64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"b", 1},
}

// maxSize caps sizes at 2 GiB: a message beyond that is not one mcpctl
// should try to hold.
const maxSize = 2 << 30

// ParseSize reads a byte count such as 1048576, 64MiB, 10MB or 512k.
func ParseSize(flag, s string) (int, error) {
	text := strings.ToLower(strings.TrimSpace(s))
	mult := int64(1)
	for _, u := range sizeUnits {
		if num, ok := strings.CutSuffix(text, u.suffix); ok {
			text, mult = strings.TrimSpace(num), u.size
			break
		}
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil || n <= 0 || n > maxSize/mult {
		return 0, exitcode.Usagef("invalid %s %q: give a positive size up to 2 GiB, such as 64MiB, 10MB or 1048576", flag, s)
	}
	return int(n * mult), nil
}
