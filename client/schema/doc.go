// Package schema types and validates tool arguments against a tool's
// inputSchema (MCP 2026-07-28, basic/index "JSON Schema Usage").
//
// Compile parses an inputSchema once; Coerce re-types `key=value` strings
// from the command line; Validate checks arguments and explains problems
// in user terms; Usage, Example and Properties describe the arguments.
//
// Dialects: 2020-12 when `$schema` is absent, and 2019-09, draft-07,
// draft-06 and draft-04 when declared; any other `$schema` is refused with
// a *DialectError. Validation is done by github.com/santhosh-tekuri/jsonschema/v6,
// vendored in internal/jsonschema with lazy meta-schema compilation (see its
// README.md).
//
// Nothing is ever fetched. References inside the document (#/$defs/x,
// #anchor, or the URL of an `$id` in the document) are followed; every
// other $ref (http:, https:, file:, an unknown urn:, a dangling pointer) is
// recorded as unresolved. The rest of the schema is still enforced, and
// Validate reports an argument that needs such a ref as "could not be
// checked" (KindUnresolvedRef) instead of silently accepting it, as the
// spec asks.
//
// Hostile schemas are bounded by Limits: size, nesting depth and number of
// subschemas when compiling, and the number of evaluations (with refs
// expanded) both when compiling and for each validation.
//
// The package is a library: it never prints, reads the environment or
// flags, and imports nothing else from mcpctl.
package schema
