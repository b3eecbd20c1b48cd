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
	var root any
	dec := json.NewDecoder(bytes.NewReader(inputSchema))
	dec.UseNumber()
	if err := dec.Decode(&root); err != nil {
		return nil, fmt.Errorf("inputSchema is not valid JSON: %v", err)
	}
	var params []HeaderParam
	if err := walkSchema(root, nil, true, &params); err != nil {
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

// Keywords whose value maps names to subschemas.
var schemaMapKeywords = map[string]bool{
	"properties": true, "$defs": true, "definitions": true,
	"patternProperties": true, "dependentSchemas": true,
}

// Keywords whose values are data, not schemas.
var schemaDataKeywords = map[string]bool{
	"enum": true, "const": true, "default": true, "examples": true, "required": true,
}

// walkSchema visits every subschema. reachable says whether the node is
// reached from the root through "properties" alone, the only place an
// x-mcp-header annotation is allowed.
func walkSchema(node any, path []string, reachable bool, out *[]HeaderParam) error {
	obj, ok := node.(map[string]any)
	if !ok {
		if arr, isArr := node.([]any); isArr {
			for _, e := range arr {
				if err := walkSchema(e, path, false, out); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if v, has := obj["x-mcp-header"]; has {
		if err := checkAnnotation(obj, v, path, reachable); err != nil {
			return err
		}
		*out = append(*out, HeaderParam{Path: append([]string(nil), path...), Header: v.(string)})
	}
	for k, v := range obj {
		switch {
		case k == "x-mcp-header" || schemaDataKeywords[k]:
		case schemaMapKeywords[k]:
			m, isMap := v.(map[string]any)
			if !isMap {
				continue
			}
			for name, sub := range m {
				subPath := append(append([]string(nil), path...), name)
				if err := walkSchema(sub, subPath, reachable && k == "properties", out); err != nil {
					return err
				}
			}
		default:
			if err := walkSchema(v, path, false, out); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkAnnotation(obj map[string]any, v any, path []string, reachable bool) error {
	where := "the schema root"
	if len(path) > 0 {
		where = "property " + strings.Join(path, ".")
	}
	name, isStr := v.(string)
	switch {
	case !isStr:
		return fmt.Errorf("x-mcp-header on %s is not a string", where)
	case name == "":
		return fmt.Errorf("x-mcp-header on %s is empty", where)
	case !reachable || len(path) == 0:
		return fmt.Errorf("x-mcp-header %q on %s is not reachable from the root through properties alone", name, where)
	}
	for _, r := range name {
		if !isTchar(r) {
			return fmt.Errorf("x-mcp-header %q on %s has a character not allowed in an HTTP header name (%q)", name, where, r)
		}
	}
	if !primitiveType(obj["type"]) {
		return fmt.Errorf("x-mcp-header %q on %s annotates a parameter whose type is not string, integer or boolean", name, where)
	}
	return nil
}

func isTchar(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return true
	}
	return strings.ContainsRune("!#$%&'*+-.^_`|~", r)
}

func primitiveType(t any) bool {
	ok := func(s any) bool { return s == "string" || s == "integer" || s == "boolean" }
	switch t := t.(type) {
	case string:
		return ok(t)
	case []any:
		n := 0
		for _, e := range t {
			if e == "null" {
				continue
			}
			if !ok(e) {
				return false
			}
			n++
		}
		return n > 0
	}
	return false
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
