package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"sync"

	"github.com/mcpctl/mcpctl/client/schema/internal/jsonschema"
)

// Schema is a compiled inputSchema. It is safe for concurrent use.
type Schema struct {
	limits    Limits
	rootDraft int
	tree      any              // the document as compiled: refs mcpctl won't follow point at markers
	nodes     map[string]*node // every subschema by JSON pointer
	markers   map[string]unresolvedRef
	warnings  []string

	compiled *jsonschema.Schema

	mu       sync.Mutex // guards compiler and sub (the library compiler is not concurrency-safe)
	compiler *jsonschema.Compiler
	sub      map[string]*jsonschema.Schema
	regexps  map[string][]patternRE

	// warnMu guards warnings. It is not mu: the regexp engine appends
	// warnings from inside compiler calls that already hold mu.
	warnMu sync.Mutex
}

// node is one subschema of the document.
type node struct {
	ptr    string
	obj    *object // nil for boolean schemas
	bval   bool    // value of a boolean schema
	draft  int
	base   string   // base URI for resolving refs inside it
	refs   []string // targets of $ref, $dynamicRef, $recursiveRef (pointers into the document)
	marker bool     // stands in for an unresolved $ref
}

func (n *node) get(k string) (any, bool) {
	if n == nil || n.obj == nil {
		return nil, false
	}
	return n.obj.get(k)
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

// builder walks the parsed document before the library sees it: it enforces
// the limits, checks every `$schema`, indexes subschemas, resources and
// anchors the same way the library will, and redirects each $ref that
// cannot be resolved inside the document to a marker subschema. The library
// resolves refs eagerly at compile time, so without this step a single
// network $ref would make the whole schema uncompilable (and would have to
// go through a loader); with it, the rest of the schema is still enforced
// and the marker tells Validate which argument could not be checked.
type builder struct {
	tree      any
	limits    Limits
	nodes     map[string]*node
	order     []*node
	resources map[string]resourceInfo // absolute id -> resource
	resByPtr  map[string]resourceInfo // resource pointer -> resource
	anchors   map[string]string       // "id#anchor" -> pointer
	markerKey string
	markers   []unresolvedRef
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
		if sv, ok := root.vals["$schema"]; ok {
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
		tree:      tree,
		limits:    limits,
		nodes:     map[string]*node{},
		resources: map[string]resourceInfo{},
		resByPtr:  map[string]resourceInfo{},
		anchors:   map[string]string{},
	}
	if err := b.build(rootDraft); err != nil {
		return nil, err
	}

	s := &Schema{
		limits:    limits,
		rootDraft: rootDraft,
		tree:      tree,
		nodes:     b.nodes,
		markers:   map[string]unresolvedRef{},
		sub:       map[string]*jsonschema.Schema{},
		regexps:   map[string][]patternRE{},
	}
	for i, m := range b.markers {
		s.markers[b.markerPtr(i)] = m
	}

	// Refuse ref/anyOf bombs before handing them to the library.
	if n := s.staticCost(); n > limits.MaxEvaluations {
		return nil, &LimitError{Limit: "MaxEvaluations", Max: limits.MaxEvaluations,
			What: "with its $refs expanded the schema has more than " + itoa(limits.MaxEvaluations) + " subschemas"}
	}

	if err := s.compile(); err != nil {
		return nil, err
	}
	return s, nil
}

// compile hands the (redirected) document to jsonschema/v6.
func (s *Schema) compile() error {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noFetchLoader{})
	c.UseRegexpEngine(s.regexpEngine)
	if err := c.AddResource(docURL, toPlain(s.tree)); err != nil {
		return &SchemaError{Dialect: draftName(s.rootDraft), Reason: err.Error(), Err: err}
	}
	sch, err := c.Compile(docURL)
	if err != nil {
		return s.compileError(err)
	}
	s.compiler = c
	s.compiled = sch
	return nil
}

func (s *Schema) compileError(err error) error {
	dialect := draftName(s.rootDraft)
	var sve *jsonschema.SchemaValidationError
	if errors.As(err, &sve) {
		reason := "not valid under its meta-schema"
		var ve *jsonschema.ValidationError
		if errors.As(sve.Err, &ve) {
			reason += ": " + strings.Join(metaProblems(ve), "; ")
		}
		return &SchemaError{Dialect: dialect, Reason: reason, Err: err}
	}
	var le *jsonschema.LoadURLError
	if errors.As(err, &le) {
		// Unreachable in practice (refs out of the document are redirected),
		// but if the library ever wants a document, say so plainly.
		return &SchemaError{Dialect: dialect, Reason: "the schema refers to " + le.URL + ", which mcpctl does not fetch", Err: err}
	}
	return &SchemaError{Dialect: dialect, Reason: err.Error(), Err: err}
}

// metaProblems flattens a meta-schema validation error into short lines.
func metaProblems(ve *jsonschema.ValidationError) []string {
	var out []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			out = append(out, fmt.Sprintf("at %q: %s", "#"+pointerOf(e.InstanceLocation), e.ErrorKind.LocalizedString(printer)))
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	sort.Strings(out)
	if len(out) > 5 {
		out = append(out[:5], fmt.Sprintf("and %d more", len(out)-5))
	}
	return out
}

// noFetchLoader is the only loader the compiler ever has: every URL is an
// error and no I/O happens. (The library's default loader would read file:
// URLs; network schemes are forbidden by the MCP spec.)
type noFetchLoader struct{}

func (noFetchLoader) Load(u string) (any, error) {
	return nil, fmt.Errorf("mcpctl does not fetch %s", u)
}

// --- the walk ---

func (b *builder) build(rootDraft int) error {
	// Reserve a root keyword for markers now, before refs are rewritten.
	if root, ok := b.tree.(*object); ok {
		b.markerKey = "x-mcpctl-unresolved"
		for i := 2; ; i++ {
			if _, taken := root.vals[b.markerKey]; !taken {
				break
			}
			b.markerKey = "x-mcpctl-unresolved-" + itoa(i)
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
	if len(b.markers) > 0 {
		root := b.tree.(*object)
		list := &array{}
		for i, m := range b.markers {
			mo := newObject()
			mo.set("$comment", "mcpctl: unresolved $ref "+m.url)
			// `not: {}` fails every value in every draft (draft-04 has no
			// boolean schemas), so a marker never lets a value through
			// silently: the MCP spec says a schema that fails because of an
			// unresolved ref should be rejected, not treated as permissive.
			mo.set("not", newObject())
			list.items = append(list.items, mo)
			ptr := b.markerPtr(i)
			b.nodes[ptr] = &node{ptr: ptr, obj: mo, draft: rootDraft, base: docURL, marker: true}
		}
		root.set(b.markerKey, list)
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
	n := &node{ptr: ptr, draft: d, base: base}
	b.nodes[ptr] = n
	b.order = append(b.order, n)
	o, ok := v.(*object)
	if !ok {
		n.bval, _ = v.(bool)
		return nil
	}
	n.obj = o

	nd := d
	if sv, ok := o.vals["$schema"].(string); ok {
		// The library looks up every $schema it meets (even where it later
		// ignores it), so an unknown one anywhere would reach its loader.
		dd, ok := draftFromURL(sv)
		if !ok {
			return &DialectError{Dialect: sv}
		}
		nd = dd
	}
	id := schemaID(o, nd)
	if id == "" && ptr != "" {
		nd = d // $schema only counts at a resource root
	}
	n.draft = nd
	if id != "" {
		u, _, err := joinURL(base, id)
		if err != nil {
			return &SchemaError{Dialect: draftName(nd), Reason: fmt.Sprintf("invalid %s %q at %q", idKeyword(nd), id, "#"+ptr), Err: err}
		}
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
// id, else the root), like the library's root.resource.
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
		if _, ok := n.obj.vals["$ref"]; ok {
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
		}
	}
}

// refKeywords lists the reference keywords the library honours in draft d.
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
			n.obj.vals[kw] = fragmentURL(target)
		}
		n.refs = append(n.refs, target)
	}
	return nil
}

// resolve finds the node a ref points at. It returns an unresolvedRef (and
// no error) for anything that is not in the document.
func (b *builder) resolve(n *node, ref string) (string, *unresolvedRef, error) {
	u, frag, err := joinURL(n.base, ref)
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
			// the library compiles it anyway, so index and check it too.
			r := b.resourceAt(target)
			if err := b.walk(v, target, r.base, r.draft); err != nil {
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

// subschema compiles (once) the subschema at ptr for stand-alone checks,
// such as "would this typed value be accepted here?" in Coerce.
func (s *Schema) subschema(ptr string) (*jsonschema.Schema, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sch, ok := s.sub[ptr]; ok {
		return sch, nil
	}
	sch, err := s.compiler.Compile(fragmentURL(ptr))
	if err != nil {
		return nil, err
	}
	s.sub[ptr] = sch
	return sch, nil
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
	s.warnMu.Lock()
	defer s.warnMu.Unlock()
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
