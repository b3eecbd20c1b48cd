// Package schema types and validates tool arguments against a tool's
// inputSchema, and its structured results against its outputSchema (MCP
// 2026-07-28, basic/index "JSON Schema Usage", server/tools "Output
// Schema").
//
// Compile parses a schema once; Coerce re-types `key=value` strings
// from the command line; Validate checks arguments and explains problems
// in user terms; ValidateResult checks a structured result, in a result's
// words; Usage, Example and Properties describe the arguments.
// Read parses a schema for its structure alone (Doc and Node: the
// subschemas with their property paths, a property's declared types, an
// array's items), for readers that must not depend on the schema being
// one mcpctl can validate with. It is mcpctl's one walker of schemas.
//
// Dialects: 2020-12 when `$schema` is absent, and 2019-09, draft-07,
// draft-06 and draft-04 when declared; any other `$schema` is refused with
// a *DialectError. A schema must be valid under its dialect's meta-schema
// (keywords.go states those rules; a *SchemaError names the place).
//
// The validator is this package's own (eval.go, assert.go); BENCHMARKS.md, "JSON
// Schema validator", says why, with the figures. It costs nothing at
// package initialisation, so commands that validate nothing (mcpctl
// --version) pay nothing for it. Numbers are compared exactly, as decimals
// (an integer of 9007199254740993 is not 9007199254740992, 0.1 is a
// multiple of 0.01), and every problem is reported with its place in the
// arguments and its keyword. `format` and the content keywords are
// annotations. Patterns are ECMA-262; those Go's regexp engine cannot run
// (lookaround, backreferences) are not enforced, and Warnings lists them:
// such values are left to the server, never refused for the wrong reason.
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
