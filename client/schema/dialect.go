package schema

import (
	"strings"
	"sync"
)

// Draft versions, numbered so that comparisons read like the specifications'
// history ("draft < 2019" means $ref overrides its siblings).
const (
	draft4    = 4
	draft6    = 6
	draft7    = 7
	draft2019 = 2019
	draft2020 = 2020
)

func draftName(d int) string {
	switch d {
	case draft4:
		return "draft-04"
	case draft6:
		return "draft-06"
	case draft7:
		return "draft-07"
	case draft2019:
		return "2019-09"
	default:
		return "2020-12"
	}
}

// draftFromURL recognises the `$schema` values of the supported dialects
// (http or https, with or without an empty fragment). Anything else would
// have to be fetched to be understood, so it is refused with a
// DialectError.
func draftFromURL(u string) (int, bool) {
	base, frag, _ := strings.Cut(u, "#")
	if frag != "" {
		return 0, false
	}
	if s, ok := strings.CutPrefix(base, "http://"); ok {
		base = s
	} else {
		base, _ = strings.CutPrefix(base, "https://")
	}
	switch base {
	case "json-schema.org/schema", "json-schema.org/draft/2020-12/schema":
		return draft2020, true
	case "json-schema.org/draft/2019-09/schema":
		return draft2019, true
	case "json-schema.org/draft-07/schema":
		return draft7, true
	case "json-schema.org/draft-06/schema":
		return draft6, true
	case "json-schema.org/draft-04/schema":
		return draft4, true
	}
	return 0, false
}

// idKeyword is the keyword that names a schema resource in draft d.
func idKeyword(d int) string {
	if d == draft4 {
		return "id"
	}
	return "$id"
}

// pureRef reports whether the node's $ref replaces all its siblings, which
// is the rule before 2019-09 ("All other properties in a $ref object MUST be
// ignored").
func pureRef(o *object, d int) bool {
	if d >= draft2019 || o == nil {
		return false
	}
	_, ok := o.Lookup("$ref")
	return ok
}

// schemaID returns the id a node declares, without fragment, following the
// specifications: in drafts before 2019-09 an id next to $ref is ignored.
func schemaID(o *object, d int) string {
	if pureRef(o, d) {
		return ""
	}
	s, _ := o.Get(idKeyword(d)).(string)
	id, _, _ := strings.Cut(s, "#")
	return id
}

// Keyword positions that hold subschemas, per draft, each list adding to
// the earlier drafts' (so an earlier draft's keyword, such as definitions
// or dependencies, is walked in a later draft too, where it is only an
// unknown keyword: harmless, since the evaluator applies keywords by
// draft; a later draft's keyword, such as $defs in draft-07, holds data).
var (
	singleKeywords = map[int][]string{
		draft4:    {"not", "additionalProperties", "additionalItems", "items"},
		draft6:    {"propertyNames", "contains"},
		draft7:    {"if", "then", "else"},
		draft2019: {"unevaluatedProperties", "unevaluatedItems", "contentSchema"},
	}
	arrayKeywords = map[int][]string{
		draft4:    {"allOf", "anyOf", "oneOf", "items"},
		draft2020: {"prefixItems"},
	}
	mapKeywords = map[int][]string{
		draft4:    {"definitions", "properties", "patternProperties", "dependencies"},
		draft2019: {"$defs", "dependentSchemas"},
	}
	draftsUpTo = []int{draft4, draft6, draft7, draft2019, draft2020}
)

// isSchemaValue reports whether v can be a schema (object or boolean).
// Booleans are accepted in every draft here; draft-04's meta-schema rejects
// them where they are not allowed.
func isSchemaValue(v any) bool {
	switch v.(type) {
	case *object, bool:
		return true
	}
	return false
}

// subschemaKeywordsOf holds, per draft, each keyword that holds
// subschemas: 1 a single one, 2 an array of them, 4 a map of them. It is
// built on first use (nothing at start-up) and once per draft, as every
// schema node of every tool is walked with it.
var subschemaKeywordsOf sync.Map // int -> map[string]int

func subschemaKeywords(d int) map[string]int {
	if m, ok := subschemaKeywordsOf.Load(d); ok {
		return m.(map[string]int)
	}
	want := map[string]int{}
	for _, dv := range draftsUpTo {
		if dv > d {
			break
		}
		for _, k := range singleKeywords[dv] {
			want[k] |= 1
		}
		for _, k := range arrayKeywords[dv] {
			want[k] |= 2
		}
		for _, k := range mapKeywords[dv] {
			want[k] |= 4
		}
	}
	m, _ := subschemaKeywordsOf.LoadOrStore(d, want)
	return m.(map[string]int)
}

// forEachSubschema calls fn for every direct subschema of o under draft d,
// in document order of the keywords, with the relative pointer tokens.
func forEachSubschema(o *object, d int, fn func(toks []string, v any) error) error {
	want := subschemaKeywords(d)
	for _, k := range o.Keys() {
		mode, ok := want[k]
		if !ok {
			continue
		}
		v := o.Get(k)
		if mode&1 != 0 && isSchemaValue(v) {
			if err := fn([]string{k}, v); err != nil {
				return err
			}
		}
		if a, ok := v.(*array); ok && mode&2 != 0 {
			for i, it := range a.Items() {
				if isSchemaValue(it) {
					if err := fn([]string{k, itoa(i)}, it); err != nil {
						return err
					}
				}
			}
		}
		if m, ok := v.(*object); ok && mode&4 != 0 {
			for _, mk := range m.Keys() {
				if mv := m.Get(mk); isSchemaValue(mv) {
					if err := fn([]string{k, mk}, mv); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}
