package schema

// Bounding validation time. The evaluator (eval.go) evaluates every
// applicable subschema with no memoisation (annotations and error messages
// depend on the path taken), so a schema whose $defs reference each other
// through anyOf (a0 = anyOf[a1, a1], a1 = anyOf[a2, a2], ...) costs 2^n
// evaluations while being a few hundred bytes long. Two checks keep that
// bounded by Limits.MaxEvaluations:
//
//   - staticCost, at Compile: the size of the schema with every $ref
//     expanded in place (a ref back into its own expansion counts once).
//     This rejects bombs up front.
//   - instanceCost, at Validate: the number of (subschema, argument value)
//     evaluations the evaluator can perform for these arguments. It is
//     computed with memoisation, so computing it is cheap even when the
//     count itself is astronomically large, and it also covers recursive
//     schemas whose cost grows with the depth of the arguments.
//
// The evaluator also counts what it does and stops past the limit (its
// $dynamicRef and $recursiveRef targets are only known while evaluating).

// inPlace is a subschema applied to the same instance value as its parent.
type inPlace struct {
	n *node
	// hidden: a failure inside it does not surface as an error at its own
	// location (not, if, oneOf, contains), so an unresolved $ref reached
	// there must be reported even when validation passes.
	hidden bool
	// depKey: applies only when the object has this property.
	depKey string
}

func (s *Schema) inPlaceChildren(n *node) []inPlace {
	if n == nil || n.obj == nil {
		return nil
	}
	var out []inPlace
	for _, t := range n.refs {
		if c := s.nodes[t]; c != nil {
			out = append(out, inPlace{n: c})
		}
	}
	if pureRef(n.obj, n.draft) {
		return out
	}
	arr := func(kw string, hidden bool) {
		if a, ok := n.obj.Get(kw).(*array); ok {
			for i := range a.Items() {
				if c := s.child(n, kw, itoa(i)); c != nil {
					out = append(out, inPlace{n: c, hidden: hidden})
				}
			}
		}
	}
	arr("allOf", false)
	arr("anyOf", false)
	arr("oneOf", true)
	for _, kw := range []string{"not", "if"} {
		if c := s.child(n, kw); c != nil {
			out = append(out, inPlace{n: c, hidden: true})
		}
	}
	if n.draft >= draft7 {
		for _, kw := range []string{"then", "else"} {
			if c := s.child(n, kw); c != nil {
				out = append(out, inPlace{n: c})
			}
		}
	}
	for _, kw := range []string{"dependentSchemas", "dependencies"} {
		if m, ok := n.obj.Get(kw).(*object); ok {
			for _, k := range m.Keys() {
				if c := s.child(n, kw, k); c != nil {
					out = append(out, inPlace{n: c, depKey: k})
				}
			}
		}
	}
	return out
}

// staticCost is the ref-expanded size of the schema, saturated just above
// MaxEvaluations.
func (s *Schema) staticCost() int {
	limit := s.limits.MaxEvaluations + 1
	memo := map[string]int{}
	onStack := map[string]bool{}
	var cnt func(n *node) int
	cnt = func(n *node) int {
		if n == nil {
			return 0
		}
		if v, ok := memo[n.ptr]; ok {
			return v
		}
		if onStack[n.ptr] {
			return 1
		}
		onStack[n.ptr] = true
		defer delete(onStack, n.ptr)
		total := 1
		add := func(c int) bool {
			total += c
			if total >= limit {
				total = limit
				return false
			}
			return true
		}
		for _, t := range n.refs {
			if !add(cnt(s.nodes[t])) {
				break
			}
		}
		if n.obj != nil && !pureRef(n.obj, n.draft) && total < limit {
			_ = forEachSubschema(n.obj, n.draft, func(toks []string, _ any) error {
				if toks[0] == "$defs" || toks[0] == "definitions" {
					return nil // only applied through refs, counted there
				}
				if !add(cnt(s.nodes[ptrJoin(n.ptr, toks...)])) {
					return errStop
				}
				return nil
			})
		}
		memo[n.ptr] = total
		return total
	}
	return cnt(s.nodes[""])
}

type stopErr struct{}

func (stopErr) Error() string { return "stop" }

var errStop error = stopErr{}

// instNode is one value of the arguments, numbered in document order.
type instNode struct {
	path []string
	v    any
	keys []string // object keys or array indexes
	kids []int
}

func flattenInstance(v any) []instNode {
	var out []instNode
	var walk func(v any, path []string) int
	walk = func(v any, path []string) int {
		i := len(out)
		out = append(out, instNode{path: path, v: v})
		switch t := v.(type) {
		case *object:
			for _, k := range t.Keys() {
				c := walk(t.Get(k), appendPath(path, k))
				out[i].keys = append(out[i].keys, k)
				out[i].kids = append(out[i].kids, c)
			}
		case *array:
			for j, it := range t.Items() {
				c := walk(it, appendPath(path, itoa(j)))
				out[i].keys = append(out[i].keys, itoa(j))
				out[i].kids = append(out[i].kids, c)
			}
		}
		return i
	}
	walk(v, nil)
	return out
}

func appendPath(p []string, tok string) []string {
	out := make([]string, len(p)+1)
	copy(out, p)
	out[len(p)] = tok
	return out
}

type costKey struct {
	ptr    string
	inst   int
	hidden bool
}

// hiddenMarker records an unresolved-ref marker reached in a hidden context.
type hiddenMarker struct {
	inst   int
	marker string
}

type costWalker struct {
	s       *Schema
	inst    []instNode
	limit   int
	memo    map[costKey]int
	onStack map[costKey]bool
	hidden  map[hiddenMarker]bool
}

// instanceCost returns the evaluation count for the arguments (saturated
// just above budget) and the unresolved markers reached where a failure
// would not be visible in the evaluator's faults.
func (s *Schema) instanceCost(inst []instNode, budget int) (int, map[hiddenMarker]bool) {
	w := &costWalker{
		s:       s,
		inst:    inst,
		limit:   budget + 1,
		memo:    map[costKey]int{},
		onStack: map[costKey]bool{},
		hidden:  map[hiddenMarker]bool{},
	}
	return w.cost(s.nodes[""], 0, false), w.hidden
}

func (w *costWalker) cost(n *node, i int, hidden bool) int {
	if n == nil {
		return 0
	}
	key := costKey{n.ptr, i, hidden}
	if v, ok := w.memo[key]; ok {
		return v
	}
	if w.onStack[key] {
		return 1 // an in-place ref cycle; the evaluator reports it as a fault
	}
	w.onStack[key] = true
	defer delete(w.onStack, key)

	total := 1
	add := func(c int) bool {
		total += c
		if total >= w.limit {
			total = w.limit
			return false
		}
		return true
	}
	if n.marker && hidden && i >= 0 {
		w.hidden[hiddenMarker{i, n.ptr}] = true
	}
	var in *instNode
	if i >= 0 {
		in = &w.inst[i]
	}
	obj, _ := instValue(in).(*object)
	arr, _ := instValue(in).(*array)

	func() {
		for _, c := range w.s.inPlaceChildren(n) {
			if c.depKey != "" {
				if _, ok := obj.Lookup(c.depKey); !ok {
					continue
				}
			}
			if !add(w.cost(c.n, i, hidden || c.hidden)) {
				return
			}
		}
		if n.obj == nil || pureRef(n.obj, n.draft) {
			return
		}
		switch {
		case obj != nil:
			uneval := w.s.child(n, "unevaluatedProperties")
			names := w.s.child(n, "propertyNames")
			for j, k := range in.keys {
				for _, c := range w.s.objectChildren(n, k) {
					if !add(w.cost(c, in.kids[j], hidden)) {
						return
					}
				}
				if uneval != nil && !add(w.cost(uneval, in.kids[j], hidden)) {
					return
				}
				if names != nil && !add(w.cost(names, -1, true)) {
					return
				}
			}
		case arr != nil:
			contains := w.s.child(n, "contains")
			uneval := w.s.child(n, "unevaluatedItems")
			for j := range in.keys {
				for _, c := range w.s.itemChildren(n, j) {
					if !add(w.cost(c, in.kids[j], hidden)) {
						return
					}
				}
				if contains != nil && !add(w.cost(contains, in.kids[j], true)) {
					return
				}
				if uneval != nil && !add(w.cost(uneval, in.kids[j], hidden)) {
					return
				}
			}
		}
	}()
	w.memo[key] = total
	return total
}

func instValue(in *instNode) any {
	if in == nil {
		return nil
	}
	return in.v
}
