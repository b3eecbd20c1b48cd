package output

import (
	"fmt"
	"strings"
)

// Format names an output format as accepted by --output.
type Format string

const (
	FormatJSON  Format = "json"
	FormatYAML  Format = "yaml"
	FormatTable Format = "table"
	FormatText  Format = "text"
)

// Formats lists the accepted formats in the order help text and shell
// completion should show them.
func Formats() []Format { return []Format{FormatJSON, FormatYAML, FormatTable, FormatText} }

// ParseFormat validates a --output value. The empty string is accepted and
// means "let the terminal decide" (see DefaultFormat).
func ParseFormat(s string) (Format, error) {
	if s == "" {
		return "", nil
	}
	for _, f := range Formats() {
		if strings.EqualFold(s, string(f)) {
			return f, nil
		}
	}
	names := make([]string, 0, 4)
	for _, f := range Formats() {
		names = append(names, string(f))
	}
	return "", fmt.Errorf("unknown output format %q: use one of %s", s, strings.Join(names, ", "))
}

// DefaultFormat is text for a person at a terminal and JSON for a program
// reading a pipe.
func DefaultFormat(stdoutTTY bool) Format {
	if stdoutTTY {
		return FormatText
	}
	return FormatJSON
}
