package schema

import (
	"fmt"
	"strings"
)

// LimitError reports an inputSchema (or, for "MaxEvaluations" at validation
// time, a schema/arguments pair) that is past one of the Limits. Hostile
// servers can send schemas that are cheap to transmit but expensive to
// process; mcpctl refuses them rather than hanging.
type LimitError struct {
	Limit string // "MaxBytes", "MaxDepth", "MaxSubschemas" or "MaxEvaluations"
	Max   int    // the configured bound
	What  string // human description of what exceeded it
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("inputSchema is too large or complex: %s (limit %s=%d)", e.What, e.Limit, e.Max)
}

// DialectError reports a `$schema` that names a dialect mcpctl cannot
// validate with. The MCP spec requires such schemas to be rejected with an
// error that says the dialect is unsupported.
type DialectError struct {
	Dialect string // the `$schema` value as received
}

// SupportedDialects lists, for documentation and messages, the dialects
// Compile accepts in `$schema` (absent `$schema` means 2020-12).
var SupportedDialects = []string{"2020-12", "2019-09", "draft-07", "draft-06", "draft-04"}

func (e *DialectError) Error() string {
	return fmt.Sprintf("unsupported JSON Schema dialect %s; this validator supports %s", e.Dialect, strings.Join(SupportedDialects, ", "))
}

// SchemaError reports an inputSchema that is not usable: not JSON, not a
// schema, or not valid under its dialect's meta-schema.
type SchemaError struct {
	Dialect string // dialect the schema was checked against, e.g. "2020-12"
	Reason  string // human-readable explanation
	Err     error  // underlying error, if any
}

func (e *SchemaError) Error() string {
	if e.Dialect != "" {
		return fmt.Sprintf("invalid inputSchema (JSON Schema %s): %s", e.Dialect, e.Reason)
	}
	return "invalid inputSchema: " + e.Reason
}

func (e *SchemaError) Unwrap() error { return e.Err }

// Problem kinds reported by Validate. Keyword failures without a dedicated
// kind use the JSON Schema keyword itself ("pattern", "minimum", "format",
// "maxItems", ...).
const (
	KindUnknownArgument = "unknown-argument" // additionalProperties/unevaluatedProperties false
	KindMissingRequired = "missing-required"
	KindType            = "type"
	KindEnum            = "enum"
	KindConst           = "const"
	KindNoMatch         = "no-match"       // anyOf/oneOf: no alternative fits
	KindOneOfAmbiguous  = "oneof-multiple" // oneOf: more than one alternative fits
	KindUnresolvedRef   = "unresolved-ref" // a $ref mcpctl does not fetch was needed
	KindTooComplex      = "too-complex"    // validation would exceed Limits.MaxEvaluations
	KindInvalidJSON     = "invalid-json"   // the arguments are not JSON
	KindNotAllowed      = "not-allowed"    // `not` or a false schema rejected the value
)

// Problem is one friendly validation issue.
type Problem struct {
	Path    string `json:"path"`    // JSON pointer into the arguments, e.g. "/units"; "" is the whole object
	Kind    string `json:"kind"`    // one of the Kind* constants or a keyword name
	Message string `json:"message"` // one line, ready to show to a user
}

// ValidationError is returned by Validate when the arguments do not satisfy
// the schema or could not be fully checked. Problems has at least one entry,
// sorted by Path.
type ValidationError struct {
	Problems []Problem
}

func (e *ValidationError) Error() string {
	msgs := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		msgs[i] = p.Message
	}
	if len(msgs) == 1 {
		return "invalid arguments: " + msgs[0]
	}
	return fmt.Sprintf("invalid arguments (%d problems): %s", len(msgs), strings.Join(msgs, "; "))
}
