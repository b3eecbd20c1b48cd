package schema

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
)

// A schema must be valid under its dialect's meta-schema before anything is
// checked against it (MCP basic/index "Schema Validation"). Each dialect's
// meta-schema says the same kind of thing about the keywords it knows: what
// type the value has ("minimum" is a number, "required" an array of unique
// strings, "properties" an object of schemas), a few bounds (counts are
// non-negative integers, "multipleOf" is positive) and that patterns are
// regular expressions. Unknown keywords are allowed. keywordRules states
// those rules per keyword and draft; checkKeywords applies them to every
// subschema, so a schema is refused exactly where its meta-schema would
// refuse it, with the place and the reason.

type rule int

const (
	ruleNone         rule = iota
	ruleString            // a string
	ruleBool              // a boolean
	ruleNumber            // a number
	rulePositive          // a number > 0
	ruleCount             // an integer >= 0
	ruleSchema            // a schema
	ruleSchemaOrBool      // a schema or a boolean (draft-04)
	ruleSchemaArray       // a non-empty array of schemas
	ruleSchemaMap         // an object of schemas
	ruleItems             // a schema, or a non-empty array of schemas (before 2020-12)
	ruleStringArray       // an array of unique strings (non-empty in draft-04)
	ruleDependencies      // an object of schemas or string arrays
	ruleDependentReq      // an object of string arrays
	ruleType              // a type name, or a non-empty array of unique ones
	ruleEnum              // an array (non-empty and unique before 2019-09)
	ruleArray             // an array
	ruleRegex             // a string that is a regular expression
	rulePatternMap        // an object of schemas whose keys are regular expressions
	ruleExclusive4        // draft-04: a boolean, beside minimum/maximum
	ruleURIRef            // a string that is a URI reference
	ruleID                // a URI reference; from 2019-09 without a fragment
	ruleAnchor            // a plain name
	ruleVocabulary        // an object of booleans keyed by URI
)

// keywordRule returns the rule draft d's meta-schema sets for kw.
func keywordRule(kw string, d int) rule {
	switch kw {
	case "title", "description", "format":
		return ruleString
	case "default":
		return ruleNone
	case "multipleOf":
		return rulePositive
	case "maximum", "minimum":
		return ruleNumber
	case "exclusiveMaximum", "exclusiveMinimum":
		if d == draft4 {
			return ruleExclusive4
		}
		return ruleNumber
	case "maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties":
		return ruleCount
	case "pattern":
		return ruleRegex
	case "uniqueItems":
		return ruleBool
	case "required":
		return ruleStringArray
	case "enum":
		return ruleEnum
	case "type":
		return ruleType
	case "allOf", "anyOf", "oneOf":
		return ruleSchemaArray
	case "additionalProperties", "additionalItems":
		if kw == "additionalItems" && d >= draft2020 {
			return ruleNone // not a 2020-12 keyword
		}
		if d == draft4 {
			return ruleSchemaOrBool // draft-04's one place for a boolean
		}
		return ruleSchema
	case "not":
		return ruleSchema
	case "items":
		if d >= draft2020 {
			return ruleSchema
		}
		return ruleItems
	case "definitions", "properties":
		return ruleSchemaMap
	case "patternProperties":
		return rulePatternMap
	case "dependencies":
		return ruleDependencies
	case "$ref":
		if d == draft4 {
			return ruleString
		}
		return ruleURIRef
	case "id":
		if d == draft4 {
			return ruleString
		}
	case "$id":
		if d >= draft6 {
			return ruleID
		}
	case "$schema":
		return ruleString // which dialect it names is checked by the walk
	}
	if d >= draft6 {
		switch kw {
		case "contains", "propertyNames":
			return ruleSchema
		}
	}
	if d >= draft7 {
		switch kw {
		case "$comment", "contentMediaType", "contentEncoding":
			return ruleString
		case "readOnly", "writeOnly":
			return ruleBool
		case "examples":
			return ruleArray
		case "if", "then", "else":
			return ruleSchema
		}
	}
	if d >= draft2019 {
		switch kw {
		case "$defs", "dependentSchemas":
			return ruleSchemaMap
		case "unevaluatedItems", "unevaluatedProperties", "contentSchema":
			return ruleSchema
		case "maxContains", "minContains":
			return ruleCount
		case "dependentRequired":
			return ruleDependentReq
		case "deprecated":
			return ruleBool
		case "$anchor":
			return ruleAnchor
		case "$recursiveRef":
			return ruleURIRef
		case "$recursiveAnchor":
			if d == draft2019 {
				return ruleBool
			}
			return ruleAnchor // 2020-12 keeps the name, as an anchor string
		case "$vocabulary":
			return ruleVocabulary
		}
	}
	if d >= draft2020 {
		switch kw {
		case "prefixItems":
			return ruleSchemaArray
		case "$dynamicRef":
			return ruleURIRef
		case "$dynamicAnchor":
			return ruleAnchor
		}
	}
	return ruleNone
}

var simpleTypes = []string{"array", "boolean", "integer", "null", "number", "object", "string"}

// anchorName checks an anchor name: 2019-09 allows ^[A-Za-z][-A-Za-z0-9.:_]*$,
// 2020-12 ^[A-Za-z_][-A-Za-z0-9._]*$.
func anchorName(s string, d int) bool {
	for i, c := range s {
		letter := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
		switch {
		case letter, c == '_' && (i > 0 || d >= draft2020):
		case i > 0 && (c >= '0' && c <= '9' || c == '-' || c == '.' || c == ':' && d == draft2019):
		default:
			return false
		}
	}
	return s != ""
}

// keywordChecker collects meta-schema problems.
type keywordChecker struct {
	s     *Schema
	probs []string
}

func (kc *keywordChecker) bad(ptr, format string, args ...any) {
	kc.probs = append(kc.probs, fmt.Sprintf("at %q: %s", "#"+ptr, fmt.Sprintf(format, args...)))
}

// checkKeywords returns the meta-schema problems of the document, sorted
// and at most 5 of them (with a count of the rest). A subschema found only
// through a $ref into a spot that is no keyword's subschema is outside what
// the meta-schema describes; it is checked too when a reference to it can
// apply (used), since it is then validated against.
func (s *Schema) checkKeywords(used map[*node]bool) []string {
	kc := &keywordChecker{s: s}
	ptrs := make([]string, 0, len(s.nodes))
	for p, n := range s.nodes {
		if !n.marker && (!n.adhoc || used[n]) {
			ptrs = append(ptrs, p)
		}
	}
	sort.Strings(ptrs)
	for _, p := range ptrs {
		kc.node(s.nodes[p])
	}
	sort.Strings(kc.probs)
	if len(kc.probs) > 5 {
		kc.probs = append(kc.probs[:5], fmt.Sprintf("and %d more", len(kc.probs)-5))
	}
	return kc.probs
}

func (kc *keywordChecker) node(n *node) {
	if n.obj == nil {
		return
	}
	for _, kw := range n.obj.Keys() {
		kc.value(n, kw, keywordRule(kw, n.draft), n.obj.Get(kw))
	}
}

func (kc *keywordChecker) value(n *node, kw string, r rule, v any) {
	ptr := ptrJoin(n.ptr, kw)
	d := n.draft
	switch r {
	case ruleString:
		kc.want(ptr, v, "string")
	case ruleBool:
		kc.want(ptr, v, "boolean")
	case ruleNumber:
		kc.want(ptr, v, "number")
	case rulePositive:
		if kc.want(ptr, v, "number") {
			if dec, _ := numberOf(v); dec.sign() <= 0 {
				kc.bad(ptr, "must be greater than 0, got %s", jsonText(v))
			}
		}
	case ruleCount:
		kc.count(ptr, v)
	case ruleSchema:
		kc.schema(ptr, v, d)
	case ruleSchemaOrBool:
		if _, isBool := v.(bool); !isBool {
			kc.schema(ptr, v, d)
		}
	case ruleSchemaArray:
		kc.schemaArray(ptr, v, d)
	case ruleSchemaMap:
		o, ok := v.(*object)
		if !kc.want(ptr, v, "object") || !ok {
			return
		}
		for _, k := range o.Keys() {
			kc.schema(ptrJoin(ptr, k), o.Get(k), d)
		}
	case rulePatternMap:
		o, ok := v.(*object)
		if !kc.want(ptr, v, "object") || !ok {
			return
		}
		for _, k := range o.Keys() {
			kc.regex(ptrJoin(ptr, k), k)
			kc.schema(ptrJoin(ptr, k), o.Get(k), d)
		}
	case ruleItems:
		if _, isArr := v.(*array); isArr {
			kc.schemaArray(ptr, v, d)
		} else {
			kc.schema(ptr, v, d)
		}
	case ruleStringArray:
		kc.stringArray(ptr, v, d == draft4)
	case ruleDependencies:
		o, ok := v.(*object)
		if !kc.want(ptr, v, "object") || !ok {
			return
		}
		for _, k := range o.Keys() {
			if _, isArr := o.Get(k).(*array); isArr {
				kc.stringArray(ptrJoin(ptr, k), o.Get(k), d == draft4)
			} else {
				kc.schema(ptrJoin(ptr, k), o.Get(k), d)
			}
		}
	case ruleDependentReq:
		o, ok := v.(*object)
		if !kc.want(ptr, v, "object") || !ok {
			return
		}
		for _, k := range o.Keys() {
			kc.stringArray(ptrJoin(ptr, k), o.Get(k), false)
		}
	case ruleType:
		kc.typeValue(ptr, v)
	case ruleEnum:
		a, ok := v.(*array)
		if !kc.want(ptr, v, "array") || !ok || d >= draft2019 {
			return
		}
		if len(a.Items()) == 0 {
			kc.bad(ptr, "must not be empty")
		} else if i, j, dup := duplicate(a.Items()); dup {
			kc.bad(ptr, "items at %d and %d are equal, but must be unique", i, j)
		}
	case ruleArray:
		kc.want(ptr, v, "array")
	case ruleRegex:
		if s, ok := v.(string); kc.want(ptr, v, "string") && ok {
			kc.regex(ptr, s)
		}
	case ruleExclusive4:
		if kc.want(ptr, v, "boolean") {
			base := strings.ToLower(strings.TrimPrefix(kw, "exclusive"))
			if _, ok := n.obj.Lookup(base); !ok {
				kc.bad(ptr, "needs %s beside it", base)
			}
		}
	case ruleURIRef:
		if s, ok := v.(string); kc.want(ptr, v, "string") && ok {
			if _, err := url.Parse(s); err != nil {
				kc.bad(ptr, "%s is not a URI reference", jsonText(s))
			}
		}
	case ruleID:
		s, ok := v.(string)
		if !kc.want(ptr, v, "string") || !ok {
			return
		}
		if _, err := url.Parse(s); err != nil {
			kc.bad(ptr, "%s is not a URI reference", jsonText(s))
		} else if _, frag, _ := strings.Cut(s, "#"); frag != "" && d >= draft2019 {
			kc.bad(ptr, "%s has a fragment; name a subschema with $anchor instead", jsonText(s))
		}
	case ruleAnchor:
		s, ok := v.(string)
		if !kc.want(ptr, v, "string") || !ok {
			return
		}
		if !anchorName(s, d) {
			kc.bad(ptr, "%s is not a valid anchor name", jsonText(s))
		}
	case ruleVocabulary:
		o, ok := v.(*object)
		if !kc.want(ptr, v, "object") || !ok {
			return
		}
		for _, k := range o.Keys() {
			if u, err := url.Parse(k); err != nil || !u.IsAbs() {
				kc.bad(ptrJoin(ptr, k), "%s is not an absolute URI", jsonText(k))
			}
			kc.want(ptrJoin(ptr, k), o.Get(k), "boolean")
		}
	}
}

// want checks the JSON type of v and reports a mismatch.
func (kc *keywordChecker) want(ptr string, v any, t string) bool {
	if hasType(v, t) {
		return true
	}
	kc.bad(ptr, "got %s, want %s", jsonKind(v), t)
	return false
}

func (kc *keywordChecker) count(ptr string, v any) {
	if !kc.want(ptr, v, "integer") {
		return
	}
	if dec, _ := numberOf(v); dec.neg {
		kc.bad(ptr, "must be >= 0, got %s", jsonText(v))
	}
}

func (kc *keywordChecker) schema(ptr string, v any, d int) {
	switch v.(type) {
	case *object:
		return
	case bool:
		if d >= draft6 {
			return
		}
		kc.bad(ptr, "got boolean, want object (draft-04 has no boolean schemas)")
		return
	}
	if d >= draft6 {
		kc.bad(ptr, "got %s, want a schema (object or boolean)", jsonKind(v))
	} else {
		kc.bad(ptr, "got %s, want a schema (object)", jsonKind(v))
	}
}

func (kc *keywordChecker) schemaArray(ptr string, v any, d int) {
	a, ok := v.(*array)
	if !kc.want(ptr, v, "array") || !ok {
		return
	}
	if len(a.Items()) == 0 {
		kc.bad(ptr, "must not be empty")
	}
	for i, it := range a.Items() {
		kc.schema(ptrJoin(ptr, itoa(i)), it, d)
	}
}

func (kc *keywordChecker) stringArray(ptr string, v any, nonEmpty bool) {
	a, ok := v.(*array)
	if !kc.want(ptr, v, "array") || !ok {
		return
	}
	if nonEmpty && len(a.Items()) == 0 {
		kc.bad(ptr, "must not be empty")
	}
	for i, it := range a.Items() {
		kc.want(ptrJoin(ptr, itoa(i)), it, "string")
	}
	if i, j, dup := duplicate(a.Items()); dup {
		kc.bad(ptr, "items at %d and %d are equal, but must be unique", i, j)
	}
}

func (kc *keywordChecker) typeValue(ptr string, v any) {
	one := func(p string, t any) {
		s, ok := t.(string)
		if !ok {
			kc.bad(p, "got %s, want a type name", jsonKind(t))
			return
		}
		for _, st := range simpleTypes {
			if s == st {
				return
			}
		}
		kc.bad(p, "%s is not a JSON Schema type (%s)", jsonText(s), strings.Join(simpleTypes, ", "))
	}
	switch t := v.(type) {
	case string:
		one(ptr, t)
	case *array:
		if len(t.Items()) == 0 {
			kc.bad(ptr, "must not be empty")
		}
		for i, it := range t.Items() {
			one(ptrJoin(ptr, itoa(i)), it)
		}
		if i, j, dup := duplicate(t.Items()); dup {
			kc.bad(ptr, "items at %d and %d are equal, but must be unique", i, j)
		}
	default:
		kc.bad(ptr, "got %s, want a type name or an array of them", jsonKind(v))
	}
}

// regex checks that a pattern is a regular expression. One that Go's
// engine cannot run but ECMA-262 allows is accepted (see regexp.go).
func (kc *keywordChecker) regex(ptr, pat string) {
	if _, _, err := compilePattern(pat); err != nil {
		kc.bad(ptr, "%s is not a valid regular expression: %v", jsonText(pat), err)
	}
}
