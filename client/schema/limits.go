package schema

// Limits bound the cost of hostile schemas (MCP basic/index "Composition-
// Keyword Resource Use"). A zero or negative field means "use the value
// from DefaultLimits", so Limits{MaxBytes: 1 << 20} only tightens the size.
type Limits struct {
	// MaxDepth bounds the JSON nesting depth of the raw inputSchema
	// document (every object or array level counts, `{}` is depth 1). It
	// also bounds how deeply subschemas can nest.
	MaxDepth int
	// MaxSubschemas bounds how many subschemas the document contains
	// (every object or boolean in a schema position, including $defs).
	MaxSubschemas int
	// MaxBytes bounds the size of the raw inputSchema.
	MaxBytes int
	// MaxEvaluations bounds validation work: at Compile, the number of
	// subschema evaluations the schema implies with every $ref expanded
	// (cycles counted once), which catches "$ref/anyOf bombs" whose text
	// is small but whose expansion is exponential; at Validate, the number
	// of (subschema, argument value) evaluations the given arguments
	// would cause, which also covers recursive schemas.
	MaxEvaluations int
}

// DefaultLimits are generous for real tool schemas and small enough that a
// hostile one is refused in milliseconds.
var DefaultLimits = Limits{
	MaxDepth:       64,
	MaxSubschemas:  10000,
	MaxBytes:       4 << 20,
	MaxEvaluations: 100000,
}

func (l Limits) withDefaults() Limits {
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultLimits.MaxDepth
	}
	if l.MaxSubschemas <= 0 {
		l.MaxSubschemas = DefaultLimits.MaxSubschemas
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultLimits.MaxBytes
	}
	if l.MaxEvaluations <= 0 {
		l.MaxEvaluations = DefaultLimits.MaxEvaluations
	}
	return l
}
