package schema

import (
	"encoding/json"
	"errors"
	"fmt"
)

// words are how a problem names the value validated and its parts.
type words struct {
	whole    string // the value, as a path's root: "arguments"
	theWhole string // the value in a sentence: "the arguments"
	them     string // the pronoun for it: "them"
	member   string // one of its properties: "argument"
	none     string // an object that declares no properties: "this tool takes no arguments"
	prefixed bool   // a path starts with whole: structuredContent.a.b, not a.b
	hints    bool   // a type problem says how to write the value as request items
}

var argumentWords = words{
	whole: "arguments", theWhole: "the arguments", them: "them", member: "argument",
	none: "this tool takes no arguments", hints: true,
}

var resultWords = words{
	whole: "structuredContent", theWhole: "structuredContent", them: "it", member: "field",
	none: "the schema declares no fields", prefixed: true,
}

// resultStepsPerValue is the evaluations a result may take for each of
// its values, beyond Limits.MaxEvaluations.
const resultStepsPerValue = 16

// ValidateResult checks a tool's structured result (its
// structuredContent: any JSON value) against the schema (the tool's
// outputSchema). It returns nil or a *ValidationError, as Validate does,
// whose problems are worded for a result: paths start at
// structuredContent (structuredContent.forecast[1].temp), properties are
// fields, and nothing says how to write a value as a request item.
//
// A result is as large as the server made it, so the evaluations it may
// take grow with it: resultStepsPerValue for each value in it, and never
// fewer than Limits.MaxEvaluations. The work stays linear in the size of
// the result whatever the schema; past it the problem is KindTooComplex,
// as for arguments.
func (s *Schema) ValidateResult(value json.RawMessage) error {
	tree, err := parseJSON(value, maxArgsDepth)
	if err != nil {
		if errors.Is(err, errDepth) {
			err = fmt.Errorf("it nests deeper than %d levels", maxArgsDepth)
		}
		return &ValidationError{Problems: []Problem{{Path: "", Kind: KindInvalidJSON, Message: "structuredContent: " + err.Error()}}}
	}
	return s.validate(tree, &resultWords, resultStepsPerValue)
}
