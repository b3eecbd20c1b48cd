package schema

import (
	"encoding/json"
	"strings"
)

// KindUndeclared is a key the schema does not declare although it does
// not forbid it either (no additionalProperties: false): most tool
// schemas are written that way, and a misspelt key would otherwise be sent
// and ignored, the tool running on its default. ValidateDeclared reports
// it; Validate does not, since the schema allows it.
const KindUndeclared = "undeclared-argument"

// ValidateDeclared is Validate, and also refuses every key of args, at any
// depth, that the schema at its place does not declare (see Undeclared).
// A key the schema forbids is reported once, as KindUnknownArgument.
func (s *Schema) ValidateDeclared(args json.RawMessage) error {
	var probs []Problem
	err := s.Validate(args)
	if err != nil {
		ve, ok := err.(*ValidationError)
		if !ok {
			return err
		}
		probs = append(probs, ve.Problems...)
	}
	forbidden := map[string]bool{}
	for _, p := range probs {
		if p.Kind == KindUnknownArgument {
			forbidden[p.Path] = true
		}
	}
	for _, p := range s.Undeclared(args) {
		if !forbidden[p.Path] {
			probs = append(probs, p)
		}
	}
	if len(probs) == 0 {
		return nil
	}
	return &ValidationError{Problems: tidy(probs)}
}

// Undeclared lists the keys of args that are no declared property of the
// object schema at their place, each with the closest declared names. A
// key is declared when a `properties` of that schema names it (its own,
// or through $ref, allOf, anyOf/oneOf, if/then/else or dependentSchemas),
// or a `patternProperties` pattern matches it. An object whose schema
// declares no properties at all (`{"type":"object"}`, a map given by
// additionalProperties or patternProperties alone) has no key that could
// be called misspelt, and neither has one whose additionalProperties is a
// schema with constraints of its own (a map with some fixed keys), or
// whose rules lie behind a $ref mcpctl does not follow. Arguments that are
// not JSON give no problems: Validate reports them.
func (s *Schema) Undeclared(args json.RawMessage) []Problem {
	tree, err := parseArgs(args)
	if err != nil {
		return nil
	}
	u := &undeclared{s: s, m: &mapper{s: s, tree: tree}, budget: s.limits.MaxEvaluations}
	u.check([]*node{s.nodes[""]}, tree, nil, 0)
	return u.probs
}

type undeclared struct {
	s      *Schema
	m      *mapper
	budget int // steps left: both the arguments and the schema may be large
	probs  []Problem
}

func (u *undeclared) check(ns []*node, v any, path []string, depth int) {
	if depth > maxArgsDepth || u.budget <= 0 {
		return
	}
	switch t := v.(type) {
	case *object:
		view := u.view(ns)
		declared, names, open := u.declared(view)
		for _, k := range t.Keys() {
			if u.budget--; u.budget <= 0 {
				return
			}
			if declared && !open && !names[k] && !u.patternMatch(view, k) {
				u.probs = append(u.probs, u.m.unknownAmong(path, k, u.names(view), KindUndeclared))
				continue
			}
			var kids []*node
			for _, n := range view {
				kids = append(kids, u.s.objectChildren(n, k)...)
			}
			if len(kids) > 0 {
				u.check(kids, t.Get(k), appendPath(path, k), depth+1)
			}
		}
	case *array:
		view := u.view(ns)
		for i, item := range t.Items() {
			if u.budget--; u.budget <= 0 {
				return
			}
			var kids []*node
			for _, n := range view {
				kids = append(kids, u.s.itemChildren(n, i)...)
			}
			if len(kids) > 0 {
				u.check(kids, item, appendPath(path, itoa(i)), depth+1)
			}
		}
	}
}

// view is the subschemas that apply in place to a value of which ns are
// the schemas: each of ns with what it includes by $ref and by the
// in-place applicators. Branches that may not apply (anyOf, then/else)
// count too: a key declared in any of them is declared.
func (u *undeclared) view(ns []*node) []*node {
	var out []*node
	visited := map[string]bool{}
	var walk func(n *node, depth int)
	walk = func(n *node, depth int) {
		if n == nil || visited[n.ptr] || depth > maxViewDepth || u.budget <= 0 {
			return
		}
		u.budget--
		visited[n.ptr] = true
		out = append(out, n)
		for _, t := range n.refs {
			walk(u.s.nodes[t], depth+1)
		}
		if n.obj == nil || pureRef(n.obj, n.draft) {
			return
		}
		for _, kw := range []string{"then", "else"} {
			walk(u.s.child(n, kw), depth+1)
		}
		for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
			if a, ok := n.obj.Get(kw).(*array); ok {
				for i := range a.Items() {
					walk(u.s.child(n, kw, itoa(i)), depth+1)
				}
			}
		}
		for _, kw := range []string{"dependentSchemas", "dependencies"} {
			if o, ok := n.obj.Get(kw).(*object); ok {
				for _, k := range o.Keys() {
					walk(u.s.child(n, kw, k), depth+1)
				}
			}
		}
	}
	for _, n := range ns {
		walk(n, 0)
	}
	return out
}

// declared says whether the view declares properties at all, which names,
// and whether it leaves other keys open anyway.
func (u *undeclared) declared(view []*node) (declared bool, names map[string]bool, open bool) {
	names = map[string]bool{}
	for _, n := range view {
		if n.marker {
			open = true // what the unfetched schema declares is unknown
		}
		if n.obj == nil {
			continue
		}
		if props, ok := n.obj.Get("properties").(*object); ok {
			declared = true
			for _, k := range props.Keys() {
				names[k] = true
			}
		}
		for _, kw := range []string{"additionalProperties", "unevaluatedProperties"} {
			if o, ok := n.obj.Get(kw).(*object); ok && o.Len() > 0 {
				open = true
			}
		}
	}
	return declared, names, open
}

// names lists the declared property names of the view, in schema order,
// for suggestions.
func (u *undeclared) names(view []*node) []string {
	var out []string
	seen := map[string]bool{}
	for _, n := range view {
		if n.obj == nil {
			continue
		}
		if props, ok := n.obj.Get("properties").(*object); ok {
			for _, k := range props.Keys() {
				if !seen[k] {
					seen[k] = true
					out = append(out, k)
				}
			}
		}
	}
	return out
}

// patternMatch says whether a patternProperties pattern of the view
// matches key; one Go's engine cannot run counts as matching.
func (u *undeclared) patternMatch(view []*node, key string) bool {
	for _, n := range view {
		for _, p := range n.patProps {
			if p.re == nil || p.re.MatchString(key) {
				return true
			}
		}
	}
	return false
}

// ItemKey spells a path of argument tokens (an object's key, an array's
// index) as the key of a key=value request item, with the item syntax's
// special characters escaped: {"a","b","c"} is a[b][c], {"edits","0",
// "oldText"} is edits[0][oldText], and an empty token after the first is
// an appended array item ({"tags",""} is tags[]).
func ItemKey(toks []string) string {
	var sb strings.Builder
	for i, t := range toks {
		if i > 0 {
			sb.WriteByte('[')
		}
		for _, r := range t {
			if strings.ContainsRune(`=:@[]\`, r) {
				sb.WriteByte('\\')
			}
			sb.WriteRune(r)
		}
		if i > 0 {
			sb.WriteByte(']')
		}
	}
	return sb.String()
}
