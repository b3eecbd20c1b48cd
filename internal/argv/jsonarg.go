package argv

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"

	"github.com/mcpctl/mcpctl/client/ojson"
	"github.com/mcpctl/mcpctl/internal/exitcode"
)

// ReadJSONArg reads a value given inline, as @FILE or as - for stdin (a
// --json or --answers document, a continuation, an assertion or ID token).
func ReadJSONArg(flag, v string, stdin io.Reader) ([]byte, error) {
	switch {
	case v == "-":
		b, err := io.ReadAll(stdin)
		if err != nil {
			return nil, exitcode.Usagef("%s -: cannot read stdin: %v", flag, err)
		}
		return b, nil
	case strings.HasPrefix(v, "@"):
		b, err := os.ReadFile(v[1:])
		if err != nil {
			return nil, exitcode.Usagef("%s %s: %v", flag, v, err)
		}
		return b, nil
	}
	return []byte(v), nil
}

// ParseObject decodes data as one JSON object, keeping order and exact
// numbers; of duplicate keys the last value counts, in the first one's
// place. Errors are usage errors that name what (--json, --answers, …).
func ParseObject(what string, data []byte) (ojson.Members, error) {
	m, err := ojson.SplitObject(data)
	switch {
	case errors.Is(err, ojson.ErrNotObject):
		return nil, exitcode.Usagef("%s must be a JSON object, not %s", what, jsonKind(data))
	case errors.Is(err, ojson.ErrTrailingData):
		return nil, exitcode.Usagef("%s has extra data after the JSON object", what)
	case err != nil:
		return nil, exitcode.Usagef("%s is not valid JSON: %v", what, err)
	}
	return m.Unique(), nil
}

// jsonKind names the kind of JSON value data starts with.
func jsonKind(data []byte) string {
	switch t := bytes.TrimSpace(data); {
	case len(t) == 0:
		return "nothing"
	case t[0] == '[':
		return "an array"
	case t[0] == '"':
		return "a string"
	case t[0] == 't' || t[0] == 'f':
		return "a boolean"
	case t[0] == 'n':
		return "null"
	default:
		return "a number"
	}
}
