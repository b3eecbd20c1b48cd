package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/mcpctl/mcpctl/client/ojson"
)

// maxArgsDepth bounds nesting of argument JSON (the same bound as
// encoding/json); arguments come from the user, not the server.
const maxArgsDepth = 10000

// parseArgs parses an arguments object; empty input means {} (a tools/call
// without arguments).
func parseArgs(args json.RawMessage) (any, error) {
	if len(strings.TrimSpace(string(args))) == 0 {
		return ojson.NewObject(), nil
	}
	v, err := parseJSON(args, maxArgsDepth)
	if errors.Is(err, errDepth) {
		return nil, fmt.Errorf("arguments nest deeper than %d levels", maxArgsDepth)
	}
	return v, err
}

// Validate checks args fully against the schema (dialect from `$schema`,
// 2020-12 when absent). It returns nil or a *ValidationError whose Problems
// explain each issue; see the Kind* constants. Empty args are validated as
// {}. An argument governed by a $ref mcpctl does not fetch is reported as
// KindUnresolvedRef when the schema needs that ref to decide, and nothing
// is ever fetched.
func (s *Schema) Validate(args json.RawMessage) error {
	tree, err := parseArgs(args)
	if err != nil {
		return &ValidationError{Problems: []Problem{{Path: "", Kind: KindInvalidJSON, Message: "arguments are not valid JSON: " + err.Error()}}}
	}
	return s.validate(tree, &argumentWords, 0)
}

// validate checks the value tree and words its problems as w says. It
// may take Limits.MaxEvaluations evaluations, or perValue for each value
// in tree if that is more.
func (s *Schema) validate(tree any, w *words, perValue int) error {
	inst := flattenInstance(tree)
	budget := max(s.limits.MaxEvaluations, perValue*len(inst))
	cost, hidden := s.instanceCost(inst, budget)
	tooComplex := &ValidationError{Problems: []Problem{{Path: "", Kind: KindTooComplex, Message: fmt.Sprintf(
		"%s could not be checked: validating %s against this schema would take more than %d steps (limit MaxEvaluations)", w.theWhole, w.them, budget)}}}
	if cost > budget {
		return tooComplex
	}

	e := s.newEvaluator(inst, budget)
	f, _ := e.eval(s.nodes[""], 0, false, false)
	if e.spent {
		return tooComplex
	}
	m := &mapper{s: s, tree: tree, w: w}
	var probs []Problem
	if f != nil {
		probs = m.problems(f)
	}
	for h := range hidden {
		probs = append(probs, m.unresolvedProblem(inst[h.inst].path, h.marker))
	}
	if len(probs) == 0 {
		return nil
	}
	return &ValidationError{Problems: tidy(probs)}
}

// tidy removes duplicates and sorts by path, then kind, then message, so
// output is stable.
func tidy(probs []Problem) []Problem {
	seen := map[Problem]bool{}
	out := probs[:0]
	for _, p := range probs {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Message < b.Message
	})
	return out
}

// mapper turns the evaluator's faults into friendly problems.
type mapper struct {
	s    *Schema
	tree any // the arguments, for display names
	// w words the problems: argumentWords when nil.
	w *words
	// nested counts the alternatives being explained around the current
	// fault; below the first, alternatives are summarised in one phrase so
	// the message stays one line even for deeply nested anyOf.
	nested int
}

// words are the mapper's words for the value it explains.
func (m *mapper) words() *words {
	if m.w == nil {
		return &argumentWords
	}
	return m.w
}

// name is the value at toks as a problem names it.
func (m *mapper) name(toks []string) string {
	w := m.words()
	if len(toks) == 0 {
		return w.whole
	}
	n := displayName(m.tree, toks)
	if w.prefixed {
		if strings.HasPrefix(n, "[") {
			return w.whole + n
		}
		return w.whole + "." + n
	}
	return n
}

func (m *mapper) unresolvedProblem(toks []string, markerPtr string) Problem {
	u := m.s.markers[markerPtr]
	what := "the " + m.words().member + " at " + pointerOf(toks)
	if len(toks) == 0 {
		what = m.words().theWhole
	}
	return Problem{Path: pointerOf(toks), Kind: KindUnresolvedRef,
		Message: what + " could not be checked because the schema refers to " + u.describe()}
}

// markerProblems collects the unresolved-ref problems anywhere under f.
func (m *mapper) markerProblems(f *fault) []Problem {
	if f.kw == "unresolved" {
		return []Problem{m.unresolvedProblem(f.inst, f.n.ptr)}
	}
	var out []Problem
	for _, c := range f.causes {
		out = append(out, m.markerProblems(c)...)
	}
	return out
}

// grouping reports the fault kinds that only gather other faults.
func grouping(kw string) bool {
	switch kw {
	case "", "$ref", "$dynamicRef", "$recursiveRef", "allOf":
		return true
	}
	return false
}

func (m *mapper) problems(f *fault) []Problem {
	loc := f.inst
	path := pointerOf(loc)
	name := m.name(loc)
	one := func(kind, msg string) []Problem { return []Problem{{Path: path, Kind: kind, Message: msg}} }
	switch f.kw {
	case "unresolved":
		return []Problem{m.unresolvedProblem(loc, f.n.ptr)}
	case "", "$ref", "$dynamicRef", "$recursiveRef", "allOf":
		var out []Problem
		for _, c := range f.causes {
			out = append(out, m.problems(c)...)
		}
		return out
	case "anyOf":
		return m.alternatives(f)
	case "oneOf":
		if len(f.causes) == 0 { // two branches matched
			return one(KindOneOfAmbiguous, fmt.Sprintf(
				"%s: matches more than one of the allowed alternatives (oneOf %d and %d) but must match exactly one", name, f.a, f.b))
		}
		return m.alternatives(f)
	case "additionalProperties":
		var out []Problem
		for _, p := range f.names {
			out = append(out, m.unknown(loc, p, f.n.ptr))
		}
		return out
	case "false":
		if len(loc) > 0 {
			switch lastToken(f.n.ptr) {
			case "unevaluatedProperties", "additionalProperties":
				if _, isObj := valueAt(m.tree, loc[:len(loc)-1]).(*object); isObj {
					return []Problem{m.unknown(loc[:len(loc)-1], loc[len(loc)-1], parentPtr(f.n.ptr))}
				}
			}
		}
		return one(KindNotAllowed, name+": no value is allowed here")
	case "not":
		return one(KindNotAllowed, name+": value matches a schema it must not match")
	case "required":
		var out []Problem
		for _, p := range f.names {
			out = append(out, m.missing(loc, p, f.n.ptr))
		}
		return out
	case "dependentRequired", "dependencies":
		var out []Problem
		for _, p := range f.names {
			pr := m.missing(loc, p, f.n.ptr)
			pr.Kind = f.kw
			pr.Message += fmt.Sprintf(", needed when %s is given", m.name(appendPath(loc, f.prop)))
			out = append(out, pr)
		}
		return out
	case "type":
		return one(KindType, m.typeMessage(loc, f.types, f.n))
	case "enum":
		return one(KindEnum, fmt.Sprintf("%s: %s is not one of %s", name, jsonText(valueAt(m.tree, loc)), joinValues(f.want.([]any))))
	case "const":
		return one(KindConst, fmt.Sprintf("%s: must be %s, got %s", name, jsonText(f.want), jsonText(valueAt(m.tree, loc))))
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
		return []Problem{m.numeric(f)}
	case "minLength":
		return []Problem{m.count(f, "at least", "characters")}
	case "maxLength":
		return []Problem{m.count(f, "at most", "characters")}
	case "minItems":
		return []Problem{m.count(f, "at least", "items")}
	case "maxItems":
		return []Problem{m.count(f, "at most", "items")}
	case "minProperties":
		return []Problem{m.count(f, "at least", "properties")}
	case "maxProperties":
		return []Problem{m.count(f, "at most", "properties")}
	case "pattern":
		return one("pattern", fmt.Sprintf("%s: %s does not match pattern %s", name, quote(valueAt(m.tree, loc)), quote(f.text)))
	case "uniqueItems":
		return one("uniqueItems", fmt.Sprintf("%s: items %d and %d are equal, but items must be unique", name, f.a, f.b))
	case "additionalItems":
		return one("additionalItems", fmt.Sprintf("%s: has %d more items than the schema allows", name, f.a))
	case "contains":
		return one("contains", name+": no item matches the schema's contains")
	case "minContains":
		return one("minContains", fmt.Sprintf("%s: must have at least %d items matching the schema's contains, got %d", name, f.a, f.b))
	case "maxContains":
		return one("maxContains", fmt.Sprintf("%s: must have at most %d items matching the schema's contains, got %d", name, f.a, f.b))
	case "propertyNames":
		return one("propertyNames", fmt.Sprintf("%s: the property name %s is not allowed (propertyNames)", name, strconv.Quote(f.prop)))
	case "ref-cycle":
		return one("ref-cycle", fmt.Sprintf("%s: could not be checked: the schema's $refs at %s loop back to themselves", name, "#"+f.text))
	}
	return one("invalid", name+": not valid ("+f.kw+")")
}

// quote renders a string in single quotes, escaped like Go.
func quote(v any) string {
	s, _ := v.(string)
	q := strconv.Quote(s)
	return "'" + q[1:len(q)-1] + "'"
}

// numeric explains a failed numeric bound with the exact numbers as written.
func (m *mapper) numeric(f *fault) Problem {
	kw := f.kw
	loc := f.inst
	want, _ := f.n.get(kw)
	if _, isBool := want.(bool); isBool { // draft-04: exclusiveMinimum: true beside minimum
		want, _ = f.n.get(strings.ToLower(strings.TrimPrefix(kw, "exclusive")))
	}
	wantText := jsonText(want)
	if want == nil {
		wantText = "?"
	}
	op := map[string]string{"minimum": ">=", "maximum": "<=", "exclusiveMinimum": ">", "exclusiveMaximum": "<"}[kw]
	msg := fmt.Sprintf("%s: must be %s %s, got %s", m.name(loc), op, wantText, jsonText(valueAt(m.tree, loc)))
	if kw == "multipleOf" {
		msg = fmt.Sprintf("%s: must be a multiple of %s, got %s", m.name(loc), wantText, jsonText(valueAt(m.tree, loc)))
	}
	return Problem{Path: pointerOf(loc), Kind: kw, Message: msg}
}

// count explains a failed length/size bound.
func (m *mapper) count(f *fault, bound, unit string) Problem {
	loc := f.inst
	return Problem{Path: pointerOf(loc), Kind: f.kw,
		Message: fmt.Sprintf("%s: must have %s %d %s, got %d", m.name(loc), bound, f.a, unit, f.b)}
}

func joinValues(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = jsonText(v)
	}
	return strings.Join(parts, ", ")
}

// soleLeaf unwraps single-cause groups and returns the one leaf fault of a
// branch, or nil if the branch failed in more than one way.
func soleLeaf(f *fault) *fault {
	for grouping(f.kw) {
		if len(f.causes) != 1 {
			return nil
		}
		f = f.causes[0]
	}
	if len(f.causes) > 0 {
		return nil
	}
	return f
}

// alternatives explains an anyOf/oneOf that no branch satisfied. Typical
// tool schemas use it for "X or null" and for unions of shapes, so: if
// every branch only disagreed on the type (or on enum/const), say what
// would have been accepted in one line; if exactly one branch had the right
// type, its own problems are the useful ones; otherwise list each branch.
func (m *mapper) alternatives(f *fault) []Problem {
	if mp := m.markerProblems(f); len(mp) > 0 {
		// An unresolved branch might have accepted the value.
		return mp
	}
	loc := f.inst
	path := pointerOf(loc)
	var wants []string
	got := typeName(valueAt(m.tree, loc))
	allShallow, allType := true, true
	var deep []*fault
	for _, b := range f.causes {
		leaf := soleLeaf(b)
		if leaf == nil || pointerOf(leaf.inst) != path {
			allShallow = false
			deep = append(deep, b)
			continue
		}
		switch leaf.kw {
		case "type":
			wants = append(wants, leaf.types...)
			continue
		case "enum":
			wants = append(wants, "one of "+joinValues(leaf.want.([]any)))
		case "const":
			wants = append(wants, jsonText(leaf.want))
		default:
			allShallow = false
		}
		allType = false
		deep = append(deep, b)
	}
	if allShallow && len(f.causes) > 0 {
		if allType {
			return []Problem{{Path: path, Kind: KindType, Message: m.typeMessage(loc, dedupe(wants), nil)}}
		}
		return []Problem{{Path: path, Kind: KindNoMatch, Message: fmt.Sprintf("%s: got %s %s, want %s", m.name(loc), got, jsonText(valueAt(m.tree, loc)), strings.Join(dedupe(wants), " or "))}}
	}
	if len(deep) == 1 {
		return m.problems(deep[0])
	}
	if m.nested > 0 {
		return []Problem{{Path: path, Kind: KindNoMatch, Message: fmt.Sprintf("%s: matches none of %d alternatives", m.name(loc), len(f.causes))}}
	}
	m.nested++
	defer func() { m.nested-- }()
	var parts []string
	for i, b := range f.causes {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("(%d more)", len(f.causes)-3))
			break
		}
		bp := m.problems(b)
		if len(bp) > 0 {
			parts = append(parts, bp[0].Message)
		}
	}
	return []Problem{{Path: path, Kind: KindNoMatch, Message: fmt.Sprintf("%s: matches none of the allowed alternatives: %s", m.name(loc), strings.Join(parts, "; or "))}}
}

func dedupe(ss []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// unknown explains a property the schema does not allow, suggesting the
// closest declared names.
func (m *mapper) unknown(parent []string, prop, schemaPtr string) Problem {
	return m.unknownAmong(parent, prop, m.s.declaredNames(m.s.node(schemaPtr)), KindUnknownArgument)
}

// unknownAmong explains prop, which is none of the declared names, as a
// problem of kind.
func (m *mapper) unknownAmong(parent []string, prop string, declared []string, kind string) Problem {
	toks := appendPath(parent, prop)
	name := m.name(toks)
	msg := fmt.Sprintf("unknown %s %q", m.words().member, name)
	if close := closest(prop, declared); len(close) > 0 {
		quoted := make([]string, len(close))
		for i, c := range close {
			quoted[i] = fmt.Sprintf("%q", m.name(appendPath(parent, c)))
		}
		msg += "; did you mean " + strings.Join(quoted, " or ") + "?"
	} else if len(declared) > 0 {
		msg += "; known " + m.words().member + "s: " + strings.Join(declared, ", ")
	} else if len(parent) == 0 {
		msg += "; " + m.words().none
	} else {
		msg += fmt.Sprintf("; %s takes no properties", m.name(parent))
	}
	return Problem{Path: pointerOf(toks), Kind: kind, Message: msg}
}

// missing explains a required property that is absent, with its type.
func (m *mapper) missing(parent []string, prop, schemaPtr string) Problem {
	toks := appendPath(parent, prop)
	msg := "missing required " + m.words().member + " " + m.name(toks)
	if p := m.s.findPropertyAround(schemaPtr, prop); p != nil {
		if t := m.s.describeType(p); t != "" {
			msg += " (" + t + ")"
		}
	}
	return Problem{Path: pointerOf(toks), Kind: KindMissingRequired, Message: msg}
}

// valueAt returns the argument value at toks (nil if absent).
func valueAt(tree any, toks []string) any {
	v := tree
	for _, t := range toks {
		switch c := v.(type) {
		case *object:
			v = c.Get(t)
		case *array:
			i := atoiStrict(t)
			if i < 0 || i >= len(c.Items()) {
				return nil
			}
			v = c.Items()[i]
		default:
			return nil
		}
	}
	return v
}

// displayName renders an argument path the way a user types it on the
// command line: dots between object keys, [i] for array indexes;
// "arguments" for the whole object.
func displayName(tree any, toks []string) string {
	if len(toks) == 0 {
		return "arguments"
	}
	var sb strings.Builder
	v := tree
	for i, t := range toks {
		if a, ok := v.(*array); ok {
			sb.WriteString("[" + t + "]")
			if j := atoiStrict(t); j >= 0 && j < len(a.Items()) {
				v = a.Items()[j]
			} else {
				v = nil
			}
			continue
		}
		if i > 0 {
			sb.WriteByte('.')
		}
		sb.WriteString(t)
		if o, ok := v.(*object); ok {
			v = o.Get(t)
		} else {
			v = nil
		}
	}
	return sb.String()
}

// typeName names the JSON type of an argument value the way JSON Schema
// does, telling integers from other numbers ("got number, want string" for
// 5 would read oddly).
func typeName(v any) string {
	if d, ok := numberOf(v); ok {
		if d.isInteger() {
			return "integer"
		}
		return "number"
	}
	return jsonKind(v)
}

// atoiStrict parses a canonical non-negative decimal index, else -1.
func atoiStrict(s string) int {
	if s == "" || len(s) > 9 || (len(s) > 1 && s[0] == '0') {
		return -1
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}
