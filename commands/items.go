package commands

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"

	"github.com/mcpctl/mcpctl/client/ojson"
)

// readJSONArg reads a value given inline, as @FILE or as - for stdin (a
// --json or --answers document, a continuation, an assertion or ID token).
func readJSONArg(flag, v string, stdin io.Reader) ([]byte, error) {
	switch {
	case v == "-":
		b, err := io.ReadAll(stdin)
		if err != nil {
			return nil, usagef("%s -: cannot read stdin: %v", flag, err)
		}
		return b, nil
	case strings.HasPrefix(v, "@"):
		b, err := os.ReadFile(v[1:])
		if err != nil {
			return nil, usagef("%s %s: %v", flag, v, err)
		}
		return b, nil
	}
	return []byte(v), nil
}

// parseObject decodes data as one JSON object, keeping order and exact
// numbers; of duplicate keys the last value counts, in the first one's
// place. Errors are usage errors that name what (--json, --answers, …).
func parseObject(what string, data []byte) (ojson.Members, error) {
	m, err := ojson.SplitObject(data)
	switch {
	case errors.Is(err, ojson.ErrNotObject):
		return nil, usagef("%s must be a JSON object, not %s", what, jsonKind(data))
	case errors.Is(err, ojson.ErrTrailingData):
		return nil, usagef("%s has extra data after the JSON object", what)
	case err != nil:
		return nil, usagef("%s is not valid JSON: %v", what, err)
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

// buildArguments turns --json and request items into one JSON object
// (see reqitems.go for the item syntax).
func buildArguments(jsonFlag string, items []string, stdin io.Reader) (json.RawMessage, error) {
	args, _, err := parseRequestItems(jsonFlag, items, stdin)
	return args, err
}
