package argv

// Request items, HTTPie style, for tools call and prompts get:
//
//	key=value        a string (typed later from the tool's schema)
//	key:=JSON        any JSON value
//	key=@FILE        the file's text; key=@- reads stdin
//	key:=@FILE.json  the file's JSON; key:=@- reads JSON from stdin
//	a[b][c]:=1       nested objects; a[0]=x indexes an array; tags[]=x appends
//	\= \: \@ \[ \\   escapes in keys; a value starting with \@ is a literal "@…"
//
// Items apply in order onto the --json base object, so later ones win.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpctl/mcpctl/client/ojson"
	"github.com/mcpctl/mcpctl/internal/exitcode"
)

// pathSeg is one step of an item's key path.
type pathSeg struct {
	key    string
	index  int  // >= 0 for a[3]
	append bool // a[]
}

func (p pathSeg) isKey() bool { return !p.append && p.index < 0 }

type requestItem struct {
	text  string
	path  []pathSeg
	json  bool // := rather than =
	value string
}

// parseItemKey splits an item into its key path, operator and value.
func parseItemKey(text string) (requestItem, error) {
	it := requestItem{text: text}
	bad := func(why string) (requestItem, error) {
		return it, exitcode.Usagef("invalid argument %q: %s", text, why)
	}
	var tok strings.Builder
	inBracket, afterBracket := false, false
	i := 0
	for ; i < len(text); i++ {
		ch := text[i]
		if ch == '\\' && i+1 < len(text) {
			i++
			if afterBracket && !inBracket {
				return bad("text after ] must be another [...]")
			}
			tok.WriteByte(text[i])
			continue
		}
		if inBracket {
			if ch == ']' {
				it.path = append(it.path, bracketSeg(tok.String()))
				tok.Reset()
				inBracket, afterBracket = false, true
				continue
			}
			tok.WriteByte(ch)
			continue
		}
		switch {
		case ch == '[':
			if len(it.path) == 0 {
				if tok.Len() == 0 {
					return bad("the key is empty")
				}
				it.path = append(it.path, pathSeg{key: tok.String(), index: -1})
				tok.Reset()
			}
			inBracket = true
			continue
		case ch == ':' && i+1 < len(text) && text[i+1] == '=':
			it.json = true
			i++
		case ch == '=':
		default:
			if afterBracket {
				return bad("text after ] must be another [...] or the = sign")
			}
			tok.WriteByte(ch)
			continue
		}
		break // found the operator
	}
	if inBracket {
		return bad("unterminated [")
	}
	if i >= len(text) {
		return bad("write key=value (a string), key:=JSON (any JSON value), key=@FILE or key:=@FILE.json")
	}
	if len(it.path) == 0 {
		if tok.Len() == 0 {
			return bad("the key is empty")
		}
		it.path = append(it.path, pathSeg{key: tok.String(), index: -1})
	}
	it.value = text[i+1:]
	return it, nil
}

func bracketSeg(s string) pathSeg {
	if s == "" {
		return pathSeg{append: true, index: -1}
	}
	if n, err := strconv.Atoi(s); err == nil && n >= 0 && strings.TrimLeft(s, "0123456789") == "" {
		return pathSeg{index: n}
	}
	return pathSeg{key: s, index: -1}
}

// itemValue produces the JSON value of an item; isString reports a plain
// key=value string that schema typing may convert.
func (it requestItem) jsonValue(stdin *stdinOnce) (v json.RawMessage, isString bool, err error) {
	val := it.value
	fileRef := strings.HasPrefix(val, "@")
	if strings.HasPrefix(val, `\@`) {
		val = val[1:]
	}
	if !fileRef {
		if !it.json {
			return ojson.String(val), true, nil
		}
		return parseJSONValue(it.text, []byte(val), "the value after := must be JSON (quote strings: key:='\"text\"')")
	}
	data, err := stdin.readSource(it.text, val[1:])
	if err != nil {
		return nil, false, err
	}
	if !it.json {
		return ojson.String(string(data)), false, nil
	}
	return parseJSONValue(it.text, data, "the file does not hold valid JSON")
}

func parseJSONValue(item string, data []byte, why string) (json.RawMessage, bool, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil || len(bytes.TrimSpace(data[dec.InputOffset():])) > 0 {
		return nil, false, exitcode.Usagef("invalid argument %q: %s", item, why)
	}
	return v, false, nil
}

// stdinOnce hands stdin to at most one item: it cannot be read twice.
type stdinOnce struct {
	r    io.Reader
	used string
}

func (s *stdinOnce) readSource(item, name string) ([]byte, error) {
	if name == "-" {
		if s.used != "" {
			return nil, exitcode.Usagef("invalid argument %q: stdin is already used by %q", item, s.used)
		}
		s.used = item
		b, err := io.ReadAll(s.r)
		if err != nil {
			return nil, exitcode.Usagef("invalid argument %q: cannot read stdin: %v", item, err)
		}
		return b, nil
	}
	if name == "" {
		return nil, exitcode.Usagef("invalid argument %q: name a file after @ (or @- for stdin)", item)
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, exitcode.Usagef("invalid argument %q: %v", item, err)
	}
	return b, nil
}

// ParseItems builds the arguments object from --json and items. It
// also returns the paths of plain key=value strings, which may be typed
// from the tool's schema; array positions appear as decimal strings.
func ParseItems(jsonFlag string, items []string, stdin io.Reader) (json.RawMessage, [][]string, error) {
	in := &stdinOnce{r: stdin}
	var root any = ojson.NewObject()
	if jsonFlag != "" {
		if jsonFlag == "-" {
			in.used = "--json -"
		}
		data, err := ReadJSONArg("--json", jsonFlag, stdin)
		if err != nil {
			return nil, nil, err
		}
		if _, err := ParseObject("--json", data); err != nil {
			return nil, nil, err
		}
		root = json.RawMessage(bytes.TrimSpace(data))
	}
	var stringPaths [][]string
	for _, text := range items {
		it, err := parseItemKey(text)
		if err != nil {
			return nil, nil, err
		}
		v, isString, err := it.jsonValue(in)
		if err != nil {
			return nil, nil, err
		}
		path, err := setItem(&root, it.path, v)
		if err != nil {
			return nil, nil, exitcode.Usagef("invalid argument %q: %v", text, err)
		}
		if isString {
			stringPaths = append(stringPaths, path)
		}
	}
	return ojson.Encode(root), stringPaths, nil
}

// The arguments are built as an ojson tree whose leaves may stay raw
// (json.RawMessage): the --json base and := values are opened one level at
// a time, and only where an item goes, so every part nobody touches keeps
// its text (numbers, spacing, escapes) and its key order.

// setItem stores v at path below *root and returns the concrete path
// (appends resolved). A place that holds nothing yet (or null) may become
// an object or an array; anything else keeps its type: an item that treats
// it as another kind is a mistake, not a reason to drop data.
func setItem(root *any, path []pathSeg, v json.RawMessage) ([]string, error) {
	var out []string
	cur, put := *root, func(x any) { *root = x }
	for _, seg := range path {
		node := openItemValue(cur)
		if seg.isKey() {
			o, ok := node.(*ojson.Object)
			if !ok {
				if !emptyItemValue(node) {
					return nil, fmt.Errorf("%s is %s, not an object", strings.Join(out, "."), describeItemValue(node))
				}
				o = ojson.NewObject()
			}
			put(o)
			key := asJSONKey(seg.key)
			cur, put = o.Get(key), func(x any) { o.Set(key, x) }
			out = append(out, key)
			continue
		}
		a, ok := node.(*ojson.Array)
		if !ok {
			if !emptyItemValue(node) {
				return nil, fmt.Errorf("%s is %s, not an array", strings.Join(out, "."), describeItemValue(node))
			}
			a = ojson.NewArray()
		}
		put(a)
		idx := seg.index
		if seg.append {
			idx = a.Len()
		}
		if idx > a.Len() {
			return nil, fmt.Errorf("index %d is past the end of %s (length %d)", idx, strings.Join(out, "."), a.Len())
		}
		if idx == a.Len() {
			a.Append(nil)
		}
		cur, put = a.Items()[idx], func(x any) { a.Set(idx, x) }
		out = append(out, strconv.Itoa(idx))
	}
	put(v)
	return out, nil
}

// openItemValue turns a raw object or array into a node one level deep,
// its members and items still raw.
func openItemValue(v any) any {
	raw, ok := v.(json.RawMessage)
	if !ok || len(raw) == 0 {
		return v
	}
	switch raw[0] {
	case '{':
		m, err := ojson.SplitObject(raw)
		if err != nil {
			return v
		}
		o := ojson.NewObject()
		for _, f := range m {
			o.Set(f.Key, f.Value)
		}
		return o
	case '[':
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return v
		}
		a := ojson.NewArray()
		for _, it := range items {
			a.Append(it)
		}
		return a
	}
	return v
}

// emptyItemValue reports a place that holds nothing yet, or null.
func emptyItemValue(v any) bool {
	raw, isRaw := v.(json.RawMessage)
	return v == nil || (isRaw && (len(raw) == 0 || string(raw) == "null"))
}

func describeItemValue(v any) string {
	switch v.(type) {
	case *ojson.Object:
		return "an object"
	case *ojson.Array:
		return "an array"
	}
	if raw, ok := v.(json.RawMessage); ok && len(raw) > 0 {
		switch raw[0] {
		case '"':
			return "a string"
		case 't', 'f':
			return "a boolean"
		case 'n':
			return "null"
		default:
			return "a number"
		}
	}
	return "a value"
}

// asJSONKey is k as JSON carries it: encoding/json writes each byte that
// is not UTF-8 as U+FFFD. Members are told apart, and string paths
// reported, in that form, so that schema typing finds the value and two
// spellings of one key stay one member. (Found by FuzzRequestItems.)
func asJSONKey(k string) string {
	if utf8.ValidString(k) {
		return k
	}
	var b strings.Builder
	for i := 0; i < len(k); {
		r, n := utf8.DecodeRuneInString(k[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(k[i : i+n])
		}
		i += n
	}
	return b.String()
}
