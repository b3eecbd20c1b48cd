package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/mcpctl/mcpctl/client/schema/internal/jsonschema"
	"github.com/mcpctl/mcpctl/client/schema/internal/jsonschema/kind"
)

// maxArgsDepth bounds nesting of argument JSON (the same bound as
// encoding/json); arguments come from the user, not the server.
const maxArgsDepth = 10000

// parseArgs parses an arguments object; empty input means {} (a tools/call
// without arguments).
func parseArgs(args json.RawMessage) (any, error) {
	if len(strings.TrimSpace(string(args))) == 0 {
		return newObject(), nil
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
	inst := flattenInstance(tree)
	cost, hidden := s.instanceCost(inst)
	if cost > s.limits.MaxEvaluations {
		return &ValidationError{Problems: []Problem{{Path: "", Kind: KindTooComplex, Message: fmt.Sprintf(
			"the arguments could not be checked: validating them against this schema would take more than %d steps (limit MaxEvaluations)", s.limits.MaxEvaluations)}}}
	}

	m := &mapper{s: s, tree: tree}
	var probs []Problem
	if verr := s.compiled.Validate(toPlain(tree)); verr != nil {
		var ve *jsonschema.ValidationError
		if errors.As(verr, &ve) {
			probs = m.problems(ve)
		} else {
			probs = []Problem{{Path: "", Kind: "invalid", Message: verr.Error()}}
		}
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
// output is stable (the library iterates Go maps).
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

// mapper turns the library's error tree into friendly problems.
type mapper struct {
	s    *Schema
	tree any // the arguments, for display names
	// nested counts the alternatives being explained around the current
	// error; below the first, alternatives are summarised in one phrase so
	// the message stays one line even for deeply nested anyOf.
	nested int
}

func (m *mapper) name(toks []string) string { return displayName(m.tree, toks) }

func (m *mapper) unresolvedProblem(toks []string, markerPtr string) Problem {
	u := m.s.markers[markerPtr]
	what := "the argument at " + pointerOf(toks)
	if len(toks) == 0 {
		what = "the arguments"
	}
	return Problem{Path: pointerOf(toks), Kind: KindUnresolvedRef,
		Message: what + " could not be checked because the schema refers to " + u.describe()}
}

// markerOf reports whether e was produced by an unresolved-ref marker.
func (m *mapper) markerOf(e *jsonschema.ValidationError) (string, bool) {
	p, ok := ptrFromLocation(e.SchemaURL)
	if !ok {
		return "", false
	}
	_, isMarker := m.s.markers[p]
	return p, isMarker
}

// markerProblems collects the unresolved-ref problems anywhere under e.
func (m *mapper) markerProblems(e *jsonschema.ValidationError) []Problem {
	if p, ok := m.markerOf(e); ok {
		return []Problem{m.unresolvedProblem(e.InstanceLocation, p)}
	}
	var out []Problem
	for _, c := range e.Causes {
		out = append(out, m.markerProblems(c)...)
	}
	return out
}

func (m *mapper) problems(e *jsonschema.ValidationError) []Problem {
	if p, ok := m.markerOf(e); ok {
		return []Problem{m.unresolvedProblem(e.InstanceLocation, p)}
	}
	loc := e.InstanceLocation
	path := pointerOf(loc)
	switch k := e.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.AllOf, *kind.Reference:
		if len(e.Causes) > 0 {
			var out []Problem
			for _, c := range e.Causes {
				out = append(out, m.problems(c)...)
			}
			return out
		}
	case *kind.AnyOf:
		return m.alternatives(e)
	case *kind.OneOf:
		if len(k.Subschemas) == 0 {
			return m.alternatives(e)
		}
		return []Problem{{Path: path, Kind: KindOneOfAmbiguous, Message: fmt.Sprintf(
			"%s: matches more than one of the allowed alternatives (oneOf %d and %d) but must match exactly one", m.name(loc), k.Subschemas[0], k.Subschemas[1])}}
	case *kind.AdditionalProperties:
		schemaPtr, _ := ptrFromLocation(e.SchemaURL)
		var out []Problem
		for _, p := range k.Properties {
			out = append(out, m.unknown(loc, p, schemaPtr))
		}
		return out
	case *kind.FalseSchema:
		if sp, ok := ptrFromLocation(e.SchemaURL); ok && len(loc) > 0 {
			switch lastToken(sp) {
			case "unevaluatedProperties", "additionalProperties":
				if _, isObj := valueAt(m.tree, loc[:len(loc)-1]).(*object); isObj {
					return []Problem{m.unknown(loc[:len(loc)-1], loc[len(loc)-1], parentPtr(sp))}
				}
			}
		}
		return []Problem{{Path: path, Kind: KindNotAllowed, Message: m.name(loc) + ": no value is allowed here"}}
	case *kind.Not:
		return []Problem{{Path: path, Kind: KindNotAllowed, Message: m.name(loc) + ": value matches a schema it must not match"}}
	case *kind.Required:
		schemaPtr, _ := ptrFromLocation(e.SchemaURL)
		var out []Problem
		for _, name := range k.Missing {
			out = append(out, m.missing(loc, name, schemaPtr))
		}
		return out
	case *kind.Type:
		return []Problem{{Path: path, Kind: KindType, Message: fmt.Sprintf("%s: got %s, want %s", m.name(loc), typeName(valueAt(m.tree, loc)), strings.Join(k.Want, " or "))}}
	case *kind.Enum:
		return []Problem{{Path: path, Kind: KindEnum, Message: fmt.Sprintf("%s: %s is not one of %s", m.name(loc), jsonText(k.Got), joinValues(k.Want))}}
	case *kind.Const:
		return []Problem{{Path: path, Kind: KindConst, Message: fmt.Sprintf("%s: must be %s, got %s", m.name(loc), jsonText(k.Want), jsonText(k.Got))}}
	case *kind.Minimum, *kind.Maximum, *kind.ExclusiveMinimum, *kind.ExclusiveMaximum, *kind.MultipleOf:
		return []Problem{m.numeric(e)}
	case *kind.MinLength:
		return []Problem{m.count(e, "at least", k.Want, k.Got, "characters")}
	case *kind.MaxLength:
		return []Problem{m.count(e, "at most", k.Want, k.Got, "characters")}
	case *kind.MinItems:
		return []Problem{m.count(e, "at least", k.Want, k.Got, "items")}
	case *kind.MaxItems:
		return []Problem{m.count(e, "at most", k.Want, k.Got, "items")}
	case *kind.MinProperties:
		return []Problem{m.count(e, "at least", k.Want, k.Got, "properties")}
	case *kind.MaxProperties:
		return []Problem{m.count(e, "at most", k.Want, k.Got, "properties")}
	}
	return []Problem{{Path: path, Kind: keywordKind(e.ErrorKind), Message: m.name(loc) + ": " + e.ErrorKind.LocalizedString(printer)}}
}

// numeric explains a failed numeric bound with the exact numbers as written
// (the library's message goes through float64 and would print two
// different big integers identically).
func (m *mapper) numeric(e *jsonschema.ValidationError) Problem {
	kw := keywordKind(e.ErrorKind)
	loc := e.InstanceLocation
	var n *node
	if p, ok := ptrFromLocation(e.SchemaURL); ok {
		n = m.s.node(p)
	}
	want, _ := n.get(kw)
	if _, isBool := want.(bool); isBool { // draft-04: exclusiveMinimum: true beside minimum
		want, _ = n.get(strings.ToLower(strings.TrimPrefix(kw, "exclusive")))
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
func (m *mapper) count(e *jsonschema.ValidationError, bound string, want, got int, unit string) Problem {
	loc := e.InstanceLocation
	return Problem{Path: pointerOf(loc), Kind: keywordKind(e.ErrorKind),
		Message: fmt.Sprintf("%s: must have %s %d %s, got %d", m.name(loc), bound, want, unit, got)}
}

func keywordKind(k jsonschema.ErrorKind) string {
	if kp := k.KeywordPath(); len(kp) > 0 {
		return kp[0]
	}
	switch k.(type) {
	case *kind.RefCycle:
		return "ref-cycle"
	case *kind.InvalidJsonValue:
		return KindInvalidJSON
	}
	return "invalid"
}

func joinValues(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = jsonText(v)
	}
	return strings.Join(parts, ", ")
}

// soleLeaf unwraps single-cause wrappers and returns the one leaf error of
// a branch, or nil if the branch failed in more than one way.
func soleLeaf(e *jsonschema.ValidationError) *jsonschema.ValidationError {
	for {
		switch e.ErrorKind.(type) {
		case *kind.Schema, *kind.Group, *kind.AllOf, *kind.Reference:
			if len(e.Causes) != 1 {
				return nil
			}
			e = e.Causes[0]
			continue
		}
		if len(e.Causes) > 0 {
			return nil
		}
		return e
	}
}

// alternatives explains an anyOf/oneOf that no branch satisfied. Typical
// tool schemas use it for "X or null" and for unions of shapes, so: if
// every branch only disagreed on the type (or on enum/const), say what
// would have been accepted in one line; if exactly one branch had the right
// type, its own problems are the useful ones; otherwise list each branch.
func (m *mapper) alternatives(e *jsonschema.ValidationError) []Problem {
	if mp := m.markerProblems(e); len(mp) > 0 {
		// An unresolved branch might have accepted the value.
		return mp
	}
	loc := e.InstanceLocation
	path := pointerOf(loc)
	var wants []string
	got := typeName(valueAt(m.tree, loc))
	allShallow, allType := true, true
	var deep []*jsonschema.ValidationError
	for _, b := range e.Causes {
		leaf := soleLeaf(b)
		if leaf == nil || pointerOf(leaf.InstanceLocation) != path {
			allShallow = false
			deep = append(deep, b)
			continue
		}
		switch k := leaf.ErrorKind.(type) {
		case *kind.Type:
			wants = append(wants, k.Want...)
			continue
		case *kind.Enum:
			wants = append(wants, "one of "+joinValues(k.Want))
		case *kind.Const:
			wants = append(wants, jsonText(k.Want))
		default:
			allShallow = false
		}
		allType = false
		deep = append(deep, b)
	}
	if allShallow && len(e.Causes) > 0 {
		if allType {
			return []Problem{{Path: path, Kind: KindType, Message: fmt.Sprintf("%s: got %s, want %s", m.name(loc), got, strings.Join(dedupe(wants), " or "))}}
		}
		return []Problem{{Path: path, Kind: KindNoMatch, Message: fmt.Sprintf("%s: got %s %s, want %s", m.name(loc), got, jsonText(valueAt(m.tree, loc)), strings.Join(dedupe(wants), " or "))}}
	}
	if len(deep) == 1 {
		return m.problems(deep[0])
	}
	if m.nested > 0 {
		return []Problem{{Path: path, Kind: KindNoMatch, Message: fmt.Sprintf("%s: matches none of %d alternatives", m.name(loc), len(e.Causes))}}
	}
	m.nested++
	defer func() { m.nested-- }()
	var parts []string
	for i, b := range e.Causes {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("(%d more)", len(e.Causes)-3))
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
	toks := appendPath(parent, prop)
	name := m.name(toks)
	declared := m.s.declaredNames(m.s.node(schemaPtr))
	msg := fmt.Sprintf("unknown argument %q", name)
	if close := closest(prop, declared); len(close) > 0 {
		quoted := make([]string, len(close))
		for i, c := range close {
			quoted[i] = fmt.Sprintf("%q", m.name(appendPath(parent, c)))
		}
		msg += "; did you mean " + strings.Join(quoted, " or ") + "?"
	} else if len(declared) > 0 {
		msg += "; known arguments: " + strings.Join(declared, ", ")
	} else if len(parent) == 0 {
		msg += "; this tool takes no arguments"
	} else {
		msg += fmt.Sprintf("; %s takes no properties", m.name(parent))
	}
	return Problem{Path: pointerOf(toks), Kind: KindUnknownArgument, Message: msg}
}

// missing explains a required property that is absent, with its type.
func (m *mapper) missing(parent []string, prop, schemaPtr string) Problem {
	toks := appendPath(parent, prop)
	msg := "missing required argument " + m.name(toks)
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
			v = c.vals[t]
		case *array:
			i := atoiStrict(t)
			if i < 0 || i >= len(c.items) {
				return nil
			}
			v = c.items[i]
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
			if j := atoiStrict(t); j >= 0 && j < len(a.items) {
				v = a.items[j]
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
			v = o.vals[t]
		} else {
			v = nil
		}
	}
	return sb.String()
}

// typeName names the JSON type of an argument value the way JSON Schema
// does, telling integers from other numbers (the library reports every
// number as "number", which reads oddly next to "want string" for 5).
func typeName(v any) string {
	if n, ok := v.(json.Number); ok {
		if isJSONInteger(string(n)) {
			return "integer"
		}
		if !hugeExponent(string(n)) {
			if r, ok := new(big.Rat).SetString(string(n)); ok && r.IsInt() {
				return "integer"
			}
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
