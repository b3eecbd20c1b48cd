package client

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpctl/mcpctl/client/schema"
)

// maxSafeInteger bounds integers mirrored into headers: JavaScript peers
// cannot represent more.
const maxSafeInteger = 1<<53 - 1

const (
	base64Prefix = "=?base64?"
	base64Suffix = "?="
)

// EncodeHeaderValue applies the Streamable HTTP value encoding: a value
// that is not plain visible ASCII (non-ASCII, control characters, leading
// or trailing whitespace) or that looks like the sentinel itself is sent as
// =?base64?…?=; anything else verbatim.
func EncodeHeaderValue(s string) string {
	if needsBase64(s) {
		return base64Prefix + base64.StdEncoding.EncodeToString([]byte(s)) + base64Suffix
	}
	return s
}

func needsBase64(s string) bool {
	if s == "" {
		return false
	}
	if strings.HasPrefix(s, base64Prefix) && strings.HasSuffix(s, base64Suffix) {
		return true
	}
	if first, last := s[0], s[len(s)-1]; first == ' ' || first == '\t' || last == ' ' || last == '\t' {
		return true
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f {
			return true
		}
	}
	return !utf8.ValidString(s)
}

// DecodeHeaderValue reverses EncodeHeaderValue.
func DecodeHeaderValue(s string) (string, error) {
	if !strings.HasPrefix(s, base64Prefix) || !strings.HasSuffix(s, base64Suffix) || len(s) < len(base64Prefix)+len(base64Suffix) {
		return s, nil
	}
	b, err := base64.StdEncoding.DecodeString(s[len(base64Prefix) : len(s)-len(base64Suffix)])
	return string(b), err
}

// HeaderParam is one x-mcp-header annotation of a tool's input schema.
type HeaderParam struct {
	Path   []string // chain of property names from the schema root
	Header string   // the name part of Mcp-Param-{Header}
}

// ToolHeaderParams validates the x-mcp-header annotations of an input
// schema and returns them. An invalid annotation makes the whole tool
// invalid: the error says why.
func ToolHeaderParams(inputSchema json.RawMessage) ([]HeaderParam, error) {
	if len(bytes.TrimSpace(inputSchema)) == 0 {
		return nil, nil
	}
	doc, err := schema.Read(inputSchema)
	if err != nil {
		return nil, fmt.Errorf("inputSchema is not valid JSON: %v", err)
	}
	// Every subschema is looked at, so that an annotation where the
	// binding does not allow one (under items, anyOf, $defs, ...) makes
	// the tool invalid rather than being ignored.
	var params []HeaderParam
	err = doc.Walk(func(n schema.Node) error {
		v, has := n.Keyword("x-mcp-header")
		if !has {
			return nil
		}
		p, err := checkAnnotation(n, v)
		if err == nil {
			params = append(params, p)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	seen := map[string]string{}
	for _, p := range params {
		key := strings.ToLower(p.Header)
		if prev, ok := seen[key]; ok {
			return nil, fmt.Errorf("x-mcp-header %q is used twice (also as %q); names must be unique ignoring case", p.Header, prev)
		}
		seen[key] = p.Header
	}
	sort.SliceStable(params, func(i, j int) bool { return strings.Join(params[i].Path, ".") < strings.Join(params[j].Path, ".") })
	return params, nil
}

// checkAnnotation checks the x-mcp-header annotation v of the subschema n
// against the binding's constraints.
func checkAnnotation(n schema.Node, v json.RawMessage) (HeaderParam, error) {
	path, reachable := n.PropertyPath()
	where := "the schema root"
	if len(path) > 0 {
		where = "property " + strings.Join(path, ".")
	} else if !reachable {
		where = "#" + n.Pointer()
	}
	var name string
	isStr := len(v) > 0 && v[0] == '"' && json.Unmarshal(v, &name) == nil
	switch {
	case !isStr:
		return HeaderParam{}, fmt.Errorf("x-mcp-header on %s is not a string", where)
	case name == "":
		return HeaderParam{}, fmt.Errorf("x-mcp-header on %s is empty", where)
	case !reachable || len(path) == 0:
		return HeaderParam{}, fmt.Errorf("x-mcp-header %q on %s is not reachable from the root through properties alone", name, where)
	}
	for _, r := range name {
		if !isTchar(r) {
			return HeaderParam{}, fmt.Errorf("x-mcp-header %q on %s has a character not allowed in an HTTP header name (%q)", name, where, r)
		}
	}
	if !primitiveTypes(n.Types()) {
		return HeaderParam{}, fmt.Errorf("x-mcp-header %q on %s annotates a parameter whose type is not string, integer or boolean", name, where)
	}
	return HeaderParam{Path: path, Header: name}, nil
}

func isTchar(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return true
	}
	return strings.ContainsRune("!#$%&'*+-.^_`|~", r)
}

// primitiveTypes reports whether a parameter declared with types may be
// mirrored: string, integer or boolean, or null besides (a null value
// sends no header).
func primitiveTypes(types []string) bool {
	n := 0
	for _, t := range types {
		switch t {
		case "null":
		case "string", "integer", "boolean":
			n++
		default:
			return false
		}
	}
	return n > 0
}

// ParamHeaders returns the Mcp-Param-* headers for a call's arguments.
// Absent and null values produce no header; an empty string produces a
// header with an empty value.
func ParamHeaders(params []HeaderParam, arguments json.RawMessage) (http.Header, error) {
	h := http.Header{}
	if len(params) == 0 || len(bytes.TrimSpace(arguments)) == 0 {
		return h, nil
	}
	var args any
	dec := json.NewDecoder(bytes.NewReader(arguments))
	dec.UseNumber()
	if err := dec.Decode(&args); err != nil {
		return nil, err
	}
	for _, p := range params {
		v, found := lookupPath(args, p.Path)
		if !found || v == nil {
			continue
		}
		var s string
		switch v := v.(type) {
		case string:
			s = v
		case bool:
			s = fmt.Sprint(v)
		case json.Number:
			n, err := v.Int64()
			if err != nil || n > maxSafeInteger || n < -maxSafeInteger {
				return nil, fmt.Errorf("argument %s = %s cannot be sent in header Mcp-Param-%s: only integers within ±(2^53-1) may be mirrored", strings.Join(p.Path, "."), v, p.Header)
			}
			s = strconv.FormatInt(n, 10)
		default:
			return nil, fmt.Errorf("argument %s must be a string, integer or boolean to be sent in header Mcp-Param-%s", strings.Join(p.Path, "."), p.Header)
		}
		// Set the exact case the server chose; Go would canonicalise it,
		// which is harmless, but traces read better this way.
		h["Mcp-Param-"+p.Header] = []string{EncodeHeaderValue(s)}
	}
	return h, nil
}

func lookupPath(v any, path []string) (any, bool) {
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		v, ok = m[k]
		if !ok {
			return nil, false
		}
	}
	return v, true
}
