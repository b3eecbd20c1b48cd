package schema

import (
	"encoding/json"

	"github.com/mcpctl/mcpctl/client/ojson"
)

// The typing and the number comparisons of this package, for values that
// are typed or checked by a simpler description than a compiled schema: a
// flat form's field (an elicitation's requestedSchema) says only its type
// and bounds. So that tools call arguments, prompt arguments and
// elicitation answers are typed by one set of rules, mcpctl uses these
// rather than rules of its own.

// TypeText converts text given on a command line (or at a prompt) to a
// value of the JSON Schema type typ, exactly as Coerce does for a
// key=value string whose schema declares that type: "string" keeps the
// text; "integer" needs an integer literal and "number" a JSON number
// literal (no NaN, Infinity, hex, leading "+" or zeros), whose text is
// kept exactly, so 9007199254740993 stays 9007199254740993; "boolean"
// takes exactly true or false; "null" exactly null. ok is false when text
// is not such a value.
func TypeText(typ, text string) (v json.RawMessage, ok bool) {
	x, ok := convert(hint{typ: typ}, text)
	if !ok {
		return nil, false
	}
	return ojson.Encode(x), true
}

// CompareNumbers compares two JSON number literals exactly, as decimals
// (the validator's comparison): -1, 0 or +1. ok is false if either is not
// a JSON number.
func CompareNumbers(a, b string) (c int, ok bool) {
	da, ok1 := parseDecimal(a)
	db, ok2 := parseDecimal(b)
	if !ok1 || !ok2 {
		return 0, false
	}
	return da.cmp(db), true
}

// IsInteger reports whether the JSON number literal n is a whole number
// (1.0 and 1e3 are), exactly.
func IsInteger(n string) bool {
	d, ok := parseDecimal(n)
	return ok && d.isInteger()
}
