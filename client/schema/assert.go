package schema

import "unicode/utf8"

// The assertions of the evaluator (eval.go): what a subschema says about
// one value, by the value's type. Each records its faults on the call.

// --- assertions on any value ---

func (c *call) checkType(v any) *fault {
	var want []string
	switch t := c.val("type").(type) {
	case string:
		want = []string{t}
	case *array:
		for _, it := range t.Items() {
			if s, ok := it.(string); ok {
				want = append(want, s)
			}
		}
	default:
		return nil
	}
	for _, w := range want {
		if hasType(v, w) {
			return nil
		}
	}
	return &fault{kw: "type", types: dedupe(want)}
}

// hasType reports whether v is of JSON Schema type t; an integer-valued
// number (2.0, 1e3) is an integer.
func hasType(v any, t string) bool {
	switch v.(type) {
	case *object:
		return t == "object"
	case *array:
		return t == "array"
	case string:
		return t == "string"
	case bool:
		return t == "boolean"
	case nil:
		return t == "null"
	}
	d, ok := numberOf(v)
	if !ok {
		return false
	}
	return t == "number" || (t == "integer" && d.isInteger())
}

func inEnum(v any, en *array) bool {
	for _, m := range en.Items() {
		if jsonEqual(v, m) {
			return true
		}
	}
	return false
}

// jsonEqual is JSON Schema equality: numbers by value, objects regardless
// of key order.
func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case *object:
		y, ok := b.(*object)
		if !ok || x.Len() != y.Len() {
			return false
		}
		for _, k := range x.Keys() {
			yv, ok := y.Lookup(k)
			if !ok || !jsonEqual(x.Get(k), yv) {
				return false
			}
		}
		return true
	case *array:
		y, ok := b.(*array)
		if !ok || len(x.Items()) != len(y.Items()) {
			return false
		}
		for i := range x.Items() {
			if !jsonEqual(x.Items()[i], y.Items()[i]) {
				return false
			}
		}
		return true
	case string, bool, nil:
		return a == b
	}
	da, ok1 := numberOf(a)
	db, ok2 := numberOf(b)
	return ok1 && ok2 && da.cmp(db) == 0
}

// --- objects ---

func (c *call) object(o *object) {
	n := c.n
	if k, ok := nonNegative(c.val("minProperties")); ok && len(o.Keys()) < k {
		c.fail(&fault{kw: "minProperties", a: k, b: len(o.Keys())})
	}
	if k, ok := nonNegative(c.val("maxProperties")); ok && len(o.Keys()) > k {
		c.fail(&fault{kw: "maxProperties", a: k, b: len(o.Keys())})
	}
	if miss := missingNames(o, c.val("required")); len(miss) > 0 {
		c.fail(&fault{kw: "required", names: miss})
	}
	if c.done() {
		return
	}
	if deps, ok := c.val("dependencies").(*object); ok {
		for _, k := range deps.Keys() {
			if _, present := o.Lookup(k); !present {
				continue
			}
			if _, isList := deps.Get(k).(*array); isList {
				if miss := missingNames(o, deps.Get(k)); len(miss) > 0 {
					c.fail(&fault{kw: "dependencies", prop: k, names: miss})
				}
			} else {
				c.add(c.inPlace(c.child("dependencies", k), false))
			}
		}
	}
	var extra []string
	for j, k := range c.in.keys {
		if c.done() {
			return
		}
		evaluated := false
		if sub := c.child("properties", k); sub != nil {
			evaluated = true
			c.add(c.at(sub, j))
		}
		for _, p := range n.patProps {
			if p.re == nil {
				// A pattern we cannot run might match: the property is left
				// to the server rather than refused or checked wrongly.
				evaluated = true
				continue
			}
			if p.re.MatchString(k) {
				evaluated = true
				c.add(c.at(c.e.s.nodes[p.ptr], j))
			}
		}
		if !evaluated {
			if sub := c.child("additionalProperties"); sub != nil {
				evaluated = true
				if sub.obj == nil && !sub.bval {
					extra = append(extra, k)
				} else {
					c.add(c.at(sub, j))
				}
			}
		}
		if evaluated && c.track {
			c.markProp(k)
		}
	}
	if len(extra) > 0 {
		c.fail(&fault{kw: "additionalProperties", names: extra})
	}
	if n.draft >= draft6 {
		if sub := c.child("propertyNames"); sub != nil {
			for _, k := range o.Keys() {
				if c.done() {
					return
				}
				c.propertyName(sub, k)
			}
		}
	}
	if n.draft < draft2019 {
		return
	}
	if ds, ok := c.val("dependentSchemas").(*object); ok {
		for _, k := range ds.Keys() {
			if _, present := o.Lookup(k); present && !c.done() {
				c.add(c.inPlace(c.child("dependentSchemas", k), false))
			}
		}
	}
	if dr, ok := c.val("dependentRequired").(*object); ok {
		for _, k := range dr.Keys() {
			if _, present := o.Lookup(k); !present {
				continue
			}
			if miss := missingNames(o, dr.Get(k)); len(miss) > 0 {
				c.fail(&fault{kw: "dependentRequired", prop: k, names: miss})
			}
		}
	}
}

func (c *call) markProp(k string) {
	if c.seen == nil {
		c.seen = &seen{}
	}
	c.seen.addProp(k)
}

func (c *call) markItem(i int) {
	if c.seen == nil {
		c.seen = &seen{}
	}
	c.seen.addItem(i)
}

// propertyName validates one property name against propertyNames; the
// name is evaluated as a value of its own, reported at the object.
func (c *call) propertyName(sub *node, k string) {
	vid := len(c.e.inst)
	c.e.inst = append(c.e.inst, instNode{path: c.in.path, v: k})
	c.in = &c.e.inst[c.vid] // the append may have moved the values
	f, _ := c.e.eval(sub, vid, c.quick, false)
	if f == nil {
		return
	}
	if c.quick {
		c.add(f)
		return
	}
	c.fail(&fault{kw: "propertyNames", prop: k, causes: []*fault{f}})
}

func missingNames(o *object, req any) []string {
	list, ok := req.(*array)
	if !ok {
		return nil
	}
	var miss []string
	for _, r := range list.Items() {
		if name, ok := r.(string); ok {
			if _, present := o.Lookup(name); !present {
				miss = append(miss, name)
			}
		}
	}
	return miss
}

// --- arrays ---

func (c *call) array(a *array) {
	n := c.n
	count := len(a.Items())
	if k, ok := nonNegative(c.val("minItems")); ok && count < k {
		c.fail(&fault{kw: "minItems", a: k, b: count})
	}
	if k, ok := nonNegative(c.val("maxItems")); ok && count > k {
		c.fail(&fault{kw: "maxItems", a: k, b: count})
	}
	if u, _ := c.val("uniqueItems").(bool); u {
		if i, j, dup := duplicate(a.Items()); dup {
			c.fail(&fault{kw: "uniqueItems", a: i, b: j})
		}
	}
	if c.done() {
		return
	}
	for i := range a.Items() {
		if c.done() {
			return
		}
		for _, sub := range c.e.s.itemChildren(n, i) {
			if n.draft < draft2020 && sub.obj == nil && !sub.bval && lastToken(sub.ptr) == "additionalItems" {
				// One fault for all the items past the tuple.
				c.fail(&fault{kw: "additionalItems", a: count - i})
				c.contains(a)
				return
			}
			c.add(c.at(sub, i))
			if c.track {
				c.markItem(i)
			}
		}
	}
	c.contains(a)
}

func (c *call) contains(a *array) {
	sub := c.child("contains")
	if sub == nil || c.n.draft < draft6 || c.done() {
		return
	}
	var matched int
	for i := range a.Items() {
		f, _ := c.e.eval(sub, c.in.kids[i], true, false)
		if f == nil {
			matched++
			if c.n.draft >= draft2020 && c.track {
				c.markItem(i)
			}
		}
	}
	minC, hasMin := 1, false
	maxC, hasMax := 0, false
	if c.n.draft >= draft2019 {
		minC, hasMin = nonNegative(c.val("minContains"))
		if !hasMin {
			minC = 1
		}
		maxC, hasMax = nonNegative(c.val("maxContains"))
	}
	switch {
	case matched < minC && hasMin:
		c.fail(&fault{kw: "minContains", a: minC, b: matched})
	case matched < minC:
		c.fail(&fault{kw: "contains"})
	}
	if hasMax && matched > maxC {
		c.fail(&fault{kw: "maxContains", a: maxC, b: matched})
	}
}

func duplicate(items []any) (int, int, bool) {
	for i := range items {
		for j := i + 1; j < len(items); j++ {
			if jsonEqual(items[i], items[j]) {
				return i, j, true
			}
		}
	}
	return 0, 0, false
}

// --- strings and numbers ---

func (c *call) str(s string) {
	length := -1
	runes := func() int {
		if length < 0 {
			length = utf8.RuneCountInString(s)
		}
		return length
	}
	if k, ok := nonNegative(c.val("minLength")); ok && runes() < k {
		c.fail(&fault{kw: "minLength", a: k, b: runes()})
	}
	if k, ok := nonNegative(c.val("maxLength")); ok && runes() > k {
		c.fail(&fault{kw: "maxLength", a: k, b: runes()})
	}
	if re := c.n.pattern; re != nil && !re.MatchString(s) {
		p, _ := c.n.str("pattern")
		c.fail(&fault{kw: "pattern", text: p})
	}
}

func (c *call) number(d decimal) {
	bound := func(kw string) (decimal, bool) {
		return numberOf(c.val(kw))
	}
	exclusive := func(kw string) bool { // draft-04: a boolean beside minimum/maximum
		b, _ := c.val(kw).(bool)
		return c.n.draft == draft4 && b
	}
	if m, ok := bound("minimum"); ok {
		switch {
		case exclusive("exclusiveMinimum") && d.cmp(m) <= 0:
			c.fail(&fault{kw: "exclusiveMinimum"})
		case d.cmp(m) < 0:
			c.fail(&fault{kw: "minimum"})
		}
	}
	if m, ok := bound("maximum"); ok {
		switch {
		case exclusive("exclusiveMaximum") && d.cmp(m) >= 0:
			c.fail(&fault{kw: "exclusiveMaximum"})
		case d.cmp(m) > 0:
			c.fail(&fault{kw: "maximum"})
		}
	}
	if c.n.draft >= draft6 {
		if m, ok := bound("exclusiveMinimum"); ok && d.cmp(m) <= 0 {
			c.fail(&fault{kw: "exclusiveMinimum"})
		}
		if m, ok := bound("exclusiveMaximum"); ok && d.cmp(m) >= 0 {
			c.fail(&fault{kw: "exclusiveMaximum"})
		}
	}
	if m, ok := bound("multipleOf"); ok && m.sign() > 0 && !d.multipleOf(m) {
		c.fail(&fault{kw: "multipleOf"})
	}
}

// nonNegative reads a count keyword (an integer-valued number >= 0).
func nonNegative(v any) (int, bool) {
	d, ok := numberOf(v)
	if !ok || d.neg || !d.isInteger() {
		return 0, false
	}
	if d.isZero() {
		return 0, true
	}
	if satAdd(int64(len(d.digits)), d.exp) > 15 {
		return 1 << 50, true // more than any argument can have
	}
	n := 0
	for _, ch := range d.digits {
		n = n*10 + int(ch-'0')
	}
	for i := int64(0); i < d.exp; i++ {
		n *= 10
	}
	return n, true
}
