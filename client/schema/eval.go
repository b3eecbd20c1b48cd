package schema

import (
	"regexp"
	"strings"
)

// The validator. It evaluates the indexed document (see compile.go) against
// an argument tree, keyword by keyword, as the JSON Schema specifications
// of drafts 4, 6, 7, 2019-09 and 2020-12 define them, and returns a tree of
// faults that validate.go turns into messages. What it leaves out, on
// purpose:
//   - `format`, `contentEncoding`, `contentMediaType` and `contentSchema`
//     are annotations: they never refuse a value (the server still checks);
//   - a pattern Go's regexp engine cannot run (lookaround, backreferences)
//     is not enforced, and Warnings says so (regexp.go);
//   - nothing outside the document is ever loaded: a $ref mcpctl does not
//     follow points at a marker that reports KindUnresolvedRef.
//
// Numbers are compared as exact decimals (decimal.go). Work is bounded
// twice: Validate first counts the evaluations the arguments imply
// (cost.go) and the evaluator also stops past Limits.MaxEvaluations.

// fault is one way a value failed a subschema. kw names the keyword that
// failed or, for the kinds that only group other faults, one of:
//
//	""                                    several faults of one subschema
//	"$ref", "$dynamicRef", "$recursiveRef" the referenced subschema failed
//	"allOf", "anyOf", "oneOf"             causes are the branches' faults
//	"false"                               a false schema
//	"unresolved"                          a $ref mcpctl does not follow
type fault struct {
	kw     string
	n      *node    // subschema holding the keyword
	inst   []string // location in the arguments
	causes []*fault

	want  any      // const: the value; enum: []any of members
	types []string // type: the types allowed
	names []string // required, dependentRequired, dependencies: missing; additionalProperties: extra
	prop  string   // dependentRequired, dependencies: the property present; propertyNames: the name
	a, b  int      // counts (want, got); oneOf: two branches that matched; uniqueItems: equal items
	text  string   // pattern: the pattern; ref-cycle: the pointer of the subschema
}

// quickFault stands for "invalid" where the details will not be shown
// (inside not, if, contains...).
var quickFault = &fault{kw: "invalid"}

// seen records what in-place subschemas evaluated, for unevaluatedProperties
// and unevaluatedItems.
type seen struct {
	props map[string]bool
	items map[int]bool
}

func (sn *seen) merge(o *seen) *seen {
	if o == nil {
		return sn
	}
	if sn == nil {
		sn = &seen{}
	}
	for k := range o.props {
		sn.addProp(k)
	}
	for i := range o.items {
		sn.addItem(i)
	}
	return sn
}

func (sn *seen) addProp(k string) {
	if sn.props == nil {
		sn.props = map[string]bool{}
	}
	sn.props[k] = true
}

func (sn *seen) addItem(i int) {
	if sn.items == nil {
		sn.items = map[int]bool{}
	}
	sn.items[i] = true
}

type evalKey struct {
	n   *node
	val int
}

// evaluator holds the state of one validation. It is not shared.
type evaluator struct {
	s       *Schema
	inst    []instNode // the values, numbered (cost.go); property names are appended
	onStack map[evalKey]bool
	scope   []string // dynamic scope: base URIs of the resources entered, outermost first
	budget  int
	spent   bool // the budget ran out: the result says nothing
}

func (s *Schema) newEvaluator(inst []instNode, budget int) *evaluator {
	return &evaluator{s: s, inst: inst, onStack: map[evalKey]bool{}, budget: budget}
}

// accepts reports whether value v (a tree value) is valid against the
// subschema n on its own: "would this typed value be accepted here?".
func (s *Schema) accepts(n *node, v any) bool {
	e := s.newEvaluator(flattenInstance(v), s.limits.MaxEvaluations)
	f, _ := e.eval(n, 0, true, false)
	return f == nil && !e.spent
}

// eval evaluates subschema n against value number vid. quick asks only for
// valid or not; track asks for what was evaluated (for unevaluated*).
func (e *evaluator) eval(n *node, vid int, quick, track bool) (*fault, *seen) {
	if n == nil {
		return nil, nil
	}
	if e.budget--; e.budget < 0 {
		e.spent = true
		return quickFault, nil
	}
	in := &e.inst[vid]
	if n.marker {
		return e.leaf(quick, &fault{kw: "unresolved", n: n, inst: in.path}), nil
	}
	if n.obj == nil {
		if n.bval {
			return nil, nil
		}
		return e.leaf(quick, &fault{kw: "false", n: n, inst: in.path}), nil
	}
	key := evalKey{n, vid}
	if e.onStack[key] {
		return e.leaf(quick, &fault{kw: "ref-cycle", n: n, inst: in.path, text: n.ptr}), nil
	}
	e.onStack[key] = true
	defer delete(e.onStack, key)
	if len(e.scope) == 0 || e.scope[len(e.scope)-1] != n.base {
		e.scope = append(e.scope, n.base)
		defer func() { e.scope = e.scope[:len(e.scope)-1] }()
	}

	c := &call{e: e, n: n, vid: vid, in: in, quick: quick}
	c.track = track || (n.draft >= draft2019 && (c.has("unevaluatedProperties") || c.has("unevaluatedItems")))
	c.run()
	if len(c.faults) == 0 {
		return nil, c.seen
	}
	if quick {
		return quickFault, nil
	}
	if len(c.faults) == 1 {
		return c.faults[0], nil
	}
	return &fault{n: n, inst: in.path, causes: c.faults}, nil
}

func (e *evaluator) leaf(quick bool, f *fault) *fault {
	if quick {
		return quickFault
	}
	return f
}

// call is the evaluation of one subschema against one value.
type call struct {
	e      *evaluator
	n      *node
	vid    int
	in     *instNode
	quick  bool
	track  bool
	faults []*fault
	seen   *seen
}

func (c *call) has(kw string) bool {
	_, ok := c.n.obj.Lookup(kw)
	return ok
}

func (c *call) val(kw string) any { return c.n.obj.Get(kw) }

func (c *call) child(toks ...string) *node { return c.e.s.child(c.n, toks...) }

// fail records a fault of this subschema; in quick mode the first one
// ends the call.
func (c *call) fail(f *fault) {
	if c.quick {
		c.faults = append(c.faults, quickFault)
		return
	}
	f.n, f.inst = c.n, c.in.path
	c.faults = append(c.faults, f)
}

func (c *call) add(f *fault) {
	if f != nil {
		c.faults = append(c.faults, f)
	}
}

func (c *call) done() bool { return c.quick && len(c.faults) > 0 }

// inPlace evaluates sub against the same value and keeps what it evaluated
// when it passes.
func (c *call) inPlace(sub *node, quick bool) *fault {
	f, sn := c.e.eval(sub, c.vid, c.quick || quick, c.track)
	if f == nil && c.track {
		c.seen = c.seen.merge(sn)
	}
	return f
}

// at evaluates sub against the j-th child value.
func (c *call) at(sub *node, j int) *fault {
	f, _ := c.e.eval(sub, c.in.kids[j], c.quick, false)
	return f
}

func (c *call) run() {
	v := c.in.v
	pure := pureRef(c.n.obj, c.n.draft)
	if !pure {
		// A value of the wrong type, or not one of the allowed values, gets
		// that one fault: the rest would only repeat it.
		if f := c.checkType(v); f != nil {
			c.fail(f)
			return
		}
		if c.n.draft >= draft6 && c.has("const") && !jsonEqual(v, c.val("const")) {
			c.fail(&fault{kw: "const", want: c.val("const")})
			return
		}
		if en, ok := c.val("enum").(*array); ok && !inEnum(v, en) {
			c.fail(&fault{kw: "enum", want: en.Items()})
			return
		}
	}
	c.refs("$ref")
	if pure || c.done() {
		return
	}
	switch t := v.(type) {
	case *object:
		c.object(t)
	case *array:
		c.array(t)
	case string:
		c.str(t)
	default:
		if d, ok := numberOf(v); ok {
			c.number(d)
		}
	}
	if c.done() {
		return
	}
	switch {
	case c.n.draft >= draft2020:
		c.refs("$dynamicRef")
	case c.n.draft == draft2019:
		c.refs("$recursiveRef")
	}
	c.applicators()
	if c.n.draft >= draft2019 && !c.done() {
		c.unevaluated(v)
	}
}

// --- references ---

func (c *call) refs(kw string) {
	for i, t := range c.n.refs {
		if c.n.refKws[i] != kw || c.done() {
			continue
		}
		target := c.e.s.nodes[t]
		switch kw {
		case "$dynamicRef":
			target = c.e.dynamicTarget(c.n, target)
		case "$recursiveRef":
			target = c.e.recursiveTarget(target)
		}
		f := c.inPlace(target, false)
		if f == nil {
			continue
		}
		if f.kw == "unresolved" || c.quick {
			c.add(f)
			continue
		}
		causes := []*fault{f}
		if f.kw == "" {
			causes = f.causes
		}
		c.add(&fault{kw: kw, n: c.n, inst: c.in.path, causes: causes})
	}
}

// dynamicTarget applies 2020-12's $dynamicRef rule: when the statically
// resolved target declares the $dynamicAnchor the ref names, the outermost
// resource in the dynamic scope with that $dynamicAnchor wins.
func (e *evaluator) dynamicTarget(n, target *node) *node {
	ref, _ := n.str("$dynamicRef")
	_, name, _ := strings.Cut(ref, "#")
	if target == nil || name == "" || strings.HasPrefix(name, "/") {
		return target
	}
	if a, _ := target.str("$dynamicAnchor"); a != name {
		return target
	}
	for _, base := range e.scope {
		if p, ok := e.s.dynAnchors[base+"#"+name]; ok {
			return e.s.nodes[p]
		}
	}
	return target
}

// recursiveTarget applies 2019-09's $recursiveRef rule: when the target
// has "$recursiveAnchor": true, the outermost resource in the dynamic
// scope whose root has it too wins.
func (e *evaluator) recursiveTarget(target *node) *node {
	if target == nil || !recursiveAnchor(target) {
		return target
	}
	for _, base := range e.scope {
		if p, ok := e.s.resRoots[base]; ok {
			if r := e.s.nodes[p]; recursiveAnchor(r) {
				return r
			}
		}
	}
	return target
}

func recursiveAnchor(n *node) bool {
	v, _ := n.get("$recursiveAnchor")
	b, _ := v.(bool)
	return b
}

// --- applicators on the same value ---

func (c *call) applicators() {
	if sub := c.child("not"); sub != nil && !c.done() {
		if f, _ := c.e.eval(sub, c.vid, true, false); f == nil {
			c.fail(&fault{kw: "not"})
		}
	}
	if br := c.branches("allOf"); len(br) > 0 && !c.done() {
		var failed []*fault
		for _, b := range br {
			if f := c.inPlace(b, false); f != nil {
				failed = append(failed, f)
				if c.quick {
					break
				}
			}
		}
		c.group("allOf", failed)
	}
	if br := c.branches("anyOf"); len(br) > 0 && !c.done() {
		var failed []*fault
		ok := false
		for _, b := range br {
			f := c.inPlace(b, false)
			if f == nil {
				ok = true
				if !c.track {
					break // every branch only matters for unevaluated*
				}
				continue
			}
			failed = append(failed, f)
		}
		if !ok {
			c.group("anyOf", failed)
		}
	}
	if br := c.branches("oneOf"); len(br) > 0 && !c.done() {
		var failed []*fault
		first := -1
		for i, b := range br {
			f := c.inPlace(b, first >= 0)
			if f != nil {
				if first < 0 {
					failed = append(failed, f)
				}
				continue
			}
			if first >= 0 {
				c.fail(&fault{kw: "oneOf", a: first, b: i})
				break
			}
			first = i
		}
		if first < 0 {
			c.group("oneOf", failed)
		}
	}
	if c.n.draft >= draft7 && !c.done() {
		if sub := c.child("if"); sub != nil {
			if c.inPlace(sub, true) == nil {
				c.add(c.inPlace(c.child("then"), false))
			} else {
				c.add(c.inPlace(c.child("else"), false))
			}
		}
	}
}

func (c *call) branches(kw string) []*node {
	a, ok := c.val(kw).(*array)
	if !ok {
		return nil
	}
	out := make([]*node, 0, len(a.Items()))
	for i := range a.Items() {
		if sub := c.child(kw, itoa(i)); sub != nil {
			out = append(out, sub)
		}
	}
	return out
}

// group records the failed branches of allOf/anyOf/oneOf as one fault.
func (c *call) group(kw string, failed []*fault) {
	if len(failed) == 0 && kw == "allOf" {
		return
	}
	if c.quick {
		c.add(quickFault)
		return
	}
	c.add(&fault{kw: kw, n: c.n, inst: c.in.path, causes: failed})
}

// unevaluated applies unevaluatedProperties/unevaluatedItems to what no
// other keyword of this subschema (or its passing in-place subschemas)
// evaluated.
func (c *call) unevaluated(v any) {
	switch t := v.(type) {
	case *object:
		sub := c.child("unevaluatedProperties")
		if sub == nil {
			return
		}
		for j, k := range t.Keys() {
			if c.seen != nil && c.seen.props[k] {
				continue
			}
			c.add(c.at(sub, j))
			c.markProp(k)
			if c.done() {
				return
			}
		}
	case *array:
		sub := c.child("unevaluatedItems")
		if sub == nil {
			return
		}
		for i := range t.Items() {
			if c.seen != nil && c.seen.items[i] {
				continue
			}
			c.add(c.at(sub, i))
			c.markItem(i)
			if c.done() {
				return
			}
		}
	}
}

// patternRE is one patternProperties entry; re is nil when Go's engine
// cannot run it.
type patternRE struct {
	ptr string // pointer of the subschema
	re  *regexp.Regexp
}
