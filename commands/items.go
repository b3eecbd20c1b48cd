package commands

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// object is a JSON object under construction that keeps key order, so the
// arguments reach the server in the order the user wrote them.
type object struct {
	keys []string
	vals map[string]json.RawMessage
}

func newObject() *object { return &object{vals: map[string]json.RawMessage{}} }

func (o *object) set(k string, v json.RawMessage) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *object) raw() json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(o.vals[k])
	}
	b.WriteByte('}')
	return b.Bytes()
}

// readJSONArg reads a --json value: inline JSON, @FILE or - for stdin.
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
// numbers.
func parseObject(what string, data []byte) (*object, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, usagef("%s is not valid JSON: %v", what, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, usagef("%s must be a JSON object, not %s", what, jsonKind(tok))
	}
	o := newObject()
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, usagef("%s is not valid JSON: %v", what, err)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, usagef("%s is not valid JSON: %v", what, err)
		}
		o.set(kt.(string), v)
	}
	if _, err := dec.Token(); err != nil {
		return nil, usagef("%s is not valid JSON: %v", what, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, usagef("%s has extra data after the JSON object", what)
	}
	return o, nil
}

func jsonKind(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			return "an array"
		}
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%v", tok)
}

// buildArguments turns --json and request items into one JSON object
// (see reqitems.go for the item syntax).
func buildArguments(jsonFlag string, items []string, stdin io.Reader) (json.RawMessage, error) {
	args, _, err := parseRequestItems(jsonFlag, items, stdin)
	return args, err
}

// jsonString encodes s without the HTML escaping json.Marshal applies, so
// traces show "<" as the user wrote it.
func jsonString(s string) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimRight(b.Bytes(), "\n")
}
