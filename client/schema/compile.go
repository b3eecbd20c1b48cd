package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"

	"github.com/mcpctl/mcpctl/client/ojson"
)

// Schema is a compiled inputSchema. Nothing in it changes after Compile,
// so it is safe for concurrent use.
type Schema struct {
	limits     Limits
	rootDraft  int
	tree       any              // the document as received
	nodes      map[string]*node // every subschema by JSON pointer, and the markers
	order      []*node          // the subschemas in document order
	markers    map[string]unresolvedRef
	dynAnchors map[string]string // "base#name" -> pointer, for each $dynamicAnchor
	resRoots   map[string]string // resource base URI -> pointer of its root
	warnings   []string
}

// node is one subschema of the document.
type node struct {
	ptr    string
	obj    *object // nil for boolean schemas
	bval   bool    // value of a boolean schema
	draft  int
	base   string   // base URI of the enclosing resource, for resolving refs inside it
	refs   []string // targets of $ref, $dynamicRef, $recursiveRef (pointers into the document)
	refKws []string // the keyword of each of refs
	marker bool     // stands in for an unresolved $ref
	adhoc  bool     // found only through a $ref to a spot that is no keyword's subschema

	pattern  *regexp.Regexp // `pattern`, compiled (nil if absent or not enforceable)
	patProps []patternRE    // `patternProperties`, compiled
}

func (n *node) get(k string) (any, bool) {
	if n == nil || n.obj == nil {
		return nil, false
	}
	return n.obj.Lookup(k)
}

func (n *node) str(k string) (string, bool) {
	v, _ := n.get(k)
	s, ok := v.(string)
	return s, ok
}

type resourceInfo struct {
	ptr   string
	base  string
	draft int
}

// builder walks the parsed document once: it enforces the limits, checks
// every `$schema`, indexes subschemas, resources and anchors, and resolves
// each $ref to a subschema of the document. A $ref that cannot be resolved
// inside the document points at a marker subschema instead, so the rest of
// the schema is still enforced and the marker tells Validate which argument
// could not be checked.
type builder struct {
	tree       any
	limits     Limits
	nodes      map[string]*node
	order      []*node
	resources  map[string]resourceInfo // absolute id -> resource
	resByPtr   map[string]resourceInfo // resource pointer -> resource
	anchors    map[string]string       // "id#anchor" -> pointer
	dynAnchors map[string]string       // "id#anchor" -> pointer, $dynamicAnchor only
	markerKey  string
	markers    []unresolvedRef
	adhoc      bool // walking from such a spot
	// lenient is Read's mode: what Compile refuses (an unknown `$schema`,
	// an `$id` or `$ref` that is no URI reference) is read past, so that
	// a document can be read whether or not it can be validated with.
	lenient bool
}

// Compile parses raw (a tool's inputSchema as received) once. It never
// fetches anything: refs into the document (#/$defs/..., #anchor, or a URL
// equal to an `$id` in the document) resolve; any other $ref is recorded as
// unresolvable and reported by Validate only if an argument needs it.
//
// Errors: *LimitError past the limits, *DialectError for an unsupported
// `$schema`, *SchemaError for anything not valid under its dialect.
func Compile(raw json.RawMessage, limits Limits) (*Schema, error) {
	limits = limits.withDefaults()
	if len(raw) > limits.MaxBytes {
		return nil, &LimitError{Limit: "MaxBytes", Max: limits.MaxBytes, What: fmt.Sprintf("the schema is %d bytes", len(raw))}
	}
	if len(strings.TrimSpace(string(raw))) == 0 {
		return nil, &SchemaError{Reason: "inputSchema is empty"}
	}
	tree, err := parseJSON(raw, limits.MaxDepth)
	if errors.Is(err, errDepth) {
		return nil, &LimitError{Limit: "MaxDepth", Max: limits.MaxDepth, What: fmt.Sprintf("the schema nests deeper than %d levels", limits.MaxDepth)}
	}
	if err != nil {
		return nil, &SchemaError{Reason: err.Error(), Err: err}
	}
	if !isSchemaValue(tree) {
		return nil, &SchemaError{Reason: "inputSchema must be a JSON object, got " + jsonKind(tree)}
	}

	rootDraft := draft2020 // MCP: no $schema means 2020-12
	if root, ok := tree.(*object); ok {
		if sv, ok := root.Lookup("$schema"); ok {
			s, isStr := sv.(string)
			if !isStr {
				return nil, &SchemaError{Dialect: draftName(rootDraft), Reason: "$schema must be a string"}
			}
			d, ok := draftFromURL(s)
			if !ok {
				return nil, &DialectError{Dialect: s}
			}
			rootDraft = d
		}
	}

	b := &builder{
		tree:       tree,
		limits:     limits,
		nodes:      map[string]*node{},
		resources:  map[string]resourceInfo{},
		resByPtr:   map[string]resourceInfo{},
		anchors:    map[string]string{},
		dynAnchors: map[string]string{},
	}
	if err := b.build(rootDraft); err != nil {
		return nil, err
	}

	s := &Schema{
		limits:     limits,
		rootDraft:  rootDraft,
		tree:       tree,
		nodes:      b.nodes,
		order:      b.order,
		markers:    map[string]unresolvedRef{},
		dynAnchors: b.dynAnchors,
		resRoots:   map[string]string{},
	}
	for i, m := range b.markers {
		s.markers[b.markerPtr(i)] = m
	}
	for ptr, r := range b.resByPtr {
		s.resRoots[r.base] = ptr
	}

	// Refuse ref/anyOf bombs before looking any further.
	if n := s.staticCost(); n > limits.MaxEvaluations {
		return nil, &LimitError{Limit: "MaxEvaluations", Max: limits.MaxEvaluations,
			What: "with its $refs expanded the schema has more than " + itoa(limits.MaxEvaluations) + " subschemas"}
	}
	used := s.applied()
	if probs := s.checkKeywords(used); len(probs) > 0 {
		return nil, &SchemaError{Dialect: draftName(rootDraft), Reason: "not valid under its meta-schema: " + strings.Join(probs, "; ")}
	}
	s.compilePatterns(used)
	return s, nil
}

// --- the walk ---

func (b *builder) build(rootDraft int) error {
	// Reserve a root keyword whose pointers no subschema can have.
	if root, ok := b.tree.(*object); ok {
		b.markerKey = "x-unresolved-refs"
		for i := 2; ; i++ {
			if _, taken := root.Lookup(b.markerKey); !taken {
				break
			}
			b.markerKey = "x-unresolved-refs-" + itoa(i)
		}
	}
	root := resourceInfo{ptr: "", base: docURL, draft: rootDraft}
	b.resources[docURL] = root
	b.resByPtr[""] = root
	if err := b.walk(b.tree, "", docURL, rootDraft); err != nil {
		return err
	}
	// Resolve refs. Targets outside the usual keyword positions are walked
	// on demand, which appends to b.order, hence the index loop.
	for i := 0; i < len(b.order); i++ {
		if err := b.resolveRefs(b.order[i]); err != nil {
			return err
		}
	}
	// A marker fails every value (the evaluator reports it as unresolved):
	// the MCP spec says a schema that fails because of an unresolved ref
	// should be rejected, not treated as permissive. To the readers of the
	// schema (usage, typing) it is an object schema that says nothing. It
	// is not part of the document: its pointer only needs to be one no
	// subschema has.
	for i := range b.markers {
		ptr := b.markerPtr(i)
		b.nodes[ptr] = &node{ptr: ptr, obj: ojson.NewObject(), draft: rootDraft, base: docURL, marker: true}
	}
	return nil
}

func (b *builder) markerPtr(i int) string { return ptrJoin("", b.markerKey, itoa(i)) }

func (b *builder) walk(v any, ptr, base string, d int) error {
	if _, done := b.nodes[ptr]; done {
		return nil
	}
	if len(b.nodes) >= b.limits.MaxSubschemas {
		return &LimitError{Limit: "MaxSubschemas", Max: b.limits.MaxSubschemas,
			What: "the schema has more than " + itoa(b.limits.MaxSubschemas) + " subschemas"}
	}
	n := &node{ptr: ptr, draft: d, base: base, adhoc: b.adhoc}
	b.nodes[ptr] = n
	b.order = append(b.order, n)
	o, ok := v.(*object)
	if !ok {
		n.bval, _ = v.(bool)
		return nil
	}
	n.obj = o

	nd := d
	if sv, ok := o.Get("$schema").(string); ok {
		// An unknown $schema anywhere is refused: what it means cannot be
		// known without fetching it.
		dd, ok := draftFromURL(sv)
		switch {
		case ok:
			nd = dd
		case !b.lenient:
			return &DialectError{Dialect: sv}
		}
	}
	id := schemaID(o, nd)
	if id == "" && ptr != "" {
		nd = d // $schema only counts at a resource root
	}
	n.draft = nd
	var u string
	if id != "" {
		var err error
		u, _, err = joinURL(base, id)
		switch {
		case err != nil && b.lenient:
			id = "" // read as if it had none
		case err != nil:
			return &SchemaError{Dialect: draftName(nd), Reason: fmt.Sprintf("invalid %s %q at %q", idKeyword(nd), id, "#"+ptr), Err: err}
		}
	}
	if id != "" {
		base = u
		n.base = u
		res := resourceInfo{ptr: ptr, base: u, draft: nd}
		if _, dup := b.resources[u]; !dup {
			b.resources[u] = res
		}
		b.resByPtr[ptr] = res
	} else if ptr == "" {
		res := resourceInfo{ptr: "", base: docURL, draft: nd}
		b.resByPtr[""] = res
		b.resources[docURL] = res
	}
	b.collectAnchors(n)
	return forEachSubschema(o, nd, func(toks []string, cv any) error {
		return b.walk(cv, ptrJoin(ptr, toks...), base, nd)
	})
}

// resourceAt finds the resource that encloses ptr (nearest ancestor with an
// id, else the root).
func (b *builder) resourceAt(ptr string) resourceInfo {
	for {
		if r, ok := b.resByPtr[ptr]; ok {
			return r
		}
		if ptr == "" {
			return b.resByPtr[""]
		}
		ptr = parentPtr(ptr)
	}
}

func (b *builder) collectAnchors(n *node) {
	res := b.resourceAt(n.ptr)
	add := func(a string) {
		if a == "" || strings.HasPrefix(a, "/") {
			return
		}
		k := res.base + "#" + a
		if _, ok := b.anchors[k]; !ok {
			b.anchors[k] = n.ptr
		}
	}
	if res.draft < draft2019 {
		if _, ok := n.obj.Lookup("$ref"); ok {
			return
		}
		if id, ok := n.str(idKeyword(res.draft)); ok {
			_, f, _ := strings.Cut(id, "#")
			if frag, err := url.PathUnescape(f); err == nil {
				add(frag)
			}
		}
		return
	}
	if a, ok := n.str("$anchor"); ok {
		add(a)
	}
	if res.draft >= draft2020 {
		if a, ok := n.str("$dynamicAnchor"); ok {
			add(a)
			if _, seen := b.dynAnchors[res.base+"#"+a]; !seen {
				b.dynAnchors[res.base+"#"+a] = n.ptr
			}
		}
	}
}

// refKeywords lists the reference keywords of draft d.
func refKeywords(d int) []string {
	switch {
	case d >= draft2020:
		return []string{"$ref", "$dynamicRef"}
	case d == draft2019:
		return []string{"$ref", "$recursiveRef"}
	default:
		return []string{"$ref"}
	}
}

func (b *builder) resolveRefs(n *node) error {
	if n.obj == nil {
		return nil
	}
	for _, kw := range refKeywords(n.draft) {
		ref, ok := n.str(kw)
		if !ok {
			continue
		}
		target, ur, err := b.resolve(n, ref)
		if err != nil {
			return err
		}
		if ur != nil {
			i := len(b.markers)
			b.markers = append(b.markers, *ur)
			target = b.markerPtr(i)
		}
		n.refs = append(n.refs, target)
		n.refKws = append(n.refKws, kw)
	}
	return nil
}

// resolve finds the node a ref points at. It returns an unresolvedRef (and
// no error) for anything that is not in the document.
func (b *builder) resolve(n *node, ref string) (string, *unresolvedRef, error) {
	u, frag, err := joinURL(n.base, ref)
	if err != nil && b.lenient {
		return "", &unresolvedRef{ref: ref, url: ref}, nil
	}
	if err != nil {
		return "", nil, &SchemaError{Dialect: draftName(n.draft), Reason: fmt.Sprintf("invalid $ref %q at %q", ref, "#"+n.ptr), Err: err}
	}
	full := u
	if frag != "" {
		full += "#" + frag
	}
	res, ok := b.resources[u]
	if !ok {
		return "", &unresolvedRef{ref: ref, url: full}, nil
	}
	var target string
	if frag == "" || strings.HasPrefix(frag, "/") {
		target = res.ptr + frag
		v, ok := lookupPtr(b.tree, target)
		if !ok || !isSchemaValue(v) {
			return "", &unresolvedRef{ref: ref, url: full, missing: true}, nil
		}
		if _, known := b.nodes[target]; !known {
			// A ref into a spot that is not a usual subschema position:
			// index it too, as a subschema of its own.
			r := b.resourceAt(target)
			adhoc := b.adhoc
			b.adhoc = true
			err := b.walk(v, target, r.base, r.draft)
			b.adhoc = adhoc
			if err != nil {
				return "", nil, err
			}
		}
	} else {
		t, ok := b.anchors[u+"#"+frag]
		if !ok {
			return "", &unresolvedRef{ref: ref, url: full, missing: true}, nil
		}
		target = t
	}
	return target, nil, nil
}

// --- accessors used across the package ---

// node returns the subschema at ptr (nil if none).
func (s *Schema) node(ptr string) *node { return s.nodes[ptr] }

// child returns the subschema at ptr/toks... if indexed.
func (s *Schema) child(n *node, toks ...string) *node {
	if n == nil {
		return nil
	}
	return s.nodes[ptrJoin(n.ptr, toks...)]
}

// UnresolvedRefs lists, in document order, the $ref targets mcpctl will not
// follow (network or other out-of-document URLs, and dangling pointers).
// Arguments governed by them are reported by Validate as "unresolved-ref".
func (s *Schema) UnresolvedRefs() []string {
	ptrs := make([]string, 0, len(s.markers))
	for p := range s.markers {
		ptrs = append(ptrs, p)
	}
	sort.Slice(ptrs, func(i, j int) bool { return markerIndex(ptrs[i]) < markerIndex(ptrs[j]) })
	out := make([]string, len(ptrs))
	for i, p := range ptrs {
		out[i] = s.markers[p].url
	}
	return out
}

func markerIndex(ptr string) int {
	n := 0
	for _, c := range lastToken(ptr) {
		n = n*10 + int(c-'0')
	}
	return n
}

// Warnings lists parts of the schema mcpctl accepts but cannot enforce
// (regular expressions using features Go's engine lacks).
func (s *Schema) Warnings() []string {
	return append([]string(nil), s.warnings...)
}

// Dialect returns the dialect of the schema root, e.g. "2020-12".
func (s *Schema) Dialect() string { return draftName(s.rootDraft) }

func jsonKind(v any) string {
	switch v.(type) {
	case *object:
		return "object"
	case *array:
		return "array"
	case string:
		return "string"
	case json.Number:
		return "number"
	case bool:
		return "boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}
