package argv

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpctl/mcpctl/client/ojson"
	"github.com/mcpctl/mcpctl/internal/exitcode"
)

// FuzzRequestItems parses arbitrary request items (one per line of items,
// over an arbitrary --json base) and checks what comes out: a JSON object,
// with every plain key=value string at the path reported for it. And any
// key and value, escaped as docs/commands.md says, come back as exactly that
// key and that string.
func FuzzRequestItems(f *testing.F) {
	// Seeds: testdata/fuzz/FuzzRequestItems.
	f.Fuzz(func(t *testing.T, base, items, key, value string) {
		var list []string
		if items != "" {
			list = strings.Split(items, "\n")
		}
		if base != "" && (base == "-" || base[0] == '@') {
			base = "" // stdin and files are not what is fuzzed here
		}
		for _, it := range list {
			if strings.Contains(it, "=@") || strings.Contains(it, ":=@") {
				return // reads a file
			}
		}
		args, paths, err := ParseItems(base, list, strings.NewReader(""))
		if err == nil {
			var tree any
			dec := json.NewDecoder(bytes.NewReader(args))
			dec.UseNumber()
			if dec.Decode(&tree) != nil || !json.Valid(args) {
				t.Fatalf("items %q over %q gave invalid JSON %s", list, base, args)
			}
			if _, ok := tree.(map[string]any); !ok {
				t.Fatalf("items %q over %q gave %s, not an object", list, base, args)
			}
			for _, p := range paths {
				if _, ok := lookup(tree, p).(string); !ok {
					t.Fatalf("items %q: the string path %q leads to %v in %s", list, p, lookup(tree, p), args)
				}
			}
		} else if _, ok := err.(*exitcode.UsageError); !ok {
			t.Fatalf("items %q: error %v (%T), want a usage error", list, err, err)
		}

		// The round trip of one escaped item.
		if key == "" || strings.HasPrefix(value, `\@`) {
			return // an empty key is an error; a value cannot begin with a literal \@
		}
		item := escapeItemKey(key) + "=" + escapeItemValue(value)
		args, paths, err = ParseItems("", []string{item}, strings.NewReader(""))
		if err != nil {
			t.Fatalf("item %q (key %q, value %q): %v", item, key, value, err)
		}
		want := `{` + string(ojson.String(asJSONKey(key))) + `:` + string(ojson.String(value)) + `}`
		if string(args) != want || len(paths) != 1 || len(paths[0]) != 1 || paths[0][0] != asJSONKey(key) {
			t.Fatalf("item %q gave %s with paths %q; want %s", item, args, paths, want)
		}
	})
}

// escapeItemKey escapes what the item syntax gives a meaning in a key.
func escapeItemKey(k string) string {
	var b strings.Builder
	for _, r := range k {
		if strings.ContainsRune(`\=:@[`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func escapeItemValue(v string) string {
	if strings.HasPrefix(v, "@") {
		return `\` + v
	}
	return v
}

func lookup(v any, path []string) any {
	for _, p := range path {
		switch t := v.(type) {
		case map[string]any:
			v = t[p]
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i >= len(t) {
				return nil
			}
			v = t[i]
		default:
			return nil
		}
	}
	return v
}
