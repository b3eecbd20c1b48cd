package schema

import (
	"encoding/json"
	"errors"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// FuzzValidate validates arbitrary arguments against arbitrary schemas.
// It never panics; the result is nil or problems that are one line each,
// sorted, and the same on a second call; and, for a schema without
// references, the verdict is the opposite of that of {"not": schema},
// which the evaluator decides in its quick mode (no faults built).
func FuzzValidate(f *testing.F) {
	// Seeds: testdata/fuzz/FuzzValidate.
	limits := Limits{MaxEvaluations: 5000}
	f.Fuzz(func(t *testing.T, schemaText, argsText string) {
		s, err := Compile(json.RawMessage(schemaText), limits)
		if err != nil {
			return
		}
		first := s.Validate(json.RawMessage(argsText))
		probs := checkProblems(t, first)
		if again := checkProblems(t, s.Validate(json.RawMessage(argsText))); !reflect.DeepEqual(probs, again) {
			t.Fatalf("a second Validate gave %+v, the first %+v", again, probs)
		}
		// ValidateDeclared (issue 15 item 2) refuses whatever Validate
		// refuses, and more only as undeclared keys.
		declared := checkProblems(t, s.ValidateDeclared(json.RawMessage(argsText)))
		if len(declared) < len(probs) && !tooComplex(declared) {
			t.Fatalf("ValidateDeclared gave %+v, fewer than Validate's %+v", declared, probs)
		}
		for _, p := range declared {
			if p.Kind == KindUndeclared && !strings.HasPrefix(p.Message, "unknown argument ") {
				t.Fatalf("undeclared problem %+v", p)
			}
		}
		if _, err := parseArgs(json.RawMessage(argsText)); err != nil || hasRefs(schemaText) || tooComplex(probs) {
			return
		}
		neg, err := Compile(json.RawMessage(`{"not":`+schemaText+`}`), limits)
		var le *LimitError
		if errors.As(err, &le) {
			return // one level deeper, or a few bytes more, than the limits
		}
		if err != nil {
			t.Fatalf("schema %s compiles, {\"not\": it} does not: %v", schemaText, err)
		}
		negProbs := checkProblems(t, neg.Validate(json.RawMessage(argsText)))
		if tooComplex(negProbs) {
			return
		}
		if (len(probs) == 0) == (len(negProbs) == 0) {
			t.Fatalf("schema %s, arguments %s: valid=%v, and valid=%v under not", schemaText, argsText, len(probs) == 0, len(negProbs) == 0)
		}
	})
}

func checkProblems(t *testing.T, err error) []Problem {
	t.Helper()
	if err == nil {
		return nil
	}
	var ve *ValidationError
	if !errors.As(err, &ve) || len(ve.Problems) == 0 {
		t.Fatalf("Validate: %T %v, want a *ValidationError with problems", err, err)
	}
	for _, p := range ve.Problems {
		if p.Kind == "" || p.Message == "" || strings.ContainsAny(p.Message, "\n\r") {
			t.Fatalf("problem %+v: want a kind and a one-line message", p)
		}
	}
	if !sort.SliceIsSorted(ve.Problems, func(i, j int) bool { return ve.Problems[i].Path < ve.Problems[j].Path }) {
		t.Fatalf("problems not sorted by path: %+v", ve.Problems)
	}
	return ve.Problems
}

func hasRefs(schemaText string) bool {
	for _, kw := range []string{"$ref", "$dynamicRef", "$recursiveRef", "$id", "$schema", "$anchor", "$dynamicAnchor", `"id"`} {
		if strings.Contains(schemaText, kw) {
			return true
		}
	}
	return strings.Contains(schemaText, `\u`) // a keyword spelled with escapes
}

func tooComplex(probs []Problem) bool {
	return len(probs) == 1 && probs[0].Kind == KindTooComplex
}
